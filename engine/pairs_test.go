package engine_test

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestPairsMatchReference checks searches for frequent words and prefixes (postings kept
// as bits) with one value of one filter, the queries that pair counts answer (pairs.go),
// against the oracle, with random date ranges, by offset and through every page by
// keyset, on the snapshot as built and as read from its file; and that the pair counts
// did answer most of them.
func TestPairsMatchReference(t *testing.T) {
	const gigs = 100_000
	largeProperty(t, gigs)
	ds := scale.Generate(scale.Config{Gigs: gigs, Seed: 9, Now: now, Days: 40})
	s := build(t, ds)
	// A snapshot read from its file counts its pairs in the background (loaded, once it
	// has); until it has, it intersects them as any filters (early).
	loaded, early := roundTrip(t, s), roundTrip(t, s)
	engine.AwaitPairs(loaded)
	engine.DropPairs(early)
	// A snapshot whose pair counts pairBudget cut to one copy: the others' pairs are
	// intersected as before.
	counted, restore := engine.CapPairs(s)
	capped := build(t, ds)
	restore()
	if counted < 2 || engine.PairCopies(capped) != 1 {
		t.Fatalf("pairs of %d copies counted, %d under the cap: want at least 2, and 1", counted, engine.PairCopies(capped))
	}
	ref := newReference(ds)
	texts := searchTexts(ds)
	// The most common words of the titles, their beginnings, and the word every venue has.
	counts := map[string]int{}
	for _, g := range ds.Gigs {
		for _, w := range strings.FieldsFunc(strings.ToLower(g.Title), func(r rune) bool { return !unicode.IsLetter(r) }) {
			counts[w]++
		}
	}
	words := slices.SortedFunc(maps.Keys(counts), func(a, b string) int { return counts[b] - counts[a] })
	searches := []string{"hall", "Hall", "h"}
	for _, w := range words[:4] {
		searches = append(searches, w, strings.ToUpper(w), string([]rune(w)[:3]), string([]rune(w)[:1]))
	}
	matching := map[string]map[string]bool{}
	for _, q := range searches {
		matching[q] = map[string]bool{}
		for id, tx := range texts {
			if refSearch(q, tx) {
				matching[q][id] = true
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 37))
	values := func(d engine.Dim) string {
		switch d {
		case engine.DimCity:
			c := ds.Cities[r.IntN(len(ds.Cities))]
			return []string{c.Slug, c.Name}[r.IntN(2)]
		case engine.DimCountry:
			return ds.Cities[r.IntN(len(ds.Cities))].Country
		case engine.DimVenue:
			return ds.Venues[r.IntN(3)].Slug
		case engine.DimArtist:
			return ds.Artists[r.IntN(3)].Slug
		case engine.DimStatus:
			return []string{"scheduled", "cancelled"}[r.IntN(2)]
		}
		return ds.Genres[r.IntN(len(ds.Genres))].Slug
	}
	paired, pairedLoaded := 0, 0
	const queries = 150
	for i := range queries {
		rq := randomQuery(r, ds)
		d := []engine.Dim{engine.DimCity, engine.DimCity, engine.DimCountry, engine.DimGenre, engine.DimGenre, engine.DimVenue, engine.DimArtist, engine.DimStatus}[r.IntN(8)]
		v := values(d)
		rq.filters = map[engine.Dim][]string{d: {v}}
		rq.folded = map[engine.Dim][]string{d: {engine.Fold(v)}}
		search := searches[r.IntN(len(searches))]
		offset, limit := rq.offset*r.IntN(50), rq.limit
		rq.offset, rq.limit = 0, 1<<30
		all, _ := ref.run(rq)
		want := slices.DeleteFunc(all, func(id string) bool { return !matching[search][id] })
		size := 1 + r.IntN(200) // of a keyset page
		for _, snap := range []*engine.Snapshot{s, loaded, early, capped} {
			q := engine.AcquireQuery()
			q.Match(d, []byte(v))
			if err := q.Search([]byte(search)); err != nil {
				t.Fatal(err)
			}
			q.From, q.To, q.Offset, q.Limit = rq.fromEngine, rq.toEngine, offset, limit
			snap.Run(q)
			switch {
			case snap == s && engine.PairCounted(q):
				paired++
			case snap == loaded && engine.PairCounted(q):
				pairedLoaded++
			case snap == early && engine.PairCounted(q):
				t.Fatalf("query %d was counted from pairs the snapshot does not have", i)
			}
			page := want[min(offset, len(want)):min(offset+limit, len(want))]
			if got := pageIDs(t, snap, q.Page); q.Total != len(want) || !slices.Equal(got, page) {
				t.Fatalf("query %d q=%q %v=%q from=%+v to=%+v offset %d (read from its file: %v, its pairs not counted yet: %v, capped: %v):\ngot %d %v\nwant %d %v",
					i, search, d, v, rq.from, rq.to, offset, snap == loaded, snap == early, snap == capped, q.Total, got, len(want), page)
			}
			engine.ReleaseQuery(q)
			if got := pageAll(t, snap, rq, search, size); !slices.Equal(got, want) {
				t.Fatalf("query %d q=%q %v=%q, by keyset: got %d gigs, want %d", i, search, d, v, len(got), len(want))
			}
		}
	}
	if paired < queries/3 || pairedLoaded != paired {
		t.Fatalf("only %d of %d queries were counted from pairs (%d read from its file): the test is too weak", paired, queries, pairedLoaded)
	}
}
