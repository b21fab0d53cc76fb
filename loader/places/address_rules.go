package places

import (
	"strings"

	"github.com/gigs/gigs/engine"
)

// The rules of an address written on one line (see address.go), in the order they apply.
// Each rule is a named function with an example of the line it is for; each example, and
// every line the rule changes the reading of, is a line of testdata/addresses.good.txt or
// addresses.bad.txt. A new case is a row here and a line there.

// splitRules split a line that names a venue first (Split).
var splitRules = []splitRule{
	{"name (address) reads as name, address", bracketedAddress},
	{"the line is cut at its commas", cutAtCommas},
	{"a country's name ends a line of three parts or more", countryNameLast},
	{"postal codes alone at the end go, down to two parts", trailingPostcodes},
	{"venue, street, town: a second part with a digit is the street", venueStreetTown},
	{"venue, town: the parts after the venue are the locality", venueLocality},
	{"venue, country: a second and last part that names a country", venueCountry},
	{"venue, street: a second and last part with a digit", venueStreet},
	{"venue, town: a second and last part", venueTown},
	{"a venue alone", venueAlone},
}

// bracketedAddress reads "name (address)" as "name, address" when the brackets end the line
// and hold a comma: "Open Source Project Tempe (1415 E University Dr. #103A, Tempe, AZ
// 85281)", "Club (Kreuzberg, Berlin)"; "Venue (Room 2)" stays. An address written with East
// Asian units needs no comma, nor a space before its brackets, which may be full-width
// ("代官山AビルB1F（東京都渋谷区代官山町20-17）": eastasiaaddr.go).
func bracketedAddress(s *lineSplit) bool {
	if name, addr, ok := cutBracket(s.line); ok && (strings.Contains(addr, ",") || eastAsianAddress(addr)) {
		s.line = name + "," + addr
	}
	return false
}

// cutAtCommas cuts the line at its commas: "Club, Berlin" is "Club" and "Berlin". Parts are
// trimmed, and empty ones go.
func cutAtCommas(s *lineSplit) bool {
	s.parts = commaParts(nil, s.line)
	return false
}

// countryNameLast takes a last part that names a country by its name, or by three letters,
// for the country, when the line has three parts or more: "Weserstadion, Bremen,
// Alemania", "…, Springfield, IL 62701, USA". A two-letter code there is left in the
// locality, where the gazetteer reads it as a region's code too ("Athens, GA").
func countryNameLast(s *lineSplit) bool {
	if n := len(s.parts); n >= 3 && len(s.parts[n-1]) > 2 {
		// A postal code before the name goes: "…, 70101 Costa Rica".
		if name := countryPart(s.parts[n-1]); len(name) > 2 {
			if _, ok := countryCode(name); ok {
				s.a.Country, s.parts = name, s.parts[:n-1]
			}
		}
	}
	return false
}

// trailingPostcodes takes postal codes written on their own at the end of the line, down to
// two parts, for the postcode: "O2 Academy Brixton, London, SW9 9SL", "250 GATEWAY BLVD,
// South San Francisco, CA, 94080".
func trailingPostcodes(s *lineSplit) bool {
	var codes []string
	for len(s.parts) > 2 && postalOnly(s.parts[len(s.parts)-1]) {
		codes = append([]string{s.parts[len(s.parts)-1]}, codes...)
		s.parts = s.parts[:len(s.parts)-1]
	}
	s.a.Postcode = strings.Join(codes, ", ")
	return false
}

// venueStreetTown reads a line of three parts or more whose second holds a digit as the
// venue, its street and the locality: "Paradiso, Weteringschans 6-8, 1017 SG Amsterdam,
// NL".
func venueStreetTown(s *lineSplit) bool {
	if len(s.parts) < 3 || !hasDigit(s.parts[1]) {
		return false
	}
	s.a.Name, s.a.Street, s.a.Locality = s.parts[0], s.parts[1], strings.Join(s.parts[2:], ", ")
	return true
}

// venueLocality reads a line of three parts or more as the venue and the locality: "Georgia
// Theatre, Athens, GA", "Songbyrd, Adams Morgan, Washington" (a town and its region, or a
// neighbourhood and its city, for the gazetteer to tell apart).
func venueLocality(s *lineSplit) bool {
	if len(s.parts) < 3 {
		return false
	}
	s.a.Name, s.a.Locality = s.parts[0], strings.Join(s.parts[1:], ", ")
	return true
}

// venueCountry reads a line of two parts whose second names a country by its name or its
// code, and that has no country yet, as the venue and its country: "Burgerweeshuis, NL",
// "Stade Louis II, Mónaco". A venue hint then gives the city.
func venueCountry(s *lineSplit) bool {
	if len(s.parts) != 2 || s.a.Country != "" {
		return false
	}
	if _, ok := countryCode(s.parts[1]); !ok {
		return false
	}
	s.a.Name, s.a.Country = s.parts[0], s.parts[1]
	return true
}

// venueStreet reads a line of two parts whose second holds a digit as the venue and its
// street: "Hof, Kastanienallee 12".
func venueStreet(s *lineSplit) bool {
	if len(s.parts) != 2 || !hasDigit(s.parts[1]) || eastAsianAddress(s.parts[1]) {
		return false // "代官山AビルB1F, 東京都渋谷区代官山町20-17": the town's units, then its blocks
	}
	s.a.Name, s.a.Street = s.parts[0], s.parts[1]
	return true
}

// venueTown reads a line of two parts as the venue and its town: "Club, Hamburg".
func venueTown(s *lineSplit) bool {
	if len(s.parts) != 2 {
		return false
	}
	s.a.Name, s.a.Locality = s.parts[0], s.parts[1]
	if eastAsianAddress(s.parts[1]) {
		s.a.Locality = upToWard(s.parts[1]) // its town, chōme and blocks place nothing more
	}
	return true
}

// venueAlone reads a line of one part as the venue's name: "Venue (Room 2)", "Stage". It
// ends the table: an empty line has no parts.
func venueAlone(s *lineSplit) bool {
	if len(s.parts) == 1 {
		s.a.Name = s.parts[0]
	}
	return true
}

// readingRules read a place's locality written on one line from its end, with the
// gazetteer, into the readings Locate tries in turn (Gazetteer.readings). A place may state
// its region and country beside the line (a platform's metro area's).
var readingRules = []readingRule{
	{"a town after its settlement's type is the town, in Cyrillic (address_ru.go)", settlementTown},
	{"a locality without a comma is read as it is", noComma},
	{"the line is cut at its commas", cutLine},
	{"postal codes alone at the end go", postcodesLast},
	{"a line of one part is the locality", onePart},
	{"another country than the stated one ends the line: the line alone", otherCountryLast},
	{"the stated country and region again at the end go", statedAgain},
	{"a region after the town is the town's own", townsRegion},
	{"the stated place's town is the last part left, the stated place next", statedTown},
	{"a region ends the line: the part before it is its town", regionLast},
	{"a country ends the line", countryLast},
	{"a country's name or code after a town and a subdivision of another country of the town's is that country (countrysubdivision.go)", countrySubdivision},
	{"the stated country again at the end goes", statedCountryLast},
	{"postal codes alone before the country go", postcodesBeforeCountry},
	{"a region's name ending the line may be its city's too", regionNameCity},
	{"a region ends what is left: the part before it is its town", regionBeforeCountry},
	{"a region's code the gazetteer lacks after the town goes", unknownRegionCode},
	{"a town before its region, or before a larger place near it, is the town", townBeforePlace},
	{"a town of the stated country before a part that names none there is the town", townBeforeNoTown},
	{"a subdivision of the country ends what is left: the part before it is its town (subdivisions.go)", subdivisionLast},
	{"a street and its number after the town: the town (streetlast.go)", streetLast},
	{"a first-level subdivision after a town is its region, never a town (landafter.go)", landAfterTown},
	{"the town is the last part left, postal codes dropped", lastPartTown},
	{"a postcode before the town: the code after it is the country, first", postcodeBeforeTown},
	{"a region ending the line is tried first", regionFirst},
}

// noComma reads a locality without a comma as it is: "Leeds", "10115 Berlin" (Locate drops
// the postal code).
func noComma(_ *Gazetteer, r *lineReading) bool {
	if strings.Contains(r.p.Locality, ",") {
		return false
	}
	r.out = append(r.out, r.p)
	return true
}

// cutLine cuts the line at its commas, trimming the parts and dropping empty ones, and
// starts the reading from its end.
func cutLine(_ *Gazetteer, r *lineReading) bool {
	r.parts = commaParts(r.parts, r.p.Locality)
	r.rest, r.q = r.parts, r.p
	return false
}

// postcodesLast drops postal codes written on their own at the end of the line, down to one
// part: "Lynn, MA, 01901" (schema.org's example of an address as text), "Leeds, LS1 3AA".
func postcodesLast(_ *Gazetteer, r *lineReading) bool {
	for len(r.parts) > 1 && postalOnly(r.parts[len(r.parts)-1]) {
		r.parts = r.parts[:len(r.parts)-1]
	}
	r.rest = r.parts
	return false
}

// onePart reads a line of one part left as the locality: "Leeds,".
func onePart(_ *Gazetteer, r *lineReading) bool {
	if len(r.parts) >= 2 {
		return false
	}
	q := r.p
	if len(r.parts) == 1 {
		q.Locality = r.parts[0]
	}
	r.out = append(r.out, q)
	return true
}

// otherCountryLast reads a line that ends in another country than the one the place states
// (and not in a region of it) without the stated region and country: Songkick's "Windsor,
// ON, Canada" in its Detroit, MI, US metro area is in Canada.
func otherCountryLast(g *Gazetteer, r *lineReading) bool {
	c, ok := r.endsInCountry(g)
	if !ok || !r.stated() {
		return false
	}
	if stated, _ := countryCode(r.p.Country); c != stated && g.regionCode(stated, regionPart(r.parts[len(r.parts)-1])) == "" {
		r.p.Country, r.p.Region = "", ""
		r.q = r.p
	}
	return false
}

// statedAgain drops, from a line beside a stated region and country, last parts that are
// the stated country or region again: "Duluth, MN, US" stated in MN, US.
func statedAgain(_ *Gazetteer, r *lineReading) bool {
	if !r.stated() {
		return false
	}
	country, _ := countryCode(r.p.Country)
	for len(r.rest) > 1 {
		last := r.rest[len(r.rest)-1]
		if c, ok := countryCode(last); !(ok && c == country) && engine.Fold(regionPart(last)) != engine.Fold(r.p.Region) {
			break
		}
		r.rest = r.rest[:len(r.rest)-1]
	}
	return false
}

// townsRegion reads, beside a stated region and country, a region of the country written
// after the town as the town's own, not the stated one (Songkick states its metro area's:
// "Mansfield, MA, US" in the Providence, RI area): a region's code always; its name when
// the part before is a town of that region ("Seattle, Washington") or no town of the
// country bears the name ("Toronto, Ontario"), not "815 V St NW, Washington".
func townsRegion(g *Gazetteer, r *lineReading) bool {
	if !r.stated() || len(r.rest) < 2 {
		return false
	}
	country, _ := countryCode(r.p.Country)
	reg := regionPart(r.rest[len(r.rest)-1])
	code := g.regionCode(country, reg)
	if strings.EqualFold(code, reg) || code != "" && regionCountries[country] &&
		(g.inRegion(stripPostal(r.rest[len(r.rest)-2]), country, code) || !g.hasNamesake(reg, country)) {
		r.q.Region = reg
		r.rest = r.rest[:len(r.rest)-1]
	}
	return false
}

// statedTown reads, beside a stated region and country, the last part left as the town
// ("815 V St NW, Washington, DC 20001" stated in DC, US is in Washington), and makes the
// readings: that one, then the place as stated.
func statedTown(_ *Gazetteer, r *lineReading) bool {
	if !r.stated() {
		return false
	}
	r.q.Locality = stripPostal(r.rest[len(r.rest)-1])
	r.out = append(r.out, r.q, r.p)
	return true
}

// regionLast reads the line's last part as a region of the US, Canada or Australia and the
// part before as its town, when the place states no region (see asRegion): "Athens, GA",
// "Perth, WA", "Gander, NL". The reading is tried before the others (regionFirst).
func regionLast(g *Gazetteer, r *lineReading) bool {
	if q, ok := g.asRegion(r.p, r.parts); ok {
		r.regionFirst = append(r.regionFirst, q)
	}
	return false
}

// countryLast reads a last part that names a country, by its name or its code, as the
// country when the place states none: "Leeds, UK", "Venue, Frankfurt, HE, DE".
func countryLast(g *Gazetteer, r *lineReading) bool {
	if c, ok := r.endsInCountry(g); ok && r.q.Country == "" {
		name := countryPart(r.rest[len(r.rest)-1])
		if _, named := countryCode(name); !named {
			name = c // a name a town bears too (endsInCountry): its code
		}
		r.q.Country, r.rest = name, r.rest[:len(r.rest)-1]
	}
	return false
}

// statedCountryLast drops a last part that is the stated country again: "Glasgow, United
// Kingdom" in the United Kingdom.
func statedCountryLast(g *Gazetteer, r *lineReading) bool {
	c, ok := r.endsInCountry(g)
	if stated, _ := countryCode(r.p.Country); ok && c == stated && len(r.rest) > 1 {
		r.rest = r.rest[:len(r.rest)-1]
	}
	return false
}

// postcodesBeforeCountry drops postal codes written on their own before the country:
// "Leeds, LS6 1NY, UK", "Venue, 1 Main St, Austin, TX, 78701, US".
func postcodesBeforeCountry(_ *Gazetteer, r *lineReading) bool {
	for len(r.rest) > 1 && postalOnly(r.rest[len(r.rest)-1]) {
		r.rest = r.rest[:len(r.rest)-1]
	}
	return false
}

// regionNameCity adds, for a region written by its name at the end of what is left, the
// reading of the name as a city's, tried after the others: "Adams Morgan, Washington" is in
// Washington, DC, "Williamsburg, New York" in New York City.
func regionNameCity(g *Gazetteer, r *lineReading) bool {
	if _, ok := g.asRegion(r.q, r.rest); ok {
		if name := regionPart(r.rest[len(r.rest)-1]); !isCode(name) {
			c := r.q
			c.Locality = name
			r.regionCity = append(r.regionCity, c)
		}
	}
	return false
}

// regionBeforeCountry reads the last part left as a region and the part before as its
// town (see asRegion): "Toronto, ON, CA", "Venue, 10 George St, Sydney, NSW, 2000, AU".
func regionBeforeCountry(g *Gazetteer, r *lineReading) bool {
	if q, ok := g.asRegion(r.q, r.rest); ok {
		r.q, r.town = q, true
	}
	return false
}

// unknownRegionCode drops a region's code the gazetteer does not know after the town:
// "Mumbai, MH, IN", "Berlin, BE, DE", "Frankfurt, HE, DE".
func unknownRegionCode(_ *Gazetteer, r *lineReading) bool {
	if n := len(r.rest); !r.town && n > 1 && isCode(regionPart(r.rest[n-1])) {
		r.rest = r.rest[:n-1]
	}
	return false
}

// townBeforePlace reads, of the last two parts left, the first as the town when the
// second is where it lies: its region, by the region's name or code ("Pamplona, Navarra",
// "Villingen-Schwenningen, Baden-Württemberg"), or a larger place near it that it is not a
// part of, a province or county named after its capital ("Villarreal, Castellón": the
// town of Villarreal in the province of Castellón, 7 km from the city of Castellón). A
// district of the larger place, within its extent (cityRadius), is not a town of its own:
// "Kreuzberg, Berlin" is in Berlin. The country is the town's when the line states none.
// Regions of the US, Canada and Australia are read by the rules before (asRegion), and a
// town the line names twice or in several countries so is left to them. The reading
// names the town's region too, so that it is looked up as the town townIn found.
func townBeforePlace(g *Gazetteer, r *lineReading) bool {
	place, ok := g.placeAfterTown(r)
	if !ok {
		return false
	}
	town := stripPostal(r.rest[len(r.rest)-2])
	stated, _ := countryCode(r.q.Country)
	if c := g.townIn(town, place, stated); c != nil {
		r.q.Locality, r.q.Region, r.town, r.q.by = town, c.Region, true, byTownBeforePlace
		if r.q.Country == "" {
			r.q.Country = c.Country
		}
	}
	return false
}

// placeAfterTown returns the last of the parts left, its postal codes dropped, when the
// town is not read yet and a part is left before it, and it names no region of the US,
// Canada or Australia (asRegion reads those).
func (g *Gazetteer) placeAfterTown(r *lineReading) (string, bool) {
	n := len(r.rest)
	if r.town || n < 2 {
		return "", false
	}
	place := stripPostal(r.rest[n-1])
	return place, g.regionsNamed(place) == nil
}

// byTownBeforePlace is the By of a Reading townBeforePlace decided.
const byTownBeforePlace = "the town named before the larger place it lies in or near"

// lastPartTown reads the last part left as the town, postal codes at either end dropped;
// earlier parts are a venue's name or a street: "The Brudenell, 33 Queen's Rd, Leeds LS6
// 1NY, United Kingdom" is in Leeds.
func lastPartTown(g *Gazetteer, r *lineReading) bool {
	if r.town {
		return false
	}
	r.q.Locality, r.town = g.townOf(r.rest[len(r.rest)-1]), true
	if n := len(r.rest); n >= 2 {
		r.q.Street = r.rest[n-2] // a list of squares may run on into it (madename.go)
	}
	// A street is no town: the town is the part before it, or the line names none
	// (streets.go): "Gibraltar Museum, 18-20 Bomb House Lane, Gibraltar" is in the city
	// that bears its country's name.
	if n := len(r.rest); n >= 1 && r.q.Country != "" {
		country, _ := countryCode(r.q.Country)
		if town, ok := g.noStreet(r.rest, country); ok {
			r.q.Locality = town
		}
	}
	return false
}

// postcodeBeforeTown makes the readings when a code that is a country's and a region's ends
// the line after a postcode and its town: the country's first, as Europe writes it ("25596
// Wacken, DE" is in Germany; "Morrison, CO 80465" is in Colorado).
func postcodeBeforeTown(g *Gazetteer, r *lineReading) bool {
	_, country := r.endsInCountry(g)
	if n := len(r.parts); !country || len(r.regionFirst) == 0 || n < 2 || !startsWithPostcode(r.parts[n-2]) {
		return false
	}
	r.out = append(append(append(r.out, r.q), r.regionFirst...), r.regionCity...)
	return true
}

// regionFirst makes the readings otherwise: the line's last part as a region first ("Athens,
// GA" is in Georgia, not Gabon; "Chicago, IL" not in Israel), then the reading from the end,
// then a region's name as its city.
func regionFirst(_ *Gazetteer, r *lineReading) bool {
	r.out = append(append(append(r.out, r.regionFirst...), r.q), r.regionCity...)
	return true
}
