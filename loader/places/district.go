package places

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/gigs/gigs/engine"
)

// A locality often names a city together with one of its districts, in a form each country
// has its own of: Copenhagen's and the larger Danish towns' postal districts ("København K",
// "Frederiksberg C", "Aarhus C", "Aalborg Ø"), a district's Roman numeral ("Budapest XIII.",
// "Budapest XIII. kerület"), an arrondissement spelled out ("Paris 11e Arrondissement"), or
// a district joined to a large city by a hyphen ("Berlin-Kreuzberg", "Warszawa-Mokotów"),
// or the word for a city's centre before or after it ("Downtown Los Angeles", "Midtown
// Manhattan", "Central London", "Oslo Sentrum", "Madrid Centro"). Such a locality is the
// city: never a town of its own made in the city's country.
//
// Each form is a row of districtRules. A rule only reads a name the gazetteer does not
// know as it is written, and only when what is left names exactly one city of the rule's
// kind in the country (see Gazetteer.district): a name it leaves in doubt is not read.

// byDistrict is a Reading's By when the town was found by its name before a district.
const byDistrict = "the city named before its district"

// districtRule reads a locality that names a city and one of its districts.
type districtRule struct {
	name string
	// city returns the city's name in s, or "" when s is not written in the rule's form.
	city func(s string) string
	// country is the only country whose cities the rule reads ("": any).
	country string
	// large is how many people the city must have at least: districts written so are
	// those of large cities, and a small town of that name is another place.
	large int
	// strict: the city must be the only town of its name in its country; else a namesake
	// there with a quarter of its people or fewer does not stand in the way (Frederiksberg
	// by Copenhagen, 95,000 people, and a village of 3,000 in Jutland).
	strict bool
	// except lists the countries, space-separated, whose cities the rule does not read;
	// a rule with a list reads no locality whose country is not stated.
	except string
}

var districtRules = [...]districtRule{
	// Danish postal districts: one or two capitals of the compass or the centre after the
	// town ("København K", "København NV", "Aarhus C", "Odense SØ").
	{"Danish postal district", func(s string) string {
		city, last := lastWord(s)
		switch last {
		case "C", "K", "M", "N", "S", "V", "J", "Ø", "NV", "NØ", "SV", "SØ":
			return city
		}
		return ""
	}, "DK", 0, false, ""},
	// A district's Roman numeral, with a dot, and the word for district after it
	// ("Budapest XIII.", "Budapest XIII. kerület", "Wien XV. Bezirk").
	{"district numeral", func(s string) string {
		city, last := lastWord(s)
		for _, w := range [...]string{"kerület", "ker.", "bezirk", "district"} {
			if strings.EqualFold(last, w) {
				city, last = lastWord(city)
				break
			}
		}
		if !romanNumeral(strings.TrimSuffix(last, ".")) {
			return ""
		}
		return city
	}, "", MajorCity, false, ""},
	// An arrondissement spelled out after its number ("Paris 11e Arrondissement", "Lyon
	// 7ème arrondissement"); the number alone ("Paris 11e") is dropped as postcodes are.
	{"arrondissement", func(s string) string {
		city, last := lastWord(s)
		if !strings.EqualFold(last, "arrondissement") {
			return ""
		}
		city, n := lastWord(city)
		if !hasDigit(n) || strings.TrimLeft(n, "0123456789") == n {
			return ""
		}
		return city
	}, "", MajorCity, false, ""},
	// A district joined to its city by a hyphen ("Berlin-Kreuzberg", "Hamburg-Altona",
	// "Warszawa-Mokotów"): only a large city's, as towns joined so are often one town of
	// two names ("Garmisch-Partenkirchen"), which the gazetteer knows whole.
	{"hyphenated district", func(s string) string {
		i := strings.IndexByte(s, '-')
		if i <= 0 || i == len(s)-1 || strings.ContainsRune(s[:i], ' ') || !unicode.IsUpper(firstRune(s[i+1:])) {
			return ""
		}
		return s[:i]
	}, "", 250000, true, ""},
	// The word for a city's centre before or after its name ("Downtown Los Angeles",
	// "Uptown Charlotte", "Central London", "Oslo Sentrum", "Helsinki keskusta", "Madrid
	// Centro"): only a city of MajorCity people or more, as a small town of the name is
	// another place; a place the gazetteer knows whole ("East London", "Central Point",
	// "Centro" alone) is never read so, as no rule reads a name the gazetteer knows.
	{"city centre", func(s string) string {
		first, rest, _ := strings.Cut(s, " ")
		if rest != "" && slices.ContainsFunc(centreBefore, func(w string) bool { return strings.EqualFold(w, first) }) {
			return rest
		}
		city, last := lastWord(s)
		if slices.ContainsFunc(centreAfter, func(w string) bool { return strings.EqualFold(w, last) }) {
			return city
		}
		// "Centre" and "Center" name a city's centre in English only after "City" ("Leeds
		// City Centre"): "Lincoln Center" and "Houston Center" are buildings.
		if strings.EqualFold(last, "centre") || strings.EqualFold(last, "center") {
			if city, word := lastWord(city); strings.EqualFold(word, "city") {
				return city
			}
		}
		return ""
	}, "", MajorCity, false, ""},
	// "Centre" alone after a city, as French writes a city's centre ("Alger Centre",
	// "Marseille Centre"): not where English is written, whose "X Centre" is a building
	// ("Rogers Centre", "Lincoln Centre"), nor in a country the place does not state.
	{"centre after a city", func(s string) string {
		city, last := lastWord(s)
		if strings.EqualFold(last, "centre") {
			return city
		}
		return ""
	}, "", MajorCity, false, "US GB CA AU NZ IE"},
}

// centreBefore are the words before a city's name that name its centre or a part of it
// ("Downtown Los Angeles", "Midtown Manhattan"); centreAfter those after it ("Oslo
// Sentrum", "Madrid Centro", "Köln Innenstadt"), compared without case; "City Centre"
// and "City Center" are read apart.
var (
	centreBefore = []string{"downtown", "uptown", "midtown", "central", "inner"}
	centreAfter  = []string{"downtown", "centro", "centrum", "zentrum", "innenstadt", "sentrum", "keskusta"}
)

// district returns the city of the country a locality names with one of its districts
// (districtRules); nil when no rule reads it, or when the rest names no city of the rule's
// size in the country, or one with a namesake in its country. country "" is any country:
// the city then also tells the country, when it is the only one of its name and size.
func (g *Gazetteer) district(locality, country string) *City {
	name := strings.TrimSpace(locality)
	if len(name) > maxPlaces || !strings.ContainsAny(name, " -") {
		return nil
	}
	for _, r := range districtRules {
		if r.country != "" && country != "" && r.country != country ||
			r.except != "" && (country == "" || strings.Contains(r.except, country)) {
			continue
		}
		city := strings.TrimSpace(r.city(name))
		if city == "" {
			continue
		}
		if c := g.onlyLarge(city, cmp.Or(r.country, country), r.large, r.strict); c != nil {
			return c
		}
	}
	return nil
}

// districtIn returns the city g.district reads a locality as, when it is in the region
// the place states: a district's reading never crosses a stated region ("Lincoln Center,
// NY" is not Lincoln, Nebraska). A region the gazetteer does not know for the country
// (another scheme: "75" for Paris) does not stand in the way.
func (g *Gazetteer) districtIn(locality, country, region string) *City {
	c := g.district(locality, country)
	if c == nil || region == "" || g.regionCode(c.Country, region) == "" {
		return c
	}
	var buf [64]byte
	if !c.inRegion(engine.AppendFold(buf[:0], []byte(region))) {
		return nil
	}
	return c
}

// onlyLarge returns the most populous city of the name in the country ("": in any, when no
// city of that name and size is in another), of at least large people, when no other town
// of that name is in its country, or (not strict) none with more than a quarter of its
// people; else nil.
func (g *Gazetteer) onlyLarge(name, country string, large int, strict bool) *City {
	found := g.CitiesNamed(name)
	var one *City
	for _, c := range found {
		if country != "" && c.Country != country || c.Population < large {
			continue
		}
		if one == nil {
			one = c // the most populous: found lists them so
		} else if c.Country != one.Country {
			return nil // of that size in two countries: the district does not tell which
		}
	}
	if one == nil {
		return nil
	}
	for _, c := range found {
		if c != one && c.Country == one.Country && (strict || c.Population*4 > one.Population) {
			return nil // a namesake in its country: the district does not tell which
		}
	}
	return one
}

// lastWord splits s at its last space: the words before it, trimmed, and the last word.
func lastWord(s string) (rest, last string) {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return "", s
	}
	return strings.TrimRightFunc(s[:i], unicode.IsSpace), s[i+1:]
}

// firstRune returns the first rune of s, or 0.
func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

// romanNumeral reports whether s is a Roman numeral from I to XXXIX in capitals, as
// districts are numbered.
func romanNumeral(s string) bool {
	if s == "" || len(s) > 7 {
		return false
	}
	tens := strings.TrimLeft(s, "X")
	if len(s)-len(tens) > 3 {
		return false
	}
	switch tens {
	case "", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX":
		return true
	}
	return false
}
