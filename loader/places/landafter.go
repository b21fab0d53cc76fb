package places

// landAfterTown reads, of the last two parts left, the second as the region of the first
// when it names a first-level subdivision (a German Land, an Austrian state, a Spanish
// comunidad: subdivisions.go) of the one country the town's namesakes lie in that has a
// subdivision of that name, and no major town (City.Major) bears its name: "Neustadt,
// Sachsen" is a Neustadt of Saxony, never the small town Sachsen in Bavaria; the region
// chooses among the town's namesakes, and a town of its name in another region is not it
// (the town the gazetteer lacks is made in the region: Neustadt in Sachsen is named so
// there). A name a major town bears is the town's, for the rules after ("Kreuzberg,
// Berlin"); so are the regions of the US, Canada and Australia (asRegion), and a town the
// gazetteer does not know when the line states no country (nothing tells it).
func landAfterTown(g *Gazetteer, r *lineReading) bool {
	place, ok := g.placeAfterTown(r)
	if !ok {
		return false
	}
	for _, c := range g.allNamed(place) {
		if c.Major() {
			return false
		}
	}
	town := stripPostal(r.rest[len(r.rest)-2])
	stated, _ := countryCode(r.q.Country)
	country, region := "", ""
	for i, c := range g.allNamed(town) {
		if i == maxNamesakes {
			break
		}
		if c.Country == country || stated != "" && c.Country != stated {
			continue
		}
		reg := firstLevel(c.Country, place)
		if reg == "" {
			continue
		}
		if country != "" {
			return false // namesakes in two countries with such a subdivision
		}
		country, region = c.Country, reg
	}
	if country == "" && stated != "" && len(g.allNamed(town)) == 0 && !streetLike(town) &&
		!startsWithPostcode(r.rest[len(r.rest)-1]) && !g.hasTown(place, stated) {
		// A town the gazetteer lacks, in the country the line states: made in the
		// region ("PLAYAS DE ROSARITO, baja-california, mx", not the village Baja
		// California of Chiapas); not a street, nor before a town of the region's name
		// ("Main Street, Koror, Palau"; a village's name is the region's) or a postcode
		// and its name ("47893 City of San Marino": a town's).
		country, region = stated, firstLevel(stated, place)
	}
	if country == "" || region == "" {
		return false
	}
	r.q.Locality, r.q.Region, r.q.landRead, r.town, r.q.by = town, region, true, true, bySubdivision
	if r.q.Country == "" {
		r.q.Country = country
	}
	return false
}

// hasTown reports whether a town of the country (by its code), not a village (minTown),
// bears the name.
func (g *Gazetteer) hasTown(name, country string) bool {
	for _, c := range g.CitiesNamed(name) {
		if c.Country == country && !c.village() {
			return true
		}
	}
	return false
}
