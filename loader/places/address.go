package places

import (
	"math"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/engine"
)

// An address written on one line ("venue, street, postcode town, region, country") is read
// in two steps, each an ordered table of named rules (address_rules.go):
//
//   - Split cuts a line whose first part is the venue's name (a calendar's LOCATION) into
//     the venue's name, its street, postal codes written on their own, the locality and a
//     country written by its name, without the gazetteer (splitRules);
//   - Locate reads a locality written on one line ("Portland, OR 97212", "1017 SG
//     Amsterdam, NL", a page's address text "Lynn, MA, 01901") from its end, with the
//     gazetteer: its town, region and country, in one or more readings tried in turn
//     (readingRules).
//
// A new case is a row of a table and a line of testdata/addresses.good.txt or
// addresses.bad.txt, not a branch.

// Address is a line split into its parts; any part may be empty.
type Address struct {
	Name     string // the venue's name: the line's first part
	Street   string // the street and its number: the second part, when it holds a digit
	Postcode string // postal codes written on their own at the end, dropped from the locality
	Locality string // the rest: an address on one line still, for Gazetteer.Locate ("Portland, OR 97212")
	Country  string // a country's name ending the line, or its name or code after the name alone
}

// Split splits a line that names a venue first ("venue, street, postcode town, region,
// country") into its parts by the rules of splitRules, applied in order until one has read
// the whole line. The region is not split off: which part is a region, and of which country,
// takes the gazetteer (see Gazetteer.Locate). The line is not modified.
func Split(line string) Address {
	s := lineSplit{line: line}
	for _, r := range splitRules {
		if r.apply(&s) {
			break
		}
	}
	return s.a
}

// lineSplit is what the rules of splitRules work on.
type lineSplit struct {
	line  string   // the line, as the rules before the cut leave it
	parts []string // the parts not yet read: trimmed, none empty; nil until the line is cut
	a     Address  // the parts read
}

// splitRule is a rule of Split: apply reads what it can of s and reports whether the whole
// line is read (the rules after it are not applied).
type splitRule struct {
	name  string
	apply func(s *lineSplit) bool
}

// readings appends to out the ways to read a place whose locality may be an address on
// one line, in the order Locate tries them, by the rules of readingRules applied in order
// until one has made them.
func (g *Gazetteer) readings(out []Place, p Place) []Place {
	r := lineReadings.Get().(*lineReading)
	*r = lineReading{p: p}
	r.parts, r.out = r.partsRoom[:0], r.outRoom[:0]
	r.regionFirst, r.regionCity = r.firstRoom[:0], r.cityRoom[:0]
	for _, rule := range readingRules {
		if rule.apply(g, r) {
			break
		}
	}
	out = append(out, r.out...)
	*r = lineReading{} // nothing of the place is kept while r waits in the pool
	lineReadings.Put(r)
	return out
}

// lineReadings holds the lineReadings of finished look-ups for the next: the rules' table
// calls each rule through a function value, so the state they share would otherwise be
// allocated on every look-up.
var lineReadings = sync.Pool{New: func() any { return new(lineReading) }}

// lineReading is what the rules of readingRules work on.
type lineReading struct {
	p     Place    // the place as stated; its locality is the line
	parts []string // the line's parts: trimmed, none empty, postal codes alone at the end dropped
	rest  []string // the parts not yet read: the first of parts
	q     Place    // the reading of the line from its end
	// town reports whether q's locality is read.
	town bool
	// regionFirst is the reading of the line's last part as a region and the part before
	// as its town, tried before q.
	regionFirst []Place
	// regionCity is the reading of a region's name ending the line as its city's, tried
	// after q.
	regionCity []Place
	out        []Place // the readings, once a rule has made them
	// lastCountry and lastIsCountry are endsInCountry's answer, once lastRead.
	lastCountry             string
	lastIsCountry, lastRead bool

	// Room for the slices above, for a line of up to maxParts parts.
	partsRoom           [maxParts]string
	firstRoom, cityRoom [1]Place
	outRoom             [3]Place
}

// maxParts is how many parts of a line a lineReading has room for; a line of more grows
// its slice.
const maxParts = 8

// readingRule is a rule of Gazetteer.readings: apply reads what it can of r and reports
// whether r.out holds the readings (the rules after it are not applied).
type readingRule struct {
	name  string
	apply func(g *Gazetteer, r *lineReading) bool
}

// stated reports whether the place states its region and its country beside the line.
func (r *lineReading) stated() bool { return r.p.Country != "" && r.p.Region != "" }

// endsInCountry returns the country's code the line's last part names, and whether it
// names one: by its name or code, or by its name after a postal code ("70101 Costa
// Rica"), unless that name is a gazetteer town's of the country ("2016 Luxembourg",
// "1000 Tunis": the city); a country's name a town bears too names the country after a
// town of that country. The rules after postcodesLast ask it of the same part: it is
// looked up once.
func (r *lineReading) endsInCountry(g *Gazetteer) (string, bool) {
	if !r.lastRead {
		last := r.parts[len(r.parts)-1]
		name := countryPart(last)
		r.lastCountry, r.lastIsCountry = countryCode(name)
		if r.lastIsCountry && name != last && g.hasNamesake(name, r.lastCountry) {
			r.lastCountry, r.lastIsCountry = "", false
		}
		// A country's name a town bears too, after a town of that country: the country
		// ("Nablus, فلسطين"; countrynames.go).
		if !r.lastIsCountry && len(r.parts) > 1 && !hasDigit(name) {
			if c, ok := townCountry(name); ok && g.hasNamesake(stripPostal(r.parts[len(r.parts)-2]), c) {
				r.lastCountry, r.lastIsCountry = c, true
			}
		}
		r.lastRead = true
	}
	return r.lastCountry, r.lastIsCountry
}

// countryPart returns a line's last part without the postal code written before a
// country's name ("70101 Costa Rica", "AI-2640 Anguilla"): the name, for countryCode.
func countryPart(part string) string {
	if !startsWithPostcode(part) {
		return part
	}
	return stripPostal(part)
}

// commaParts appends to out the parts of line between its commas, trimmed, without empty
// ones.
func commaParts(out []string, line string) []string {
	for part := range strings.SplitSeq(line, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// asRegion reads the last of parts as p's region and the one before as its locality,
// when p has no region and the last part names a region of the US, Canada or Australia;
// not when a postal code alone comes before it ("…, ON, M5V 2T6, CA" ends in a country),
// nor when a region's code does and the line has more parts ("town, region's code,
// country's code": "Gander, NL, CA", "Frankfurt, HE, DE", "Almere, FL, NL"; "NY, NY
// 10002" is New York).
func (g *Gazetteer) asRegion(p Place, parts []string) (Place, bool) {
	if p.Region != "" || len(parts) < 2 {
		return p, false
	}
	r := regionPart(parts[len(parts)-1])
	before := parts[len(parts)-2]
	if len(parts) > 2 && isCounty(before) {
		before = parts[len(parts)-3] // "Springfield, Sangamon County, IL": the town before its county
	}
	if g.regionsNamed(r) == nil || postalOnly(before) {
		return p, false
	}
	if _, ok := countryCode(r); ok && isCode(regionPart(before)) && len(parts) > 2 {
		return p, false
	}
	p.Region, p.Locality = r, g.townOf(before)
	return p, true
}

// regionPart is a region code or name with a postal code after it dropped ("TX 78701").
func regionPart(s string) string {
	if !hasDigit(s) && spacedOnce(s) {
		return s // most parts: nothing to drop or join, and nothing to allocate
	}
	var buf [maxWords]word
	f := wordsOf(buf[:0], s)
	for len(f) > 1 && f[len(f)-1].hasDigit(s) {
		f = f[:len(f)-1]
	}
	return joinWords(s, f)
}

// stripPostal drops the words holding digits at either end of a locality ("10115 Berlin",
// "Leeds LS1 3AA"), and a Dutch postcode's letters ("1017 SG Amsterdam").
func stripPostal(s string) string {
	if !hasDigit(s) && spacedOnce(s) {
		return s // most localities: nothing to drop or join, and nothing to allocate
	}
	var buf [maxWords]word
	f := wordsOf(buf[:0], s)
	if len(f) > 0 {
		if i := joinedPostcode(f[0].of(s)); i > 0 {
			f[0].start += i // a postcode joined to the town: "7600-Praia", "01004-Guatemala City"
		}
	}
	for len(f) > 1 && f[0].hasDigit(s) {
		if len(f) > 2 && dutchPostcode(f[0].of(s), f[1].of(s)) {
			f = f[1:] // a Dutch postcode's letters: "1017 SG Amsterdam"
		}
		f = f[1:]
	}
	for len(f) > 1 && f[len(f)-1].hasDigit(s) {
		f = f[:len(f)-1]
	}
	// A British postcode's second half has a digit; its first ("LS1") too.
	for len(f) > 1 && f[len(f)-1].hasDigit(s) {
		f = f[:len(f)-1]
	}
	return joinWords(s, f)
}

// postalOnly reports whether s is a postal code alone: a Dutch one ("1017 SG"), or at most
// two words of at most ten bytes, each with a digit ("01901", "LS1 3AA", "J2S 9E2").
func postalOnly(s string) bool {
	if !hasDigit(s) {
		return false
	}
	var buf [maxWords]word
	f := wordsOf(buf[:0], s)
	if len(f) == 2 && dutchPostcode(f[0].of(s), f[1].of(s)) {
		return true
	}
	if len(f) == 0 || len(f) > 2 || len(s) > 10 {
		return false
	}
	for _, w := range f {
		if !w.hasDigit(s) || joinedPostcode(w.of(s)) > 0 {
			return false
		}
	}
	return true
}

// joinedPostcode returns where the town's name starts in a word that is a postcode joined
// to it by a hyphen ("7600-Praia": 5), else 0: digits, a hyphen, then three letters or
// more and no digit ("CH-8001", "01310-100" and "AI-2640" are postcodes alone).
func joinedPostcode(w string) int {
	i := strings.IndexByte(w, '-')
	if i <= 0 || !hasDigit(w[:i]) || hasDigit(w[i+1:]) || len(w)-i-1 < 3 {
		return 0
	}
	for _, c := range w[:i] {
		if c < '0' || c > '9' {
			return 0
		}
	}
	return i + 1
}

// maxWords is how many words of a part wordsOf finds room for on the stack; a part of
// more (rare) grows its slice.
const maxWords = 8

// word is a word of a string s: s[start:end].
type word struct{ start, end int }

func (w word) of(s string) string     { return s[w.start:w.end] }
func (w word) hasDigit(s string) bool { return hasDigit(w.of(s)) }

// wordsOf appends to out the words of s, split where strings.Fields splits them (at
// unicode.IsSpace).
func wordsOf(out []word, s string) []word {
	start := -1
	for i, r := range s {
		switch {
		case isSpace(r) && start >= 0:
			out, start = append(out, word{start, i}), -1
		case !isSpace(r) && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, word{start, len(s)})
	}
	return out
}

// joinWords returns the words f of s joined by single spaces, as strings.Join of their
// strings.Fields would: a slice of s, without allocating, when they are so joined in s.
func joinWords(s string, f []word) string {
	if len(f) == 0 {
		return ""
	}
	span, n := s[f[0].start:f[len(f)-1].end], len(f)-1
	for _, w := range f {
		n += w.end - w.start
	}
	if n == len(span) && spacedOnce(span) {
		return span
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range f {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.of(s))
	}
	return b.String()
}

// startsWithPostcode reports whether a part's first word holds a digit ("25596 Wacken").
func startsWithPostcode(part string) bool {
	first := strings.TrimLeftFunc(part, unicode.IsSpace)
	if i := strings.IndexFunc(first, unicode.IsSpace); i >= 0 {
		first = first[:i]
	}
	return hasDigit(first)
}

// spacedOnce reports whether s is its words joined by single ASCII spaces, with none at
// either end: what strings.Join(strings.Fields(s), " ") returns unchanged.
func spacedOnce(s string) bool {
	prev := ' '
	for _, r := range s {
		if isSpace(r) && (r != ' ' || prev == ' ') {
			return false
		}
		prev = r
	}
	return prev != ' '
}

// isSpace is unicode.IsSpace, without a call for ASCII.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

// hasDigit reports whether s holds a digit: an ASCII one, or an Arabic-Indic one.
func hasDigit(s string) bool {
	for i := range len(s) {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			return true
		case (c == 0xD9 || c == 0xDB) && i+1 < len(s) && arabicDigit(c, s[i+1]):
			return true
		}
	}
	return false
}

// arabicDigit reports whether the UTF-8 bytes lead, next begin an Arabic-Indic digit
// (U+0660 to U+0669, "٣١٦") or an Extended Arabic-Indic one (U+06F0 to U+06F9, Persian
// and Urdu "۱۱۹"): Arabic addresses write their postcodes and numbers so.
func arabicDigit(lead, next byte) bool {
	return lead == 0xD9 && 0xA0 <= next && next <= 0xA9 || lead == 0xDB && 0xB0 <= next && next <= 0xB9
}

// dutchPostcode reports whether two words are a Dutch postcode: four digits and two
// capitals.
func dutchPostcode(digits, letters string) bool {
	return len(digits) == 4 && strings.Trim(digits, "0123456789") == "" &&
		len(letters) == 2 && strings.Trim(letters, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// isCode reports whether s is written like a region's code: two or three capital letters
// ("OR", "ON", "NSW").
func isCode(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for _, c := range []byte(s) {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// Bounds of townIn's reading of "town, larger place".
const (
	// nearPlace is how far from a larger place a town named before it may lie: a
	// province's or a county's extent.
	nearPlace = 100 // km
	// urbanDensity is the people per km² a city's extent is reckoned with (cityRadius).
	urbanDensity = 2000
	// maxNamesakes bounds the cities of each name townIn compares.
	maxNamesakes = 16
)

// cityRadius is the radius in km of a disc holding a city's people at urbanDensity: a
// place nearer its centre is taken for a part of it.
func cityRadius(c *City) float64 {
	return math.Sqrt(float64(c.Population) / (math.Pi * urbanDensity))
}

// townIn returns the gazetteer town named town (in country, when it is not "") that lies
// in the region named place (by its code or any of its names, "Bayern" or "Bavaria":
// subdivisions.go), or near a more populous city named place of its country
// and beyond that city's extent (see townBeforePlace); nil when none does, when several
// towns of that name do, or when a town of that name lies within the place's extent: the
// name is then the place's district's ("Kreuzberg, Berlin"). When the line states no
// country, only the most populous city named place is the larger place ("Dorchester,
// London" is not Dorchester, Ontario, near London, Ontario), and a town with a namesake
// abroad four times as populous is none (the Gateshead near Newcastle, New South Wales,
// is not the one of "Gateshead, Newcastle").
func (g *Gazetteer) townIn(town, place, country string) *City {
	towns := g.CitiesNamed(town)
	if len(towns) == 0 || sameName(town, place) {
		return nil
	}
	largest := towns[0] // the most populous of the town's name
	var rbuf [64]byte
	r := engine.AppendFold(rbuf[:0], []byte(place))
	if len(r) == 0 {
		return nil
	}
	places := g.CitiesNamed(place)
	var found *City
	subCountry, subRegion := "", "" // the first-level subdivision place names in subCountry
	for i, t := range towns {
		if i == maxNamesakes {
			break
		}
		if country != "" && t.Country != country {
			continue
		}
		if country == "" && largest.Country != t.Country && largest.Population >= 4*t.Population {
			continue
		}
		if t.Country != subCountry {
			subCountry, subRegion = t.Country, firstLevel(t.Country, place)
		}
		ok := t.inRegion(r) || subRegion != "" && subRegion == t.Region
		for j, p := range places {
			if j == maxNamesakes || country == "" && j > 0 {
				break
			}
			if p.Country != t.Country || p == t || p.Population <= t.Population || !p.HasGeo || !t.HasGeo {
				continue
			}
			switch d := Distance(t.Lat, t.Lon, p.Lat, p.Lon); {
			case d <= cityRadius(p):
				return nil // a district of the place
			case d <= nearPlace:
				ok = true
			}
		}
		if !ok {
			continue
		}
		if found != nil && found != t {
			return nil
		}
		found = t
	}
	return found
}
