package places

import (
	"bytes"
	_ "embed"
	"strings"
	"sync"

	"github.com/gigs/gigs/engine"
)

// Subdivisions tell a line's region or county from its town. subdivisions.tsv.gz beside
// this file (written by loader/places/gen/subdivisions; see its documentation for the
// sources and their licences) lists every country's ISO 3166-2 subdivisions: the first
// level's (a German Land, an Italian regione, a Swiss canton) with the gazetteer's region
// code and their names in many languages ("Bayern", "Bavaria", "Bavière"), and the levels
// below by their English names (the counties of the United Kingdom and Ireland, Italy's
// and Spain's provinces, France's départements: "North Ayrshire", "Galway", "Treviso"),
// and the British counties ISO 3166-2 lacks that addresses name: the ceremonial and
// metropolitan ones, Wales' preserved and Scotland's lieutenancy areas, Northern
// Ireland's six and the historic ones ("Greater Manchester", "West Yorkshire",
// "Berkshire", "Gwent", "County Tyrone", "Middlesex").
//
// A part of a line that names a subdivision of the line's country, and no town of it,
// is where the town before it lies, never a town of its own (subdivisionLast): a first
// level's is the town's region, which tells its namesakes apart and gives a town the
// gazetteer lacks its region's zone; either keeps the most populous namesake from being
// taken over it (Place.unread) when it tells none, as the gazetteer knows no county's
// extent. A
// county is read as written with its word, "County Galway", "Co. Galway", "Kerry County"
// or "Orange County". A subdivision's code after a town's name ("Firenze FI", "Tapiraí -
// SP") is dropped from it, as a region's is (Gazetteer.withoutRegion).

//go:embed subdivisions.tsv.gz
var subdivisionsGzip []byte

// subdivisionTable is the table of subdivisions, for look-ups.
type subdivisionTable struct {
	// names are the subdivisions by country, a zero byte and a name folded
	// (engine.Fold): the gazetteer's region code of the first level's, "" for one below
	// it or for a name of several subdivisions of different regions.
	names map[string]string
	// codes are the ISO 3166-2 codes by country, a zero byte and the code as written
	// (capitals: "FI", "SP").
	codes map[string]bool
}

// subdivisions is the embedded table, read on first use.
var subdivisions = sync.OnceValue(readSubdivisions)

// readSubdivisions reads the embedded table.
func readSubdivisions() subdivisionTable {
	b := gunzip(subdivisionsGzip, "subdivisions.tsv.gz")
	t := subdivisionTable{names: map[string]string{}, codes: map[string]bool{}}
	clash := map[string]bool{} // names of first-level subdivisions of two regions
	var key []byte
	for line := range strings.SplitSeq(string(b), "\n") {
		f := strings.Split(line, "\t")
		if line == "" || line[0] == '#' || len(f) < 4 {
			continue
		}
		country, code, region := f[0], f[1], f[2]
		if code != "" { // a county ISO 3166-2 lacks has none
			t.codes[country+"\x00"+code] = true
		}
		for _, name := range f[3:] { // folded already
			key = append(append(append(key[:0], country...), 0), name...)
			// A name of a first level's and of a subdivision below it is the first
			// level's, which holds it ("Navarra", "Madrid"); a name of two regions'
			// names neither region.
			switch was, ok := t.names[string(key)]; {
			case clash[string(key)] || ok && region == "":
			case ok && was != "" && was != region:
				clash[string(key)] = true
				t.names[string(key)] = ""
			default:
				t.names[string(key)] = region
			}
		}
	}
	return t
}

// subdivisionNamed reports whether part names a subdivision of the country (by its code), as
// written or with a county's word (countyName), and returns its region code in the
// gazetteer ("" for a subdivision below the first level, or a county the table lacks).
func subdivisionNamed(country, part string) (region string, ok bool) {
	var buf, other [96]byte
	if len(part)+len(country)+1 > len(buf) {
		return "", false
	}
	prefix := append(append(buf[:0], country...), 0)
	key := engine.AppendFold(prefix, []byte(part))
	n := len(prefix)
	if len(key) == n {
		return "", false
	}
	t := subdivisions()
	if region, ok := t.names[string(key)]; ok {
		return region, true
	}
	name, sure, ok := countyName(key[n:])
	if !ok {
		return "", false
	}
	if region, ok := t.names[string(append(append(other[:0], key[:n]...), name...))]; ok {
		return region, true
	}
	return "", sure // a county the table lacks (the US's are not in ISO 3166-2): the word tells it
}

// countyName returns the name of a county written, folded (engine.Fold), with its word:
// "county galway", "kerry county", "co galway", or of a township ("taymouth township"); sure when the word alone tells a county
// ("co" is also the fold of other words: "Co-op").
func countyName(folded []byte) (name []byte, sure, ok bool) {
	switch {
	case bytes.HasPrefix(folded, []byte("county ")):
		return folded[len("county "):], true, true
	case bytes.HasSuffix(folded, []byte(" county")):
		return folded[:len(folded)-len(" county")], true, true
	case bytes.HasPrefix(folded, []byte("co ")):
		return folded[len("co "):], false, true
	case bytes.HasSuffix(folded, []byte(" township")): // a US or Canadian civil township
		return folded[:len(folded)-len(" township")], true, true
	}
	return nil, false, false
}

// isCounty reports whether part is a county by its word ("Sangamon County", "County
// Kerry"; see countyName).
func isCounty(part string) bool {
	var buf [96]byte
	if len(part) > len(buf) {
		return false
	}
	_, sure, _ := countyName(engine.AppendFold(buf[:0], []byte(part)))
	return sure
}

// subdivisionCode reports whether code, written in capitals, is the ISO 3166-2 code of a
// subdivision of the country ("FI" of Florence's province in Italy).
func subdivisionCode(country, code string) bool {
	if !isCode(code) {
		return false
	}
	var buf [8]byte
	return subdivisions().codes[string(append(append(append(buf[:0], country...), 0), code...))]
}

// subdivisionLast drops, of the parts left, last ones that name a subdivision of the
// line's country that no town of the country bears (see subdivision): "Hunterston, North
// Ayrshire, UK" is in Hunterston, "Graiguenamanagh, County Kilkenny, Ireland" in
// Graiguenamanagh, never in a town made of the county's name. A first level's code is
// the reading's region, which chooses among the town's namesakes; the subdivision is the
// reading's unread part too, so that when it chooses none, the most populous is not taken
// over it.
func subdivisionLast(g *Gazetteer, r *lineReading) bool {
	if r.town {
		return false
	}
	country, ok := countryCode(r.q.Country)
	if !ok {
		return false
	}
	var buf [8]*City
	dropped := false
	for len(r.rest) > 1 {
		raw := r.rest[len(r.rest)-1]
		part := stripPostal(raw)
		// A territory that is a country of its own, named before its sovereign's
		// country (territories.go), or before another when the town before it is one of
		// its towns, is the country: "97600 Mamoudzou, Mayotte, France" is in Mayotte,
		// in its zone.
		if c, ok := countryCode(part); ok && c != country && (territoryOf(c, country) || g.hasNamesake(stripPostal(r.rest[len(r.rest)-2]), c)) {
			r.q.Country, country = part, c
			r.rest = r.rest[:len(r.rest)-1]
			continue
		}
		if startsWithPostcode(raw) {
			break // a postcode before a name marks a town: "47893 City of San Marino"
		}
		region, ok := subdivisionNamed(country, part)
		if !ok || len(inCountry(buf[:0], g.CitiesNamed(part), country)) > 0 {
			break
		}
		// A street or a building before it is no town: the subdivision's name may be the
		// town the gazetteer lacks ("Dock Road, Limerick": Limerick is Luimneach there).
		if streetLike(r.rest[len(r.rest)-2]) {
			break
		}
		r.rest = r.rest[:len(r.rest)-1]
		if region != "" && r.q.Region == "" {
			r.q.Region, r.q.landRead = region, true
		}
		if r.q.unread == "" {
			r.q.unread = part
		}
		r.q.by, dropped = bySubdivision, true
	}
	if dropped && len(r.rest) > 1 {
		// What is left may end in a town and a place it lies in, as the line would
		// without its subdivision: "Shoreditch, London, Greater London, England".
		townBeforePlace(g, r)
		townBeforeNoTown(g, r)
	}
	return false
}

// bySubdivision is the By of a Reading subdivisionLast decided.
const bySubdivision = "the town named before a subdivision of its country"

// firstLevel returns the gazetteer's region code of the first-level subdivision of the
// country that place names in any of its names ("Bayern" is Germany's "02"), or "".
func firstLevel(country, place string) string {
	region, _ := subdivisionNamed(country, place)
	return region
}
