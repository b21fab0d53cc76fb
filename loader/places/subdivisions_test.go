package places

import (
	"slices"
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
)

func TestSubdivision(t *testing.T) {
	for _, c := range []struct {
		country, part string
		region        string // the gazetteer's region code, "" below the first level
		ok            bool
	}{
		{"DE", "Bayern", "02", true},
		{"DE", "Bavaria", "02", true},
		{"DE", "NORDRHEIN-WESTFALEN", "07", true},
		{"FR", "Île-de-France", "11", true},
		{"IT", "Lombardia", "09", true},
		{"ES", "Navarra", "32", true},
		{"GB", "North Ayrshire", "", true},
		{"IE", "Galway", "", true},
		{"IE", "County Kilkenny", "", true},
		{"IE", "Co. Galway", "", true},
		{"IE", "Kilkenny County", "", true},
		{"US", "Sangamon County", "", true}, // the word alone: ISO 3166-2 lists no US county
		{"US", "Texas", "TX", true},
		{"GB", "Co-op", "", false}, // "co" alone tells no county
		{"IE", "County", "", false},
		{"DE", "Bayern", "02", true},
		{"AT", "Bayern", "", false}, // another country's
		{"DE", "Kreuzberg", "", false},
		{"", "", "", false},
	} {
		region, ok := subdivisionNamed(c.country, c.part)
		if region != c.region || ok != c.ok {
			t.Errorf("subdivisionNamed(%q, %q) = %q, %v; want %q, %v", c.country, c.part, region, ok, c.region, c.ok)
		}
	}
	for _, c := range []struct {
		country, code string
		want          bool
	}{
		{"IT", "FI", true}, {"IT", "TV", true}, {"BR", "SP", true}, {"IT", "fi", false}, {"IT", "XX", false}, {"DE", "FI", false},
	} {
		if got := subdivisionCode(c.country, c.code); got != c.want {
			t.Errorf("subdivisionCode(%q, %q) = %v, want %v", c.country, c.code, got, c.want)
		}
	}
}

// TestSubdivisionRegions holds the table's first-level region codes to the gazetteer's in
// the countries whose regions people write most: each is the region of a gazetteer city of
// its country, so that a region read by its name in another language is the one the
// country's cities are in. (Elsewhere a few differ, where GeoNames renumbered a country's
// regions after the table's source: such a region is as if the line named none.)
func TestSubdivisionRegions(t *testing.T) {
	g := Default()
	countries := []string{"DE", "AT", "CH", "IT", "FR", "ES", "PT", "GB", "IE", "NL", "BE", "PL", "CZ", "DK",
		"SE", "FI", "US", "CA", "AU", "BR", "MX", "AR", "JP", "KR", "TR", "IL", "RU", "UA"}
	checked := map[string]bool{}
	for key, region := range subdivisions().names {
		country, _, _ := strings.Cut(key, "\x00")
		if region == "" || !slices.Contains(countries, country) {
			continue
		}
		checked[country] = true
		if g.regionCodes[country+"\x00"+engine.Fold(region)] != region {
			t.Errorf("%s: region %q of %q is no gazetteer city's", country, region, key)
		}
	}
	if len(checked) != len(countries) {
		t.Errorf("regions of %d of the %d countries checked", len(checked), len(countries))
	}
}

// subdivisionPlaces are one-line addresses that end in a subdivision: a county by its word,
// an Italian province's code after the town, a German Land in German.
var subdivisionPlaces = []Place{
	{Locality: "Friar's Hill, Graiguenamanagh, County Kilkenny, Ireland"},
	{Locality: "Palazzo Gondi, Via dei Gondi, 50122 Firenze FI, Italia"},
	{Locality: "Maxvorstadt, Munich, Bavaria, Germany"},
}

// BenchmarkLocateSubdivisions measures look-ups of subdivisionPlaces in turn.
func BenchmarkLocateSubdivisions(b *testing.B) {
	g := Default()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		g.Read(subdivisionPlaces[n%len(subdivisionPlaces)], Context{})
		n++
	}
}

// BenchmarkSubdivisionsFirstUse measures what reading the embedded table costs, once a
// process first reads a line that may end in a subdivision.
func BenchmarkSubdivisionsFirstUse(b *testing.B) {
	for b.Loop() {
		readSubdivisions()
	}
}

// TestReadSubdivisionAllocations gates Read of lines that end in a subdivision
// (subdivisionPlaces, and a first level's name in another language before a town of
// namesakes) or in a street after the town (streetlast.go): read without allocating, as
// other lines are (TestReadAllocations).
func TestReadSubdivisionAllocations(t *testing.T) {
	g := Default()
	places := append(slices.Clone(subdivisionPlaces), Place{Locality: "Avenida Maracanã, Maracanã, Rio de Janeiro - RJ, Brazil"},
		Place{Locality: "Neustadt, Niedersachsen", Country: "DE"}, Place{Locality: "Kolín, Pražská 3"})
	for _, p := range places {
		if _, err := g.Read(p, Context{}); err != nil {
			t.Fatalf("Read(%+v): %v", p, err)
		}
		if n := testing.AllocsPerRun(100, func() { g.Read(p, Context{}) }); n != 0 {
			t.Errorf("Read(%q): %v allocations", p.Locality, n)
		}
	}
}
