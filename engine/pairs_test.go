package engine_test

import (
	"cmp"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
	"sync"
	"sync/atomic"
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
	loaded, early := readBack(t, s)
	capped := cappedSnapshot(t, ds, s, engine.CapPairs, engine.PairCopies)
	ref := newReference(ds)
	searches, matching := frequentSearches(ds)
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

// frequentSearches returns searches for frequent words, whose postings are kept as bits:
// the most common words of ds's titles, as they are and in capitals, their first three
// letters and their first, and the word every venue has; and by search, the ids of the
// gigs that match it.
func frequentSearches(ds *engine.Dataset) (searches []string, matching map[string]map[string]bool) {
	counts := map[string]int{}
	for _, g := range ds.Gigs {
		for _, w := range strings.FieldsFunc(strings.ToLower(g.Title), func(r rune) bool { return !unicode.IsLetter(r) }) {
			counts[w]++
		}
	}
	words := slices.SortedFunc(maps.Keys(counts), func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	searches = []string{"hall", "Hall", "h"}
	for _, w := range words[:4] {
		searches = append(searches, w, strings.ToUpper(w), string([]rune(w)[:3]), string([]rune(w)[:1]))
	}
	texts := searchTexts(ds)
	matching = map[string]map[string]bool{}
	for _, q := range searches {
		matching[q] = map[string]bool{}
		for id, tx := range texts {
			if refSearch(q, tx) {
				matching[q][id] = true
			}
		}
	}
	return searches, matching
}

// readBack reads s back from its file twice: loaded, once it has counted its pairs in the
// background, and early, a snapshot whose pairs are not counted yet (it intersects them as
// any filters).
func readBack(t *testing.T, s *engine.Snapshot) (loaded, early *engine.Snapshot) {
	t.Helper()
	loaded, early = roundTrip(t, s), roundTrip(t, s)
	engine.AwaitPairs(loaded)
	engine.DropPairs(early)
	return loaded, early
}

// cappedSnapshot builds ds again with its pair counts (those capPairs caps, as copies
// counts them) cut by their budget to one copy, whose other copies' pairs are intersected
// as before, and checks that s counted several.
func cappedSnapshot(t *testing.T, ds *engine.Dataset, s *engine.Snapshot, capPairs func(*engine.Snapshot) (int, func()), copies func(*engine.Snapshot) int) *engine.Snapshot {
	t.Helper()
	counted, restore := capPairs(s)
	capped := build(t, ds)
	restore()
	if counted < 2 || copies(capped) != 1 {
		t.Fatalf("pairs of %d copies counted, %d under the cap: want at least 2, and 1", counted, copies(capped))
	}
	return capped
}

// TestPairsConcurrentFirstUse: goroutines that ask a snapshot read from its file for the
// same pairs at once, while it counts them in the background and then each on first use
// (pairCum), get the answers of the snapshot as built (a review case; run under -race).
func TestPairsConcurrentFirstUse(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 20_000, Seed: 9, Now: now, Days: 40})
	s := build(t, ds)
	searches, _ := frequentSearches(ds)
	countries := map[string]bool{}
	for _, c := range ds.Cities {
		countries[c.Country] = true
	}
	type answer struct{ total, first int }
	run := func(snap *engine.Snapshot, country, search string) (answer, bool) {
		q := engine.AcquireQuery()
		defer engine.ReleaseQuery(q)
		q.Match(engine.DimCountry, []byte(country))
		if err := q.Search([]byte(search)); err != nil {
			t.Error(err)
		}
		q.Limit = 20
		snap.Run(q)
		a := answer{q.Total, -1}
		if len(q.Page) > 0 {
			a.first = q.Page[0]
		}
		return a, engine.PairCounted(q)
	}
	want := map[[2]string]answer{}
	for c := range countries {
		for _, w := range searches {
			want[[2]string{c, w}], _ = run(s, c, w)
		}
	}
	for _, await := range []bool{false, true} {
		loaded := roundTrip(t, s)
		if await {
			engine.AwaitPairs(loaded) // every pair then counted on first use, by one of them
		}
		var wg sync.WaitGroup
		var paired atomic.Int64
		for range 4 {
			wg.Go(func() {
				for k, a := range want {
					got, p := run(loaded, k[0], k[1])
					if p {
						paired.Add(1)
					}
					if got != a {
						t.Errorf("country=%s q=%q: got %+v, want %+v", k[0], k[1], got, a)
					}
				}
			})
		}
		wg.Wait()
		if await && paired.Load() == 0 {
			t.Fatal("no query was counted from pairs: the test shows nothing")
		}
	}
}
