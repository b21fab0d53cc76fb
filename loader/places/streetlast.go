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
	if len(g.CitiesNamed(stripPostal(r.rest[n-2]))) == 0 {
		return false
	}
	r.rest = r.rest[:n-1]
	return false
}
