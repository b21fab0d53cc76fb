package places

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// geocodedLine is a line of testdata/uk-places-geocoded.tsv: a place, its coordinates and
// the outcome its reading is held to.
type geocodedLine struct {
	n        int
	place    string
	lat, lon float64
	want     string
}

// geocodedLines reads testdata/uk-places-geocoded.tsv.
func geocodedLines(t *testing.T) []geocodedLine {
	t.Helper()
	f, err := os.Open("testdata/uk-places-geocoded.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []geocodedLine
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
		out = append(out, geocodedLine{n, col[0], lat, lon, col[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// outcome says how a reading of l fared: right (within 25 km), made (for the town the
// line names first, or in the country when made outside GB is wrong), dropped or wrong.
func (l geocodedLine) outcome(r Reading, err error) (got, detail string) {
	if err != nil {
		return "dropped", err.Error()
	}
	town, _, _ := strings.Cut(l.place, ",")
	switch d := Distance(l.lat, l.lon, r.City.Lat, r.City.Lon); {
	case r.City.HasGeo && d <= 25:
		return "right", ""
	case r.Made && !r.City.HasGeo && sameName(r.City.Name, town):
		return "made", ""
	default:
		return "wrong", r.City.Slug + " " + strconv.FormatFloat(d, 'f', 0, 64) + " km away"
	}
}

// TestGeocodedLines reads the places of testdata/uk-places-geocoded.tsv, written by others
// with their coordinates, as address lines and as LOCATION lines after a venue's name, and
// holds each outcome (right within 25 km, made for the town the line names first, dropped
// with a reason, or a known misreading) to the file's; see its header.
func TestGeocodedLines(t *testing.T) {
	g := Default()
	counts := map[string]int{}
	for _, l := range geocodedLines(t) {
		a := Split("The Venue, " + l.place)
		for _, p := range []Place{{Locality: l.place}, {Locality: a.Locality, Country: a.Country, Postcode: a.Postcode}} {
			r, err := g.Read(p, Context{})
			got, detail := l.outcome(r, err)
			counts[got]++
			if got != l.want {
				t.Errorf("line %d: %q read from %+v: %s (%s), want %s", l.n, l.place, p, got, detail, l.want)
			}
		}
	}
	t.Logf("readings: %v", counts)
}

// TestGeocodedLinesInABritishFeed reads the same places as a British calendar writes them,
// without their country ("Maidstone, Kent"), after a venue's name, in a feed whose zone is
// Europe/London: none is placed wrong (Kent, Washington; Surrey, British Columbia) but the
// one known below, and none is dropped but those known below.
func TestGeocodedLinesInABritishFeed(t *testing.T) {
	known := map[string]bool{
		"Aberystwyth, Ceredigion, SY": true, // a postcode's area written as the country: Syria
	}
	// Towns of several namesakes in the country, which only the county tells apart: the
	// gazetteer does not know which county each lies in.
	knownDropped := map[string]bool{
		"Balloch, West Dunbartonshire": true,
		"Stone, Staffordshire":         true,
		"Richmond, North Yorkshire":    true,
	}
	g := Default()
	ctx := Context{Zone: "Europe/London", ZoneBy: "the calendar's X-WR-TIMEZONE"}
	counts := map[string]int{}
	for _, l := range geocodedLines(t) {
		place := l.place
		for _, country := range []string{", UK", ", the UK", ", England", ", Scotland", ", Wales"} {
			place = strings.TrimSuffix(place, country)
		}
		if !strings.Contains(place, ",") {
			continue // the town alone: nothing to read in other orders
		}
		a := Split("The Venue, " + place)
		r, err := g.Read(Place{Locality: a.Locality, Country: a.Country, Postcode: a.Postcode}, ctx)
		got, detail := l.outcome(r, err)
		if err == nil && r.Made && !r.City.HasGeo {
			// A village the gazetteer lacks, or the one the line names next ("Dalnatrat,
			// Appin, Highland" makes Appin): made, in the country and clock of the feed.
			got, detail = "made", ""
			if r.City.Country != "GB" {
				got, detail = "wrong", "made in "+r.City.Country
			}
		}
		counts[got]++
		if got == "wrong" && !known[place] || got == "dropped" && !knownDropped[place] {
			t.Errorf("line %d: %q in a Europe/London feed: %s %s", l.n, place, got, detail)
		}
	}
	t.Logf("readings: %v", counts)
}
