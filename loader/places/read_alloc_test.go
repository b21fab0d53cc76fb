package places

import (
	"slices"
	"strings"
	"testing"
)

// TestReadAllocations gates Read: BenchmarkLocate's places, one-line addresses of the
// kinds the reading rules cut at their commas (villages and a Russian address among them),
// and towns found by their names romanized (romanizedPlaces) are read without allocating.
func TestReadAllocations(t *testing.T) {
	g := Default()
	cases := slices.Clone(benchPlaces)
	for _, line := range []string{"Athens, GA", "Leeds, LS6 1NY, UK", "Venue, 10 George St, Sydney, NSW, 2000, AU", "Paradiso, Weteringschans 6-8, 1017 SG Amsterdam, NL",
		"Yoxford, UK", "Yoxford, Suffolk, UK", "Weibern, Austria", "658083 Алтайский край, г. Новоалтайск"} {
		cases = append(cases, struct {
			p   Place
			ctx Context
		}{Place{Locality: line}, Context{}})
	}
	// A city named with its district, with East Asian units, a town before its region in
	// the country's language (district.go, eastasia.go, townregion.go).
	for _, p := range []Place{{Locality: "København K"}, {Locality: "Budapest XIII. ker.", Country: "HU"},
		{Locality: "東京都渋谷区", Country: "JP"}, {Locality: "서울특별시 마포구", Country: "KR"}, {Locality: "Haßfurt, Bayern", Country: "DE"}} {
		cases = append(cases, struct {
			p   Place
			ctx Context
		}{p, Context{}})
	}
	for _, p := range romanizedPlaces {
		cases = append(cases, struct {
			p   Place
			ctx Context
		}{p, Context{}})
	}
	for _, c := range cases {
		if _, err := g.Read(c.p, c.ctx); err != nil {
			t.Fatalf("Read(%+v): %v", c.p, err)
		}
		if n := testing.AllocsPerRun(100, func() { g.Read(c.p, c.ctx) }); n != 0 {
			t.Errorf("Read(%q): %v allocations", c.p.Locality, n)
		}
	}
}

// wordCases are parts whose words wordsOf and joinWords must split and join as
// strings.Fields and strings.Join do.
var wordCases = []string{
	"", " ", "Berlin", "10115 Berlin", "  Leeds\tLS1  3AA ", "1017 SG Amsterdam", "São\u00a0Paulo",
	"TX 78701", "a\u2003b", "\xff x", "Much Wenlock", "x\u0085y z", " a b c d e f g h i j ",
}

// TestWords checks wordsOf and joinWords against strings.Fields and strings.Join.
func TestWords(t *testing.T) {
	for _, s := range wordCases {
		checkWords(t, s)
	}
}

// FuzzWords checks wordsOf and joinWords against strings.Fields and strings.Join.
func FuzzWords(f *testing.F) {
	for _, s := range wordCases {
		f.Add(s)
	}
	f.Fuzz(checkWords)
}

func checkWords(t *testing.T, s string) {
	fields := strings.Fields(s)
	ws := wordsOf(nil, s)
	got := make([]string, len(ws))
	for i, w := range ws {
		got[i] = w.of(s)
	}
	if !slices.Equal(got, fields) {
		t.Fatalf("wordsOf(%q) = %q, want %q", s, got, fields)
	}
	for i := range ws {
		for j := i; j <= len(ws); j++ {
			if got, want := joinWords(s, ws[i:j]), strings.Join(fields[i:j], " "); got != want {
				t.Fatalf("joinWords(%q, words %d..%d) = %q, want %q", s, i, j, got, want)
			}
		}
	}
}
