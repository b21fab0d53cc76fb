package engine_test

import (
	"testing"

	"github.com/gigs/gigs/engine"
)

// BenchmarkNearPage measures a page of 20 near London (GB), the busiest city of the
// synthetic datasets, side by side with the plain city page: the query and the page's
// body, identity or gzip ("… gzip"), alone, with a genre or with a search. 10k gigs; 100k
// and 1M with GIGS_BENCH_1M=1.
func BenchmarkNearPage(b *testing.B) {
	const lat, lon = 51.507, -0.128
	month := func(q *engine.Query) { q.From, q.To = engine.OnDate(now), engine.OnDate(now.AddDate(0, 0, 30)) }
	cases := []queryCase{
		{"city", func(q *engine.Query) { q.Match(engine.DimCity, []byte("london-0")) }},
		{"near 25km", func(q *engine.Query) { q.Near(lat, lon, 25, false) }},
		{"near 25km by distance", func(q *engine.Query) { q.Near(lat, lon, 25, true) }},
		{"city+30 days", func(q *engine.Query) { q.Match(engine.DimCity, []byte("london-0")); month(q) }},
		{"near 25km+30 days", func(q *engine.Query) { q.Near(lat, lon, 25, false); month(q) }},
		{"near 25km+30 days by distance", func(q *engine.Query) { q.Near(lat, lon, 25, true); month(q) }},
		// The bench's row: from now (an instant, as a request without from) to a date.
		{"near 25km+now to 30 days", func(q *engine.Query) {
			q.Near(lat, lon, 25, false)
			q.From, q.To = engine.AtInstant(now), engine.OnDate(now.AddDate(0, 0, 30))
		}},
		{"city+30 days gzip", func(q *engine.Query) { q.Match(engine.DimCity, []byte("london-0")); month(q) }},
		{"near 25km+30 days gzip", func(q *engine.Query) { q.Near(lat, lon, 25, false); month(q) }},
		{"near 25km+30 days by distance gzip", func(q *engine.Query) { q.Near(lat, lon, 25, true); month(q) }},
		{"near 25km+genre+30 days", func(q *engine.Query) {
			q.Near(lat, lon, 25, false)
			q.Match(engine.DimGenre, []byte("rock"))
			month(q)
		}},
		{"near 25km by distance, page 50", func(q *engine.Query) { q.Near(lat, lon, 25, true); q.Offset = 49 * 20 }},
		// The bench's near+q page: the most common title (a headliner's name) within 25 km,
		// from now, in both orders, and within 30 days.
		{"near 25km+q=common word", func(q *engine.Query) { q.Near(lat, lon, 25, false); _ = q.Search(benchCommonWord) }},
		{"near 25km+q=common word by distance", func(q *engine.Query) { q.Near(lat, lon, 25, true); _ = q.Search(benchCommonWord) }},
		{"near 25km+q=common word+30 days", func(q *engine.Query) {
			q.Near(lat, lon, 25, false)
			_ = q.Search(benchCommonWord)
			month(q)
		}},
	}
	benchQueries(b, cases, true)
}
