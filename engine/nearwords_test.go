package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gigs/gigs/engine"
)

// TestNearSearchMatchesReference checks near queries with a search for a frequent word or
// prefix (a posting kept as bits), those whose candidates are narrowed to the word through
// their pairs with it (nearwords.go), against the oracle: random points (cities' centres,
// venues, the antimeridian, the poles) and radii, date ranges, both orders, the page at an
// offset and every page by keyset, on the snapshot as built, as read from its file and
// with the pairs of one copy counted; and that the pairs answered most of them.
func TestNearSearchMatchesReference(t *testing.T) {
	const gigs = 100_000
	largeProperty(t, gigs)
	ds := geoDataset(11, gigs)
	s := build(t, ds)
	loaded, early := readBack(t, s)
	snaps := []*engine.Snapshot{s, loaded, early, cappedSnapshot(t, ds, s, engine.CapNearPairs, engine.NearPairCopies)}
	ref, pos := newReference(ds), refPosition(ds)
	searches, matching := frequentSearches(ds)
	r := rand.New(rand.NewPCG(11, 37))
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	const queries = 120
	paired, nonEmpty := 0, 0
	for i := range queries {
		rq, n := randomQuery(r, ds), randomNear(r, ds)
		rq.filters, rq.folded = nil, nil
		if c := ds.Cities[r.IntN(6)]; c.HasGeo && r.IntN(4) > 0 { // mostly within a large city: large candidates
			n.lat, n.lon, n.km = c.Lat+(r.Float64()-0.5)*0.1, c.Lon+(r.Float64()-0.5)*0.1, 5+r.Float64()*25
			if r.IntN(2) == 0 { // as the bench's page: from a time on
				rq.to, rq.toEngine = nil, engine.Unbounded
			}
		}
		search := searches[r.IntN(len(searches))]
		want := slices.DeleteFunc(runNear(ref, pos, rq, n), func(h nearHit) bool { return !matching[search][h.id] })
		if len(want) > 0 {
			nonEmpty++
		}
		checkNear(t, q, snaps, rq, n, search, want, func(k int) {
			switch {
			case k == 0 && engine.PairCounted(q):
				paired++
			case k == 2 && engine.PairCounted(q):
				t.Fatalf("query %d was counted from pairs a snapshot read from its file has not counted yet", i)
			}
		})
		if i%3 == 0 && len(want) > 0 {
			size := func() int { return 1 + r.IntN(max(2, len(want)/10)) }
			if all := nearKeysetPages(t, q, snaps, rq, n, search, size); !slices.Equal(all, want) {
				t.Fatalf("query %d q=%q near %+v: by keyset %d gigs, want %d", i, search, n, len(all), len(want))
			}
		}
	}
	if paired < queries/4 || nonEmpty < queries/3 {
		t.Fatalf("%d of %d queries counted from pairs, %d matched: the test is too weak", paired, queries, nonEmpty)
	}
}
