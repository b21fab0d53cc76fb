package places

import (
	"fmt"
	"strings"
	"unicode"
)

// Japanese, Chinese and Korean addresses name a place from its largest unit down, each
// name followed by the word for its kind, often with no space between: "東京都渋谷区" (the
// Tokyo metropolis, Shibuya ward), "大阪市北区" (Osaka city, Kita ward), "北京市朝阳区"
// (Beijing, Chaoyang district), "서울특별시 마포구" (Seoul special city, Mapo district), and
// romanized "Shibuya-ku", "Osaka-shi", "Suwon-si". A ward is a district of its city: the
// city is the one named before it, else the city its region is (Tokyo's wards lie in the
// metropolis itself; Seoul, Busan and Beijing are regions of their own). A ward that names
// no city, before it or as its region, is not read: many cities have a 北区 (Kita ward),
// and a ward is no town to be made.

// byUnits is a Reading's By when the town was found by the units of an East Asian address.
const byUnits = "the city its address's units name (prefecture, city, ward)"

// The words for the kinds of units, in the scripts and romanizations addresses use.
var (
	// wardUnits end a ward's or district's name.
	wardUnits = [...]string{"区", "區", "구", "-ku", "-gu"}
	// cityUnits end a city's name; the longer Korean ones first.
	cityUnits = [...]string{"특별자치시", "특별시", "광역시", "市", "시", "-shi", "-si"}
	// cityRegionUnits end the name of a region that is a city: the Tokyo metropolis,
	// Korea's special and metropolitan cities, China's municipalities.
	cityRegionUnits = [...]string{"都", "특별자치시", "특별시", "광역시", "市"}
	// prefectures are the Japanese prefectures not named with 県, written first in an
	// address on one line; 県 (prefecture) and 省 (province) end the others.
	prefectures = [...]string{"東京都", "北海道", "大阪府", "京都府"}
)

// minCityRegion is how many people a city must have for a ward to be read as in it when
// the region is the city's name without its unit ("Shibuya-ku, Tokyo").
const minCityRegion = 1000000

// eastAsian returns the city of the country (any when "") an East Asian address names
// with its units (see above), and nil when the locality is not written so or names no
// city; it fails when the locality is a ward that names no city.
func (g *Gazetteer) eastAsian(p Place, name, country string) (*City, error) {
	if !unitsWritten(name, country) {
		return nil, nil
	}
	name = upToWard(name) // "東京都渋谷区代官山町20-17" (eastasiaaddr.go)
	var buf [maxWords]string
	parts := unitParts(buf[:0], name)
	if len(parts) == 0 {
		return nil, nil
	}
	last := parts[len(parts)-1]
	for _, part := range parts {
		if u := unitOf(part, cityUnits[:]); u != "" && (part != last || len(parts) == 1) {
			return g.oneNamed(country, part, strings.TrimSuffix(part, u)), nil
		}
	}
	if unitOf(last, wardUnits[:]) == "" {
		return g.oneNamed(country, last, strings.TrimSuffix(last, unitOf(last, cityUnits[:]))), nil
	}
	// A ward: in the city its prefecture or region is.
	region := p.Region
	if len(parts) > 1 {
		region = parts[len(parts)-2]
	}
	if u := unitOf(region, cityRegionUnits[:]); u != "" {
		if c := g.oneNamed(country, region, strings.TrimSuffix(region, u)); c != nil {
			return c, nil
		}
	} else if c := g.oneNamed(country, region, ""); c != nil && c.Population >= minCityRegion {
		return c, nil
	}
	return nil, fmt.Errorf("venue in %q: a ward, and no city is named for it", name)
}

// oneNamed returns the only city of the country (any when "") named a, else b ("" is no
// name); nil when none or several are.
func (g *Gazetteer) oneNamed(country, a, b string) *City {
	for _, name := range [2]string{a, b} {
		if strings.TrimSpace(name) == "" {
			continue
		}
		var one *City
		for _, c := range g.CitiesNamed(name) {
			if country != "" && c.Country != country {
				continue
			}
			if one != nil {
				return nil
			}
			one = c
		}
		if one != nil {
			return one
		}
	}
	return nil
}

// unitsWritten reports whether a locality may be written with East Asian units: it holds
// a Han or Hangul letter, or, in Japan or Korea (or a country not known), ends in a
// romanized unit.
func unitsWritten(s, country string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	switch country {
	case "", "JP", "KR":
		return unitOf(s, wardUnits[:]) != "" || unitOf(s, cityUnits[:]) != ""
	}
	return false
}

// unitOf returns the unit of units that ends s after a name (the romanized ones in any
// case), or "".
func unitOf(s string, units []string) string {
	for _, u := range units {
		if len(s) > len(u) && (strings.HasSuffix(s, u) || u[0] == '-' && strings.EqualFold(s[len(s)-len(u):], u)) {
			return s[len(s)-len(u):]
		}
	}
	return ""
}

// unitParts appends to out the units of a locality, largest first: its words when it has
// several ("서울특별시 마포구"), else the locality cut after a prefecture or province written
// first and after the first city with more after it ("東京都渋谷区", "大阪市北区",
// "广东省广州市天河区").
func unitParts(out []string, s string) []string {
	var words [maxWords]word
	f := wordsOf(words[:0], s)
	if len(f) != 1 {
		for _, w := range f {
			out = append(out, w.of(s))
		}
		return out
	}
	s = f[0].of(s)
	cut := func(n int) {
		out, s = append(out, s[:n]), s[n:]
	}
	for _, pref := range prefectures {
		if strings.HasPrefix(s, pref) && len(s) > len(pref) {
			cut(len(pref))
			break
		}
	}
	if len(out) == 0 {
		if i := strings.IndexAny(s, "県省"); i > 0 && i+len("県") < len(s) {
			cut(i + len("県"))
		}
	}
	if i := strings.Index(s, "市"); i > 0 && i+len("市") < len(s) {
		cut(i + len("市"))
	}
	return append(out, s)
}
