package places

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/gigs/gigs/engine"
)

// Place is a place as a source states it; any field may be empty.
type Place struct {
	Locality string // the city, town or village; may hold the whole address on one line
	Region   string // a state, province or county, by code or name
	Country  string // an ISO code or a name
	Zone     string // an IANA zone the source states
	Postcode string // a postal code the source states on its own (see postcodes.go)
	// Street is the street the source states apart from the locality: never looked up, but
	// one ending in a word that joins a list ("Largo Dr. David Alves e") says the locality
	// is one more street or square of the list (madename.go).
	Street   string
	Lat, Lon float64
	HasGeo   bool

	by string // what chose this reading of an address line, when a rule did (readings)
	// unread is a part of the line after the town that the gazetteer cannot read (a county,
	// a region in another language): it may tell the town's namesakes apart, so the most
	// populous of them is not chosen over it (townBeforeNoTown).
	unread string
	// landRead reports that Region is a first-level subdivision the line names after the
	// town (landAfterTown): a town of its name in another region is not the town.
	landRead bool
}

// Near bounds the distances Locate trusts coordinates over.
const (
	nearCity  = 50  // km: a city of the place's name this close is that city
	nearZone  = 150 // km: a gazetteer city this close lends its zone to a city it lacks
	earthKM   = 6371.0
	maxPlaces = 200 // bytes of a locality worth looking up
)

// Locate finds the city of a place:
//
//  1. The country: the place's (a code or a name); when it states none, the country a
//     region code or name implies (a US state, a Canadian province, an Australian state)
//     when only one has it; else the country of the city the locality names, when the
//     name is a gazetteer city's within 50 km of the place's coordinates, or in one
//     country only, or in one four times as populous as any namesake abroad; else the
//     country of the gazetteer city nearest the coordinates, within 50 km. A region
//     written as an ISO 3166-2 code ("US-MA") is the country's region. An address
//     written on one line ("Austin, TX, US", "Leeds, UK") is read from its end first, by
//     the rules of readingRules (address_rules.go), and a locality that is a country's name ("Burgerweeshuis, Netherlands") is the
//     country.
//  2. The city of that name in the country (by any of its names; a village only when no
//     town of the country bears it, see minTown): the one of the place's region; none
//     when the place states another region of the country in the US, Canada or Australia,
//     or another region the gazetteer knows for a village (a town the gazetteer lacks,
//     step 3: elsewhere a region may be written in another scheme's codes, "75" for
//     Paris); else, of several, the one nearest the
//     place's coordinates (within 50 km), else the most populous. A region's code after
//     the town in a one-line address is the place's own ("Mansfield, MA, US" stated in RI). A place with coordinates and no locality is in the country's
//     city nearest them, within 50 km; one without is in the city that bears the
//     country's name, when there is one (Singapore, Luxembourg).
//  3. A city the gazetteer lacks, named as the place names it: in the zone the place states,
//     else the zone of the nearest gazetteer city of the country within 150 km of the
//     place's coordinates, else the zone of the place's region when all its gazetteer
//     cities share one (Minnesota's), else the country's only zone. Its slug is the name's
//     with the country code, and the region's code between them when that slug is a
//     gazetteer city's or the gazetteer has a namesake in the country.
//
// Where these leave a choice, the place's Context chooses (see Read).
//
// It fails, saying why, when none of these places it, or when the place names several
// towns and nothing tells which.
func (g *Gazetteer) Locate(p Place) (*City, error) {
	r, err := g.Read(p, Context{})
	return r.City, err
}

// Read places a place as Locate does, and says whether its city was made and what
// decided between the readings. Between readings that each name a gazetteer city ("London,
// CA": London, California, or London, Ontario) it takes the one whose zone keeps the
// clock of the place's context zone, when only one does; else the most populous when it
// has four times the people of each other; else the first. A town of one name in several
// regions of the country (step 2) is chosen the same way, within the country; when still
// none stands out, Read fails and names them. A place that states neither a country nor
// a region is looked up first in its context's country. A town the gazetteer lacks is made
// in the reading whose region or country has the context's zone, when several could make
// it, and in that zone when its region (or country) has several.
func (g *Gazetteer) Read(p Place, ctx Context) (Reading, error) {
	if len(p.Locality) > maxPlaces {
		return Reading{}, fmt.Errorf("locality of %d bytes", len(p.Locality))
	}
	if ctx.Country != "" {
		code, _ := countryCode(ctx.Country)
		ctx.Country = code // "" when it is no country's
	}
	var room [8]Place // a place has a few readings: room for them on the stack
	readings, code := g.withPostcodes(p, g.placeReadings(room[:0], p))
	r, err := g.readPlace(readings, ctx)
	if s, ok := g.inFeedSubdivision(p, ctx, r, err); ok {
		return s, nil
	}
	if err != nil {
		return r, err
	}
	return code.decided(r), nil
}

// readPlace is Read of a place's readings.
func (g *Gazetteer) readPlace(readings []Place, ctx Context) (Reading, error) {
	if r, ok := g.inContextCountry(readings, ctx); ok {
		return r, nil
	}
	var firstErr, ambiguity error
	var buf [4]Reading
	var regionBuf [4]bool
	found := buf[:0]          // the city each reading names, in the readings' order
	regional := regionBuf[:0] // whether that reading states a region
	var town string           // the locality of the first reading that names a city
	for i, q := range readings {
		code, err := g.country(q)
		if err != nil {
			firstErr = cmpErr(firstErr, err)
			continue
		}
		c, by, err := g.named(q, code, ctx)
		if c == nil && err == nil {
			// Only a place that cannot be named pays for the look at its coordinates.
			if s := g.swapped(q, code); s != q {
				readings[i] = s
				c, by, err = g.named(s, code, ctx)
			}
		}
		if err != nil {
			ambiguity = cmpErr(ambiguity, err)
		}
		// Only readings of the first named town compete: a town read as a neighbourhood
		// of another ("Williamsburg, New York") stays the town.
		if c != nil && (len(found) == 0 || sameName(q.Locality, town)) {
			found, town = append(found, Reading{City: c, By: joinBy(q.by, by)}), q.Locality
			regional = append(regional, q.Region != "")
		}
	}
	if len(found) > 0 {
		if r, ok := foundInFeedCountry(found, regional, ctx); ok {
			return r, nil
		}
		return choose(found, ctx), nil
	}
	if ambiguity != nil {
		return Reading{}, ambiguity // a town the gazetteer has, several times: never made
	}
	return g.makeReading(readings, ctx, firstErr)
}

// makeReading makes a city for a town the gazetteer lacks (step 3 of Locate), from the
// readings of its place; firstErr is why none has a country, when none has.
func (g *Gazetteer) makeReading(readings []Place, ctx Context, firstErr error) (Reading, error) {
	// The country of the feed, for a place that states none; never a town the gazetteer
	// has there: "Plymouth" in a US feed, several towns and nothing telling which, is
	// dropped with that reason, not made in the feed's zone.
	if firstErr != nil && ctx.Country != "" {
		for _, q := range readings {
			if q.Country == "" && q.Region == "" {
				q.Country = ctx.Country
				has, _, err := g.named(q, ctx.Country, ctx)
				if err != nil {
					return Reading{}, err
				}
				if has != nil {
					break
				}
				if c, err := g.made(q, ctx.Country, ctx); err == nil {
					return Reading{City: c, Made: true, By: ctx.CountryBy}, nil
				}
				break
			}
		}
	}
	// Of several readings that could make it, the one in the context's zone.
	if ctx.Zone != "" {
		var made []*City
		for _, q := range readings {
			if code, err := g.country(q); err == nil && !q.HasGeo {
				if c, err := g.made(q, code, ctx); err == nil && !slices.ContainsFunc(made, func(m *City) bool { return m.Slug == c.Slug }) {
					made = append(made, c)
				}
			}
		}
		if len(made) > 1 {
			for _, c := range made {
				if sameClock(c.Location, ctx.Zone) {
					return Reading{City: c, Made: true, By: ctx.ZoneBy}, nil
				}
			}
		}
	}
	// Readings in the feed's country, when some are, are the only ones made: "Smalltown,
	// IN" in a feed of US venues is in Indiana, never made in India.
	readings, by := g.inFeedCountry(readings, ctx)
	// A town the gazetteer lacks is made in the country of the first reading that has one,
	// unless the coordinates are near a city of a later reading's region or country only
	// ("Smalltown, GA" with coordinates in Georgia, US, not in Gabon).
	made := -1
	for i, q := range readings {
		code, err := g.country(q)
		if err != nil {
			continue
		}
		if made < 0 {
			made = i
		}
		if !q.HasGeo {
			break
		}
		if g.nearby(q, code) {
			made = i
			break
		}
	}
	if made < 0 {
		return Reading{}, firstErr
	}
	// A reading that cannot be made (a region of several zones, and no coordinates) gives
	// way to the next one that can: "Vagator, Goa, IN" is not in Indiana.
	var err error
	for i := made; i < len(readings); i++ {
		code, cerr := g.country(readings[i])
		if cerr != nil {
			continue
		}
		c, merr := g.made(readings[i], code, Context{})
		madeBy := by
		if merr != nil && ctx.Zone != "" { // the context's zone, of the region's several
			if cz, err := g.made(readings[i], code, ctx); err == nil {
				c, merr, madeBy = cz, nil, joinBy(by, ctx.ZoneBy)
			}
		}
		if merr == nil {
			return Reading{City: c, Made: true, By: joinBy(readings[i].by, madeBy)}, nil
		}
		err = cmpErr(err, merr)
	}
	return Reading{}, err
}

// placeReadings are the ways Locate reads a place, in the order it tries them: a locality
// that is a country's name is the country when the place states none; a region written as
// an ISO 3166-2 code is the country's region (subdivision); an address on one line is read
// from its end (readings); a country's code that is a region's too is read as the region
// last (regionReadings). It appends them to out.
func (g *Gazetteer) placeReadings(out []Place, p Place) []Place {
	if p.Country == "" {
		if _, ok := countryCode(p.Locality); ok {
			p.Country, p.Locality = p.Locality, ""
		}
	}
	p = g.statedSubdivision(subdivision(p))
	return g.regionReadings(g.readings(out, p))
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// country resolves the place's country; see Locate.
func (g *Gazetteer) country(p Place) (string, error) {
	if p.Country != "" {
		code, ok := countryCode(p.Country)
		if !ok {
			return "", fmt.Errorf("unknown country %q", p.Country)
		}
		return code, nil
	}
	var buf [64]byte
	if r := engine.AppendFold(buf[:0], []byte(p.Region)); len(r) > 0 {
		l := g.regions[string(r)]
		if len(l) == 1 {
			return l[0], nil
		}
		for _, code := range l { // the region's code in several countries: the one with the city
			if c, _, _ := g.named(p, code, Context{}); c != nil && c.inRegion(r) {
				return code, nil
			}
		}
		if len(l) > 1 {
			return "", fmt.Errorf("venue in %q has no country, and region %q is in several (%s)", p.Locality, p.Region, strings.Join(l, ", "))
		}
	}
	if code := g.implied(p); code != "" {
		return code, nil
	}
	if p.Locality == "" {
		return "", fmt.Errorf("venue has no city and no country")
	}
	return "", fmt.Errorf("venue in %q has no country, and the city's name does not tell it", p.Locality)
}

// farAway is how far from every city of its country a place's coordinates must be for
// them to be taken for latitude and longitude swapped (when swapped they are near one).
const farAway = 300 // km

// swapped returns p with its coordinates swapped when they are written longitude first:
// far from every city of the country, and near one of them once swapped. Calendars and
// pages do write "GEO:6.16;52.25" for Deventer.
func (g *Gazetteer) swapped(p Place, country string) Place {
	if !p.HasGeo || math.Abs(p.Lon) > 90 {
		return p
	}
	cs := g.byCountry[country]
	if within(cs, p.Lat, p.Lon, farAway) {
		return p
	}
	if _, d := nearest(cs, p.Lon, p.Lat); d <= nearCity {
		p.Lat, p.Lon = p.Lon, p.Lat
	}
	return p
}

// SwappedGeo reports whether the coordinates (lat, lon) of a place in country are
// longitude first (see swapped).
func (g *Gazetteer) SwappedGeo(lat, lon float64, country string) bool {
	q := g.swapped(Place{Lat: lat, Lon: lon, HasGeo: true}, country)
	return q.Lat != lat
}

// implied returns the country the place's city name or coordinates imply; see Locate.
func (g *Gazetteer) implied(p Place) string {
	found := g.CitiesNamed(p.Locality) // most populous first
	if len(found) == 0 {
		found = g.CitiesNamed(stripPostal(p.Locality))
	}
	if len(found) == 0 { // a city named with its district (district.go)
		if c := g.district(stripPostal(p.Locality), ""); c != nil {
			return c.Country
		}
		if c, _ := g.eastAsian(p, stripPostal(p.Locality), ""); c != nil {
			return c.Country
		}
	}
	if len(found) == 0 { // a name in Cyrillic or Greek that one town bears romanized
		if c, _, err := g.romanizedOne(p, stripPostal(p.Locality), "", Context{}); c != nil && err == nil {
			return c.Country
		}
	}
	if p.HasGeo {
		if c, d := nearest(found, p.Lat, p.Lon); c != nil && d <= nearCity {
			return c.Country
		}
		if len(found) == 0 {
			if c, d := g.nearestAnywhere(p.Lat, p.Lon); c != nil && d <= nearCity {
				return c.Country
			}
		}
	}
	if len(found) == 0 {
		return ""
	}
	top := found[0]
	for _, c := range found[1:] {
		if c.Country != top.Country && c.Population*4 > top.Population {
			return ""
		}
	}
	return top.Country
}

// nearestAnywhere returns the gazetteer city nearest (lat, lon) and its distance in km,
// looking only at countries with a city within a few degrees.
func (g *Gazetteer) nearestAnywhere(lat, lon float64) (*City, float64) {
	var best *City
	bestD := math.Inf(1)
	for _, cs := range g.byCountry {
		if c, d := nearest(cs, lat, lon); d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}

// named returns the gazetteer city of the place's name in country, with a postal code
// before or after the name dropped when the name alone is not one, and what chose it among
// several of that name ("" when nothing had to); nil when none. It fails when several
// towns of the country bear the name and nothing tells which (see Read).
func (g *Gazetteer) named(p Place, country string, ctx Context) (*City, string, error) {
	if strings.TrimSpace(p.Locality) == "" {
		if p.HasGeo {
			// The nearest major city first: a venue by its coordinates alone is filed
			// under the city, not the village at its edge.
			if c, d := nearestMajor(g.byCountry[country], p.Lat, p.Lon); d <= nearCity {
				return c, "coordinates", nil
			}
			if c, d := nearest(g.byCountry[country], p.Lat, p.Lon); d <= nearCity {
				return c, "coordinates", nil
			}
		}
		// The city that bears the country's name (Singapore, Luxembourg, Monaco), as
		// English names it or as the place writes it ("Vatican City": the Holy See).
		for _, name := range [2]string{CountryName(country), p.Country} {
			for _, c := range g.CitiesNamed(name) {
				if c.Country == country {
					return c, "", nil
				}
			}
		}
		return nil, "", nil
	}
	var buf [32]*City
	// The towns of the name in the country, else its villages (minTown); most populous first.
	found := towns(inCountry(buf[:0], g.allNamed(p.Locality), country))
	// Else the name without a postal code, then without a region's code after it.
	if len(found) == 0 {
		name := stripPostal(p.Locality) // each name looked up once: most are the locality
		if name != p.Locality {
			found = towns(inCountry(found, g.allNamed(name), country))
		}
		if short := g.withoutRegion(name, country); len(found) == 0 && short != name {
			found = towns(inCountry(found, g.allNamed(short), country))
		}
		if len(found) == 0 { // "København K", "Berlin-Kreuzberg" (district.go)
			if c := g.districtIn(name, country, p.Region); c != nil {
				return c, byDistrict, nil
			}
			if c, err := g.eastAsian(p, name, country); c != nil || err != nil { // "東京都渋谷区" (eastasia.go)
				return c, byUnits, err
			}
		}
		if len(found) == 0 { // a town of one of the country's territories (territories.go)
			if c := g.inTerritory(name, country); c != nil {
				return c, byTerritory, nil
			}
		}
		if len(found) == 0 { // a name in Cyrillic or Greek, romanized (romanize.go)
			return g.romanizedOne(p, name, country, ctx)
		}
	}
	var rbuf [64]byte
	if r := engine.AppendFold(rbuf[:0], []byte(p.Region)); len(r) > 0 {
		for _, c := range found {
			if !c.inRegion(r) {
				continue
			}
			// Of several of the region (New Delhi and Delhi, whose other names hold
			// "New Delhi"), the coordinates choose as they do without a region.
			if p.HasGeo {
				if n, d := nearestWhere(found, p.Lat, p.Lon, func(c *City) bool { return c.inRegion(r) }); n != c && d <= nearCity {
					return n, "coordinates", nil
				}
			}
			return c, "", nil
		}
		// A town of that name in another region, which the gazetteer lacks: in the US,
		// Canada and Australia, of villages anywhere, and of a first-level subdivision the
		// line names by its name ("Neustadt, Sachsen"), when the region is one the
		// gazetteer knows (elsewhere a town's region may be written in another scheme:
		// "75" for Paris, a county for an English village).
		if g.regionCode(country, p.Region) != "" && (regionCountries[country] || found[0].village() || p.landRead) {
			return nil, "", nil
		}
	}
	if len(found) == 1 {
		return found[0], "", nil
	}
	if p.HasGeo {
		if c, d := nearest(found, p.Lat, p.Lon); d <= nearCity {
			return c, "coordinates", nil
		}
	}
	if c, by := standsOut(found, ctx); c != nil && (p.unread == "" || by == ctx.ZoneBy) {
		return c, by, nil
	}
	if found[0].village() {
		return nil, "", nil // villages nothing tells apart: the town is made, as one the gazetteer lacks
	}
	if p.unread != "" {
		return nil, "", fmt.Errorf("%w; %q after it may tell which, but is no region the gazetteer knows",
			ambiguous(p.Locality, country, found), p.unread)
	}
	return nil, "", ambiguous(p.Locality, country, found)
}

// withoutRegion returns name without a last word, in capitals, that is the code of one of
// the country's regions ("Sydney NSW" of "Sydney NSW 2000") or subdivisions ("Firenze FI",
// "Tapiraí - SP": subdivisions.go), else name.
func (g *Gazetteer) withoutRegion(name, country string) string {
	i := strings.LastIndexByte(name, ' ')
	if i <= 0 {
		return name
	}
	code, rest := name[i+1:], strings.TrimRight(name[:i], " -–")
	if !capitals(code) || g.regionCode(country, code) == "" && !subdivisionCode(country, code) {
		return name
	}
	// In a line in capitals, a subdivision's code may be the town's last word ("EAST
	// HAM": GB-HAM is Hampshire): it goes only before a town the gazetteer knows.
	if g.regionCode(country, code) == "" && capitals(rest) && !g.hasNamesake(rest, country) {
		return name
	}
	return rest
}

// capitals reports whether s has no lower-case letter, as strings.ToUpper(s) == s would,
// without a copy.
func capitals(s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// made makes a city for a place the gazetteer lacks; see Locate.
func (g *Gazetteer) made(p Place, country string, ctx Context) (*City, error) {
	name := g.withoutRegion(stripPostal(p.Locality), country) // "708 15 Gothenburg", "Leeds LS1 3AA", "Byron Bay NSW 2481"
	if bare := withoutRemark(name); !g.hasNamesake(bare, country) || strings.ContainsAny(strings.TrimSpace(name[len(bare):]), " ") {
		name = bare // "Bel Air (Herb Alpert's club)" (madename.go); "Linz (Donau)" keeps what tells it from Linz
	}
	if engine.Slugify(name) == "" {
		return nil, fmt.Errorf("venue has no city in %s", country)
	}
	if streetNamed(name) || listedAfter(p.Street) && streetFirstWord(name) {
		return nil, fmt.Errorf("venue's place %q %w", name, ErrStreet)
	}
	zone := p.Zone
	if zone == "" && p.HasGeo {
		if c, d := nearest(g.byCountry[country], p.Lat, p.Lon); c != nil && d <= nearZone {
			zone = c.Timezone
		}
	}
	var buf [64]byte
	key, hasRegion := regionKey(buf[:0], country, p.Region)
	if zone == "" && hasRegion {
		if zs := g.regionZones[string(key)]; len(zs) == 1 {
			zone = zs[0]
		}
	}
	if zone == "" && len(g.zones[country]) == 1 {
		zone = g.zones[country][0]
	}
	if zone == "" && ctx.Zone != "" {
		// The feed's zone, when it is one of those the region (or the country) has; else
		// the first of them that keeps the feed zone's clock: a town in Indiana in an
		// America/New_York calendar is in America/Indiana/Indianapolis.
		zs := g.zones[country]
		if hasRegion {
			zs = g.regionZones[string(key)]
		}
		if slices.Contains(zs, ctx.Zone) {
			zone = ctx.Zone
		} else {
			for _, z := range zs {
				if l, err := Zone(z); err == nil && sameClock(l, ctx.Zone) {
					zone = z
					break
				}
			}
		}
	}
	if zone == "" {
		return nil, fmt.Errorf("unknown city %q in %s, and no time zone for it (state one, or coordinates)", name, country)
	}
	loc, err := Zone(zone)
	if err != nil {
		return nil, fmt.Errorf("unknown city %q in %s, and its zone: %w", name, country, err)
	}
	slug := engine.Slugify(name) + "-" + strings.ToLower(country)
	if p.Region != "" && (g.hasSlug(slug) || g.hasNamesake(name, country)) {
		// Towns of one name in several regions (the gazetteer's and others) apart, each
		// by its region's code however the region was written.
		r := cmp.Or(g.regionCode(country, p.Region), p.Region)
		slug = engine.Slugify(name) + "-" + engine.Slugify(r) + "-" + strings.ToLower(country)
	}
	c := &City{Slug: slug, Name: name, Country: country, Region: strings.TrimSpace(p.Region), Timezone: zone, Location: loc,
		Lat: p.Lat, Lon: p.Lon, HasGeo: p.HasGeo}
	return c, nil
}

// nearest returns the city of cs nearest (lat, lon), and its distance in km.
func nearest(cs []*City, lat, lon float64) (*City, float64) {
	return nearestWhere(cs, lat, lon, nil)
}

// nearestWhere is nearest over the cities of cs that keep holds for (all when nil). A
// city whose latitude alone puts it no nearer than the best so far is passed over
// without measuring it (the distance along a meridian bounds the great-circle distance
// from below), so a country of tens of thousands of towns costs a few comparisons each.
func nearestWhere(cs []*City, lat, lon float64, keep func(*City) bool) (*City, float64) {
	var best *City
	bestD := math.Inf(1)
	for _, c := range cs {
		if !c.HasGeo || math.Abs(c.Lat-lat)*kmPerDegree >= bestD || keep != nil && !keep(c) {
			continue
		}
		if d := Distance(lat, lon, c.Lat, c.Lon); d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}

// within reports whether a city of cs lies within km of (lat, lon); it stops at the
// first (cs is most populous first, so a populated place finds one at once).
func within(cs []*City, lat, lon, km float64) bool {
	for _, c := range cs {
		if c.HasGeo && math.Abs(c.Lat-lat)*kmPerDegree <= km && Distance(lat, lon, c.Lat, c.Lon) <= km {
			return true
		}
	}
	return false
}

// kmPerDegree is the length of a degree of latitude, on the sphere Distance measures on.
const kmPerDegree = earthKM * math.Pi / 180

// nearestMajor is nearest over the major cities of cs (City.Major).
func nearestMajor(cs []*City, lat, lon float64) (*City, float64) {
	return nearestWhere(cs, lat, lon, (*City).Major)
}

// Distance is the great-circle distance between two points in kilometres.
func Distance(lat1, lon1, lat2, lon2 float64) float64 {
	rad := math.Pi / 180
	dlat, dlon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * earthKM * math.Asin(math.Sqrt(math.Min(a, 1)))
}

// regionReadings appends to readings, for those whose country is written as a two-letter code that
// is also the code of a US state, a Canadian province or an Australian state, and that
// state no region, the reading of the code as that region instead: a calendar's "Athens\,
// GA" is in Georgia, not Gabon, and "Chicago\, IL" is not in Israel. They come after the
// others: a place the country names ("London\, CA") stays there, and a town neither names
// is made in the country, unless the coordinates are in the region (see Locate).
func (g *Gazetteer) regionReadings(readings []Place) []Place {
	for _, q := range readings { // the readings as they were: range reads the slice once
		code := strings.TrimSpace(q.Country)
		if q.Region != "" || len(code) != 2 {
			continue
		}
		for _, c := range g.regionsNamed(code) {
			if regionCountries[c] && !strings.EqualFold(c, code) {
				r := q
				r.Region, r.Country = code, c
				readings = append(readings, r)
			}
		}
	}
	return readings
}

// nearby reports whether the place's coordinates are within nearZone of a gazetteer city of
// the country (by its code), and of the place's region when it states one the gazetteer
// knows.
func (g *Gazetteer) nearby(p Place, country string) bool {
	cs := g.byCountry[country]
	if r := g.regionCode(country, p.Region); r != "" {
		var in []*City
		for _, c := range cs {
			if c.Region == r {
				in = append(in, c)
			}
		}
		cs = in
	}
	_, d := nearest(cs, p.Lat, p.Lon)
	return d <= nearZone
}

// subdivision reads a region written as an ISO 3166-2 code ("US-MA", "GB-ENG") as the
// country's region ("MA"), and the country when the place states none; a prefix that is
// not the stated country's code leaves the region as it is.
func subdivision(p Place) Place {
	cc, r, ok := strings.Cut(strings.TrimSpace(p.Region), "-")
	if !ok || len(cc) != 2 || r == "" || len(r) > 3 {
		return p
	}
	code, known := engine.CountryCode(cc)
	if !known {
		return p
	}
	if stated, _ := countryCode(p.Country); p.Country != "" && stated != code {
		return p
	}
	if p.Country == "" {
		p.Country = code
	}
	p.Region = r
	return p
}

// regionCode returns the code of the region of the country (by its code) that r is the
// code or name of, as its gazetteer cities give them; "" when r is none.
func (g *Gazetteer) regionCode(country, r string) string {
	var buf [64]byte
	key, _ := regionKey(buf[:0], country, r)
	return g.regionCodes[string(key)]
}

// regionKey appends to buf the key of a region of the country (by its code) in the maps
// of regions: the country, a zero byte and r folded; ok when r folds to a name.
func regionKey(buf []byte, country, r string) (key []byte, ok bool) {
	buf = append(append(buf, country...), 0)
	key = engine.AppendFold(buf, []byte(r))
	return key, len(key) > len(buf)
}

// regionsNamed returns the countries (of regionCountries) that have a region of the code
// or name r.
func (g *Gazetteer) regionsNamed(r string) []string {
	var buf [64]byte
	return g.regions[string(engine.AppendFold(buf[:0], []byte(r)))]
}

// sameName reports whether a and b are one name, folded (engine.Fold).
func sameName(a, b string) bool {
	var ba, bb [64]byte
	return bytes.Equal(engine.AppendFold(ba[:0], []byte(a)), engine.AppendFold(bb[:0], []byte(b)))
}

// hasNamesake reports whether the gazetteer has a city of that name in the country, of
// those CitiesNamed lists.
func (g *Gazetteer) hasNamesake(name, country string) bool {
	for _, c := range g.CitiesNamed(name) {
		if c.Country == country {
			return true
		}
	}
	return false
}

// inRegion reports whether the gazetteer has a city of that name in the region of the
// country (both by their codes).
func (g *Gazetteer) inRegion(name, country, region string) bool {
	for _, c := range g.CitiesNamed(name) {
		if c.Country == country && c.Region == region {
			return true
		}
	}
	return false
}
