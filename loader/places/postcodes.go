package places

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/gigs/gigs/engine"
)

// Postcodes confirm places. postcodes.tsv.gz beside this file (written by
// loader/places/gen/postcodes; see its documentation for the sources and their licences)
// gives, for the countries a well-kept postcode dataset covers (the US's ZIP codes, from
// GeoNames; France's codes postaux, from the Base Adresse Nationale; Germany's
// Postleitzahlen, from OpenStreetMap), each postcode's places, and for the US its state
// and coordinates.
//
// A postcode stated beside a town (in the locality, "Tulsa, OK 74103", "75011 Paris", or
// as a source's postal code) confirms a reading of the place when the dataset has the code
// and one of the places it serves bears the town's name: the reading is then in that
// country (and in the US in that state), and a town the gazetteer lacks is made in the
// zone of the gazetteer city nearest the code's coordinates. A postcode that the dataset
// has, but for other places, contradicts the town: it confirms nothing, and the place is
// read as if it stated none (the town as written stands; a postcode never moves a place
// nor makes one). A code the dataset lacks, or of a country it does not cover, is only
// dropped from the town's name, as before (a shape alone confirms nothing).

//go:embed postcodes.tsv.gz
var postcodesGzip []byte

// postcode is one line of the postcode table.
type postcode struct {
	region   string // the US state's code; "" for France and Germany
	lat, lon float64
	hasGeo   bool
	names    []string // the places the code serves, folded (engine.Fold)
}

// postcodeCountries are the countries of the postcode table.
var postcodeCountries = []string{"US", "FR", "DE"}

// postcodeKey is a code of a country of the postcode table.
type postcodeKey struct{ country, code string }

// postcodes reads the embedded table on first use: a country's code → its line.
var postcodes = sync.OnceValue(func() map[postcodeKey]postcode {
	b := gunzip(postcodesGzip, "postcodes.tsv.gz")
	m := make(map[postcodeKey]postcode, bytes.Count(b, []byte{'\n'}))
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, "\t")
		if line == "" || line[0] == '#' || len(f) < 6 {
			continue
		}
		pc := postcode{region: f[2], names: f[5:]}
		for i, n := range pc.names {
			pc.names[i] = engine.Fold(n)
		}
		lat, err1 := strconv.ParseFloat(f[3], 64)
		lon, err2 := strconv.ParseFloat(f[4], 64)
		if err1 == nil && err2 == nil {
			pc.lat, pc.lon, pc.hasGeo = lat, lon, true
		}
		m[postcodeKey{f[0], f[1]}] = pc
	}
	return m
})

// gunzip returns the embedded table data, gzipped, as text; it panics when the data is
// broken (a build's embedded file, never outside input).
func gunzip(data []byte, name string) []byte {
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		panic("places: " + name + ": " + err.Error())
	}
	b, err := io.ReadAll(r)
	if err != nil {
		panic("places: " + name + ": " + err.Error())
	}
	return b
}

// serves reports whether the code serves a place of the folded name.
func (pc postcode) serves(folded []byte) bool {
	for _, n := range pc.names {
		if n == string(folded) {
			return true
		}
	}
	return false
}

// postcodesOf appends to codes the five-digit postal codes a place states, the shape of
// every code of the table: its postcode's (unless it is longer than maxPlaces), and the
// words of its locality that are one ("74103", "74103-1234" as "74103").
func postcodesOf(codes []string, p Place) []string {
	if len(p.Postcode) > maxPlaces {
		p.Postcode = "" // no postcode is that long: not worth reading
	}
	for _, s := range [2]string{p.Postcode, p.Locality} {
		for s != "" && hasDigit(s) { // most places have no digit: nothing to split
			i := strings.IndexAny(s, " ,\t")
			w := s
			if i >= 0 {
				w, s = s[:i], s[i+1:]
			} else {
				s = ""
			}
			w, _, _ = strings.Cut(w, "-")
			if len(w) == 5 && strings.Trim(w, "0123456789") == "" {
				codes = append(codes, w)
			}
		}
	}
	return codes
}

// codeMatch is a postcode that confirms a reading's town.
type codeMatch struct {
	country, code string
	town          string // the town's name as the reading writes it
	pc            postcode
	chose         bool // the code told what the reading left open (withPostcodes)
}

// lookUp appends to out the lines of the table for the codes, in any of its countries.
func lookUp(out []codeMatch, codes []string) []codeMatch {
	for _, country := range postcodeCountries {
		for _, code := range codes {
			if pc, ok := postcodes()[postcodeKey{country, code}]; ok {
				out = append(out, codeMatch{country: country, code: code, pc: pc})
			}
		}
	}
	return out
}

// confirmedBy returns the line of lines (lookUp's) that confirms the reading's town in its
// stated country (any country of the table when it states none), and in its stated
// region; ok false when none does, or when they confirm it in several countries or
// regions. town is the reading's town (townOf) and folded its name folded (engine.Fold).
func (g *Gazetteer) confirmedBy(q Place, town string, folded []byte, lines []codeMatch) (codeMatch, bool) {
	if len(folded) == 0 {
		return codeMatch{}, false
	}
	stated := ""
	if q.Country != "" {
		code, ok := countryCode(q.Country)
		if !ok {
			return codeMatch{}, false
		}
		stated = code
	}
	var found codeMatch
	n := 0
	for _, l := range lines {
		if stated != "" && l.country != stated || !l.pc.serves(folded) {
			continue
		}
		if q.Region != "" && l.pc.region != "" && g.regionCode(l.country, q.Region) != l.pc.region {
			continue // a code of another state than the stated one confirms nothing
		}
		if n == 0 || found.country != l.country || found.pc.region != l.pc.region {
			n++
		}
		found, found.town = l, town
	}
	return found, n == 1
}

// townOf is the town of a reading a postcode may confirm: its locality's last part
// after a comma, postal codes dropped.
func townOf(q Place) string {
	town := q.Locality
	if i := strings.LastIndexByte(town, ','); i >= 0 {
		town = town[i+1:]
	}
	return stripPostal(town)
}

// withPostcodes confirms each reading by the place's postcodes (see confirmedBy): a
// confirmed reading states the code's country, its region when it states none, and the
// zone of the gazetteer city nearest the code when it states none. It returns the
// readings and the code that confirmed them: the first that chose, else the first (for a
// Reading's By and a made town's place: decided).
func (g *Gazetteer) withPostcodes(p Place, readings []Place) ([]Place, codeMatch) {
	var codesBuf [4]string
	codes := postcodesOf(codesBuf[:0], p)
	if len(codes) == 0 {
		return readings, codeMatch{}
	}
	var linesBuf [4]codeMatch
	lines := lookUp(linesBuf[:0], codes)
	if len(lines) == 0 {
		return readings, codeMatch{}
	}
	var by codeMatch
	var foldRoom [64]byte
	town, folded := "", foldRoom[:0]
	for i, q := range readings {
		if t := townOf(q); i == 0 || t != town { // readings mostly share their town
			town, folded = t, engine.AppendFold(foldRoom[:0], []byte(t))
		}
		m, ok := g.confirmedBy(q, town, folded, lines)
		if !ok {
			continue
		}
		was := q
		if q.Country == "" {
			q.Country = m.country
		}
		if q.Region == "" {
			q.Region = m.pc.region
		}
		if q.Zone == "" && m.pc.hasGeo && !g.hasNamesake(m.town, m.country) {
			if c, d := nearest(g.byCountry[m.country], m.pc.lat, m.pc.lon); c != nil && d <= nearZone {
				q.Zone = c.Timezone
			}
		}
		readings[i] = q
		// The code chose when it told what the reading left open: a region's code tells
		// the country already ("Tulsa, OK 74103").
		chose := was.Country == "" && was.Region == "" || q.Region != was.Region || q.Zone != was.Zone
		if by.code == "" || chose && !by.chose {
			by, by.chose = m, chose
		}
	}
	return readings, by
}

// decided says in r.By that the postcode chose r's city, when it filled in the reading's
// country, region or zone and the city is in the code's country and region, and nothing
// else chose. A town made for a place the gazetteer lacks (r.Made) that the code confirmed
// and that states no coordinates is made at the code's place, when the table has one (US
// ZIP codes).
func (m codeMatch) decided(r Reading) Reading {
	if m.code == "" || r.City.Country != m.country || m.pc.region != "" && r.City.Region != m.pc.region {
		return r
	}
	if m.chose && r.By == "" {
		r.By = "the postcode " + m.code + " (" + m.country + ")"
	}
	if r.Made && !r.City.HasGeo && m.pc.hasGeo && sameName(r.City.Name, m.town) {
		r.City.Lat, r.City.Lon, r.City.HasGeo = m.pc.lat, m.pc.lon, true // made by this Read: its own
	}
	return r
}

// PostcodeTown reports whether s is written as a postal code and then a town, as European
// addresses write their last line: a first word of four or five digits (or a Dutch or a
// British postcode) and after it only words without digits ("4041 Linz", "52249
// Eschweiler", "1017 SG Amsterdam", "SW2 5BZ London"). A street numbered first ("1415 E
// University Dr") is written so too: a caller reads such a line as a town only when the
// gazetteer has the town.
func PostcodeTown(s string) bool {
	f := strings.Fields(s)
	switch {
	case len(f) > 2 && (dutchPostcode(f[0], f[1]) || britishPostcode(f[0], f[1])):
		f = f[2:]
	case len(f) > 1 && len(f[0]) >= 4 && len(f[0]) <= 5 && strings.Trim(f[0], "0123456789") == "":
		f = f[1:]
	default:
		return false
	}
	return !hasDigit(strings.Join(f, " "))
}

// britishPostcode reports whether two words are a full British postcode: an outward code
// of a letter or two, a digit and at most one more letter or digit ("SW2", "EC1A", "M1"),
// then an inward code of a digit and two letters ("5BZ").
func britishPostcode(out, in string) bool {
	if len(in) != 3 || in[0] < '0' || in[0] > '9' || strings.Trim(in[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return false
	}
	letters := len(out) - len(strings.TrimLeft(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
	rest := out[letters:]
	return (letters == 1 || letters == 2) && len(rest) >= 1 && len(rest) <= 2 && rest[0] >= '0' && rest[0] <= '9' &&
		strings.Trim(rest[1:], "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}
