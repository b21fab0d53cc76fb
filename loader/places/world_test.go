package places

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var updateWorld = flag.Bool("update-world", false, "rewrite the outcome columns of testdata/world-*.tsv")

// worldNear is how far from a line's coordinates, or from a gazetteer town of the line's
// town's name in its country, a reading may be and still be right.
const worldNear = 30 // km

// TestWorldLines reads the addresses of testdata/world-*.tsv, written by others (address
// parsers' and geocoders' tests) with the town and country they name, as address lines and
// as LOCATION lines after a venue's name, with no context, and holds each outcome to the
// file's (see its header), so that a change of outcome, better or worse, is seen:
//
//   - right: placed in a gazetteer city of the line's country (or of one of its
//     territories, which ISO 3166-1 codes apart: a line labelled France for Papeete or
//     Cayenne is right in PF or GF, their zones; territories.go), within worldNear of its
//     coordinates when it states them, else a city of the line's town's name (by any of
//     its names), or within worldNear of one of the country's gazetteer towns of that name;
//   - made: placed in a town made with the line's town's name, in the line's country (the
//     gazetteer lacks it: its zone is its region's or country's, its distance unknown);
//   - dropped: not placed, with the reason in the file's last column;
//   - wrong: placed elsewhere, the town it was placed in in the last column.
//
// -update-world rewrites the outcome columns; -v logs the outcomes by country.
func TestWorldLines(t *testing.T) {
	files, err := filepath.Glob("testdata/world-*.tsv")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/world-*.tsv: %v", err)
	}
	g := Default()
	byCountry := map[string]*[2][4]int{} // country → per reading, the worldOutcomes
	for _, file := range files {
		lines := readWorldFile(t, file)
		changed := false
		for i, l := range lines {
			if l.comment {
				continue
			}
			a := Split("The Venue, " + l.line)
			got := [2]worldOutcome{
				judgeWorld(g, l, Place{Locality: l.line}),
				judgeWorld(g, l, Place{Locality: a.Locality, Country: a.Country, Postcode: a.Postcode}),
			}
			counts := byCountry[l.country]
			if counts == nil {
				counts = new([2][4]int)
				byCountry[l.country] = counts
			}
			for j, o := range got {
				counts[j][slices.Index(worldOutcomes, o.outcome)]++
				if o.outcome != l.want[j] && !*updateWorld {
					t.Errorf("%s:%d: %q (%s, %s) read as %s: %s (%s), want %s", file, l.n, l.line, l.town, l.country,
						[2]string{"an address line", "a LOCATION"}[j], o.outcome, o.why, l.want[j])
				}
			}
			why := cmp.Or(got[0].why, got[1].why)
			if l.want != [2]string{got[0].outcome, got[1].outcome} || l.why != why {
				lines[i].want, lines[i].why, changed = [2]string{got[0].outcome, got[1].outcome}, why, true
			}
		}
		if *updateWorld && changed {
			writeWorldFile(t, file, lines)
		}
	}
	logWorldTable(t, byCountry)
}

// worldOutcomes are the outcomes of a reading, in the order of the table's columns.
var worldOutcomes = []string{"right", "made", "dropped", "wrong"}

// worldOutcome is a reading's outcome and, when it is not right, why.
type worldOutcome struct{ outcome, why string }

// worldLine is a line of a world-*.tsv file: a comment, or an address and what it names.
type worldLine struct {
	n                   int
	comment             bool
	raw                 string // a comment as written
	line, country, town string
	lat, lon            float64
	hasGeo              bool
	latText, lonText    string
	want                [2]string // the outcomes as an address line and as a LOCATION
	why                 string
}

func readWorldFile(t *testing.T, file string) []worldLine {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []worldLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		raw := sc.Text()
		if raw == "" || strings.HasPrefix(raw, "#") {
			out = append(out, worldLine{n: n, comment: true, raw: raw})
			continue
		}
		col := strings.Split(raw, "\t")
		if len(col) != 8 {
			t.Fatalf("%s:%d: %d columns, want 8", file, n, len(col))
		}
		l := worldLine{n: n, line: col[0], country: col[1], town: col[2], latText: col[3], lonText: col[4],
			want: [2]string{col[5], col[6]}, why: col[7]}
		if col[3] != "" {
			lat, err1 := strconv.ParseFloat(col[3], 64)
			lon, err2 := strconv.ParseFloat(col[4], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s:%d: bad coordinates", file, n)
			}
			l.lat, l.lon, l.hasGeo = lat, lon, true
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func writeWorldFile(t *testing.T, file string, lines []worldLine) {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		if l.comment {
			b.WriteString(l.raw + "\n")
			continue
		}
		why := strings.NewReplacer("\t", " ", "\n", " ").Replace(l.why)
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l.line, l.country, l.town, l.latText, l.lonText, l.want[0], l.want[1], why)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// judgeWorld reads p and says whether it names what the line l does (see TestWorldLines).
func judgeWorld(g *Gazetteer, l worldLine, p Place) worldOutcome {
	r, err := g.Read(p, Context{})
	if err != nil {
		return worldOutcome{"dropped", err.Error()}
	}
	c := r.City
	wrong := worldOutcome{"wrong", c.Slug + " (" + c.Country + ")"}
	if c.Country != l.country && !territoryOf(c.Country, l.country) {
		return wrong
	}
	if r.Made && sameName(c.Name, l.town) {
		return worldOutcome{"made", ""}
	}
	if l.hasGeo {
		if c.HasGeo && Distance(l.lat, l.lon, c.Lat, c.Lon) <= worldNear {
			return worldOutcome{"right", ""}
		}
		return wrong
	}
	if slices.Contains(g.allNamed(l.town), c) {
		return worldOutcome{"right", ""}
	}
	if c.HasGeo {
		for _, n := range g.allNamed(l.town) {
			if n.Country == l.country && n.HasGeo && Distance(n.Lat, n.Lon, c.Lat, c.Lon) <= worldNear {
				return worldOutcome{"right", ""}
			}
		}
	}
	return wrong
}

// logWorldTable logs the outcomes by country, then their totals.
func logWorldTable(t *testing.T, byCountry map[string]*[2][4]int) {
	countries := make([]string, 0, len(byCountry))
	for c := range byCountry {
		countries = append(countries, c)
	}
	slices.Sort(countries)
	var total [2][4]int
	var b strings.Builder
	b.WriteString("country lines | as address: right made dropped wrong | as LOCATION: right made dropped wrong\n")
	row := func(name string, c *[2][4]int) {
		fmt.Fprintf(&b, "%-7s %5d | %5d %4d %7d %5d | %5d %4d %7d %5d\n", name, c[0][0]+c[0][1]+c[0][2]+c[0][3],
			c[0][0], c[0][1], c[0][2], c[0][3], c[1][0], c[1][1], c[1][2], c[1][3])
	}
	for _, c := range countries {
		row(c, byCountry[c])
		for i := range total {
			for j := range total[i] {
				total[i][j] += byCountry[c][i][j]
			}
		}
	}
	row("all", &total)
	t.Log("readings by country:\n" + b.String())
}
