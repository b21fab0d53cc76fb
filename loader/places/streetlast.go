package places

// streetLast reads, of the last two parts left, the first as the town when the last is
// words and then a number that name no place, a street and its number ("Kolín, Pražská
// 3", "Brno, Orlí 517/22": Czech addresses write the town first) or a county and its
// postcode ("Eastbourne, East Sussex BN23 6QD"), and the first names a town: never the
// street's or the county's name made a town. A last part that starts with its number
// ("12345 Town", "10 Main St") is left to the rules after.
func streetLast(g *Gazetteer, r *lineReading) bool {
	n := len(r.rest)
	if r.town || n < 2 {
		return false
	}
	last := r.rest[n-1]
	var buf [maxWords]word
	f := wordsOf(buf[:0], last)
	if len(f) < 2 || !f[len(f)-1].hasDigit(last) || f[0].hasDigit(last) || len(g.allNamed(stripPostal(last))) > 0 {
		return false
	}
	towns := g.CitiesNamed(stripPostal(r.rest[n-2]))
	if len(towns) == 0 {
		return false
	}
	// A county and its postcode ("West Yorkshire HX1 1AA") tell a country the line may
	// not state: without one, only a town whose namesakes share a country is read, never
	// the most populous abroad ("Halifax, West Yorkshire HX1 1AA" is not Nova Scotia's).
	if r.q.Country == "" && hasLetter(f[len(f)-1].of(last)) {
		for _, c := range towns {
			if c.Country != towns[0].Country {
				return false
			}
		}
	}
	r.rest = r.rest[:n-1]
	if r.q.unread == "" {
		// What it names may tell the town's namesakes apart ("Perth and Kinross PH1
		// 5AA"): the most populous is not taken over it.
		r.q.unread = stripPostal(last)
	}
	return false
}

// hasLetter reports whether w holds an ASCII letter (a postcode's half, "1AA"; not a
// house number's "12" or "517/22").
func hasLetter(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}
