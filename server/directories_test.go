package server

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

type directoryPage struct {
	Data []struct {
		Slug       string   `json:"slug"`
		Name       string   `json:"name"`
		DistanceKm *float64 `json:"distance_km"`
	}
	Meta struct {
		Page, PageSize, Total, TotalPages int
		Count                             *int
	} `json:"meta"`
	Links map[string]string
}

// TestDirectoryPagesOverHTTP: a directory given q, near, radius, page or page_size is a
// page of what the engine finds, and its next links walk every entry once, keeping the
// query; the page past the end is empty with its total.
func TestDirectoryPagesOverHTTP(t *testing.T) {
	base, snap := wordsServer(t)
	for _, tc := range []struct {
		path string
		d    engine.Directory
		some bool
	}{
		{"/v1/artists?q=motor", engine.DirArtists, true},
		{"/v1/artists?q=", engine.DirArtists, false}, // below: a 400
		{"/v1/artists?page_size=7", engine.DirArtists, true},
		{"/v1/cities?q=%E6%9D%B1&page_size=3", engine.DirCities, true}, // 東
		{"/v1/cities?q=MUNCHEN", engine.DirCities, true},
		{"/v1/cities?q=%D0%BC%D0%BE%D1%81%D0%BA%D0%B2%D0%B0", engine.DirCities, true}, // москва
		{"/v1/cities?near=48.137,11.575&radius=500km&page_size=2", engine.DirCities, true},
		{"/v1/venues?q=hall&page_size=5", engine.DirVenues, true},
		{"/v1/venues?near=48.137,11.575&radius=300mi&q=hall&page_size=4", engine.DirVenues, true},
		{"/v1/venues?city=m%C3%BCnchen&page=1", engine.DirVenues, true},
		{"/v1/venues?q=zzzzzz", engine.DirVenues, false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			u, _ := url.Parse(tc.path)
			vals := u.Query()
			if vals.Has("q") && vals.Get("q") == "" {
				r := do(t, "GET", base+tc.path, nil)
				checkProblem(t, r, u.Path)
				if r.status != 400 || !strings.Contains(string(r.body), `"name":"q"`) {
					t.Fatalf("status %d: %s", r.status, r.body)
				}
				return
			}
			q := engine.AcquireQuery()
			defer engine.ReleaseQuery(q)
			if v := vals.Get("q"); v != "" {
				if err := q.Search([]byte(v)); err != nil {
					t.Fatal(err)
				}
			}
			if v := vals.Get("near"); v != "" {
				lat, lon, _ := parseNearValue([]byte(v))
				km, _ := parseRadius([]byte(vals.Get("radius")))
				q.Near(lat, lon, km, true)
			}
			if v := vals.Get("city"); v != "" {
				q.Match(engine.DimCity, []byte(v))
			}
			q.Limit = 1 << 20
			snap.RunDirectory(tc.d, q)
			body, _ := snap.AppendDirectoryPage(nil, tc.d, q, engine.PageMeta{}, nil)
			var all directoryPage
			if err := json.Unmarshal(body, &all); err != nil {
				t.Fatal(err)
			}
			if tc.some != (len(all.Data) > 0) {
				t.Fatalf("the engine finds %d entries", len(all.Data))
			}
			var want, got []string
			for _, e := range all.Data {
				want = append(want, e.Slug)
			}
			next, pages := tc.path, 0
			for ; next != ""; pages++ {
				r := do(t, "GET", base+next, nil)
				if r.status != 200 {
					t.Fatalf("%s: status %d: %s", next, r.status, r.body)
				}
				var page directoryPage
				if err := json.Unmarshal(r.body, &page); err != nil {
					t.Fatal(err)
				}
				if page.Meta.Total != len(want) || page.Meta.Count != nil || page.Links["self"] == "" {
					t.Fatalf("%s: total %d, want %d; %s", next, page.Meta.Total, len(want), r.body)
				}
				if len(page.Data) > 0 && r.header.Get("Link") == "" {
					t.Fatalf("%s: no Link header", next)
				}
				for _, e := range page.Data {
					got = append(got, e.Slug)
					if (e.DistanceKm != nil) != vals.Has("near") {
						t.Fatalf("%s: distance_km %v", next, e.DistanceKm)
					}
				}
				for k, v := range vals {
					if k != "page" && !strings.Contains(page.Links["last"], k+"=") {
						t.Fatalf("%s: the last link %q lost %s=%s", next, page.Links["last"], k, v)
					}
				}
				next = page.Links["next"]
				if pages > 200 {
					t.Fatal("more than 200 pages")
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			past := fmt.Sprintf("%s&page=%d", strings.Replace(tc.path, "&page=1", "", 1), pages+5)
			r := do(t, "GET", base+past, nil)
			var page directoryPage
			_ = json.Unmarshal(r.body, &page)
			if r.status != 200 || len(page.Data) != 0 || page.Meta.Total != len(want) || page.Links["prev"] == "" || page.Links["next"] != "" {
				t.Fatalf("%s: status %d, %s", past, r.status, r.body)
			}
		})
	}
}

// TestDirectoriesUnchanged: without the new parameters each directory is its whole body,
// as before, and venues filtered by city alone are every match with their count.
func TestDirectoriesUnchanged(t *testing.T) {
	base, snap := wordsServer(t)
	for path, b := range map[string]*engine.Body{"/v1/cities": snap.Cities(), "/v1/venues": snap.Venues(), "/v1/artists": snap.Artists()} {
		if r := do(t, "GET", base+path, nil); r.status != 200 || string(r.body) != string(b.Raw) {
			t.Errorf("%s: status %d, not the whole body", path, r.status)
		}
	}
	r := do(t, "GET", base+"/v1/venues?city=m%C3%BCnchen", nil)
	var page directoryPage
	_ = json.Unmarshal(r.body, &page)
	if r.status != 200 || page.Meta.Count == nil || *page.Meta.Count != len(page.Data) || len(page.Data) == 0 || page.Links != nil {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
}

// TestDirectoryErrors: each bad parameter of a directory is a 400 naming it.
func TestDirectoryErrors(t *testing.T) {
	base, _ := wordsServer(t)
	for _, tc := range []struct{ path, name, reason string }{
		{"/v1/artists?q=" + strings.Repeat("x", 201), "q", "at most 200 bytes"},
		{"/v1/artists?q=%21%21%21", "q", "must hold a word"},
		{"/v1/artists?q=a+b+c+d+e+f+g+h+i+j+k", "q", "at most 10 words"},
		{"/v1/artists?near=1,2", "near", "unknown parameter; accepted: q, page, page_size"},
		{"/v1/artists?page_size=0", "page_size", "from 1 to 100"},
		{"/v1/artists?page_size=101", "page_size", "from 1 to 100"},
		{"/v1/cities?page=0", "page", "from 1 to 10000000"},
		{"/v1/cities?city=berlin", "city", "unknown parameter; accepted: q, near, radius, page, page_size"},
		{"/v1/cities?near=100,50", "near", "swapped"},
		{"/v1/cities?near=52.5", "near", "latitude,longitude"},
		{"/v1/venues?radius=10km", "radius", "only with near"},
		{"/v1/venues?near=52.5,13.4&radius=501km", "radius", "at most 500km"},
		{"/v1/venues?near=52.5,13.4&radius=10ft", "radius", "the unit must be"},
		{"/v1/venues?sort=distance", "sort", "unknown parameter"},
		{"/v1/venues?q=hall&q=x", "q", "given more than once"},
		{"/v1/venues?country=xx&q=hall", "country", "must be countries"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			r := do(t, "GET", base+tc.path, nil)
			u, _ := url.Parse(tc.path)
			checkProblem(t, r, u.Path)
			var p problemJSON
			_ = json.Unmarshal(r.body, &p)
			if r.status != 400 || len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != tc.name ||
				!strings.Contains(p.InvalidParams[0].Reason, tc.reason) {
				t.Fatalf("status %d, %s; want a 400 naming %s: %q", r.status, r.body, tc.name, tc.reason)
			}
		})
	}
}

// TestDirectoryAllocations: pages of the directories, identity and gzip, allocate nothing
// once warm.
func TestDirectoryAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	live, _ := liveSnapshot(t)
	s := testServer(t, live)
	h := s.Handler()
	for _, uri := range []string{
		"/v1/artists?q=the&page_size=10",
		"/v1/artists?page=3",
		"gzip /v1/artists?q=d+t",
		"/v1/venues?near=51.507,-0.128&radius=40km&q=hall",
		"/v1/venues?city=london",
		"gzip /v1/cities?near=51.507,-0.128&radius=500km",
	} {
		gateAllocations(t, h, uri)
	}
}

// FuzzDirectoryQuery: any query string of a directory is a 200 or a 400, never a panic.
func FuzzDirectoryQuery(f *testing.F) {
	for _, s := range []string{"q=motor", "q=&page=2", "near=1,2&radius=3mi&q=a+b", "page_size=100&page=9999999",
		"city=x,y&country=de&q=%E6%9D%B1", "q=%ff%fe", "near=91,0", "radius=5km", "page=-1", "q=a&q=b"} {
		f.Add("/v1/venues", s)
		f.Add("/v1/artists", s)
		f.Add("/v1/cities", s)
	}
	live, _ := liveSnapshot(f)
	h := testServer(f, live).Handler()
	f.Fuzz(func(t *testing.T, path, query string) {
		if path != "/v1/venues" && path != "/v1/artists" && path != "/v1/cities" {
			return
		}
		var ctx fasthttp.RequestCtx
		handlerCtx(&ctx, h, path+"?"+query)()
		if c := ctx.Response.StatusCode(); c != 200 && c != 400 {
			t.Fatalf("%s?%s: status %d: %s", path, query, c, ctx.Response.Body())
		}
	})
}
