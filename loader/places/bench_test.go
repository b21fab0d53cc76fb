package places

import (
	"slices"
	"testing"
	"time"
)

// benchPlaces are look-ups of the kinds the loader makes: a town by its region, by another
// script's name, a one-line address, a town of 2,000 people, a reading the context decides.
var benchPlaces = []struct {
	p   Place
	ctx Context
}{
	{Place{Locality: "Portland", Region: "OR", Country: "US"}, Context{}},
	{Place{Locality: "Москва"}, Context{}},
	{Place{Locality: "52249 Eschweiler", Country: "DE"}, Context{}},
	{Place{Locality: "Much Wenlock", Country: "GB"}, Context{}},
	{Place{Locality: "London, CA"}, Context{Zone: "America/Los_Angeles", ZoneBy: "calendar"}},
	{Place{Locality: "Tulsa, OK 74103"}, Context{}},
}

// BenchmarkLocate measures look-ups of known places (benchPlaces in turn), and reports
// the median time of one over batches of 64 (ns-median), which a shared machine's
// pauses move less than the mean.
func BenchmarkLocate(b *testing.B) {
	g := Default()
	b.ReportAllocs()
	var batches []float64
	n := 0
	for b.Loop() {
		if n%64 == 0 {
			start := time.Now()
			for i := range 64 {
				q := benchPlaces[i%len(benchPlaces)]
				g.Read(q.p, q.ctx)
			}
			batches = append(batches, float64(time.Since(start).Nanoseconds())/64)
		}
		q := benchPlaces[n%len(benchPlaces)]
		g.Read(q.p, q.ctx)
		n++
	}
	if len(batches) > 0 {
		slices.Sort(batches)
		b.ReportMetric(batches[len(batches)/2], "ns-median")
	}
}

// romanizedPlaces are towns written in Cyrillic or Greek that the gazetteer knows only by
// their names in Latin letters (romanize.go): the country stated, and not.
var romanizedPlaces = []Place{
	{Locality: "Змеиногорск", Country: "RU"}, {Locality: "Ναύπλιο", Country: "GR"}, {Locality: "Рудозем"},
}

// BenchmarkLocateRomanized measures look-ups of romanizedPlaces in turn, which cost the
// look-ups of their names as written, and of their spellings.
func BenchmarkLocateRomanized(b *testing.B) {
	g := Default()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		g.Read(romanizedPlaces[n%len(romanizedPlaces)], Context{})
		n++
	}
}

// BenchmarkFirstUse measures what the first use of the embedded gazetteer costs: reading
// its frozen form in place, and the indexing of regions and zones. Run once in a fresh
// process (-test.benchtime 1x) it is the first load, page faults included.
func BenchmarkFirstUse(b *testing.B) {
	for b.Loop() {
		mustThaw(frozenTable)
	}
}
