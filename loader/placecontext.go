package loader

import (
	"slices"
	"strings"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// PlaceReading is where a source's stated place was placed, for the operator who asks why
// a venue is where it is (gigsctl sources check -json): the place as stated, its city
// (made when the gazetteer lacks the town), and what chose between the ways to read it.
type PlaceReading struct {
	Place    string // the locality (the street when it has none), region and country as the source states them, " | "-separated
	City     string // the city's slug
	Country  string // ISO 3166-1 alpha-2
	Timezone string
	Made     bool   // the gazetteer lacks the town: the city was made for it
	By       string // what decided between readings; "" when the place as stated left no choice
	Events   int    // the source's events placed so
}

// statedPlace is the place a venue states, as the gazetteer reads it: an address given on
// one line in the street or, for a venue named by its address, in the name ("Memphis,
// TN, US"), when it states no locality, is read for its city.
func statedPlace(p source.Place) places.Place {
	locality := p.Locality
	for _, line := range []string{p.Street, p.Name} {
		if strings.TrimSpace(locality) == "" && strings.Contains(line, ",") {
			locality = line
		}
	}
	return places.Place{Locality: locality, Region: p.Region, Country: p.Country, Zone: p.Zone,
		Postcode: p.PostalCode, Street: p.Street, Lat: p.Lat, Lon: p.Lon, HasGeo: p.HasGeo}
}

// feedContext is what a source says around its events' places (places.Context): the
// country the operator's hint for the source names, else the one country every event of
// the feed that states a country states, when two or more do, else the country most of
// its events are placed in without doubt (readCountry), which is a guess: it reads region
// codes and places towns the gazetteer lacks, but does not take a city of its own over a
// namesake abroad four times as populous (places.Context.Guessed).
func (n *normalizer) feedContext(events []source.Event, src Source) places.Context {
	if src.Home != nil {
		if code, ok := places.Country(src.Home.Country); ok {
			return places.Context{Country: code, CountryBy: "the source's configured country (" + code + ")"}
		}
	}
	country, stated := "", 0
	for i := range events {
		code, ok := places.Country(strings.TrimSpace(events[i].Venue.Country))
		if !ok {
			continue
		}
		if country != "" && code != country {
			return places.Context{}
		}
		country, stated = code, stated+1
	}
	guessed := false
	var regions []string
	if stated < 2 && country == "" {
		country, stated, regions = n.readCountry(events)
		guessed = true
	}
	if stated < 2 {
		return places.Context{}
	}
	ctx := places.Context{Country: country, CountryBy: "the country of the feed's other events (" + country + ")", Guessed: guessed}
	if len(regions) > 0 {
		ctx.Regions, ctx.RegionsBy = regions, regionsBy(regions)
	}
	return ctx
}

// Of a feed's events that state no country, readCountry reads at most maxContextReads
// (a feed's first events tell its country as well as all of them do).
const maxContextReads = 64

// readCountry returns the country the events that state none are placed in without doubt
// (a gazetteer town, nothing to choose between readings: "Indianapolis, IN"), when at
// least two are and four in five of them are there, and how many are; "" otherwise. A
// band's calendar writes "Venue, Town, ST" and never its country: its other events say
// it. It returns too the regions of that country they are placed in (places.FeedRegion),
// sorted, when there are at most maxFeedRegions: a town's calendar and a city's listing
// name a region or two, a touring band's many (see places.Context.Regions).
func (n *normalizer) readCountry(events []source.Event) (string, int, []string) {
	counts := map[string]int{}
	regions := map[string]bool{}
	read, placed := 0, 0
	for i := range events {
		if read == maxContextReads {
			break
		}
		p := events[i].Venue
		if strings.TrimSpace(p.Country) != "" {
			continue
		}
		read++
		r, err := n.places.Read(statedPlace(p), places.Context{})
		if err != nil || r.Made || r.By != "" {
			continue
		}
		counts[r.City.Country]++
		placed++
		regions[places.FeedRegion(r.City)] = true
	}
	for c, k := range counts {
		if k >= 2 && k*5 >= placed*4 {
			return c, k, feedRegions(regions, c)
		}
	}
	return "", 0, nil
}

// maxFeedRegions bounds the regions a feed's context lists (readCountry).
const maxFeedRegions = 3

// feedRegions returns the regions of country among regions, sorted; none when there are
// more than maxFeedRegions.
func feedRegions(regions map[string]bool, country string) []string {
	var out []string
	for r := range regions {
		if strings.HasPrefix(r, country+"-") && !strings.HasSuffix(r, "-") {
			out = append(out, r)
		}
	}
	if len(out) > maxFeedRegions {
		return nil
	}
	slices.Sort(out)
	return out
}

// regionsBy is a context's RegionsBy for its regions: "the regions of the feed's other
// events (MA, NH)".
func regionsBy(regions []string) string {
	names := make([]string, len(regions))
	for i, r := range regions {
		_, names[i], _ = strings.Cut(r, "-")
	}
	return "the regions of the feed's other events (" + strings.Join(names, ", ") + ")"
}

// placeContext is the context a place is read in: its source's, with the zone of the
// document around it.
func (n *normalizer) placeContext(p source.Place) places.Context {
	ctx := n.feed
	if z := strings.TrimSpace(p.FeedZone); z != "" {
		ctx.Zone, ctx.ZoneBy = z, "the feed's time zone ("+z+")"
	}
	return ctx
}

// notePlace counts a placed event's reading for the source's report.
func (n *normalizer) notePlace(p source.Place, r places.Reading) {
	if n.readings == nil {
		return
	}
	locality := strings.TrimSpace(p.Locality)
	if locality == "" { // the street read as the town ("4041 Linz"), or as an address on one line
		locality = strings.TrimSpace(p.Street)
	}
	stated := strings.Join([]string{locality, strings.TrimSpace(p.Region), strings.TrimSpace(p.Country)}, " | ")
	k := stated + "\x00" + r.City.Slug + "\x00" + r.By // a place read two ways is listed twice, each with what decided
	pr := n.readings[k]
	if pr == nil {
		pr = &PlaceReading{Place: stated, City: r.City.Slug, Country: r.City.Country, Timezone: r.City.Timezone, Made: r.Made, By: r.By}
		n.readings[k] = pr
		n.readingOrder = append(n.readingOrder, k)
	}
	pr.Events++
}
