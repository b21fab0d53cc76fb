package places

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestGeocodedLines reads the places of testdata/uk-places-geocoded.tsv, written by others
// with their coordinates, as address lines and as LOCATION lines after a venue's name, and
// holds each outcome (right within 25 km, made for the town the line names first, dropped
// with a reason, or a known misreading) to the file's; see its header.
func TestGeocodedLines(t *testing.T) {
	f, err := os.Open("testdata/uk-places-geocoded.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := Default()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) != 4 {
			t.Fatalf("line %d: %d columns, want 4", n, len(col))
		}
		lat, err1 := strconv.ParseFloat(col[1], 64)
		lon, err2 := strconv.ParseFloat(col[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("line %d: bad coordinates", n)
		}
		a := Split("The Venue, " + col[0])
		for _, p := range []Place{{Locality: col[0]}, {Locality: a.Locality, Country: a.Country, Postcode: a.Postcode}} {
			r, err := g.Read(p, Context{})
			got, detail := "dropped", ""
			town, _, _ := strings.Cut(col[0], ",")
			if err != nil {
				detail = err.Error()
			} else if d := Distance(lat, lon, r.City.Lat, r.City.Lon); r.City.HasGeo && d <= 25 {
				got = "right"
			} else if r.Made && !r.City.HasGeo && sameName(r.City.Name, town) {
				got = "made"
			} else {
				got, detail = "wrong", r.City.Slug+" "+strconv.FormatFloat(d, 'f', 0, 64)+" km away"
			}
			counts[got]++
			if got != col[3] {
				t.Errorf("line %d: %q read from %+v: %s (%s), want %s", n, col[0], p, got, detail, col[3])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("readings: %v", counts)
}
