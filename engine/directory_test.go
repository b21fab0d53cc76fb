package engine_test

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// dirEntry is the oracle's view of a directory entry: its slug, its entry's bytes in the
// whole body, its names and its position (ok false: nowhere).
type dirEntry struct {
	slug, city, country string
	raw                 []byte
	names               []string
	lat, lon            float64
	ok                  bool
}

// dirEntries lists directory d's entries in the order of its whole body, which the
// golden files hold to, with what the oracle needs of each from ds.
func dirEntries(t *testing.T, s *engine.Snapshot, ds *engine.Dataset, d engine.Directory) []dirEntry {
	t.Helper()
	body := map[engine.Directory]*engine.Body{engine.DirCities: s.Cities(), engine.DirVenues: s.Venues(), engine.DirArtists: s.Artists()}[d]
	var whole struct{ Data []json.RawMessage }
	if err := json.Unmarshal(body.Raw, &whole); err != nil {
		t.Fatal(err)
	}
	cities, venues, artists := bySlug(ds)
	var out []dirEntry
	for _, raw := range whole.Data {
		var e struct{ Slug string }
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		de := dirEntry{slug: e.Slug, raw: raw}
		switch d {
		case engine.DirCities:
			c := cities[e.Slug]
			de.names, de.country = []string{c.Name}, c.Country
			de.lat, de.lon, de.ok = c.Lat, c.Lon, c.HasGeo
		case engine.DirVenues:
			v := venues[e.Slug]
			c := cities[v.City]
			de.names, de.city, de.country = []string{v.Name, c.Name}, c.Slug, c.Country
			switch {
			case v.HasGeo:
				de.lat, de.lon, de.ok = v.Lat, v.Lon, true
			case c.HasGeo:
				de.lat, de.lon, de.ok = c.Lat, c.Lon, true
			}
		default:
			de.names = []string{artists[e.Slug].Name}
		}
		out = append(out, de)
	}
	return out
}

// dirQuery is a random directory query and what the oracle answers it.
type dirQuery struct {
	search        string
	near          *nearRef
	city, country string // venues only
}

// run is the oracle: the entries that match, in slug order or nearest first (then by
// slug), with their distances in metres.
func (dq dirQuery) run(entries []dirEntry) (slugs []string, metres []uint32) {
	type hit struct {
		slug   string
		metres uint32
	}
	var hits []hit
	for _, e := range entries {
		if dq.search != "" && !refSearch(dq.search, e.names) || dq.city != "" && e.city != dq.city ||
			dq.country != "" && e.country != dq.country {
			continue
		}
		h := hit{slug: e.slug}
		if n := dq.near; n != nil {
			if !e.ok {
				continue
			}
			km := engine.DistanceKm(n.lat, n.lon, e.lat, e.lon)
			if km > n.km {
				continue
			}
			h.metres = uint32(math.Round(km * 1000))
		}
		hits = append(hits, h)
	}
	if dq.near != nil {
		slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.metres, b.metres) })
	}
	for _, h := range hits {
		slugs, metres = append(slugs, h.slug), append(metres, h.metres)
	}
	return slugs, metres
}

// set sets q to dq.
func (dq dirQuery) set(t *testing.T, q *engine.Query) {
	t.Helper()
	if dq.search != "" {
		if err := q.Search([]byte(dq.search)); err != nil {
			t.Fatalf("q=%q: %v", dq.search, err)
		}
	}
	if dq.near != nil {
		q.Near(dq.near.lat, dq.near.lon, dq.near.km, false)
	}
	if dq.city != "" {
		q.Match(engine.DimCity, []byte(dq.city))
	}
	if dq.country != "" {
		q.Match(engine.DimCountry, []byte(dq.country))
	}
}

// dirPages pages through directory d by page number, pages of size, checking that each
// page holds the entries' bytes of the whole body (with distance_km near a point) and the
// same total, and that the page past the end is empty; it returns the slugs and distances.
func dirPages(t *testing.T, s *engine.Snapshot, d engine.Directory, entries []dirEntry, dq dirQuery, size int) ([]string, []uint32) {
	t.Helper()
	raw := map[string][]byte{}
	for _, e := range entries {
		raw[e.slug] = e.raw
	}
	var slugs []string
	var metres []uint32
	total := -1
	for page := 1; ; page++ {
		q := engine.AcquireQuery()
		dq.set(t, q)
		q.Offset, q.Limit = (page-1)*size, size
		s.RunDirectory(d, q)
		body, _ := s.AppendDirectoryPage(nil, d, q, engine.PageMeta{Page: page, PageSize: size, Total: q.Total}, nil)
		var got struct {
			Data []json.RawMessage
			Meta struct{ Total int }
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if total >= 0 && got.Meta.Total != total {
			t.Fatalf("page %d: total %d, page 1 said %d", page, got.Meta.Total, total)
		}
		total = got.Meta.Total
		for i, item := range got.Data {
			var e struct {
				Slug       string
				DistanceKm *float64 `json:"distance_km"`
			}
			if err := json.Unmarshal(item, &e); err != nil {
				t.Fatal(err)
			}
			want := raw[e.Slug]
			if dq.near != nil {
				if e.DistanceKm == nil || *e.DistanceKm != math.Round(float64(q.Dist[i])/100)/10 {
					t.Fatalf("%s: distance_km, want %d m", item, q.Dist[i])
				}
				metres = append(metres, q.Dist[i])
				item = append(bytes.Clone(item[:bytes.LastIndex(item, []byte(`,"distance_km":`))]), '}')
			}
			if !bytes.Equal(item, want) {
				t.Fatalf("entry %s, the whole directory's is %s", item, want)
			}
			slugs = append(slugs, e.Slug)
		}
		engine.ReleaseQuery(q)
		if len(got.Data) == 0 {
			if len(slugs) != total {
				t.Fatalf("the pages held %d entries, their total is %d", len(slugs), total)
			}
			return slugs, metres
		}
	}
}

// TestDirectoriesMatchReference checks random searches, radii and venues' filters, and
// their combinations, on the directories of datasets whose names are of every script and
// whose venues lie across the antimeridian, at the poles and nowhere but their city's
// centre, against a scan of every entry, paging through every page, as built and as read
// from the snapshot file.
func TestDirectoriesMatchReference(t *testing.T) {
	for _, tc := range []struct{ gigs, queries int }{{2000, 300}, {30_000, 40}} {
		t.Run(fmt.Sprint(tc.gigs), func(t *testing.T) {
			ds := geoDataset(uint64(tc.gigs), tc.gigs)
			scriptNames(ds, uint64(tc.gigs))
			s := build(t, ds)
			loaded := roundTrip(t, s)
			r := rand.New(rand.NewPCG(11, uint64(tc.gigs)))
			matched := 0
			for _, d := range []engine.Directory{engine.DirCities, engine.DirVenues, engine.DirArtists} {
				entries := dirEntries(t, s, ds, d)
				var names []string
				for _, e := range entries {
					names = append(names, e.names...)
				}
				for i := range tc.queries {
					var dq dirQuery
					if r.IntN(4) > 0 {
						dq.search = randomSearch(r, names)
					}
					if d != engine.DirArtists && r.IntN(2) == 0 {
						n := randomNear(r, ds)
						dq.near = &n
					}
					if d == engine.DirVenues && r.IntN(4) == 0 {
						e := entries[r.IntN(len(entries))]
						if r.IntN(2) == 0 {
							dq.city = e.city
						} else {
							dq.country = e.country
						}
					}
					wantSlugs, wantMetres := dq.run(entries)
					for _, snap := range []*engine.Snapshot{s, loaded} {
						slugs, metres := dirPages(t, snap, d, entries, dq, 1+r.IntN(25))
						if !slices.Equal(slugs, wantSlugs) || dq.near != nil && !slices.Equal(metres, wantMetres) {
							t.Fatalf("directory %d, query %d %+v near %+v (read from its file: %v):\ngot %d %v %v\nwant %d %v %v",
								d, i, dq, dq.near, snap == loaded, len(slugs), slugs, metres, len(wantSlugs), wantSlugs, wantMetres)
						}
					}
					if len(wantSlugs) > 0 && len(wantSlugs) < len(entries) {
						matched++
					}
				}
			}
			if matched < 3*tc.queries/8 {
				t.Fatalf("only %d of %d queries matched some entries but not all: the test is too weak", matched, 3*tc.queries)
			}
		})
	}
}

func TestDirectoryAllocations(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 40_000, Seed: 3, Now: now, Days: 60})
	s := build(t, ds)
	c := ds.Cities[0]
	word := []byte(strings.Fields(ds.Artists[0].Name)[0][:3])
	var two []byte // the beginnings of an artist's two words
	for _, a := range ds.Artists {
		if f := strings.Fields(a.Name); len(f) > 1 && len(f[0]) > 2 && len(f[1]) > 2 {
			two = []byte(f[0][:2] + " " + f[1][:2])
			break
		}
	}
	for _, tc := range []struct {
		name string
		d    engine.Directory
		set  func(q *engine.Query)
	}{
		{"artists, three letters", engine.DirArtists, func(q *engine.Query) { _ = q.Search(word) }},
		{"artists, two words", engine.DirArtists, func(q *engine.Query) { _ = q.Search(two) }},
		{"artists, a page", engine.DirArtists, func(q *engine.Query) { q.Offset = 40 }},
		{"venues near, a word", engine.DirVenues, func(q *engine.Query) {
			q.Near(c.Lat, c.Lon, 100, false)
			_ = q.Search([]byte("ha"))
		}},
		{"venues, a city", engine.DirVenues, func(q *engine.Query) { q.Match(engine.DimCity, []byte(c.Slug)) }},
		{"cities near", engine.DirCities, func(q *engine.Query) { q.Near(c.Lat, c.Lon, 500, false) }},
	} {
		q := engine.AcquireQuery()
		var buf []byte
		n := testing.AllocsPerRun(200, func() {
			q.Reset()
			q.Limit = 10
			tc.set(q)
			s.RunDirectory(tc.d, q)
			buf, _ = s.AppendDirectoryPage(buf[:0], tc.d, q, engine.PageMeta{Page: 1, PageSize: 10, Total: q.Total}, nil)
		})
		total := q.Total
		engine.ReleaseQuery(q)
		if n > 0 {
			t.Errorf("%s: %v allocations per query, want none", tc.name, n)
		}
		if total == 0 {
			t.Errorf("%s: matches nothing: not a query that measures anything", tc.name)
		}
	}
}
