package places

import (
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/gigs/gigs/engine"
)

// Country names beyond engine's table (engine.CountryCode: codes, English names and names
// in some 80 languages written in Latin letters): the names of every country in every
// language the Unicode CLDR names regions in, in their own scripts (Россия, Deutschland,
// Ελλάδα, 日本, 대한민국, مصر, ישראל), as golang.org/x/text/language/display carries
// them (CLDR data, Unicode License v3; x/text BSD-3-Clause), and the abbreviations people
// write that no standard lists (the Spanish "EEUU" and "EE.UU." of the United States).

// countryAbbreviations are common written abbreviations of country names, in the
// languages that use them, and short names, that are neither ISO codes nor CLDR names.
var countryAbbreviations = []struct{ name, code string }{
	{"EEUU", "US"}, // Spanish: Estados Unidos ("EE.UU.", "EE. UU." fold to "ee uu")
	{"EE.UU.", "US"},
	{"E.U.A.", "US"}, // Portuguese and Catalan: Estados Unidos da América, Estats Units d'Amèrica
	{"EUA", "US"},
	{"KSA", "SA"},  // Kingdom of Saudi Arabia
	{"PRC", "CN"},  // People's Republic of China
	{"ROK", "KR"},  // Republic of Korea
	{"DPRK", "KP"}, // Democratic People's Republic of Korea
	// The State of Palestine's own short name in Arabic (ISO 3166-1's local short name,
	// Filasṭīn), which CLDR writes otherwise ("الأراضي الفلسطينية").
	{"فلسطين", "PS"},
}

// minCountryKey is the shortest folded CLDR name kept, in bytes: shorter ones (Vietnamese
// "Ý" for Italy, "Mỹ" for the United States) are words and codes of other things.
const minCountryKey = 4

// localCountries maps folded country names that engine's table lacks to ISO 3166-1
// alpha-2 codes, made on first use. A name CLDR gives two countries in different
// languages is left out: it names neither for sure. So is a name that is also a
// gazetteer town's, not only a village's (minTown): the Arabic عمان is Oman and Amman,
// تونس Tunisia and Tunis, the Russian Сальвадор El Salvador and Salvador; a place that
// ends in it is the city, as it was before these names were read (the English and Latin-letter names of engine's
// table are read as countries first, as they always were).
var localCountries = sync.OnceValue(func() map[string]string { return localNames().countries })

// townCountries maps the folded country names localCountries leaves out for a gazetteer
// town's to the country each names (when CLDR gives it one country), made on first use: a
// town of that country before the name tells that the name is the country's ("Nablus,
// فلسطين" is in Palestine, not in Palestine, Texas; townCountry).
var townCountries = sync.OnceValue(func() map[string]string { return localNames().towns })

// localNameTables are localCountries' and townCountries' maps.
type localNameTables struct{ countries, towns map[string]string }

// localNames makes localCountries' and townCountries' maps, once.
var localNames = sync.OnceValue(func() localNameTables {
	m := map[string]string{}
	towns := map[string]string{}
	clash := map[string]bool{}
	g := Default()
	var buf []byte
	add := func(name, code string) {
		buf = engine.AppendFold(buf[:0], []byte(name))
		if len(buf) < minCountryKey || clash[string(buf)] {
			return
		}
		if _, ok := engine.CountryCodeBytes(buf); ok {
			return // engine's table names it already: its answer stands
		}
		if cs := g.byName.lookup(buf); len(cs) > 0 && !cs[0].village() {
			clash[string(buf)] = true // a town's name: the town's (a village's is the country's)
			if c, ok := towns[string(buf)]; !ok {
				towns[string(buf)] = code
			} else if c != code {
				towns[string(buf)] = "" // two countries' names: neither's
			}
			return
		}
		switch c, ok := m[string(buf)]; {
		case !ok:
			m[string(buf)] = code
		case c != code:
			delete(m, string(buf))
			clash[string(buf)] = true
		}
	}
	for _, a := range countryAbbreviations {
		if k := engine.Fold(a.name); k != "" {
			m[k] = a.code
		}
	}
	codes := isoCodes()
	regions := make([]language.Region, len(codes))
	for i, code := range codes {
		regions[i], _ = language.ParseRegion(code)
	}
	for _, t := range display.Supported.Tags() {
		namer := display.Regions(t)
		if namer == nil {
			continue
		}
		for i, r := range regions {
			if name := namer.Name(r); name != "" {
				add(name, codes[i])
			}
		}
	}
	return localNameTables{countries: m, towns: towns}
})

// townCountry returns the country a name a gazetteer town bears names too, in a language
// and script engine's table lacks (see townCountries), and whether it names one.
func townCountry(name string) (string, bool) {
	var buf [64]byte
	if len(name) > len(buf) {
		return "", false
	}
	code := townCountries()[string(engine.AppendFold(buf[:0], []byte(name)))]
	return code, code != ""
}

// isoCodes are the alpha-2 codes of engine's countries.
func isoCodes() []string {
	var out []string
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			if c, ok := engine.LookupCountry(string([]rune{a, b})); ok {
				out = append(out, c.Code)
			}
		}
	}
	return out
}

// countryCode returns the alpha-2 code of a country named by its code or by a name in
// any language and script (engine.CountryCode, then the names above), with or without the
// English article, and whether there is one. It allocates nothing.
func countryCode(name string) (string, bool) {
	if code, ok := engine.CountryCode(name); ok {
		return code, true
	}
	// English writes some countries with the article: "the UK", "the Netherlands".
	if len(name) > 4 && strings.EqualFold(name[:4], "the ") {
		if code, ok := engine.CountryCode(name[4:]); ok {
			return code, true
		}
	}
	var buf [64]byte
	if len(name) > len(buf) {
		return "", false
	}
	k := engine.AppendFold(buf[:0], []byte(name))
	if len(k) < 2 {
		return "", false
	}
	code, ok := localCountries()[string(k)]
	return code, ok
}
