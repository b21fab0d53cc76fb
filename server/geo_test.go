package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"net/url"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// TestNearErrors: every bad near, radius or sort is a 400 naming its parameter, with a
// reason that says what is wrong; good ones are a 200.
func TestNearErrors(t *testing.T) {
	base, _ := servePublished(t)
	for _, tc := range []struct {
		query, param, reason string // param "" for a 200
	}{
		{"near=51.5,-0.12", "", ""},
		{"near=51.5,-0.12&radius=15mi&sort=distance", "", ""},
		{"near=51.5,-0.12&radius=800m&sort=starts_at", "", ""},
		{"near=-90,180&radius=500km", "", ""},
		{"near=+51.5, -0.12&radius=25 km", "", ""},
		{"sort=starts_at", "", ""},
		{"near=91,0", "near", "latitude must be within -90 and 90"},
		{"near=0,181", "near", "longitude within -180"},
		{"near=-120,45", "near", "the order is latitude first"},
		{"near=151.5,-0.12", "near", "the order is latitude first"},
		{"near=200,200", "near", "within -180 and 180"},
		{"near=51.5", "near", "latitude,longitude"},
		{"near=51.5,-0.12,3", "near", "latitude,longitude"},
		{"near=NaN,0", "near", "latitude,longitude"},
		{"near=1e1,0", "near", "latitude,longitude"},
		{"near=51.5,-0.12&radius=25", "radius", "a number and a unit"},
		{"near=51.5,-0.12&radius=25furlongs", "radius", "the unit must be km, mi or m"},
		{"near=51.5,-0.12&radius=501km", "radius", "at most 500km"},
		{"near=51.5,-0.12&radius=311mi", "radius", "at most 500km"},
		{"near=51.5,-0.12&radius=0km", "radius", "greater than 0"},
		{"near=51.5,-0.12&radius=-5km", "radius", "greater than 0"},
		{"near=51.5,-0.12&radius=km", "radius", "a number and a unit"},
		{"radius=10km", "radius", "only with near"},
		{"sort=distance", "sort", "distance needs near"},
		{"sort=nearest", "sort", "must be starts_at or distance"},
		{"near=51.5,-0.12&sort=distance&after=1796500800.g1", "after", "after value"},
		{"near=51.5,-0.12&after=5~1796500800.g1", "after", "after value"},
		{"near=51.5,-0.12&sort=distance&radius=9999km&after=5~1796500800.g1", "radius", "at most 500km"}, // the token is not judged
	} {
		path := "/v1/gigs?" + strings.ReplaceAll(tc.query, " ", "%20")
		r := do(t, "GET", base+path, nil)
		if tc.param == "" {
			if r.status != 200 {
				t.Errorf("%s: %d %s", tc.query, r.status, r.body)
			}
			continue
		}
		if r.status != 400 {
			t.Errorf("%s: %d, want 400", tc.query, r.status)
			continue
		}
		checkProblem(t, r, path)
		var p problemJSON
		_ = json.Unmarshal(r.body, &p)
		if len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != tc.param || !strings.Contains(p.InvalidParams[0].Reason, tc.reason) {
			t.Errorf("%s: invalid_params %+v, want %s: …%s…", tc.query, p.InvalidParams, tc.param, tc.reason)
		}
	}
}

type nearGig struct {
	ID         string   `json:"id"`
	DistanceKm *float64 `json:"distance_km"`
	Venue      struct {
		Lat, Lon *float64
	} `json:"venue"`
}

type nearPage struct {
	Data  []nearGig `json:"data"`
	Meta  struct{ Total int }
	Links map[string]string
}

// TestNearPaging follows the next links of near queries, in both orders and with other
// filters, over a real listener: every gig once, within the radius by its venue's
// position, in order, and the gzip body the identity body compressed.
func TestNearPaging(t *testing.T) {
	base, _ := servePublished(t)
	for _, query := range []string{
		"near=51.507,-0.128&radius=40km&page_size=7",
		"near=51.507,-0.128&radius=40km&sort=distance&page_size=7",
		"near=51.507,-0.128&radius=500km&sort=distance&page_size=9&genre=rock,pop,indie",
		"near=0.194,-176.477&radius=500km&sort=distance&page_size=3", // Baker Island, by the antimeridian
		"near=40.7,-74&radius=30mi&sort=distance&from=2026-12-01&to=2027-01-15&page_size=4",
	} {
		var got []nearGig
		total := -1
		next := "/v1/gigs?" + query
		for pages := 0; next != ""; pages++ {
			r := do(t, "GET", base+next, nil)
			if r.status != 200 {
				t.Fatalf("%s: %d %s", next, r.status, r.body)
			}
			var p nearPage
			if err := json.Unmarshal(r.body, &p); err != nil {
				t.Fatal(err)
			}
			if total >= 0 && p.Meta.Total != total {
				t.Fatalf("%s: total %d, then %d", next, total, p.Meta.Total)
			}
			total = p.Meta.Total
			got = append(got, p.Data...)
			z := do(t, "GET", base+next, map[string]string{"Accept-Encoding": "gzip"})
			zr, err := gzip.NewReader(bytes.NewReader(z.body))
			if err != nil {
				t.Fatal(err)
			}
			if inflated, err := io.ReadAll(zr); err != nil || !bytes.Equal(inflated, r.body) || z.header.Get("ETag") != r.header.Get("ETag") {
				t.Fatalf("%s: the gzip body inflates to another (%v), or its ETag differs", next, err)
			}
			next = p.Links["next"]
			if pages > 200 {
				t.Fatal("too many pages")
			}
		}
		if total < 3 || len(got) != total {
			t.Fatalf("%s: %d gigs by the next links, total %d", query, len(got), total)
		}
		q, _ := url.ParseQuery(query)
		lat, lon, _ := parseNearValue([]byte(q.Get("near")))
		km, _ := parseRadius([]byte(q.Get("radius")))
		seen := map[string]bool{}
		for i, g := range got {
			if seen[g.ID] {
				t.Fatalf("%s: %s twice", query, g.ID)
			}
			seen[g.ID] = true
			if g.DistanceKm == nil || g.Venue.Lat == nil {
				t.Fatalf("%s: gig %s without distance_km or venue position", query, g.ID)
			}
			d := engine.DistanceKm(lat, lon, *g.Venue.Lat, *g.Venue.Lon)
			if d > km || math.Abs(d-*g.DistanceKm) > 0.051 {
				t.Fatalf("%s: gig %s at %.3f km says %v", query, g.ID, d, *g.DistanceKm)
			}
			if i > 0 && q.Get("sort") == "distance" && *g.DistanceKm < *got[i-1].DistanceKm {
				t.Fatalf("%s: %s at %v km after %s at %v km", query, g.ID, *g.DistanceKm, got[i-1].ID, *got[i-1].DistanceKm)
			}
		}
	}
}

// TestNearAllocations: near pages, in either order, identity and gzip, allocate nothing
// once warm.
func TestNearAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	live, _ := liveSnapshot(t)
	s := testServer(t, live)
	s.memos.size = 0
	h := s.Handler()
	for _, uri := range []string{
		"/v1/gigs?near=51.507,-0.128&radius=40km",
		"/v1/gigs?near=51.507,-0.128&radius=40km&sort=distance&genre=rock,pop",
		"gzip /v1/gigs?near=51.507,-0.128&radius=25mi&sort=distance",
		"gzip /v1/gigs?near=51.507,-0.128&radius=40km&from=2026-12-01&to=2026-12-31",
		"/v1/gigs?near=51.507,-0.128&sort=distance&after=" + url.QueryEscape("1000~1796500800.g1"),
	} {
		gateAllocations(t, h, uri)
	}
}

// FuzzNearValue: any near value is a point within range, or a reason.
func FuzzNearValue(f *testing.F) {
	for _, s := range []string{"52.52,13.405", "-90,180", "91,0", "0,181", "1,2,3", "", ",", "-,-", "1.,2", ".5,1",
		"+1,-1", "1e3,2", "NaN,NaN", "Inf,0", "999999999999999,1", "0.0000000000000001,1", " 1 , 2 ", "--1,2", "+-1,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lat, lon, reason := parseNearValue([]byte(s))
		if reason == "" && !engine.ValidPosition(lat, lon) {
			t.Fatalf("%q: accepted %v,%v", s, lat, lon)
		}
	})
}

// FuzzRadius: any radius is within (0, MaxRadiusKm] kilometres, or a reason.
func FuzzRadius(f *testing.F) {
	for _, s := range []string{"25km", "15mi", "800m", "500km", "500.0000001km", "0km", "-1km", "km", "1", "1e2km", "NaNkm",
		"310.6mi", "500000m", "500001m", "1.5 km", ".5km", "5.km", "+5km", "++5km", "5kmkm"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		km, reason := parseRadius([]byte(s))
		if reason == "" && !(km > 0 && km <= engine.MaxRadiusKm) {
			t.Fatalf("%q: accepted %v km", s, km)
		}
	})
}

// FuzzNearQuery sends arbitrary near, radius, sort and after values to /v1/gigs: a 200
// whose gigs each carry distance_km, or a 400 naming a parameter.
func FuzzNearQuery(f *testing.F) {
	for _, s := range [][4]string{{"51.5,-0.1", "25km", "distance", ""}, {"51.5,-0.1", "", "", "1~1796500800.g1"},
		{"90,0", "500km", "distance", "0~-1.x"}, {"", "5mi", "distance", ""}, {"1,1", "1m", "starts_at", "1796500800.g1"}} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	var live engine.Live
	live.Publish(testSnapshot(f))
	live.SetNextRefresh(nextLoad)
	h := testServer(f, &live).Handler()
	f.Fuzz(func(t *testing.T, near, radius, sort, after string) {
		args := url.Values{}
		for k, v := range map[string]string{"near": near, "radius": radius, "sort": sort, "after": after} {
			if v != "" {
				args.Set(k, v)
			}
		}
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/v1/gigs?" + args.Encode())
		h(&ctx)
		switch ctx.Response.StatusCode() {
		case 200:
			var p nearPage
			if err := json.Unmarshal(ctx.Response.Body(), &p); err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			for _, g := range p.Data {
				if (near != "") != (g.DistanceKm != nil) {
					t.Fatalf("%v: gig %s distance_km %v", args, g.ID, g.DistanceKm)
				}
			}
		case 400:
			var p problemJSON
			if err := json.Unmarshal(ctx.Response.Body(), &p); err != nil || len(p.InvalidParams) == 0 {
				t.Fatalf("%v: 400 without invalid_params: %s", args, ctx.Response.Body())
			}
		default:
			t.Fatalf("%v: status %d", args, ctx.Response.StatusCode())
		}
	})
}
