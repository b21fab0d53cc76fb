package engine_test

import (
	"fmt"
	"testing"

	"github.com/gigs/gigs/engine"
)

// BenchmarkNearPage measures a page of 20 near London (GB), the busiest city of the
// synthetic datasets, side by side with the plain city page: the query and the page's
// body, identity or gzip. 10k gigs; 100k and 1M with GIGS_BENCH_1M=1.
func BenchmarkNearPage(b *testing.B) {
	const lat, lon = 51.507, -0.128
	month := func(q *engine.Query) { q.From, q.To = engine.OnDate(now), engine.OnDate(now.AddDate(0, 0, 30)) }
	cases := []struct {
		name  string
		gz    bool
		setup func(q *engine.Query)
	}{
		{"city", false, func(q *engine.Query) { q.Match(engine.DimCity, []byte("london-0")) }},
		{"near 25km", false, func(q *engine.Query) { q.Near(lat, lon, 25, false) }},
		{"near 25km by distance", false, func(q *engine.Query) { q.Near(lat, lon, 25, true) }},
		{"city+30 days", false, func(q *engine.Query) { q.Match(engine.DimCity, []byte("london-0")); month(q) }},
		{"near 25km+30 days", false, func(q *engine.Query) { q.Near(lat, lon, 25, false); month(q) }},
		{"near 25km+30 days by distance", false, func(q *engine.Query) { q.Near(lat, lon, 25, true); month(q) }},
		{"city+30 days gzip", true, func(q *engine.Query) { q.Match(engine.DimCity, []byte("london-0")); month(q) }},
		{"near 25km+30 days gzip", true, func(q *engine.Query) { q.Near(lat, lon, 25, false); month(q) }},
		{"near 25km+30 days by distance gzip", true, func(q *engine.Query) { q.Near(lat, lon, 25, true); month(q) }},
		{"near 25km+genre+30 days", false, func(q *engine.Query) {
			q.Near(lat, lon, 25, false)
			q.Match(engine.DimGenre, []byte("rock"))
			month(q)
		}},
		{"near 25km by distance, page 50", false, func(q *engine.Query) { q.Near(lat, lon, 25, true); q.Offset = 49 * 20 }},
	}
	for _, n := range benchSizes() {
		s := snapshotOf(b, n)
		for _, tc := range cases {
			b.Run(fmt.Sprintf("gigs=%d/%s", n, tc.name), func(b *testing.B) {
				q := engine.AcquireQuery()
				defer engine.ReleaseQuery(q)
				dst := make([]byte, 0, 64<<10)
				b.ReportAllocs()
				total := 0
				for b.Loop() {
					q.Reset()
					tc.setup(q)
					q.Limit = 20
					s.Run(q)
					dst, _ = s.AppendQueryPage(dst[:0], q, engine.PageMeta{Page: 1, PageSize: 20, Total: q.Total}, nil, tc.gz)
					total = q.Total
				}
				b.ReportMetric(float64(total), "matches")
			})
		}
	}
}
