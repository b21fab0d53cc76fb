// Package places resolves the countries and cities that upstream sources name into ISO
// 3166-1 codes, city slugs and IANA time zones, from small gazetteers embedded in the binary
// (countries.tsv, cities.tsv beside this file; hand-kept by the project).
//
// Look-ups fold case, accents and punctuation (engine.Fold), so "Kraków", "krakow" and
// "KRAKOW" are one city. The package is safe for concurrent use; its tables never change
// after start-up.
package places

import (
	_ "embed"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // zones must resolve on machines without a zoneinfo database

	"github.com/gigs/gigs/engine"
)

//go:embed countries.tsv
var countriesTSV string

//go:embed cities.tsv
var citiesTSV string

// City is one entry of the gazetteer.
type City struct {
	Slug     string
	Name     string
	Country  string // ISO 3166-1 alpha-2
	Timezone string // IANA zone name
	Location *time.Location
}

var (
	countryByKey = map[string]string{}  // folded code or name → code; immutable after init
	countryNames = map[string]string{}  // code → English short name; immutable after init
	cityByKey    = map[string][]*City{} // folded name → cities of that name; immutable after init
)

func init() {
	for _, f := range rows(countriesTSV) {
		code := f[0]
		countryNames[code] = f[1]
		for _, n := range f {
			countryByKey[engine.Fold(n)] = code
		}
	}
	for _, f := range rows(citiesTSV) {
		if len(f) < 4 {
			panic(fmt.Sprintf("places: cities.tsv: short row %q", f))
		}
		loc, err := time.LoadLocation(f[3])
		if err != nil {
			panic(fmt.Sprintf("places: cities.tsv: %s: %v", f[0], err))
		}
		if _, ok := countryNames[f[2]]; !ok {
			panic(fmt.Sprintf("places: cities.tsv: %s: unknown country %q", f[0], f[2]))
		}
		c := &City{Slug: f[0], Name: f[1], Country: f[2], Timezone: f[3], Location: loc}
		for _, n := range append([]string{f[1]}, f[4:]...) {
			k := engine.Fold(n)
			if l := cityByKey[k]; len(l) == 0 || l[len(l)-1] != c {
				cityByKey[k] = append(l, c)
			}
		}
	}
}

func rows(tsv string) [][]string {
	var out [][]string
	for _, line := range strings.Split(tsv, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		out = append(out, strings.Split(line, "\t"))
	}
	return out
}

// Country returns the ISO 3166-1 alpha-2 code for a code or a country name, and whether it
// is known.
func Country(s string) (string, bool) {
	k := engine.Fold(s)
	if len(k) == 2 {
		code := strings.ToUpper(k)
		if _, ok := countryNames[code]; ok {
			return code, true
		}
	}
	code, ok := countryByKey[k]
	return code, ok
}

// CountryName returns the English short name of an ISO code, or "" when unknown.
func CountryName(code string) string { return countryNames[code] }

// LookupCity finds a city by one of its names, within country when country is not empty.
// It fails when the name is unknown, or names cities in several countries and no country
// narrows it.
func LookupCity(name, country string) (*City, error) {
	cs := cityByKey[engine.Fold(name)]
	var found *City
	for _, c := range cs {
		if country != "" && c.Country != country {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("city %q is ambiguous without a country", name)
		}
		found = c
	}
	if found == nil {
		if country != "" && len(cs) > 0 {
			return nil, fmt.Errorf("no city %q in country %s", name, country)
		}
		return nil, fmt.Errorf("unknown city %q", name)
	}
	return found, nil
}
