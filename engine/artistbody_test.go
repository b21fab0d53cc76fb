package engine_test

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// randomMBID returns a random UUID in canonical form.
func randomMBID(r *rand.Rand) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, 36)
	for i := range 32 {
		if i == 8 || i == 12 || i == 16 || i == 20 {
			b = append(b, '-')
		}
		b = append(b, hex[r.IntN(16)])
	}
	return string(b)
}

// withMBIDs gives a third of ds's artists an MBID, a few of them one another artist has
// too (sources disagree on which act an id is), and moves a tenth of the gigs to earlier
// today, so that they are in the snapshot but no longer upcoming.
func withMBIDs(r *rand.Rand, ds *engine.Dataset) {
	for i := range ds.Artists {
		switch {
		case r.IntN(3) != 0:
		case i > 0 && r.IntN(10) == 0 && ds.Artists[i-1].MBID != "":
			ds.Artists[i].MBID = ds.Artists[i-1].MBID
		default:
			ds.Artists[i].MBID = randomMBID(r)
		}
	}
	for i := range ds.Gigs {
		if r.IntN(10) == 0 {
			ds.Gigs[i].Start = now.Add(-time.Duration(1+r.IntN(3)) * time.Minute)
		}
	}
}

// artistPage is an artist's detail body, decoded.
type artistPage struct {
	Data struct {
		Slug      string   `json:"slug"`
		Name      string   `json:"name"`
		MBID      string   `json:"mbid"`
		TourDates int      `json:"upcoming_tour_dates"`
		Genres    []string `json:"genres"`
		Upcoming  []struct {
			ID string `json:"id"`
		} `json:"upcoming"`
	} `json:"data"`
}

// TestArtistPagesMatchReference checks every artist's page on random datasets against a
// brute-force selection: the artist's entry, and the gigs on its bill that start at the
// build time or later, in start-then-id order; artists on no gig of the snapshot have no
// page. Built, and read back from the snapshot file; identity and gzip alike.
func TestArtistPagesMatchReference(t *testing.T) {
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 37))
		ds := scale.Generate(scale.Config{Gigs: 200 + r.IntN(6000), Seed: seed, Now: now, Days: 1 + r.IntN(60)})
		withMBIDs(r, ds)
		s := build(t, ds)
		loaded := roundTrip(t, s)
		ref := newReference(ds)
		type want struct {
			ids    []string
			listed bool
		}
		wants := map[string]*want{}
		for _, a := range ds.Artists {
			wants[a.Slug] = &want{}
		}
		starts := map[string]int64{}
		for _, row := range ref.rows {
			starts[row.id] = row.key
		}
		for _, g := range ds.Gigs {
			key, kept := starts[g.ID]
			if !kept {
				continue
			}
			for _, b := range g.Artists {
				w := wants[b.Artist]
				w.listed = true
				if key >= now.Unix() && !slices.Contains(w.ids, g.ID) {
					w.ids = append(w.ids, g.ID)
				}
			}
		}
		listed := 0
		for _, a := range ds.Artists {
			w := wants[a.Slug]
			slices.SortFunc(w.ids, func(x, y string) int { return cmp.Or(cmp.Compare(starts[x], starts[y]), cmp.Compare(x, y)) })
			for _, snap := range []*engine.Snapshot{s, loaded} {
				b, ok := snap.Artist(a.Slug)
				if ok != w.listed {
					t.Fatalf("seed %d: artist %q has a page: %v, want %v", seed, a.Slug, ok, w.listed)
				}
				if !ok {
					continue
				}
				raw := engine.VenueBytes(t, b, false)
				if got := gunzip(t, engine.VenueBytes(t, b, true)); !bytes.Equal(got, raw) {
					t.Fatalf("seed %d: artist %q: the gzip body is not the identity body", seed, a.Slug)
				}
				if !strings.HasPrefix(b.ETag, `W/"`) {
					t.Fatalf("ETag %q", b.ETag)
				}
				var p artistPage
				if err := json.Unmarshal(raw, &p); err != nil {
					t.Fatalf("seed %d: artist %q: %v\n%.300s", seed, a.Slug, err, raw)
				}
				var got []string
				for _, g := range p.Data.Upcoming {
					got = append(got, g.ID)
				}
				if d := p.Data; d.Slug != a.Slug || d.Name != a.Name || d.MBID != a.MBID || d.TourDates != len(w.ids) ||
					!slices.Equal(d.Genres, a.Genres) || !slices.Equal(got, w.ids) {
					t.Fatalf("seed %d: artist %q: got %+v %v, want %q %q %d %v %v", seed, a.Slug, d, got, a.Name, a.MBID, len(w.ids), a.Genres, w.ids)
				}
			}
			if w.listed {
				listed++
			}
		}
		if _, ok := s.Artist("no-such-artist"); ok || listed == 0 {
			t.Fatalf("seed %d: an unknown slug has a page, or no artist has one (%d)", seed, listed)
		}
		// The directory lists the same artists, with the same entries.
		var dir struct{ Data []json.RawMessage }
		if err := json.Unmarshal(s.Artists().Raw, &dir); err != nil || len(dir.Data) != listed {
			t.Fatalf("seed %d: the directory lists %d artists (%v), the pages %d", seed, len(dir.Data), err, listed)
		}
		for _, entry := range dir.Data {
			var e struct{ Slug string }
			_ = json.Unmarshal(entry, &e)
			b, _ := s.Artist(e.Slug)
			head := engine.VenueBytes(t, b, false)
			if !bytes.HasPrefix(head, append([]byte(`{"data":`), entry[:len(entry)-1]...)) {
				t.Fatalf("seed %d: page of %q does not begin with its entry %s", seed, e.Slug, entry)
			}
		}
	}
}

// TestArtistPageTags checks that an artist page's ETag is the same in equal snapshots and
// changes with a gig on it or with its MBID.
func TestArtistPageTags(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 2000, Seed: 3, Now: now, Days: 30})
	slug := ds.Gigs[0].Artists[0].Artist
	tag := func(ds *engine.Dataset) string {
		b, ok := build(t, ds).Artist(slug)
		if !ok {
			t.Fatalf("no page for %q", slug)
		}
		return b.ETag
	}
	first := tag(ds)
	if again := tag(ds); again != first {
		t.Fatalf("equal snapshots: tags %s and %s", first, again)
	}
	ds.Gigs[0].Title += " (changed)"
	changed := tag(ds)
	for i := range ds.Artists {
		if ds.Artists[i].Slug == slug {
			ds.Artists[i].MBID = "5b11f4ce-a62d-471e-81fc-a69a8278c7da"
		}
	}
	if changed == first || tag(ds) == changed {
		t.Fatal("the tag did not follow a gig or the MBID")
	}
}

// TestMBIDQueriesMatchReference checks artist=mbid:<uuid> filters, alone and with others,
// against the oracle: an MBID names the artists that have it (two may share one), an
// unknown MBID matches nothing, and the UUID matches in either case.
func TestMBIDQueriesMatchReference(t *testing.T) {
	largeProperty(t, 20_000)
	r := rand.New(rand.NewPCG(9, 10))
	ds := scale.Generate(scale.Config{Gigs: 20_000, Seed: 9, Now: now, Days: 40})
	withMBIDs(r, ds)
	// The busiest artists get an MBID, so that some postings are bitmaps.
	for i := range 3 {
		if ds.Artists[i].MBID == "" {
			ds.Artists[i].MBID = randomMBID(r)
		}
	}
	var mbids []string
	for _, a := range ds.Artists[:min(len(ds.Artists), 60)] {
		if a.MBID != "" {
			mbids = append(mbids, a.MBID)
		}
	}
	unknown := randomMBID(r)
	checkQueries(t, ds, 600, 150, func() refQuery {
		q := randomQuery(r, ds)
		if r.IntN(4) == 0 {
			delete(q.filters, engine.DimCity)
			delete(q.filters, engine.DimCountry)
		}
		q.filters[engine.DimArtist] = nil
		for range 1 + r.IntN(2) {
			v := engine.MBIDPrefix + mbids[r.IntN(len(mbids))]
			switch r.IntN(6) {
			case 0:
				v = engine.MBIDPrefix + unknown
			case 1:
				v = strings.ToUpper(v)
			}
			q.filters[engine.DimArtist] = append(q.filters[engine.DimArtist], v)
		}
		q.folded = map[engine.Dim][]string{}
		for d, vals := range q.filters {
			for _, v := range vals {
				q.folded[d] = append(q.folded[d], engine.Fold(v))
			}
		}
		return q
	})
}

// TestBuildRejectsBadMBID: a dataset's MBIDs must be canonical UUIDs.
func TestBuildRejectsBadMBID(t *testing.T) {
	for _, m := range []string{"5B11F4CE-A62D-471E-81FC-A69A8278C7DA", "5b11f4cea62d471e81fca69a8278c7da", "nope", " 5b11f4ce-a62d-471e-81fc-a69a8278c7da"} {
		ds := scale.Generate(scale.Config{Gigs: 50, Seed: 1, Now: now, Days: 5})
		ds.Artists[0].MBID = m
		if _, err := engine.Build(ds, engine.Options{Now: now}); err == nil || !strings.Contains(err.Error(), "mbid") {
			t.Errorf("mbid %q: %v", m, err)
		}
	}
}

// TestParseMBID checks the UUID validator on well-formed and hostile values.
func TestParseMBID(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"5b11f4ce-a62d-471e-81fc-a69a8278c7da", "5b11f4ce-a62d-471e-81fc-a69a8278c7da"},
		{"5B11F4CE-A62D-471E-81FC-A69A8278C7DA", "5b11f4ce-a62d-471e-81fc-a69a8278c7da"},
		{"00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"},
		{"5b11f4ce-a62d-471e-81fc-a69a8278c7d", ""},     // short
		{"5b11f4ce-a62d-471e-81fc-a69a8278c7daa", ""},   // long
		{"5b11f4cea-62d-471e-81fc-a69a8278c7da", ""},    // a hyphen misplaced
		{"5b11f4ce-a62d-471e-81fc-a69a8278c7dg", ""},    // not hex
		{"{5b11f4ce-a62d-471e-81fc-a69a8278c7d}", ""},   // braces
		{"5b11f4ce-a62d-471e-81fc-a69a8278c7d\x00", ""}, // a NUL
		{"５b11f4ce-a62d-471e-81fc-a69a8278c7d", ""},     // a full-width digit
		{"", ""},
	} {
		got, ok := engine.ParseMBID(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ParseMBID(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		rest string
		ok   bool
	}{{"mbid:x", "x", true}, {"MBID:x", "x", true}, {"Mbid:", "", true}, {"mbid", "", false}, {"mbi:x", "", false}, {"metallica", "", false}} {
		rest, ok := engine.HasMBIDPrefix([]byte(tt.in))
		if string(rest) != tt.rest || ok != tt.ok {
			t.Errorf("HasMBIDPrefix(%q) = %q, %v", tt.in, rest, ok)
		}
	}
}

// FuzzParseMBID: whatever the input, an accepted MBID is 36 bytes of lower-case hex and
// hyphens in their places, equal to the input but for case, and accepted again as itself.
func FuzzParseMBID(f *testing.F) {
	for _, s := range []string{"5b11f4ce-a62d-471e-81fc-a69a8278c7da", "5B11F4CE-A62D-471E-81FC-A69A8278C7DA", "", "mbid:x", "----------------------------------—"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := engine.ParseMBID(s)
		if !ok {
			if got != "" {
				t.Fatalf("refused %q but returned %q", s, got)
			}
			return
		}
		if len(got) != 36 || !strings.EqualFold(got, s) || strings.ToLower(got) != got {
			t.Fatalf("%q gave %q", s, got)
		}
		for i, c := range got {
			if hyphen := i == 8 || i == 13 || i == 18 || i == 23; hyphen != (c == '-') || !hyphen && !strings.ContainsRune("0123456789abcdef", c) {
				t.Fatalf("%q gave %q", s, got)
			}
		}
		if again, ok := engine.ParseMBID(got); !ok || again != got {
			t.Fatalf("%q is not accepted as itself", got)
		}
		b, ok := engine.AppendMBID([]byte("x"), []byte(s))
		if !ok || string(b) != "x"+got {
			t.Fatalf("AppendMBID(%q) = %q", s, b)
		}
	})
}

// TestArtistAllocations: reading an artist's page allocates nothing once its reader is
// pooled, and a query of artist=mbid:<uuid> nothing either.
func TestArtistAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race")
	}
	r := rand.New(rand.NewPCG(5, 6))
	ds := scale.Generate(scale.Config{Gigs: 3000, Seed: 5, Now: now, Days: 30})
	withMBIDs(r, ds)
	ds.Artists[0].MBID = randomMBID(r)
	s := build(t, ds)
	buf := make([]byte, 4096)
	for _, gz := range []bool{false, true} {
		read := func() {
			b, _ := s.Artist(ds.Artists[0].Slug)
			rd, _ := b.Reader(gz)
			for {
				if _, err := rd.Read(buf); err != nil {
					break
				}
			}
			_ = rd.Close()
		}
		read()
		if n := testing.AllocsPerRun(200, read); n > 0 {
			t.Errorf("gzip %v: %v allocations per page", gz, n)
		}
	}
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	value := []byte(engine.MBIDPrefix + ds.Artists[0].MBID)
	run := func() {
		q.Reset()
		q.Match(engine.DimArtist, value)
		q.From, q.Limit = engine.AtInstant(now), 20
		s.Run(q)
	}
	run()
	if q.Total == 0 {
		t.Fatal("the MBID matched nothing")
	}
	if n := testing.AllocsPerRun(200, run); n > 0 {
		t.Errorf("artist=mbid: %v allocations per query", n)
	}
}
