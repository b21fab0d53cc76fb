package places

// townBeforeNoTown reads, of the last two parts left, the first as the town when the line
// states its country, the first names a town of that country and the second names none:
// the second is where the town lies, written in a way the gazetteer does not know (a
// region in the country's own language: "Haßfurt, Bayern", "Ribe, Syddanmark"; a county
// or a valley), never a town of its own made from that name; or the part before that town,
// when it names a town in or near it (townIn). Postal codes at either end of either part
// are dropped ("97437 Haßfurt, Bayern").
func townBeforeNoTown(g *Gazetteer, r *lineReading) bool {
	n := len(r.rest)
	if r.town || n < 2 {
		return false
	}
	country, ok := countryCode(r.q.Country)
	if !ok {
		return false
	}
	var buf [8]*City
	// A subdivision's code after a town is the town's ("Rio de Janeiro - RJ").
	place := g.withoutRegion(stripPostal(r.rest[n-1]), country)
	if len(inCountry(buf[:0], g.CitiesNamed(place), country)) > 0 || g.district(place, country) != nil {
		return false
	}
	town := stripPostal(r.rest[n-2])
	namesakes := len(inCountry(buf[:0], g.CitiesNamed(town), country))
	if namesakes == 0 {
		return false
	}
	// The town may itself follow a smaller one near it, as a British address names a
	// village before its post town: "Wem, Shrewsbury, Shropshire, UK" is in Wem.
	if n >= 3 {
		smaller := stripPostal(r.rest[n-3])
		if c := g.townIn(smaller, town, country); c != nil {
			r.q.Locality, r.q.Region, r.town, r.q.by = smaller, c.Region, true, byTownBeforePlace
			return false
		}
	}
	r.q.Locality, r.town, r.q.by = town, true, byTownBeforeNoTown
	if namesakes > 1 {
		// The part after the town may be what tells its namesakes apart: a region in the
		// country's language is the town's ("Neustadt, Sachsen": subdivisions.go), and
		// when it tells none, or the part is another, the most populous is not taken
		// over it ("Newport, Isle of Wight, UK" is not Newport in Wales), a zone of the
		// context still may.
		if region, ok := subdivisionNamed(country, place); ok && region != "" {
			r.q.Region, r.q.landRead = region, true
		}
		r.q.unread = place
	}
	return false
}

// byTownBeforeNoTown is the By of a Reading townBeforeNoTown decided.
const byTownBeforeNoTown = "the town named before a place of its country that is no town"
