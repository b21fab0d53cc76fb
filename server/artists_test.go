package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// The MBIDs of the artists test snapshot: artist-0's and artist-1's, which artist-2 shares.
const (
	mbid0 = "5b11f4ce-a62d-471e-81fc-a69a8278c7da"
	mbid1 = "cfbc0924-0035-4d6c-8197-f024653af823"
)

// artistSnapshot is testSnapshot's dataset with MBIDs for its first three artists.
func artistSnapshot(t testing.TB, gigs int) *engine.Snapshot {
	t.Helper()
	ds := scale.Generate(scale.Config{Gigs: gigs, Seed: 42, Now: testNow, Days: 60})
	ds.Artists[0].MBID, ds.Artists[1].MBID, ds.Artists[2].MBID = mbid0, mbid1, mbid1
	s, err := engine.Build(ds, engine.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func serveArtists(t *testing.T) (string, *engine.Snapshot) {
	var live engine.Live
	snap := artistSnapshot(t, 400)
	live.Publish(snap)
	live.SetNextRefresh(nextLoad)
	return listen(t, testServer(t, &live)), snap
}

// gigIDs returns the ids of a body's gigs, in data or data.upcoming.
func gigIDs(t *testing.T, body []byte) []string {
	t.Helper()
	var b struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	var list []struct{ ID string }
	if bytes.HasPrefix(b.Data, []byte("{")) {
		var d struct{ Upcoming json.RawMessage }
		if err := json.Unmarshal(b.Data, &d); err != nil {
			t.Fatal(err)
		}
		b.Data = d.Upcoming
	}
	if err := json.Unmarshal(b.Data, &list); err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, g := range list {
		ids = append(ids, g.ID)
	}
	return ids
}

// TestArtistPage serves artists' pages on a real listener: the page is the directory's
// entry with the gigs /v1/gigs lists for the artist from the build time, found by slug or
// by MBID; an unknown slug is a 404, a parameter a 400; ETags, HEAD and gzip as for venues.
func TestArtistPage(t *testing.T) {
	base, _ := serveArtists(t)
	var dir struct {
		Data []struct {
			Slug      string `json:"slug"`
			MBID      string `json:"mbid"`
			TourDates int    `json:"upcoming_tour_dates"`
		}
	}
	if err := json.Unmarshal(do(t, "GET", base+"/v1/artists", nil).body, &dir); err != nil {
		t.Fatal(err)
	}
	mbids := map[string]string{}
	for _, a := range dir.Data {
		if a.MBID != "" {
			mbids[a.Slug] = a.MBID
		}
	}
	if mbids["artist-0"] != mbid0 || mbids["artist-1"] != mbid1 || mbids["artist-2"] != mbid1 || len(mbids) != 3 {
		t.Fatalf("the directory's MBIDs: %v", mbids)
	}
	checked := 0
	for _, a := range dir.Data {
		if a.TourDates == 0 || a.TourDates > 100 || checked == 8 && a.MBID == "" {
			continue
		}
		checked++
		page := do(t, "GET", base+"/v1/artists/"+a.Slug, nil)
		if page.status != 200 {
			t.Fatalf("%s: %d %s", a.Slug, page.status, page.body)
		}
		checkCaching(t, page)
		list := do(t, "GET", base+"/v1/gigs?page_size=100&from=2026-11-22T15:04:05Z&artist="+a.Slug, nil)
		if got, want := gigIDs(t, page.body), gigIDs(t, list.body); !slices.Equal(got, want) || len(got) != a.TourDates {
			t.Errorf("%s: page lists %v, /v1/gigs %v, upcoming_tour_dates %d", a.Slug, got, want, a.TourDates)
		}
		var d struct {
			Data struct{ MBID string }
		}
		if err := json.Unmarshal(page.body, &d); err != nil || d.Data.MBID != a.MBID {
			t.Errorf("%s: mbid %q, want %q (%v)", a.Slug, d.Data.MBID, a.MBID, err)
		}
	}
	for _, tt := range []struct {
		path, name string
		status     int
	}{
		{"/v1/artists/no-such-artist", "", 404},
		{"/v1/artists/artist-0?page=2", "page", 400},
		{"/v1/artists/", "", 404},
	} {
		r := do(t, "GET", base+tt.path, nil)
		if r.status != tt.status {
			t.Fatalf("%s: %d %s", tt.path, r.status, r.body)
		}
		checkProblem(t, r, tt.path)
		if tt.name != "" && !bytes.Contains(r.body, []byte(`"name":"`+tt.name+`"`)) {
			t.Errorf("%s: %s does not name %s", tt.path, r.body, tt.name)
		}
	}

	// ETag, 304, HEAD, gzip.
	path := base + "/v1/artists/artist-0"
	plain := do(t, "GET", path, nil)
	etag := plain.header.Get("ETag")
	if r := do(t, "GET", path, map[string]string{"If-None-Match": etag}); r.status != 304 || len(r.body) != 0 || r.header.Get("ETag") != etag {
		t.Errorf("If-None-Match: %d, %d bytes", r.status, len(r.body))
	}
	if r := do(t, "HEAD", path, nil); r.status != 200 || len(r.body) != 0 || r.header.Get("ETag") != etag {
		t.Errorf("HEAD: %d, %d bytes, %v", r.status, len(r.body), r.header)
	}
	z := do(t, "GET", path, map[string]string{"Accept-Encoding": "gzip"})
	if z.header.Get("Content-Encoding") != "gzip" || z.header.Get("Vary") != varyOf(path) || z.header.Get("ETag") != etag {
		t.Fatalf("gzip: %v", z.header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z.body))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, plain.body) {
		t.Errorf("the gzip body inflates to another body (%v)", err)
	}
}

// TestArtistMBIDFilter: artist=mbid:<uuid> lists the gigs of the artists of that MBID, in
// any case and combined with other filters; a well-formed MBID no artist has matches
// nothing (as an unknown slug does); mbid: followed by anything but a UUID is a 400
// naming artist.
func TestArtistMBIDFilter(t *testing.T) {
	base, _ := serveArtists(t)
	get := func(q string) []string { return gigIDs(t, do(t, "GET", base+"/v1/gigs?page_size=100&"+q, nil).body) }
	if got, want := get("artist=mbid:"+mbid0), get("artist=artist-0"); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("artist=mbid:%s: %v, want artist-0's %v", mbid0, got, want)
	}
	if got, want := get("artist=MBID:"+strings.ToUpper(mbid0)), get("artist=artist-0"); !slices.Equal(got, want) {
		t.Errorf("upper case: %v, want %v", got, want)
	}
	if got, want := get("artist=mbid:"+mbid1), get("artist=artist-1,artist-2"); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("a shared MBID: %v, want both artists' %v", got, want)
	}
	if got, want := get("artist=mbid:"+mbid1+"&country=gb"), get("artist=artist-1,artist-2&country=gb"); !slices.Equal(got, want) {
		t.Errorf("with country: %v, want %v", got, want)
	}
	if got, want := get("artist=mbid:"+mbid0+",artist-5"), get("artist=artist-0,artist-5"); !slices.Equal(got, want) {
		t.Errorf("an MBID or a slug: %v, want %v", got, want)
	}
	for _, q := range []string{"artist=mbid:00000000-0000-0000-0000-000000000000", "artist=no-such-artist"} {
		r := do(t, "GET", base+"/v1/gigs?"+q, nil)
		if r.status != 200 || len(gigIDs(t, r.body)) != 0 {
			t.Errorf("%s: %d %.200s, want 200 and nothing", q, r.status, r.body)
		}
	}
	for _, v := range []string{"mbid:", "mbid:nope", "mbid:5b11f4ce-a62d-471e-81fc-a69a8278c7d", "mbid:5b11f4cea62d471e81fca69a8278c7da",
		"mbid:%7B5b11f4ce-a62d-471e-81fc-a69a8278c7da%7D", "artist-0,mbid:x"} {
		r := do(t, "GET", base+"/v1/gigs?artist="+v, nil)
		checkProblem(t, r, "/v1/gigs")
		var p problemJSON
		if err := json.Unmarshal(r.body, &p); err != nil || r.status != 400 || len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != "artist" ||
			!strings.Contains(p.InvalidParams[0].Reason, "UUID") {
			t.Errorf("artist=%s: %d %s", v, r.status, r.body)
		}
	}
}

// TestArtistPageStreams gates the memory a busy artist's page costs, as
// TestVenueBodyStreams does a venue's: streamed, not a buffer of its size per request.
func TestArtistPageStreams(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	checkStreams(t, artistSnapshot(t, 40_000), "/v1/artists/artist-0", "gzip /v1/artists/artist-0")
}

// TestArtistAllocations: an artist's page allocates what a venue's does, and a page of
// artist=mbid:<uuid> nothing.
func TestArtistAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	var live engine.Live
	live.Publish(artistSnapshot(t, 400))
	noMemo := testServer(t, &live)
	noMemo.memos.size = 0
	h := noMemo.Handler()
	for _, tt := range []struct {
		uri string
		max float64
	}{
		{"/v1/artists/artist-0", 4}, // as /v1/venues/venue-0
		{"gzip /v1/artists/artist-0", 4},
		{"/v1/gigs?artist=mbid:" + mbid0, 0},
		{"/v1/gigs?artist=MBID:" + strings.ToUpper(mbid1) + ",artist-5&country=gb", 0},
		{"gzip /v1/gigs?artist=mbid:" + mbid0, 0},
	} {
		run := handlerCtx(new(fasthttp.RequestCtx), h, tt.uri)
		run()
		if n := allocsPerRun(run); n > tt.max {
			t.Errorf("%s: %v allocations per request, want at most %v", tt.uri, n, tt.max)
		}
	}
}
