package engine

import (
	_ "embed"
	"strings"
	"sync"
)

// The ISO 3166-1 countries, with their names in many languages and their currencies
// (countries.tsv beside this file, written by loader/places/gen): the vocabulary of every
// gig's country, of the API's country filter, and of the places sources name.
//
//go:embed countries.tsv
var countriesTSV string

// Country is one ISO 3166-1 country.
type Country struct {
	Code     string // alpha-2, upper case
	Alpha3   string
	Name     string // English short name
	Currency string // ISO 4217, the currency prices there are in unless a source says
}

type countryTable struct {
	byCode map[string]Country // alpha-2 → country
	byKey  map[string]string  // folded alpha-2, alpha-3 or name → alpha-2
}

var countries = sync.OnceValue(func() *countryTable {
	t := &countryTable{byCode: map[string]Country{}, byKey: map[string]string{}}
	for _, line := range strings.Split(countriesTSV, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		c := Country{Code: f[0], Alpha3: f[1], Name: f[2], Currency: f[3]}
		t.byCode[c.Code] = c
		for _, n := range append([]string{c.Code, c.Alpha3, c.Name}, f[4:]...) {
			if k := Fold(n); k != "" {
				if _, taken := t.byKey[k]; !taken || n == c.Code || n == c.Alpha3 {
					t.byKey[k] = c.Code
				}
			}
		}
	}
	return t
})

// LookupCountry returns the country of an ISO 3166-1 alpha-2 code (upper case).
func LookupCountry(code string) (Country, bool) {
	c, ok := countries().byCode[code]
	return c, ok
}

// CountryCode returns the alpha-2 code of a country named by its alpha-2 or alpha-3 code or
// by a name in one of many languages ("UK", "USA", "Deutschland", "Czechia"), any case and
// accents, and whether there is one.
func CountryCode(name string) (string, bool) { return CountryCodeBytes([]byte(name)) }

// CountryCodeBytes is CountryCode for a name in bytes; it allocates nothing.
func CountryCodeBytes(name []byte) (string, bool) {
	var buf [64]byte
	if len(name) > len(buf) {
		return "", false
	}
	k := AppendFold(buf[:0], name)
	code, ok := countries().byKey[string(k)]
	return code, ok
}
