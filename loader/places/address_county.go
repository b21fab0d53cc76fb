package places

import (
	"strings"
	"unicode"
)

// countyAfterTown drops, of a line whose country is known, a last part left that names no
// town or village of the country after one that does: a county after its town, in a
// scheme the gazetteer's regions (England, Scotland, Wales) do not name: "Much Wenlock,
// Shropshire, UK" is in Much Wenlock, "Wem, Shrewsbury, Shropshire, UK" in Wem (near the
// larger Shrewsbury: townBeforePlace). Without it the county was read as a town the
// gazetteer lacks, and made.
func countyAfterTown(g *Gazetteer, r *lineReading) bool {
	n := len(r.rest)
	if r.town || n < 2 || r.q.Country == "" {
		return false
	}
	country, ok := countryCode(r.q.Country)
	if !ok {
		return false
	}
	county, town := stripPostal(r.rest[n-1]), stripPostal(r.rest[n-2])
	if hasDigit(county) || hasDigit(town) || strings.IndexFunc(county, unicode.IsLower) < 0 || g.regionCode(country, county) != "" {
		return false // a code, or a region the rules after read
	}
	if _, isCountry := countryCode(county); !isCountry && !g.namedIn(county, country) && g.namedIn(town, country) {
		r.rest = r.rest[:n-1]
	}
	return false
}

// namedIn reports whether a town or village of the gazetteer bears the name in the country.
func (g *Gazetteer) namedIn(name, country string) bool {
	for _, c := range g.allNamed(name) {
		if c.Country == country {
			return true
		}
	}
	return false
}
