package places

import (
	"slices"
	"strings"
)

// A British venue's calendar writes "The Marlowe, Canterbury, Kent" or "G Live, Guildford,
// Surrey, GU1 4AA": a town, its county, and no country; the calendar's zone
// (Europe/London) says the country. Read without it, the last part is the town, and Kent
// is a town in Washington, Surrey one in British Columbia, Cornwall one in Ontario: the
// gig moved to another continent's clock. inFeedSubdivision reads such a line again in
// the feed's country, and takes that reading only when all three agree: the line's last
// part names a subdivision of that country (subdivisionLast) and no town of the country
// bears its name, the part before it is a town of that country (a village the gazetteer
// lacks is made there), and that town keeps the feed's clock. A last part the table
// lacks that the plain reading took for a town abroad, and that names no region or
// country anywhere ("Chester, Cheshire": Cheshire, Connecticut), is read so too, the town
// before it then a gazetteer town. A line whose plain reading already agrees with its feed
// is never read again, and a place the event states a country or region for is not
// either: context never overrides what the event states.

// byFeedSubdivision is what decided such a reading, after the context's own words.
const byFeedSubdivision = "a subdivision of the feed's country ends the line"

// inFeedSubdivision returns the reading of p in the feed's country by its subdivision
// (see above) when the plain reading (plain, err) disagrees with the feed: it failed, or
// is in another country and another clock than the feed's zone.
func (g *Gazetteer) inFeedSubdivision(p Place, ctx Context, plain Reading, err error) (Reading, bool) {
	if p.Country != "" || p.Region != "" || !strings.Contains(p.Locality, ",") {
		return Reading{}, false
	}
	country, byZone := ctx.Country, false
	if country == "" && ctx.Zone != "" {
		country, byZone = g.ZoneCountry(ctx.Zone), true
	}
	if country == "" {
		return Reading{}, false
	}
	if err == nil && (plain.City.Country == country || ctx.Zone != "" && sameClock(plain.City.Location, ctx.Zone)) {
		return Reading{}, false // the plain reading agrees with its feed
	}
	last := lastNamePart(p.Locality)
	if len(inCountry(nil, g.CitiesNamed(last), country)) > 0 {
		return Reading{}, false // the last part may be a town of the feed's country
	}
	_, sub := subdivisionNamed(country, last)
	if !sub && !g.onlyTownAbroad(last, plain, err) {
		return Reading{}, false // the line does not end in a subdivision of the feed's country
	}
	p.Country = country
	var room [8]Place
	for _, q := range g.placeReadings(room[:0], p) {
		if sameName(q.Locality, last) {
			continue
		}
		c, cby, err := g.named(q, country, ctx)
		made := false
		if c == nil && err == nil && sub {
			// A village the gazetteer lacks ("Send Marsh, Surrey"): made in the country.
			c, err = g.made(q, country, ctx)
			made = true
		}
		if c == nil || err != nil || ctx.Zone != "" && !sameClock(c.Location, ctx.Zone) {
			return Reading{}, false
		}
		by := ctx.CountryBy
		if byZone {
			by = "the country of " + ctx.ZoneBy
		}
		return Reading{City: c, Made: made, By: joinBy(joinBy(by, byFeedSubdivision), cby)}, true
	}
	return Reading{}, false
}

// onlyTownAbroad reports whether the plain reading placed the line in a town named by its
// last part, abroad, and that part names no region and no country anywhere: "Chester,
// Cheshire" read as Cheshire, Connecticut (a county ISO 3166-2 splits, so the table lacks
// it), not "Perth, Western Australia" or "London, Ontario", which name their region.
func (g *Gazetteer) onlyTownAbroad(last string, plain Reading, err error) bool {
	if err != nil || plain.Made || !slices.Contains(g.CitiesNamed(last), plain.City) {
		return false
	}
	_, isCountry := countryCode(last)
	return !isCountry && g.regionsNamed(last) == nil
}

// lastNamePart returns the last part of a line between its commas that is not a postal
// code alone, its postal code dropped ("Kent" of "Canterbury, Kent, CT1 2RA").
func lastNamePart(line string) string {
	var room [maxParts]string
	parts := commaParts(room[:0], line)
	for len(parts) > 1 && postalOnly(parts[len(parts)-1]) {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return ""
	}
	return stripPostal(parts[len(parts)-1])
}
