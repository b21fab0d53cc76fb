package engine_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

var now = time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)

// reference evaluates a query by looking at every gig: the brute-force oracle.
type reference struct {
	ds     *engine.Dataset
	rows   []refRow
	cities map[string]engine.City
	slugs  map[engine.Dim]map[string]bool // per dimension, every entity's folded slug
}

type refRow struct {
	id   string
	key  int64
	day  time.Time               // venue-local date at 00:00 UTC
	keys map[engine.Dim][]string // the row's entities' folded slugs ("s:…") and names ("n:…")
}

// entityKeys returns the keys of an entity of slug and name, for refRow.keys.
func entityKeys(slug, name string) []string {
	return []string{"s:" + engine.Fold(slug), "n:" + engine.Fold(name)}
}

func newReference(ds *engine.Dataset) *reference {
	ref := &reference{ds: ds, cities: map[string]engine.City{}, slugs: map[engine.Dim]map[string]bool{}}
	venues, artists, genres := map[string]engine.Venue{}, map[string]engine.Artist{}, map[string]engine.Genre{}
	slug := func(d engine.Dim, s string) {
		if ref.slugs[d] == nil {
			ref.slugs[d] = map[string]bool{}
		}
		ref.slugs[d][engine.Fold(s)] = true
	}
	for _, c := range ds.Cities {
		ref.cities[c.Slug] = c
		slug(engine.DimCity, c.Slug)
		slug(engine.DimCountry, c.Country)
	}
	for _, v := range ds.Venues {
		venues[v.Slug] = v
		slug(engine.DimVenue, v.Slug)
	}
	for _, a := range ds.Artists {
		artists[a.Slug] = a
		slug(engine.DimArtist, a.Slug)
		if a.MBID != "" { // artist=mbid:<uuid> names the artists of that MBID alone
			slug(engine.DimArtist, engine.MBIDPrefix+a.MBID)
		}
	}
	for _, g := range ds.Genres {
		genres[g.Slug] = g
		slug(engine.DimGenre, g.Slug)
	}
	for _, st := range engine.Statuses {
		slug(engine.DimStatus, string(st))
	}
	for _, g := range ds.Gigs {
		v := venues[g.Venue]
		c := ref.cities[v.City]
		loc, _ := time.LoadLocation(c.Timezone)
		st := g.Start.In(loc)
		y, m, d := st.Date()
		ny, nm, nd := now.In(loc).Date()
		if time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Before(time.Date(ny, nm, nd, 0, 0, 0, 0, time.UTC)) {
			continue
		}
		r := refRow{id: g.ID, key: st.Unix(), day: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), keys: map[engine.Dim][]string{
			engine.DimCity:    entityKeys(c.Slug, c.Name),
			engine.DimCountry: entityKeys(c.Country, c.Country),
			engine.DimVenue:   entityKeys(v.Slug, v.Name),
			engine.DimStatus:  entityKeys(string(cmp.Or(g.Status, engine.StatusScheduled)), string(cmp.Or(g.Status, engine.StatusScheduled))),
		}}
		if g.TimeTBA {
			r.key = time.Date(y, m, d, 23, 59, 59, 0, loc).Unix()
		}
		for _, b := range g.Artists {
			r.keys[engine.DimArtist] = append(r.keys[engine.DimArtist], entityKeys(b.Artist, artists[b.Artist].Name)...)
			if m := artists[b.Artist].MBID; m != "" {
				r.keys[engine.DimArtist] = append(r.keys[engine.DimArtist], "s:"+engine.Fold(engine.MBIDPrefix+m))
			}
		}
		for _, s := range g.Genres {
			r.keys[engine.DimGenre] = append(r.keys[engine.DimGenre], entityKeys(s, genres[s].Name)...)
		}
		ref.rows = append(ref.rows, r)
	}
	slices.SortFunc(ref.rows, func(a, b refRow) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.id, b.id)) })
	return ref
}

type refBound struct {
	date    bool
	instant time.Time
	day     time.Time
}

type refQuery struct {
	filters              map[engine.Dim][]string
	folded               map[engine.Dim][]string // filters' values folded
	from, to             *refBound
	offset, limit        int
	fromEngine, toEngine engine.Bound
}

// anyMatch reports whether any folded value of dimension d names one of the entities
// whose keys are keys: a value that folds like an entity's slug names that entity alone;
// any other value, every entity of that name.
func (ref *reference) anyMatch(d engine.Dim, vals, keys []string) bool {
	for _, v := range vals {
		k := "n:" + v
		if ref.slugs[d][v] {
			k = "s:" + v
		}
		if slices.Contains(keys, k) {
			return true
		}
	}
	return false
}

func (ref *reference) run(q refQuery) (ids []string, total int) {
	for _, r := range ref.rows {
		start := time.Unix(r.key, 0)
		if q.from != nil && (q.from.date && r.day.Before(q.from.day) || !q.from.date && start.Before(q.from.instant)) {
			continue
		}
		if q.to != nil && (q.to.date && r.day.After(q.to.day) || !q.to.date && start.After(q.to.instant)) {
			continue
		}
		ok := true
		for d, vals := range q.folded {
			ok = ok && ref.anyMatch(d, vals, r.keys[d])
		}
		if !ok {
			continue
		}
		if total >= q.offset && len(ids) < q.limit {
			ids = append(ids, r.id)
		}
		total++
	}
	return ids, total
}

func randomQuery(r *rand.Rand, ds *engine.Dataset) refQuery {
	q := refQuery{filters: map[engine.Dim][]string{}, offset: r.IntN(3) * r.IntN(40), limit: 1 + r.IntN(30)}
	pick := func(d engine.Dim) string {
		switch d {
		case engine.DimCity:
			c := ds.Cities[r.IntN(len(ds.Cities))]
			return []string{c.Slug, c.Name, strings.ToUpper(c.Name), "nowhere"}[r.IntN(4)]
		case engine.DimCountry:
			return []string{ds.Cities[r.IntN(len(ds.Cities))].Country, "zz", "de"}[r.IntN(3)]
		case engine.DimVenue:
			v := ds.Venues[r.IntN(len(ds.Venues))]
			return []string{v.Slug, v.Name}[r.IntN(2)]
		case engine.DimArtist:
			a := ds.Artists[r.IntN(min(len(ds.Artists), 40))]
			return []string{a.Slug, a.Name}[r.IntN(2)]
		default:
			g := ds.Genres[r.IntN(len(ds.Genres))]
			return []string{g.Slug, g.Name, strings.ToLower(g.Name)}[r.IntN(3)]
		}
	}
	for d := engine.DimCity; d <= engine.DimGenre; d++ {
		if r.IntN(3) == 0 {
			n := 1 + r.IntN(3)
			if (d == engine.DimGenre || d == engine.DimCountry) && r.IntN(3) == 0 {
				n = 4 + r.IntN(5) // long OR lists
			}
			for range n {
				q.filters[d] = append(q.filters[d], pick(d))
			}
		}
	}
	bound := func() (*refBound, engine.Bound) {
		t := now.Add(time.Duration(r.IntN(40*24)) * time.Hour).Add(time.Duration(r.IntN(3600)) * time.Second)
		if r.IntN(2) == 0 { // right at, or just around, a real start
			g := ds.Gigs[r.IntN(len(ds.Gigs))]
			t = g.Start.Add([]time.Duration{0, 0, -time.Second, time.Second, 500 * time.Millisecond, -time.Nanosecond}[r.IntN(6)])
		}
		switch r.IntN(3) {
		case 0:
			return nil, engine.Unbounded
		case 1:
			return &refBound{instant: t}, engine.AtInstant(t)
		default:
			y, m, d := t.Date()
			day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
			return &refBound{date: true, day: day}, engine.OnDate(day)
		}
	}
	q.from, q.fromEngine = bound()
	q.to, q.toEngine = bound()
	q.folded = map[engine.Dim][]string{}
	for d, vals := range q.filters {
		for _, v := range vals {
			q.folded[d] = append(q.folded[d], engine.Fold(v))
		}
	}
	return q
}

func pageIDs(t testing.TB, s *engine.Snapshot, page []int) []string {
	var ids []string
	for _, p := range page {
		var g struct{ ID string }
		if err := json.Unmarshal(s.GigJSON(p), &g); err != nil {
			t.Fatalf("gig %d: %v", p, err)
		}
		ids = append(ids, g.ID)
	}
	return ids
}

func build(t testing.TB, ds *engine.Dataset) *engine.Snapshot {
	t.Helper()
	s, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// largeProperty skips a property test's case of more than 10,000 gigs under -race, where
// its builds take minutes: make test runs every property test in a plain pass first
// (test-props), and -race sees the same code on the small cases.
func largeProperty(t *testing.T, gigs int) {
	t.Helper()
	if raceEnabled && gigs > 10_000 {
		t.Skip("large property case: run without -race (make test-props)")
	}
}

// TestQueryMatchesReference checks random queries against the brute-force oracle, on a
// small dataset and on one large enough for postings that are bitmaps, and dense sets
// across blocks of 65,536 positions, with the snapshot as built and as read back from its file.
func TestQueryMatchesReference(t *testing.T) {
	for _, tc := range []struct{ gigs, queries, minMatching int }{{4000, 3000, 500}, {100_000, 120, 20}} {
		t.Run(fmt.Sprint(tc.gigs), func(t *testing.T) {
			largeProperty(t, tc.gigs)
			ds := scale.Generate(scale.Config{Gigs: tc.gigs, Seed: 7, Now: now, Days: 40})
			r := rand.New(rand.NewPCG(1, 2))
			checkQueries(t, ds, tc.queries, tc.minMatching, func() refQuery { return randomQuery(r, ds) })
		})
	}
}

// TestSlugNamesOneEntity: slugs are unique, names are not. A value that folds like an
// entity's slug names that entity alone, though another entity's name folds alike ("New
// Delhi" is the name of the city "delhi" and folds like the slug "new-delhi"); a slug
// without gigs matches nothing; a name no slug folds like matches every entity of that name.
func TestSlugNamesOneEntity(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 3000, Seed: 11, Now: now, Days: 40})
	c, a, v := ds.Cities, ds.Artists, ds.Venues
	spelled := func(slug string) string { return strings.ToUpper(strings.ReplaceAll(slug, "-", " ")) }
	c[1].Name = spelled(c[0].Slug)
	a[1].Name, a[3].Name = spelled(a[0].Slug), a[2].Name
	v[1].Name = spelled(v[0].Slug)
	idle := engine.City{Slug: engine.Slugify(c[4].Name + " 0"), Name: "Idle", Country: c[4].Country, Timezone: c[4].Timezone}
	c[4].Name += " 0"
	ds.Cities = append(ds.Cities, idle)
	values := map[engine.Dim][]string{
		engine.DimCity:   {c[0].Slug, c[1].Name, c[1].Slug, c[4].Name, idle.Slug, c[2].Name},
		engine.DimArtist: {a[0].Slug, a[1].Name, a[1].Slug, a[2].Name, a[3].Slug},
		engine.DimVenue:  {v[0].Slug, v[1].Name, v[1].Slug},
	}
	var queries []refQuery
	for d, vals := range values {
		for _, val := range vals {
			queries = append(queries, refQuery{filters: map[engine.Dim][]string{d: {val}},
				folded: map[engine.Dim][]string{d: {engine.Fold(val)}}, limit: 50})
		}
	}
	ref := newReference(ds)
	for _, q := range queries {
		if _, total := ref.run(q); total == 0 && q.filters[engine.DimCity] == nil {
			t.Fatalf("%v matches no gig: the test shows nothing", q.filters)
		}
	}
	i := 0
	checkQueries(t, ds, len(queries), 1, func() refQuery { i++; return queries[i-1] })

	s := build(t, ds)
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	for _, tc := range []struct {
		value string
		city  string // the only city of the venues listed; "" when none is
	}{{c[0].Slug, c[0].Slug}, {c[1].Name, c[0].Slug}, {c[1].Slug, c[1].Slug}, {idle.Slug, ""}} {
		q.Reset()
		q.Match(engine.DimCity, []byte(tc.value))
		s.FilterVenues(q)
		for _, i := range q.Page {
			var item struct{ City struct{ Slug string } }
			if err := json.Unmarshal(s.VenueItem(i), &item); err != nil || item.City.Slug != tc.city {
				t.Errorf("venues of city=%q: one in %q (%v), want only %q", tc.value, item.City.Slug, err, tc.city)
			}
		}
		if tc.city != "" && len(q.Page) == 0 {
			t.Errorf("venues of city=%q: none", tc.value)
		}
	}
}

// TestDateRangesMatchReference checks the queries answered from day tables (one large
// posting, or none, and date bounds) against the oracle, with a gig years ahead so that
// some dates lie beyond the tables' window and are counted the other way.
func TestDateRangesMatchReference(t *testing.T) {
	largeProperty(t, 60_000)
	ds := scale.Generate(scale.Config{Gigs: 60_000, Seed: 11, Now: now, Days: 60})
	ds.Gigs[0].Start = now.AddDate(5, 0, 0)
	r := rand.New(rand.NewPCG(3, 4))
	checkQueries(t, ds, 400, 200, func() refQuery {
		for {
			q := randomQuery(r, ds)
			if len(q.filters) > 1 || q.from == nil && q.to == nil {
				continue
			}
			for d, vals := range q.filters {
				q.filters[d], q.folded[d] = vals[:1], q.folded[d][:1]
			}
			if r.IntN(4) == 0 { // deep pages
				q.offset = r.IntN(3000)
			}
			if r.IntN(8) == 0 { // beyond the window
				day := now.AddDate(3+r.IntN(3), 0, 0).Truncate(24 * time.Hour)
				q.to, q.toEngine = &refBound{date: true, day: day}, engine.OnDate(day)
			}
			return q
		}
	})
}

// checkQueries builds ds, reads it back from its file, and checks n queries from next on
// both against the oracle; at least minMatching of them must match some gig.
func checkQueries(t *testing.T, ds *engine.Dataset, n, minMatching int, next func() refQuery) {
	t.Helper()
	s := build(t, ds)
	loaded := roundTrip(t, s)
	ref := newReference(ds)
	if s.Len() != len(ref.rows) {
		t.Fatalf("snapshot holds %d gigs, reference %d", s.Len(), len(ref.rows))
	}
	nonEmpty := 0
	for i := range n {
		rq := next()
		wantIDs, wantTotal := ref.run(rq)
		q := engine.AcquireQuery()
		for d, vals := range rq.filters {
			for _, v := range vals {
				q.Match(d, []byte(v))
			}
		}
		q.From, q.To, q.Offset, q.Limit = rq.fromEngine, rq.toEngine, rq.offset, rq.limit
		for _, snap := range []*engine.Snapshot{s, loaded} {
			snap.Run(q)
			gotIDs := pageIDs(t, snap, q.Page)
			if q.Total != wantTotal || !slices.Equal(gotIDs, wantIDs) {
				t.Fatalf("query %d %+v from=%+v to=%+v offset %d (read from its file: %v):\ngot total %d %v\nwant total %d %v",
					i, rq.filters, rq.from, rq.to, rq.offset, snap == loaded, q.Total, gotIDs, wantTotal, wantIDs)
			}
		}
		if rq.offset > 0 && rq.offset <= wantTotal && i%3 == 0 {
			// The same page by keyset (for a third of the queries): after the gig before it.
			q.Offset, q.Limit = rq.offset-1, 1
			s.Run(q)
			token := s.AppendKeyset(nil, q.Page[0])
			q.Offset, q.Limit = 0, rq.limit
			if !q.After(token) {
				t.Fatalf("keyset token %q refused", token)
			}
			for _, snap := range []*engine.Snapshot{s, loaded} {
				snap.Run(q)
				if gotIDs := pageIDs(t, snap, q.Page); q.Offset != rq.offset || q.Total != wantTotal || !slices.Equal(gotIDs, wantIDs) {
					t.Fatalf("query %d %+v from=%+v to=%+v after %q: offset %d total %d %v, want offset %d total %d %v",
						i, rq.filters, rq.from, rq.to, token, q.Offset, q.Total, gotIDs, rq.offset, wantTotal, wantIDs)
				}
			}
		}
		if wantTotal > 0 {
			nonEmpty++
		}
		engine.ReleaseQuery(q)
	}
	if nonEmpty < minMatching {
		t.Fatalf("only %d of %d queries matched anything: the test is too weak", nonEmpty, n)
	}
}

// TestConcurrentQueriesWhileSwapping runs queries from many goroutines while snapshots are
// published; run with -race. The snapshots are large enough for their genres and countries
// to be bitmaps, so that queries combining them take the dense path (and read the
// postings' bytes in place).
func TestConcurrentQueriesWhileSwapping(t *testing.T) {
	var snaps []*engine.Snapshot
	for seed := range 2 {
		s := build(t, scale.Generate(scale.Config{Gigs: 40_000, Seed: uint64(seed), Now: now, Days: 30}))
		if engine.LargePostings(s, engine.DimGenre) == 0 || engine.LargePostings(s, engine.DimCountry) == 0 {
			t.Fatal("no genre or country is a bitmap: the dense path goes untested")
		}
		snaps = append(snaps, s)
	}
	sums := make([]uint64, len(snaps))
	for i, s := range snaps {
		sums[i] = engine.BitmapsChecksum(s)
	}
	var live engine.Live
	live.Publish(snaps[0])
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 9))
			for {
				select {
				case <-stop:
					return
				default:
				}
				s := live.Load()
				q := engine.AcquireQuery()
				q.Match(engine.DimGenre, []byte([]string{"rock", "jazz", "techno"}[r.IntN(3)]))
				if r.IntN(2) == 0 {
					q.Match(engine.DimGenre, []byte("pop"))
				}
				if r.IntN(3) == 0 {
					_ = q.Search([]byte([]string{"hall", "ka lo", "r"}[r.IntN(3)]))
				}
				if r.IntN(2) == 0 {
					q.Match(engine.DimCountry, []byte("gb"))
					q.Match(engine.DimCountry, []byte("de"))
					q.Match(engine.DimCity, []byte("london"))
				}
				q.From, q.To, q.Limit = engine.OnDate(now.AddDate(0, 0, r.IntN(20))), engine.OnDate(now.AddDate(0, 0, 20+r.IntN(10))), 20
				s.Run(q)
				for _, p := range q.Page {
					if len(s.GigJSON(p)) == 0 {
						t.Error("empty gig JSON")
					}
				}
				engine.ReleaseQuery(q)
				q = engine.AcquireQuery() // and a directory's page, on the same snapshot
				_ = q.Search([]byte([]string{"k", "ka lo", "hall"}[r.IntN(3)]))
				d := []engine.Directory{engine.DirCities, engine.DirVenues, engine.DirArtists}[r.IntN(3)]
				if d != engine.DirArtists && r.IntN(2) == 0 {
					q.Near(51.5, -0.1, 400, false)
				}
				q.Limit = 10
				s.RunDirectory(d, q)
				_, _ = s.AppendDirectoryPage(nil, d, q, engine.PageMeta{}, nil)
				engine.ReleaseQuery(q)
			}
		})
	}
	for i := range 300 {
		live.Publish(snaps[i%len(snaps)])
		time.Sleep(100 * time.Microsecond)
	}
	close(stop)
	wg.Wait()
	// The published bitmaps must be unchanged by all those queries.
	for i, s := range snaps {
		if engine.BitmapsChecksum(s) != sums[i] {
			t.Fatalf("snapshot %d: published bitmaps changed under queries", i)
		}
	}
}

func TestRunAllocations(t *testing.T) {
	s := build(t, scale.Generate(scale.Config{Gigs: 40_000, Seed: 3, Now: now, Days: 60}))
	cases := []struct {
		name  string
		setup func(q *engine.Query)
		max   float64
	}{
		{"no filter", func(q *engine.Query) {}, 0},
		{"one filter", func(q *engine.Query) { q.Match(engine.DimCity, []byte("berlin-1")) }, 0},
		{"two filters and dates", func(q *engine.Query) {
			q.Match(engine.DimCountry, []byte("de"))
			q.Match(engine.DimGenre, []byte("rock"))
			q.From, q.To = engine.OnDate(now.AddDate(0, 0, 3)), engine.OnDate(now.AddDate(0, 0, 30))
		}, 0},
		{"OR lists", func(q *engine.Query) {
			for _, v := range []string{"de", "gb", "fr"} {
				q.Match(engine.DimCountry, []byte(v))
			}
			q.Match(engine.DimGenre, []byte("rock"))
			q.Match(engine.DimGenre, []byte("techno"))
		}, 0},
	}
	for _, tc := range cases {
		for _, limit := range []int{20, 100} {
			q := engine.AcquireQuery()
			n := testing.AllocsPerRun(200, func() {
				q.Reset()
				tc.setup(q)
				q.Limit = limit
				s.Run(q)
			})
			engine.ReleaseQuery(q)
			if n > tc.max {
				t.Errorf("%s, page of %d: %v allocations per query, want at most %v", tc.name, limit, n, tc.max)
			}
		}
	}
}

func TestBuildRejects(t *testing.T) {
	base := func() *engine.Dataset {
		return &engine.Dataset{
			Cities:  []engine.City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
			Venues:  []engine.Venue{{Slug: "v", Name: "V", City: "berlin"}},
			Artists: []engine.Artist{{Slug: "a", Name: "A"}},
			Gigs:    []engine.Gig{{ID: "g1", Venue: "v", Start: now.Add(time.Hour), Artists: []engine.Billing{{Artist: "a", Headliner: true}}}},
		}
	}
	tests := []struct {
		name   string
		mutate func(ds *engine.Dataset)
		want   string
	}{
		{"duplicate id", func(ds *engine.Dataset) { ds.Gigs = append(ds.Gigs, ds.Gigs[0]) }, `duplicate gig id "g1"`},
		{"unknown venue", func(ds *engine.Dataset) { ds.Gigs[0].Venue = "x" }, `gig "g1": unknown venue "x"`},
		{"unknown artist", func(ds *engine.Dataset) { ds.Gigs[0].Artists[0].Artist = "x" }, `gig "g1": unknown artist "x"`},
		{"unknown genre", func(ds *engine.Dataset) { ds.Gigs[0].Genres = []string{"x"} }, `gig "g1": unknown genre "x"`},
		{"no start", func(ds *engine.Dataset) { ds.Gigs[0].Start = time.Time{} }, `gig "g1": no start`},
		{"bad status", func(ds *engine.Dataset) { ds.Gigs[0].Status = "maybe" }, `gig "g1": unknown status "maybe"`},
		{"bad zone", func(ds *engine.Dataset) { ds.Cities[0].Timezone = "Mars/Olympus" }, `city "berlin": unknown time zone "Mars/Olympus"`},
		{"bad country", func(ds *engine.Dataset) { ds.Cities[0].Country = "DEU" }, `city "berlin": country "DEU" is not an ISO 3166-1 alpha-2 code`},
		{"dangling city", func(ds *engine.Dataset) { ds.Venues[0].City = "x" }, `venue "v": unknown city "x"`},
		{"duplicate venue", func(ds *engine.Dataset) { ds.Venues = append(ds.Venues, ds.Venues[0]) }, `duplicate venue slug "v"`},
	}
	for _, tt := range tests {
		ds := base()
		tt.mutate(ds)
		_, err := engine.Build(ds, engine.Options{Now: now})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := engine.Build(base(), engine.Options{Now: now}); err != nil {
		t.Fatalf("valid dataset: %v", err)
	}
	// An id is checked among the gigs a snapshot keeps: a past gig is dropped, its id with it.
	ds := base()
	past := ds.Gigs[0]
	past.Start, past.Title = now.AddDate(0, 0, -3), "past"
	ds.Gigs = append(ds.Gigs, past)
	s, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		t.Fatalf("an upcoming gig and a past one of the same id: %v", err)
	}
	if s.Len() != 1 || strings.Contains(string(s.GigJSON(0)), `"past"`) {
		t.Fatalf("kept %d gigs (the first %s), want the upcoming one", s.Len(), s.GigJSON(0))
	}
}

func ExampleSnapshot_Run() {
	ds := scale.Generate(scale.Config{Gigs: 200, Seed: 1, Now: now, Days: 30})
	s, _ := engine.Build(ds, engine.Options{Now: now})
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	q.Match(engine.DimCountry, []byte("gb"))
	q.From, q.Limit = engine.AtInstant(now), 5
	s.Run(q)
	fmt.Println(q.Total > 0, len(q.Page))
	// Output: true 5
}

func TestRenderKeepsHTMLCharacters(t *testing.T) {
	s := build(t, &engine.Dataset{
		Cities:  []engine.City{{Slug: "paris", Name: "Paris", Country: "FR", Timezone: "Europe/Paris"}},
		Venues:  []engine.Venue{{Slug: "v", Name: "Café <Nuit> & Jour", City: "paris"}},
		Artists: []engine.Artist{{Slug: "s-g", Name: "Simon & Garfunkel"}},
		Gigs: []engine.Gig{{ID: "g", Title: "Simon & Garfunkel", Venue: "v", Start: now.Add(48 * time.Hour),
			Artists: []engine.Billing{{Artist: "s-g", Headliner: true}}}},
	})
	for _, body := range [][]byte{s.GigJSON(0), s.Artists().Raw, s.Venues().Raw} {
		if !strings.Contains(string(body), "&") || strings.Contains(string(body), `\u0026`) || strings.Contains(string(body), `\u003c`) {
			t.Errorf("HTML characters escaped: %s", body)
		}
	}
}

func TestAfterRejects(t *testing.T) {
	for _, token := range []string{"", ".", "12", "12.", ".g1", "x.g1", "-.g1", "1-2.g1", "1234567890123456789.g1", "1." + strings.Repeat("x", 201)} {
		q := engine.AcquireQuery()
		if q.After([]byte(token)) {
			t.Errorf("After(%q) accepted", token)
		}
		engine.ReleaseQuery(q)
	}
}
