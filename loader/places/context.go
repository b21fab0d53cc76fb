package places

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Context is what a feed says around its places, which one event leaves open: the zone
// the feed is in (a calendar's X-WR-TIMEZONE or VTIMEZONE, the zone of an event's
// TZID), the country it is in (the operator's hint for the source, the country of the
// feed's other events, a platform's market). The By fields say where each comes from, in
// words an operator reads in a Reading ("the calendar's X-WR-TIMEZONE").
type Context struct {
	Zone      string // IANA zone name; "" when the feed says none
	ZoneBy    string
	Country   string // ISO 3166-1 alpha-2; "" when the feed says none
	CountryBy string
	// Guessed reports that Country is guessed (from where the feed's own towns are placed)
	// rather than stated: it reads a region's code ("Salem, IN" is in Indiana) and places
	// towns the gazetteer lacks, but never takes a city of its own over a namesake abroad
	// four times as populous ("Toronto" in a US band's calendar is Toronto, Canada).
	Guessed bool
	// Regions are the regions the feed's other events are placed in without doubt, as
	// FeedRegion names them ("US-MA"), when they are few; RegionsBy says so. A bare town's
	// namesakes in them come first (feedregions.go).
	Regions   []string
	RegionsBy string
}

// largerAbroad reports whether a city of cs outside c's country outweighs c (outweighs):
// a guessed country does not choose c over it (Context.Guessed).
func largerAbroad(cs []*City, c *City) bool {
	for _, x := range cs {
		if x.Country != c.Country && outweighs(x, c) {
			return true
		}
	}
	return false
}

// outweighs reports whether x has four times c's people, or is a town and c a village
// (minTown).
func outweighs(x, c *City) bool {
	return x.Population >= 4*c.Population || c.village() && !x.village()
}

// Reading is where Read placed a place: its city, whether the city was made for a town
// the gazetteer lacks, and what chose it among the ways to read the place ("" when the
// place as stated left no choice).
type Reading struct {
	City *City
	Made bool
	By   string
}

// byPopulation is a Reading's By when the most populous of several namesakes was taken.
const byPopulation = "the most populous of its namesakes by four times"

// ByPopulation reports whether the reading took the most populous of several namesakes
// because nothing else told them apart: a caller that holds a part of the line the
// gazetteer could not read (a county) may not take it.
func (r Reading) ByPopulation() bool { return strings.Contains(r.By, byPopulation) }

// byTown is a Reading's By when the only town among villages of its name was taken.
const byTown = "the only town of its name, the others villages"

// choose picks among the cities several readings of a place name (see Read).
func choose(found []Reading, ctx Context) Reading {
	distinct := found[:1]
	for _, r := range found[1:] {
		if r.City != distinct[0].City && (len(distinct) == 1 || r.City != distinct[1].City) {
			distinct = append(distinct, r)
		}
	}
	if len(distinct) == 1 {
		return found[0]
	}
	cities := make([]*City, len(distinct))
	for i, r := range distinct {
		cities[i] = r.City
	}
	if c, by := standsOut(cities, ctx); c != nil {
		for _, r := range distinct {
			if r.City == c {
				return Reading{City: c, By: by}
			}
		}
	}
	return Reading{City: found[0].City, By: "the first reading of the address"}
}

// standsOut returns, of several cities of one name, the one the regions of the feed's
// other events hold (inFeedRegions), else the only one in a zone keeping the clock of the
// context's zone, else the most populous when it has four times the people
// of each other (a village never counts against a town: minTown), and what decided; nil
// when none stands out.
func standsOut(cs []*City, ctx Context) (*City, string) {
	if c, by, ok := inFeedRegions(cs, ctx); ok {
		return c, by
	}
	if ctx.Zone != "" {
		var match *City
		n := 0
		for _, c := range cs {
			if sameClock(c.Location, ctx.Zone) {
				match, n = c, n+1
			}
		}
		if n == 1 {
			return match, ctx.ZoneBy
		}
	}
	top := cs[0]
	for _, c := range cs[1:] {
		if c.Population > top.Population {
			top = c
		}
	}
	by := byPopulation
	for _, c := range cs {
		if c != top && c.Population*4 > top.Population {
			if !c.village() || top.village() {
				return nil, ""
			}
			by = byTown
		}
	}
	return top, by
}

// ambiguous is the error of a name several towns of a country bear, none standing out.
func ambiguous(name, country string, cs []*City) error {
	var in []string
	for i, c := range cs {
		if i == 3 {
			in = append(in, fmt.Sprintf("and %d more", len(cs)-i))
			break
		}
		in = append(in, cmpOr(c.RegionName, c.Region))
	}
	return fmt.Errorf("ambiguous place: %q names %d towns in %s (%s) and nothing in the event or its feed tells which",
		strings.TrimSpace(name), len(cs), country, strings.Join(in, ", "))
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// inCountry appends to out the cities of cs in country, in cs's order.
func inCountry(out, cs []*City, country string) []*City {
	for _, c := range cs {
		if c.Country == country {
			out = append(out, c)
		}
	}
	return out
}

// inContextCountry looks a place that states neither country nor region up in its
// context's country first, else in the country of its context's zone (ZoneCountry); ok
// when a city there is named without doubt.
func (g *Gazetteer) inContextCountry(readings []Place, ctx Context) (Reading, bool) {
	byZone := ctx.Country == "" && ctx.Zone != ""
	if byZone {
		// The zone's country, when it is one country's, names gazetteer towns; it makes
		// none (a town the gazetteer lacks), being only what a calendar's author chose.
		ctx.Country = g.ZoneCountry(ctx.Zone)
	}
	for _, q := range readings {
		if q.Country != "" || q.Region != "" {
			// A reading that states its region or country comes first: the place states
			// it, and a later bare reading ("Maine" of "Bangor, Maine", the region's name
			// as a city's) is not looked up before it.
			return Reading{}, false
		}
		if ctx.Country == "" {
			continue
		}
		q.Country = ctx.Country
		c, by, err := g.named(q, ctx.Country, ctx)
		if c == nil || err != nil || ctx.Guessed && largerAbroad(g.CitiesNamed(q.Locality), c) {
			return Reading{}, false
		}
		if byZone { // said only of a reading found, not of every look-up
			ctx.CountryBy = "the country of " + ctx.ZoneBy
		}
		if by != "" {
			by = ctx.CountryBy + "; " + by
		}
		return Reading{City: c, By: cmpOr(by, ctx.CountryBy)}, true
	}
	return Reading{}, false
}

// clocks are the UTC offsets of a zone in January and July of a year, which tell zones
// apart that keep different clocks.
func clocks(loc *time.Location) [2]int {
	_, jan := time.Date(2026, 1, 15, 12, 0, 0, 0, loc).Zone()
	_, jul := time.Date(2026, 7, 15, 12, 0, 0, 0, loc).Zone()
	return [2]int{jan, jul}
}

// sameClock reports whether loc keeps the clock of the zone named zone (America/Detroit
// and America/New_York do; America/Chicago and America/New_York do not).
func sameClock(loc *time.Location, zone string) bool {
	if loc != nil && loc.String() == zone {
		return true // the zone itself: no need to read its clocks
	}
	z, err := Zone(zone)
	return err == nil && loc != nil && clocks(loc) == clocks(z)
}

// inRegion reports whether the city is in the region of the folded code or name r.
func (c *City) inRegion(r []byte) bool {
	return c.regionKey == string(r) || c.regionNameKey == string(r)
}

// defaultZoneCountries are the embedded gazetteer's ZoneCountry answers, made on first use.
var defaultZoneCountries = sync.OnceValue(func() map[string]string { return Default().zoneCountries() })

// ZoneCountry returns the one country whose gazetteer cities keep the zone of that name
// (Europe/Berlin: DE; America/Chicago: US), or "" when several countries do, or none: a
// feed in that zone is in that country.
func (g *Gazetteer) ZoneCountry(zone string) string {
	if g == Default() {
		return defaultZoneCountries()[zone]
	}
	return g.zoneCountries()[zone]
}

// zoneCountries maps each zone of one country's cities to that country.
func (g *Gazetteer) zoneCountries() map[string]string {
	m := map[string]string{}
	several := map[string]bool{}
	for c, zs := range g.zones {
		for _, z := range zs {
			if _, ok := m[z]; ok {
				several[z] = true
			}
			m[z] = c
		}
	}
	for z := range several {
		delete(m, z)
	}
	return m
}

// inFeedCountry returns, of the readings of a town the gazetteer lacks, those in the
// context's country when some are, and what chose them; else the readings as they are. A
// two-letter code after a town is a region of the feed's country rather than another
// country ("Smalltown, IN" in a feed of US venues is in Indiana, not in India); when that
// reading cannot be made (Indiana keeps two clocks, and nothing tells which), the town is
// dropped with that reason, never made in the other country. (The context's zone chooses
// before, among the readings it can make: makeReading.) The readings are filtered in
// place.
func (g *Gazetteer) inFeedCountry(readings []Place, ctx Context) ([]Place, string) {
	country, by := ctx.Country, ctx.CountryBy
	if country == "" {
		return readings, ""
	}
	in, other := 0, 0
	for _, q := range readings {
		if c, err := g.country(q); err == nil && c == country {
			in++
		} else if err == nil {
			other++
		}
	}
	if in == 0 || other == 0 {
		return readings, "" // nothing to choose
	}
	kept := readings[:0]
	for _, q := range readings {
		if c, err := g.country(q); err == nil && c == country {
			kept = append(kept, q)
		}
	}
	return kept, by
}

// joinBy joins what decided a reading in turn: "the feed's country; the calendar's zone".
func joinBy(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// foundInFeedCountry returns, of the cities several readings of a place name in several
// countries, the one in the context's country when only one is there: "Salem, IN" in a
// feed of US venues is Salem, Indiana, not the larger Salem in India. A guessed country
// (Context.Guessed) takes it only when its reading states a region (regional, in found's
// order) or no city abroad is four times as populous. (A zone chooses in choose, which
// comes after.)
func foundInFeedCountry(found []Reading, regional []bool, ctx Context) (Reading, bool) {
	country, by := ctx.Country, ctx.CountryBy
	if country == "" {
		return Reading{}, false
	}
	var in *Reading
	other, region := false, false
	for i := range found {
		switch r := &found[i]; {
		case r.City.Country != country:
			other = true
		case in == nil:
			in, region = r, regional[i]
		case in.City != r.City:
			return Reading{}, false // several there: choose decides
		}
	}
	if in == nil || !other {
		return Reading{}, false
	}
	if ctx.Guessed && !region {
		for i := range found {
			if c := found[i].City; c.Country != country && outweighs(c, in.City) {
				return Reading{}, false
			}
		}
	}
	return Reading{City: in.City, By: joinBy(by, in.By)}, true
}
