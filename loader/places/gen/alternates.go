package main

import (
	"encoding/binary"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gigs/gigs/engine"
)

// readPrevious reads the gazetteer written before (the embedded one's table, which `go
// test ./loader/places -run TestFrozenTable -dump PATH` writes) into its slugs, by
// pinKey; none when path is "".
func readPrevious(path string) map[string]string {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, "\t")
		if line == "" || line[0] == '#' || len(f) < 8 {
			continue
		}
		out[pinKey(f[1], f[2], f[6], f[7])] = f[0]
	}
	return out
}

// pinKey identifies a city across runs: its name, country and coordinates as written.
func pinKey(name, country, lat, lon string) string {
	return name + "\x00" + country + "\x00" + lat + "\x00" + lon
}

// pin gives the cities of the previous gazetteer their slugs back.
func pin(cs []*city, previous map[string]string) {
	for _, c := range cs {
		if c.slug != "" {
			continue
		}
		if s, ok := previous[pinKey(clean(c.name), c.country, strconv.FormatFloat(c.lat, 'f', -1, 64), strconv.FormatFloat(c.lon, 'f', -1, 64))]; ok {
			c.slug = s
		}
	}
}

// readCatalogues reads libgeonames' gettext catalogues (dir/LANG/LC_MESSAGES/geonames.mo)
// into the names they give each GeoNames id, languages in name order.
func readCatalogues(dir string) map[int64][]string {
	files, err := filepath.Glob(filepath.Join(dir, "*", "LC_MESSAGES", "geonames.mo"))
	if err != nil || len(files) == 0 {
		log.Fatalf("no catalogues under %s", dir)
	}
	slices.Sort(files)
	out := map[int64][]string{}
	for _, f := range files {
		for id, name := range readMO(f) {
			if n, err := strconv.ParseInt(id, 10, 64); err == nil {
				out[n] = append(out[n], name)
			}
		}
	}
	return out
}

// readMO decodes a GNU gettext catalogue: a header, then tables of (length, offset) pairs
// for the original strings and their translations.
func readMO(path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if len(b) < 28 {
		log.Fatalf("%s: too short", path)
	}
	switch order.Uint32(b) {
	case 0x950412de:
	case 0xde120495:
		order = binary.BigEndian
	default:
		log.Fatalf("%s: not a gettext catalogue", path)
	}
	n, origs, trans := int(order.Uint32(b[8:])), int(order.Uint32(b[12:])), int(order.Uint32(b[16:]))
	str := func(table, i int) string {
		p := table + 8*i
		if p+8 > len(b) {
			log.Fatalf("%s: bad table", path)
		}
		l, off := int(order.Uint32(b[p:])), int(order.Uint32(b[p+4:]))
		if off+l > len(b) {
			log.Fatalf("%s: bad string", path)
		}
		return string(b[off : off+l])
	}
	out := make(map[string]string, n)
	for i := 0; i < n; i++ {
		out[str(origs, i)] = str(trans, i)
	}
	return out
}

// adminSuffixes are the words for "city" and its kinds that the catalogues' official
// names in Korean, Japanese and Chinese end with ("서울특별시", "ソウル特別市", "首尔特别市"),
// which people leave out ("서울").
var adminSuffixes = []string{"특별시", "광역시", "특별자치시", "시", "特別市", "特别市", "直轄市", "直辖市", "市"}

// withShortForms returns names and, after them, each name ending with one of
// adminSuffixes without it, when two letters or more are left.
func withShortForms(names []string) []string {
	out := slices.Clone(names)
	for _, n := range names {
		for _, suf := range adminSuffixes {
			if rest := strings.TrimSuffix(strings.TrimSpace(n), suf); rest != strings.TrimSpace(n) && len([]rune(rest)) >= 2 {
				out = append(out, rest)
				break
			}
		}
	}
	return out
}

// alternates adds to each city the names the catalogues give it that fold apart from its
// own and from each other, leaving out any that is the own name of another big city (a
// name in one language of a town that is another town's: that one keeps it).
func alternates(cs []*city, names map[int64][]string) {
	own := map[string]int64{}
	for _, c := range cs {
		if c.population >= bigCity {
			k := engine.Fold(c.name)
			if _, dup := own[k]; dup {
				own[k] = -1 // several: nobody's alone
			} else {
				own[k] = c.id
			}
		}
	}
	for _, c := range cs {
		seen := map[string]bool{engine.Fold(c.name): true, engine.Fold(c.display): true}
		for _, o := range c.others {
			seen[engine.Fold(o)] = true
		}
		for _, n := range withShortForms(names[c.id]) {
			n = clean(n)
			k := engine.Fold(n)
			if k == "" || seen[k] || len(n) > 100 {
				continue
			}
			seen[k] = true
			if id, ok := own[k]; ok && id != c.id {
				continue
			}
			c.others = append(c.others, n)
		}
	}
}

// zoneCountries reads the countries of each zone from the system's tzdata tables
// (zone.tab and zone1970.tab).
func zoneCountries(dir string) map[string][]string {
	out := map[string][]string{}
	for _, name := range []string{"zone.tab", "zone1970.tab"} {
		for _, f := range rows(filepath.Join(dir, name)) {
			if len(f) < 3 {
				continue
			}
			for _, cc := range strings.Split(f[0], ",") {
				if !slices.Contains(out[f[2]], cc) {
					out[f[2]] = append(out[f[2]], cc)
				}
			}
		}
	}
	return out
}

// misplaced reports whether a city's zone, found from its coordinates, is no zone of its
// country: GeoNames has a few places of 1,000 people whose coordinates are across a border
// ("Sarupathar", India, in Myanmar), which would give their country a zone it lacks.
// A country the tables do not list (Kosovo) is taken as it is.
func misplaced(c *city, zones map[string][]string, listed map[string]bool) bool {
	return listed[c.country] && !slices.Contains(zones[c.zone], c.country)
}
