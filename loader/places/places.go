// Package places resolves the places upstream sources name into cities with an IANA time
// zone: a gazetteer of every place of 1,000 people or more in the world (112,309) and of
// the villages of 500 to 999 people (41,588; see minTown for how a village is named), with
// its region, coordinates and its names in other languages and scripts (the table
// loader/places/gen writes from GeoNames data, see its documentation for the sources and
// their licences, embedded in its frozen form, cities.frozen beside this file), and the
// ISO 3166-1 countries of package engine.
//
// Look-ups fold case, accents and punctuation (engine.Fold), so "Kraków", "krakow" and
// "KRAKOW" are one city; a town named in Cyrillic or Greek that no city is named is also
// looked up by its name romanized (romanize.go), so "Змеиногорск" is Zmeinogorsk; a city
// written with one of its districts is the city ("København K", "Berlin-Kreuzberg":
// district.go), and so is a ward an East Asian address names with its units ("東京都渋谷区"
// is Tokyo: eastasia.go), and a town before a subdivision of its country, which is never
// made a town, is in it ("Hunterston, North Ayrshire, UK", "Haßfurt, Bayern":
// subdivisions.go). A Gazetteer is safe for concurrent use and never changes once
// made; the embedded one is read on first use, from the table's frozen form (frozen.go).
package places

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // zones must resolve on machines without a zoneinfo database

	"github.com/gigs/gigs/engine"
)

// City is one entry of the gazetteer, or a city made for a place it lacks.
type City struct {
	Slug       string
	Name       string
	Country    string // ISO 3166-1 alpha-2
	Region     string // the region's code as people write it (a US state's, a Canadian province's); may be empty
	RegionName string
	Timezone   string // IANA zone name
	Location   *time.Location
	Lat, Lon   float64
	HasGeo     bool
	Population int

	regionKey, regionNameKey string // Region and RegionName folded, for look-ups
}

// Gazetteer is a set of cities. Its methods are safe for concurrent use.
type Gazetteer struct {
	cities    []*City   // every city, most populous first (mostPopulous)
	bySlug    []*City   // every city, by slug
	byName    nameTable // folded name → cities of that name, most populous first
	byCountry map[string][]*City
	zones     map[string][]string // country → its distinct zones
	regions   map[string][]string // folded region code or name (US, CA, AU) → the countries that have it
	// regionZones are the distinct zones of each region's cities, by country + "\x00" +
	// folded region code or name.
	regionZones map[string][]string
	// regionCodes are the regions' codes by the same keys.
	regionCodes map[string]string
}

// mostPopulous orders cities as look-ups list them: the most populous first, then by slug.
func mostPopulous(a, b entry) int {
	return cmp.Or(cmp.Compare(b.city.Population, a.city.Population), cmp.Compare(a.city.Slug, b.city.Slug))
}

// MajorCity is the population from which a gazetteer city is a major one: its zone counts
// for its region's and its country's zones (which place a town the gazetteer lacks), so
// that a hamlet across a zone line (Labrador's, in Newfoundland and Labrador) does not take
// the region's zone away; and lists of cities (a Windows zone's display name) name only
// major ones. Cities of an operator's file, which state no population, are major.
const MajorCity = 15000

// Major reports whether the city is a major one (see MajorCity).
func (c *City) Major() bool { return c.Population == 0 || c.Population >= MajorCity }

// minTown is the population from which a gazetteer city is a town. A place of fewer
// people (a village; the gazetteer holds those of 500 or more) is named only where no town
// bears its name: CitiesNamed lists the villages of a name only when no town anywhere has
// it, a place in a country is a village of its name only when no town of the country has
// the name (and, when the place states a region, only a village of that region), a village
// never stands out among namesakes against a town, and villages of one name that nothing
// tells apart are as if the gazetteer lacked them (the town is made, as before); a name
// romanized (romanize.go) is never a village's. So a
// village never takes a reading a town had, and its zone counts for its region's and
// country's only where no town gives one.
const minTown = 1000

// village reports whether the city is a village (see minTown).
func (c *City) village() bool { return c.Population > 0 && c.Population < minTown }

// entry is a city and its names folded (engine.Fold), each once: its own and its others.
type entry struct {
	city *City
	keys []string
}

var (
	embedded  = sync.OnceValue(func() *Gazetteer { return mustThaw(frozenTable) })
	zoneCache sync.Map // zone name → *time.Location
	// regionCountries are the countries whose region codes people write without the
	// country ("Austin, TX"): a code or name of their regions places the country.
	regionCountries = map[string]bool{"US": true, "CA": true, "AU": true}
)

// Default returns the embedded gazetteer.
func Default() *Gazetteer { return embedded() }

// WithFile returns the default gazetteer with the cities of the operator's file at path
// added: lines of slug, name, ISO country, region code, region name, IANA zone, latitude,
// longitude, population and other names, tab-separated (the format of the table
// loader/places/gen writes; the fields
// after the zone may be left empty, and a '#' starts a comment line). A city with a slug
// the gazetteer has replaces it.
func WithFile(path string) (*Gazetteer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read places file: %w", err)
	}
	added, err := read(string(data), path)
	if err != nil {
		return nil, err
	}
	return build(append(Default().entries(), added...))
}

// entries returns the gazetteer's cities with their folded names, most populous first.
func (g *Gazetteer) entries() []entry {
	keys := make(map[*City][]string, len(g.cities))
	g.byName.each(func(k string, cs []*City) {
		for _, c := range cs {
			keys[c] = append(keys[c], k)
		}
	})
	es := make([]entry, len(g.cities))
	for i, c := range g.cities {
		es[i] = entry{city: c, keys: keys[c]}
	}
	return es
}

// read returns the cities of tsv, a table in the format of loader/places/gen's (see
// WithFile) named name.
func read(tsv, name string) ([]entry, error) {
	var es []entry
	folded := map[string]string{} // regions repeat: each is folded once
	for i, line := range strings.Split(tsv, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		e, err := parseCity(strings.Split(line, "\t"), folded)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		es = append(es, e)
	}
	return es, nil
}

// parseCity reads a line's fields; folded caches engine.Fold's results.
func parseCity(f []string, folded map[string]string) (entry, error) {
	if len(f) < 6 {
		return entry{}, fmt.Errorf("want at least slug, name, country, region, region name and zone; got %d fields", len(f))
	}
	c := &City{Slug: f[0], Name: f[1], Country: f[2], Region: f[3], RegionName: f[4], Timezone: f[5]}
	if c.Slug == "" || c.Name == "" {
		return entry{}, fmt.Errorf("a city needs a slug and a name")
	}
	if _, ok := engine.LookupCountry(c.Country); !ok {
		return entry{}, fmt.Errorf("%s: unknown country %q", c.Slug, c.Country)
	}
	loc, err := Zone(c.Timezone)
	if err != nil {
		return entry{}, fmt.Errorf("%s: %w", c.Slug, err)
	}
	c.Location = loc
	fold := func(s string) string {
		k, ok := folded[s]
		if !ok {
			k = engine.Fold(s)
			folded[s] = k
		}
		return k
	}
	c.regionKey, c.regionNameKey = fold(c.Region), fold(c.RegionName)
	if len(f) >= 8 && f[6] != "" && f[7] != "" {
		lat, err1 := strconv.ParseFloat(f[6], 64)
		lon, err2 := strconv.ParseFloat(f[7], 64)
		if err1 != nil || err2 != nil || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
			return entry{}, fmt.Errorf("%s: bad coordinates %q, %q", c.Slug, f[6], f[7])
		}
		c.Lat, c.Lon, c.HasGeo = lat, lon, true
	}
	if len(f) >= 9 && f[8] != "" {
		n, err := strconv.Atoi(f[8])
		if err != nil || n < 0 {
			return entry{}, fmt.Errorf("%s: bad population %q", c.Slug, f[8])
		}
		c.Population = n
	}
	e := entry{city: c, keys: []string{engine.Fold(c.Name)}}
	if len(f) > 9 {
		for _, n := range f[9:] {
			if k := engine.Fold(n); !slices.Contains(e.keys, k) {
				e.keys = append(e.keys, k)
			}
		}
	}
	return e, nil
}

// build makes a gazetteer of the cities of es; of cities of one slug, the later is kept.
func build(es []entry) (*Gazetteer, error) {
	return thaw(string(freeze(settle(es))))
}

// settle returns the cities of es as a gazetteer lists them: most populous first
// (mostPopulous), and of cities of one slug the later only. It may reuse es.
func settle(es []entry) []entry {
	last := make(map[string]*City, len(es))
	for _, e := range es {
		last[e.city.Slug] = e.city
	}
	es = slices.DeleteFunc(es, func(e entry) bool { return last[e.city.Slug] != e.city })
	if !slices.IsSortedFunc(es, mostPopulous) { // an operator's file; the embedded table is
		slices.SortFunc(es, mostPopulous)
	}
	return es
}

// index makes the look-ups of countries, regions and zones from the cities; firsts are
// the first city of each country, region, zone and tier (City.tier), in the cities'
// order.
func (g *Gazetteer) index(firsts []*City) {
	g.byCountry = map[string][]*City{}
	for _, c := range g.cities { // most populous first: so are the lists made here
		g.byCountry[c.Country] = append(g.byCountry[c.Country], c)
	}
	g.zones, g.regions, g.regionZones = map[string][]string{}, map[string][]string{}, map[string][]string{}
	g.regionCodes = map[string]string{}
	// Zones are the major cities' (MajorCity), or when a country or region has none, its
	// towns', or when it has none, its villages' (minTown).
	var tiers [3]struct{ zones, regionZones map[string][]string }
	tiers[0].zones, tiers[0].regionZones = g.zones, g.regionZones
	for i := 1; i < len(tiers); i++ {
		tiers[i].zones, tiers[i].regionZones = map[string][]string{}, map[string][]string{}
	}
	addZone := func(m map[string][]string, k, zone string) {
		if !slices.Contains(m[k], zone) {
			m[k] = append(m[k], zone)
		}
	}
	for _, c := range firsts {
		t := &tiers[c.tier()]
		g.indexRegion(c, t.zones, t.regionZones, addZone)
	}
	for _, t := range tiers[1:] {
		for k, zs := range t.zones {
			if len(g.zones[k]) == 0 {
				g.zones[k] = zs
			}
		}
		for k, zs := range t.regionZones {
			if len(g.regionZones[k]) == 0 {
				g.regionZones[k] = zs
			}
		}
	}
	for _, l := range g.zones {
		slices.Sort(l)
	}
}

// tier is the city's rank in the zones of its region and country (index): 0 for a major
// city, 1 for another town, 2 for a village.
func (c *City) tier() int {
	switch {
	case c.Major():
		return 0
	case c.village():
		return 2
	}
	return 1
}

// indexRegion adds the city's zone to its country's and region's (in zones and
// regionZones), and its region's code and name to the look-ups of regions.
func (g *Gazetteer) indexRegion(c *City, zones, regionZones map[string][]string, addZone func(map[string][]string, string, string)) {
	addZone(zones, c.Country, c.Timezone)
	for _, r := range []string{c.regionKey, c.regionNameKey} {
		if k := c.Country + "\x00" + r; r != "" {
			addZone(regionZones, k, c.Timezone)
			g.regionCodes[k] = c.Region
		}
	}
	if regionCountries[c.Country] && c.Region != "" {
		for _, k := range []string{c.regionKey, c.regionNameKey} {
			if l := g.regions[k]; !slices.Contains(l, c.Country) {
				g.regions[k] = append(l, c.Country)
			}
		}
	}
}

// Zone loads an IANA zone, once per name.
func Zone(name string) (*time.Location, error) {
	if l, ok := zoneCache.Load(name); ok {
		return l.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "" || name == "Local" {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	zoneCache.Store(name, loc)
	return loc, nil
}

// Country returns the ISO 3166-1 alpha-2 code of a country named by its code (alpha-2 or
// alpha-3) or by a name in one of many languages, and whether it is known.
func Country(s string) (string, bool) { return countryCode(s) }

// CountryName returns the English short name of an ISO code, or "" when unknown.
func CountryName(code string) string {
	c, _ := engine.LookupCountry(code)
	return c.Name
}

// LookupCity finds a city by one of its names in the default gazetteer, within country
// when country is not empty: see Gazetteer.Locate.
func LookupCity(name, country string) (*City, error) {
	return Default().Locate(Place{Locality: name, Country: country})
}

// CitiesNamed returns the gazetteer cities of a name in any country, most populous first:
// its towns, or its villages when no town bears the name (see minTown). The slice is the
// gazetteer's: do not modify it.
func (g *Gazetteer) CitiesNamed(name string) []*City {
	return towns(g.allNamed(name))
}

// allNamed returns the gazetteer cities of a name in any country, towns and villages: its
// towns first, then its villages, each most populous first (see freeze).
func (g *Gazetteer) allNamed(name string) []*City {
	var buf [64]byte
	return g.byName.lookup(engine.AppendFold(buf[:0], []byte(name)))
}

// towns returns cs, cities listed towns first (see allNamed), without its villages when it
// has a town.
func towns(cs []*City) []*City {
	if len(cs) == 0 || cs[0].village() {
		return cs
	}
	n := len(cs)
	for n > 0 && cs[n-1].village() {
		n--
	}
	return cs[:n]
}
