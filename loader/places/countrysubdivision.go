package places

// A line's last part may name a country and be something else. "Norwich, Norfolk" ends in
// Norfolk Island's name, and in an English county's; "Aberystwyth, Ceredigion, SY" ends in
// Syria's code, written where the postcode's area was. Read as a country, the town is made
// there, on another continent's clock. When the town is a gazetteer town of another
// country and none of the named country, and the line names a subdivision of that other
// country where the town lies (the country's name itself, or the part before a code), the
// line is in that other country: the subdivision and the town agree, and the country's
// name or code names neither. The town's namesakes must agree on that country: when they
// lie in several countries that have such a subdivision, nothing is changed.

// byCountrySubdivision is the By of a Reading whose country's name was read as a
// subdivision of the town's country.
const byCountrySubdivision = "a country's name or code after a town and a subdivision of another country of the town's"

// subdivisionCountry returns the country of the gazetteer towns named town when the line's
// country (country, its code; named is the part that named it) is none of theirs and
// place, that name itself or the part before a code, names a subdivision of theirs where
// they lie (see above), with that subdivision's region code ("" below the first level);
// ok is false otherwise.
func (g *Gazetteer) subdivisionCountry(town, place, country string) (found, region string, ok bool) {
	if town == "" || place == "" || g.hasNamesake(town, country) {
		return "", "", false
	}
	if _, isSub := subdivisionNamed(country, place); isSub {
		return "", "", false // a subdivision of the named country: the line may be right
	}
	for i, c := range g.CitiesNamed(town) {
		if i == maxNamesakes {
			break
		}
		if c.Country == found {
			continue
		}
		r, isSub := subdivisionNamed(c.Country, place)
		if !isSub || r != "" && r != c.Region {
			continue
		}
		if found != "" {
			return "", "", false // towns of the name in several such countries
		}
		found, region = c.Country, r
	}
	return found, region, found != ""
}

// countrySubdivision reads a line whose last part, taken for its country, is rather a
// subdivision of the town's country, or follows one (see above): "Norwich, Norfolk" is in
// England, "Aberystwyth, Ceredigion, SY" in Wales. A name read so is the reading's unread
// part (it tells no namesake in the country apart); a code after a subdivision goes.
func countrySubdivision(g *Gazetteer, r *lineReading) bool {
	n := len(r.rest)
	if r.p.Country != "" || r.q.Country == "" || n == 0 {
		return false
	}
	last := r.parts[len(r.parts)-1]
	country, ok := r.endsInCountry(g)
	if !ok || n != len(r.parts)-1 {
		return false // the rule after countryLast: the country's part was the last
	}
	if isCode(last) && len(last) != 2 {
		return false // a region's code: asRegion's
	}
	if !isCode(last) {
		if c, region, ok := g.subdivisionCountry(stripPostal(r.rest[n-1]), last, country); ok {
			r.q.inSubdivisionCountry(c, region)
			if r.q.unread == "" {
				r.q.unread = last
			}
			return false
		}
	}
	// A country's name or code after a subdivision of the town's country: "Aberystwyth,
	// Ceredigion, SY" (a postcode's area) is in Wales, "Newtownabbey, Co. Antrim, Ireland"
	// (the island's name) in Northern Ireland.
	if n >= 2 {
		if c, region, ok := g.subdivisionCountry(stripPostal(r.rest[n-2]), stripPostal(r.rest[n-1]), country); ok {
			r.q.inSubdivisionCountry(c, region)
		}
	}
	return false
}

// inSubdivisionCountry sets the place's country to the subdivision's (its code), and its
// region to the subdivision's region when it states none.
func (p *Place) inSubdivisionCountry(country, region string) {
	p.Country, p.by = country, byCountrySubdivision
	if p.Region == "" {
		p.Region = region
	}
}

// statedSubdivision reads a place whose stated country's name is rather a subdivision of
// the country of the town its locality names, or whose locality ends in a subdivision of
// its town's country (see above): Split takes "Norfolk", ending "The Venue, Norwich,
// Norfolk", for the country.
func (g *Gazetteer) statedSubdivision(p Place) Place {
	if p.Country == "" || p.Region != "" || isCode(p.Country) {
		return p
	}
	country, ok := countryCode(p.Country)
	if !ok {
		return p
	}
	if c, region, ok := g.subdivisionCountry(lastNamePart(p.Locality), p.Country, country); ok {
		if p.unread == "" {
			p.unread = p.Country
		}
		p.inSubdivisionCountry(c, region)
		return p
	}
	// The locality's last part a subdivision of its town's country ("Newtownabbey, Co.
	// Antrim" stated in Ireland).
	var room [maxParts]string
	if parts := commaParts(room[:0], p.Locality); len(parts) >= 2 {
		town, place := stripPostal(parts[len(parts)-2]), stripPostal(parts[len(parts)-1])
		if c, region, ok := g.subdivisionCountry(town, place, country); ok {
			p.inSubdivisionCountry(c, region)
		}
	}
	return p
}
