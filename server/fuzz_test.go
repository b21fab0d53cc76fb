package server

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// FuzzGigsQuery sends arbitrary query strings to /v1/gigs: the answer is a 200 with a JSON
// body or a 400 problem naming at least one parameter, never a panic or a 500.
func FuzzGigsQuery(f *testing.F) {
	for _, seed := range []string{
		"", "page=2", "page_size=100&page=3", "city=London,Berlin&genre=rock", "country=gb,de",
		"from=2026-12-01&to=2026-12-31", "from=2026-12-01T20:00:00%2B01:00", "to=2026-02-30",
		"page=0", "page=-1", "page=99999999999", "page_size=101", "city=", "city=a,,b", "city=a&city=b",
		"color=red", "artist=Mot%C3%B6rhead", "venue=%00%FF", "from=2026-13-01", "genre=" + string(make([]byte, 300)),
		"city=%2C%2C", "from=2026-12-10&to=2026-12-01", "&&&", "=x", "page=1e3", "page= 1",
		"after=1795680000.g0000047", "after=-5.x&city=london", "after=1.x&page=2", "after=.", "after=99999999999999999999.g",
		"status=cancelled,SCHEDULED", "status=sold-out", "status=,",
		"q=motorhead", "q=M%C3%BCnchen+hall", "q=%E6%9D%B1%E4%BA%AC", "q=%21%21%21", "q=", "q=a&q=b", "q=a+b+c+d+e+f+g+h+i+j+k",
		"q=%EF%BD%8D%EF%BD%95&city=london&after=1795680000.g0000047", "q=%FF%FE", "q=" + strings.Repeat("x", 201),
		"artist=mbid:5b11f4ce-a62d-471e-81fc-a69a8278c7da", "artist=MBID:5B11F4CE-A62D-471E-81FC-A69A8278C7DA,x", "artist=mbid:", "artist=mbid:%00",
	} {
		f.Add(seed)
	}
	var live engine.Live
	live.Publish(testSnapshot(f))
	live.SetNextRefresh(nextLoad)
	h := testServer(f, &live).Handler()
	f.Fuzz(func(t *testing.T, query string) {
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/v1/gigs")
		ctx.Request.URI().SetQueryString(query)
		h(&ctx)
		body := ctx.Response.Body()
		switch ctx.Response.StatusCode() {
		case 200:
			var page struct {
				Data []json.RawMessage `json:"data"`
				Meta struct {
					PageSize int `json:"page_size"`
				} `json:"meta"`
			}
			if err := json.Unmarshal(body, &page); err != nil || len(page.Data) > page.Meta.PageSize {
				t.Fatalf("query %q: bad 200 body (%v): %.300s", query, err, body)
			}
		case 400:
			var p problemJSON
			if err := json.Unmarshal(body, &p); err != nil || len(p.InvalidParams) == 0 {
				t.Fatalf("query %q: 400 without invalid_params (%v): %s", query, err, body)
			}
			for _, ip := range p.InvalidParams {
				if ip.Name == "" && ip.Reason == "" {
					t.Fatalf("query %q: empty invalid_params entry: %s", query, body)
				}
			}
		default:
			t.Fatalf("query %q: status %d: %s", query, ctx.Response.StatusCode(), body)
		}
	})
}

// FuzzChangesQuery sends arbitrary query strings to /v1/changes: the answer is a 200 with a
// cursor, a 400 naming a parameter or a 410 problem, never a panic or a 500.
func FuzzChangesQuery(f *testing.F) {
	var live engine.Live
	snap := testSnapshot(f)
	live.Publish(snap)
	c := snap.Cursor()
	for _, seed := range []string{"", "since=" + c.String(), "since=" + c.String() + "&limit=1000", "since=1-0", "since=0-0",
		"since=ffffffffffffffff-18446744073709551615", "since=" + c.String() + "&limit=0", "since=x", "limit=5", "since=-1", "since=1--1"} {
		f.Add(seed)
	}
	h := testServer(f, &live).Handler()
	f.Fuzz(func(t *testing.T, query string) {
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/v1/changes")
		ctx.Request.URI().SetQueryString(query)
		h(&ctx)
		body := ctx.Response.Body()
		switch ctx.Response.StatusCode() {
		case 200:
			var page struct{ Meta struct{ Cursor string } }
			if err := json.Unmarshal(body, &page); err != nil {
				t.Fatalf("query %q: bad 200 body (%v): %.300s", query, err, body)
			}
			if _, err := engine.ParseCursor(page.Meta.Cursor); err != nil {
				t.Fatalf("query %q: next cursor %q: %v", query, page.Meta.Cursor, err)
			}
		case 400, 410:
			var p problemJSON
			if err := json.Unmarshal(body, &p); err != nil || p.Status != ctx.Response.StatusCode() {
				t.Fatalf("query %q: bad problem (%v): %s", query, err, body)
			}
		default:
			t.Fatalf("query %q: status %d: %s", query, ctx.Response.StatusCode(), body)
		}
	})
}

// refAcceptsGzip is a plain reading of RFC 9110's Accept-Encoding rules, the fuzz oracle.
func refAcceptsGzip(h string) bool {
	gzipQ, starQ := -1, -1
	for _, elem := range strings.Split(h, ",") {
		parts := strings.Split(elem, ";")
		coding := strings.ToLower(strings.TrimSpace(parts[0]))
		q := 1
		for _, p := range parts[1:] {
			name, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(name), "q") {
				if zeroQ.MatchString(strings.TrimSpace(val)) {
					q = 0
				}
				break
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			gzipQ = max(gzipQ, q)
		case "*":
			starQ = max(starQ, q)
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

var zeroQ = regexp.MustCompile(`^0(\.0{0,3})?$`)

func FuzzAcceptEncoding(f *testing.F) {
	for _, s := range []string{"gzip", "gzip;q=0", "*;q=0.5", "br, gzip;q=0.001", "identity", ";;,,q=", "gzip;q=0.000, *", "gzip;q=0.0000", "GZip ; Q = 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got, want := acceptsGzip([]byte(h)), refAcceptsGzip(h); got != want {
			t.Fatalf("acceptsGzip(%q) = %v, the RFC reading gives %v", h, got, want)
		}
	})
}

// FuzzParseObsoleteDate: a date parseObsoleteDate reads is one net/http reads too, as the
// same instant; and it never panics.
func FuzzParseObsoleteDate(f *testing.F) {
	for _, s := range []string{"Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun Feb 30 08:49:37 2025",
		"Wednesday, 01-Jan-69 00:00:00 GMT", "Caturday, 06-Nov-94 08:49:37 GMT", ",", "Sun Nov 06 08:49:37 1994"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseObsoleteDate([]byte(s))
		if !ok {
			return
		}
		if want, err := http.ParseTime(s); err != nil || !want.Equal(got) {
			t.Fatalf("parseObsoleteDate(%q) = %v; net/http: %v, %v", s, got, want, err)
		}
	})
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"gzip": true, "GZIP": true, "x-gzip": true, "deflate, gzip": true, "gzip;q=0.5": true, "gzip; q=1.0": true,
		"gzip;q=0": false, "gzip;q=0.000": false, "gzip;Q=0": false, "*": true, "*;q=0": false, "gzip;q=0, *": false,
		"identity": false, "": false, "br": false, "br;q=1, *;q=0.1": true,
	} {
		if got := acceptsGzip([]byte(h)); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}
