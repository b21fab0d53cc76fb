package engine_test

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// geoDataset is a synthetic dataset with venues at the antimeridian (longitude ±179.9 and
// ±180) and near the poles (latitude ±89.9), venues without coordinates (at their city's
// centre) and cities without a centre (whose venues without coordinates are nowhere).
func geoDataset(seed uint64, gigs int) *engine.Dataset {
	ds := scale.Generate(scale.Config{Gigs: gigs, Seed: seed, Now: now, Days: 40})
	r := rand.New(rand.NewPCG(seed, 9))
	for i := range ds.Cities {
		if i%7 == 3 {
			ds.Cities[i].HasGeo = false
		}
	}
	for i := range ds.Venues {
		v := &ds.Venues[i]
		switch r.IntN(10) {
		case 0: // the antimeridian
			v.Lat, v.Lon, v.HasGeo = -5+r.Float64()*10, []float64{179.9, -179.9, 180, -180, 179.95}[r.IntN(5)]+(r.Float64()-0.5)*0.05, true
			v.Lon = max(-180, min(180, v.Lon))
		case 1: // the poles
			v.Lat, v.Lon, v.HasGeo = []float64{89.9, -89.9, 90, 89.99}[r.IntN(4)], r.Float64()*360-180, true
		case 2: // another venue's place exactly
			o := ds.Venues[r.IntN(len(ds.Venues))]
			v.Lat, v.Lon, v.HasGeo = o.Lat, o.Lon, o.HasGeo
		case 3, 4: // as far from its city's centre as others, north or south: ties to the metre
			for _, c := range ds.Cities {
				if c.Slug == v.City && c.HasGeo {
					v.Lat, v.Lon, v.HasGeo = c.Lat+[]float64{-0.02, 0.02, -0.05, 0.05}[r.IntN(4)], c.Lon, true
				}
			}
		}
	}
	return ds
}

// refPosition is where the reference places each gig's venue (by gig id): its own
// position, or its city's centre; a gig whose venue is nowhere is left out.
func refPosition(ds *engine.Dataset) map[string][2]float64 {
	cities := map[string]engine.City{}
	for _, c := range ds.Cities {
		cities[c.Slug] = c
	}
	venues := map[string][2]float64{}
	for _, v := range ds.Venues {
		if c := cities[v.City]; v.HasGeo {
			venues[v.Slug] = [2]float64{v.Lat, v.Lon}
		} else if c.HasGeo {
			venues[v.Slug] = [2]float64{c.Lat, c.Lon}
		}
	}
	pos := map[string][2]float64{}
	for _, g := range ds.Gigs {
		if p, ok := venues[g.Venue]; ok {
			pos[g.ID] = p
		}
	}
	return pos
}

type nearRef struct {
	lat, lon, km float64
	byDistance   bool
}

type nearHit struct {
	id     string
	metres uint32
}

// runNear is the oracle of a near query: every gig rq matches (ref.run, in start order)
// whose venue is within the radius, ordered by distance then start then id when asked.
func runNear(ref *reference, pos map[string][2]float64, rq refQuery, n nearRef) []nearHit {
	rq.offset, rq.limit = 0, math.MaxInt
	ids, _ := ref.run(rq)
	var hits []nearHit
	for _, id := range ids {
		p, ok := pos[id]
		if !ok {
			continue
		}
		if d := engine.DistanceKm(n.lat, n.lon, p[0], p[1]); d <= n.km {
			hits = append(hits, nearHit{id, uint32(math.Round(d * 1000))})
		}
	}
	if n.byDistance {
		slices.SortStableFunc(hits, func(a, b nearHit) int { return cmp.Compare(a.metres, b.metres) })
	}
	return hits
}

func randomNear(r *rand.Rand, ds *engine.Dataset) nearRef {
	n := nearRef{km: []float64{0.5, 3, 25, 100, 500}[r.IntN(5)] * (0.2 + r.Float64()*0.8), byDistance: r.IntN(2) == 0}
	switch r.IntN(6) {
	case 0:
		c := ds.Cities[r.IntN(len(ds.Cities))]
		n.lat, n.lon = c.Lat, c.Lon
	case 1:
		v := ds.Venues[r.IntN(len(ds.Venues))]
		n.lat, n.lon = v.Lat, v.Lon
	case 2: // across the antimeridian
		n.lat, n.lon = -3+r.Float64()*6, []float64{179.97, -179.97, 180, -180}[r.IntN(4)]
	case 3: // around a pole
		n.lat, n.lon = []float64{89.95, -89.95, 90, -90, 88}[r.IntN(5)], r.Float64()*360-180
	default:
		n.lat, n.lon = r.Float64()*180-90, r.Float64()*360-180
		n.km = 500
	}
	return n
}

func setQuery(t *testing.T, q *engine.Query, rq refQuery, n nearRef, search string) {
	if search != "" {
		if err := q.Search([]byte(search)); err != nil {
			t.Fatalf("q=%q: %v", search, err)
		}
	}
	for d, vals := range rq.filters {
		for _, v := range vals {
			q.Match(d, []byte(v))
		}
	}
	q.From, q.To, q.Offset, q.Limit = rq.fromEngine, rq.toEngine, rq.offset, rq.limit
	q.Near(n.lat, n.lon, n.km, n.byDistance)
}

// TestNearMatchesReference checks random near queries, in both orders, combined with
// random filters and date ranges, against the oracle: the page at an offset, its gigs'
// distances, and every page followed by keyset tokens (none skipped or repeated), on the
// snapshot as built and as read back from its file; sizes where points' postings are
// lists and bitmaps.
func TestNearMatchesReference(t *testing.T) {
	for _, tc := range []struct{ gigs, queries int }{{3000, 1500}, {60_000, 150}} {
		t.Run(fmt.Sprint(tc.gigs), func(t *testing.T) {
			largeProperty(t, tc.gigs)
			ds := geoDataset(3, tc.gigs)
			s := build(t, ds)
			snaps := []*engine.Snapshot{s, roundTrip(t, s)}
			ref, pos, texts := newReference(ds), refPosition(ds), searchTexts(ds)
			r := rand.New(rand.NewPCG(5, 6))
			nonEmpty, paged, tiled, areas := 0, 0, 0, 0
			q := engine.AcquireQuery()
			defer engine.ReleaseQuery(q)
			for i := range tc.queries {
				rq, n := randomQuery(r, ds), randomNear(r, ds)
				if r.IntN(2) == 0 {
					rq.filters, rq.folded = nil, nil
				}
				want := runNear(ref, pos, rq, n)
				search := "" // a third of the queries search words of a gig too, mostly of one they match
				if r.IntN(3) == 0 {
					id := ds.Gigs[r.IntN(len(ds.Gigs))].ID
					if len(want) > 0 && r.IntN(4) > 0 {
						id = want[r.IntN(len(want))].id
					}
					search = randomSearch(r, texts[id])
					want = slices.DeleteFunc(want, func(h nearHit) bool { return !refSearch(search, texts[h.id]) })
				}
				if len(want) > 0 {
					nonEmpty++
				}
				checkNear(t, q, snaps, rq, n, search, want, func(k int) {
					if engine.NearTiles(q) > 0 {
						tiled++
					}
					if engine.NearAreas(q, snaps[k]) > 0 {
						areas++
					}
				})
				if len(want) == 0 || i%4 != 0 && tc.gigs < 10_000 {
					continue
				}
				paged++
				size := func() int { return max(1+r.IntN(7), len(want)/30) }
				if all := nearKeysetPages(t, q, snaps, rq, n, search, size); !slices.Equal(all, want) {
					t.Fatalf("query %d %+v near %+v: by keyset\n%v\nwant\n%v", i, rq.filters, n, all, want)
				}
			}
			if nonEmpty < tc.queries/6 || paged < 8 || tiled < tc.queries/20 || areas < tc.queries/40 {
				t.Fatalf("%d of %d queries matched, %d paged, %d took tiles whole, %d areas: the test is too weak", nonEmpty, tc.queries, paged, tiled, areas)
			}
		})
	}
}

// checkNear runs rq near n with search on each of snaps, checks its page at rq's offset
// and its total against want, all its matches in order, and calls seen with the number of
// the snapshot q was just run on.
func checkNear(t *testing.T, q *engine.Query, snaps []*engine.Snapshot, rq refQuery, n nearRef, search string, want []nearHit, seen func(k int)) {
	t.Helper()
	page := want[min(rq.offset, len(want)):min(rq.offset+rq.limit, len(want))]
	for k, snap := range snaps {
		q.Reset()
		setQuery(t, q, rq, n, search)
		snap.Run(q)
		seen(k)
		if got := hitsOf(t, snap, q); q.Total != len(want) || !slices.Equal(got, page) {
			t.Fatalf("%+v q=%q near %+v from=%+v to=%+v offset %d limit %d (snapshot %d):\ngot total %d %v\nwant total %d %v",
				rq.filters, search, n, rq.from, rq.to, rq.offset, rq.limit, k, q.Total, got, len(want), page)
		}
	}
}

// nearKeysetPages runs rq near n with search through every page by keyset tokens, from the
// first, each page of size() gigs, on each of snaps in turn, checking each page's offset,
// and returns the gigs in order.
func nearKeysetPages(t *testing.T, q *engine.Query, snaps []*engine.Snapshot, rq refQuery, n nearRef, search string, size func() int) []nearHit {
	t.Helper()
	var all []nearHit
	var token []byte
	for pages := 0; ; pages++ {
		snap := snaps[pages%len(snaps)]
		q.Reset()
		setQuery(t, q, rq, n, search)
		q.Offset, q.Limit = 0, size()
		if token != nil && !q.After(token) {
			t.Fatalf("near %+v q=%q: token %q refused", n, search, token)
		}
		snap.Run(q)
		if q.Offset != len(all) {
			t.Fatalf("near %+v q=%q: after %q, offset %d, want %d", n, search, token, q.Offset, len(all))
		}
		all = append(all, hitsOf(t, snap, q)...)
		if len(q.Page) == 0 || q.Offset+len(q.Page) >= q.Total {
			return all
		}
		token = snap.AppendQueryKeyset(token[:0], q, len(q.Page)-1)
	}
}

func hitsOf(t *testing.T, s *engine.Snapshot, q *engine.Query) []nearHit {
	t.Helper()
	ids := pageIDs(t, s, q.Page)
	if len(q.Dist) != len(ids) {
		t.Fatalf("%d distances for %d gigs", len(q.Dist), len(ids))
	}
	var hits []nearHit
	for i, id := range ids {
		hits = append(hits, nearHit{id, q.Dist[i]})
	}
	return hits
}

// TestNearPageBodies checks the bodies of near pages: each gig is its body with
// distance_km before its closing brace, and the gzip body (spliced from the gigs'
// fragments) inflates to the identity body; the tag is the same for both and differs
// from the plain page's.
func TestNearPageBodies(t *testing.T) {
	ds := geoDataset(4, 2000)
	s := build(t, ds)
	for _, snap := range []*engine.Snapshot{s, roundTrip(t, s)} {
		q := engine.AcquireQuery()
		c := ds.Cities[0]
		q.Near(c.Lat, c.Lon, 25, true)
		q.Limit = 30
		snap.Run(q)
		if len(q.Page) < 5 {
			t.Fatalf("%d gigs near %s", len(q.Page), c.Name)
		}
		raw, tag := snap.AppendQueryPage(nil, q, engine.PageMeta{Page: 1, PageSize: 30, Total: q.Total}, nil, false)
		gz, ztag := snap.AppendQueryPage(nil, q, engine.PageMeta{Page: 1, PageSize: 30, Total: q.Total}, nil, true)
		plain, ptag := snap.AppendGigsPage(nil, q.Page, engine.PageMeta{Page: 1, PageSize: 30, Total: q.Total}, nil, false)
		if tag != ztag || tag == ptag || bytes.Equal(raw, plain) {
			t.Fatalf("tags %x %x, plain %x", tag, ztag, ptag)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("gzip body inflates to %q (%v), want %q", got, err, raw)
		}
		var body struct {
			Data []struct {
				ID         string
				DistanceKm float64 `json:"distance_km"`
				Venue      struct {
					Lat, Lon *float64
				}
			}
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		for i, g := range body.Data {
			want := math.Round(float64(q.Dist[i])/100) / 10
			if g.DistanceKm != want || g.Venue.Lat == nil || g.Venue.Lon == nil || g.DistanceKm > 25.05 {
				t.Fatalf("gig %d: distance_km %v (want %v), venue at %v,%v", i, g.DistanceKm, want, g.Venue.Lat, g.Venue.Lon)
			}
			var whole map[string]any
			if err := json.Unmarshal(snap.GigJSON(q.Page[i]), &whole); err != nil || whole["distance_km"] != nil {
				t.Fatalf("gig %d's own body: %v, distance %v", i, err, whole["distance_km"])
			}
		}
		engine.ReleaseQuery(q)
	}
}

// TestKeysetTokenOfOrder: a token of one order is refused by a query of the other, and
// hostile tokens are refused.
func TestKeysetTokenOfOrder(t *testing.T) {
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	for _, tc := range []struct {
		token      string
		byDistance bool
		ok         bool
	}{
		{"1765000000.g1", false, true}, {"1765000000.g1", true, false}, {"1234~1765000000.g1", true, true},
		{"1234~1765000000.g1", false, false}, {"~1765000000.g1", true, false}, {"1234567890~1.g", true, false},
		{"12~-5.g", true, true}, {"12~.g", true, false}, {"12~5.", true, false}, {"12~5", true, false}, {"12~~5.g", true, false},
	} {
		q.Reset()
		q.Near(0, 0, 10, tc.byDistance)
		if got := q.After([]byte(tc.token)); got != tc.ok {
			t.Errorf("After(%q) by distance %v = %v, want %v", tc.token, tc.byDistance, got, tc.ok)
		}
	}
}

// TestNearAllocations: a near page, in either order, alone, with a genre or with a search
// for a frequent word (through its pairs with the candidates), allocates nothing once the
// query's scratch has grown.
func TestNearAllocations(t *testing.T) {
	ds := geoDataset(5, 20_000)
	s := build(t, ds)
	// Large enough for postings of areas near London that are bitmaps, paired with words.
	paired := build(t, scale.Generate(scale.Config{Gigs: 60_000, Seed: 5, Now: now, Days: 40}))
	c := ds.Cities[0]
	for _, tc := range []struct {
		byDistance, genre bool
		search            string
	}{{false, true, ""}, {true, true, ""}, {false, false, ""}, {true, false, ""}, {false, false, "hall"}, {true, false, "hall"}} {
		byDistance, s := tc.byDistance, s
		if tc.search != "" {
			s = paired
		}
		q := engine.AcquireQuery()
		dst := make([]byte, 0, 1<<16)
		run := func() {
			q.Reset()
			switch {
			case tc.genre:
				q.Match(engine.DimGenre, []byte("rock"))
			case tc.search != "": // the bench's near+q page: a frequent word from now
				_ = q.Search([]byte(tc.search))
			default: // alone with a month's range, as the bench's near query
				q.From, q.To = engine.AtInstant(now), engine.OnDate(now.AddDate(0, 0, 30))
			}
			q.Near(c.Lat, c.Lon, 25, byDistance)
			q.Limit = 20
			s.Run(q)
			dst, _ = s.AppendQueryPage(dst[:0], q, engine.PageMeta{Page: 1, PageSize: 20, Total: q.Total}, nil, true)
		}
		run()
		if len(q.Page) == 0 || tc.search != "" && !engine.PairCounted(q) {
			t.Fatalf("%d gigs, counted from pairs %v: the test shows nothing", len(q.Page), engine.PairCounted(q))
		}
		if n := testing.AllocsPerRun(50, run); n != 0 {
			t.Errorf("by distance %v, genre %v, q=%q: %.1f allocations per page", byDistance, tc.genre, tc.search, n)
		}
		engine.ReleaseQuery(q)
	}
}
