package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	stdjson "encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/router"
	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/openapi/openapitest"
	"github.com/gigs/gigs/testkit/scale"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

var (
	testNow  = time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)
	nextLoad = testNow.Add(30 * time.Minute)
)

func testSnapshot(t testing.TB) *engine.Snapshot {
	t.Helper()
	ds := scale.Generate(scale.Config{Gigs: 400, Seed: 42, Now: testNow, Days: 60})
	ds.Sources = []engine.SourceHealth{
		{Name: "tixhub", OK: true, Events: 380, LastSuccess: testNow, Dropped: map[string]int{"not_music": 12, "no_place": 2}},
		{Name: "venue-the-lantern", Events: 20, Stale: true, LastSuccess: testNow.Add(-26 * time.Hour),
			LastError: `cannot fetch "https://thelantern.example/…": status 503 Service Unavailable`, LastErrorAt: testNow.Add(-time.Hour)},
		{Name: "venue-never-answered", LastError: "dial tcp: lookup never.example: no such host", LastErrorAt: testNow.Add(-time.Hour)},
	}
	s, err := engine.Build(ds, engine.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testServer serves live at testNow with a read limit high enough never to interfere;
// the rate-limit tests make their own.
func testServer(t testing.TB, live *engine.Live) *Server {
	return New(Options{Live: live, Now: func() time.Time { return testNow }, ReadLimit: 1 << 30,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// listen serves s on a real loopback listener and returns its base URL.
func listen(t testing.TB, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.HTTPServer()
	go func() { _ = srv.Serve(s.Listen(ln)) }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	return "http://" + ln.Addr().String()
}

type response struct {
	status int
	header http.Header
	body   []byte
	closed bool // the server closed the connection after the response
}

func do(t testing.TB, method, url string, header map[string]string) response {
	t.Helper()
	h := http.Header{}
	for k, v := range header {
		h.Set(k, v)
	}
	return doLines(t, method, url, h)
}

// doLines is do with a header that may repeat a field on several lines.
func doLines(t testing.TB, method, url string, header http.Header) response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	// A transport that does not ask for or undo gzip on its own, and a client that does
	// not follow redirects.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer client.CloseIdleConnections() // a connection per request stays under the per-client cap
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	// Every response the HTTP tests see is checked against the OpenAPI document.
	v, err := openapitest.Default()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Check(method, req.URL.EscapedPath(), resp.StatusCode, resp.Header, body); err != nil {
		t.Error(err)
	}
	return response{resp.StatusCode, resp.Header, body, resp.Close}
}

var requestIDRE = regexp.MustCompile(`"request_id":"[^"]*"`)

// varyOf is the Vary header of path's answers: the routes of a gig, a venue and an artist
// have a JSON-LD view too.
func varyOf(path string) string {
	if regexp.MustCompile(`^(.*)?/v1/(gigs|venues|artists)/[^/.]+$`).MatchString(path) && !strings.HasSuffix(path, "/download") {
		return "Accept-Encoding, Accept"
	}
	return "Accept-Encoding"
}

// golden compares a body with testdata/golden/<name>.json, request ids blanked.
func golden(t *testing.T, name string, body []byte) {
	t.Helper()
	body = requestIDRE.ReplaceAll(body, []byte(`"request_id":"*"`))
	var pretty bytes.Buffer
	if err := jsonIndent(&pretty, body); err != nil {
		t.Fatalf("%s: body is not JSON: %v\n%s", name, err, body)
	}
	goldenFile(t, name+".json", pretty.Bytes())
}

// goldenFile compares a body with testdata/golden/<name> byte for byte.
func goldenFile(t *testing.T, name string, body []byte) {
	t.Helper()
	path := filepath.Join("..", "testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./server -update to create it)", err)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("%s: body differs from %s (go test ./server -update rewrites it)\ngot:\n%.2000s", name, path, body)
	}
}

// jsonIndent indents body keeping its field order.
func jsonIndent(w *bytes.Buffer, body []byte) error {
	if err := stdjson.Indent(w, body, "", "  "); err != nil {
		return err
	}
	w.WriteByte('\n')
	return nil
}

// servePublished serves the test snapshot, refreshed next at nextLoad, on a real listener.
func servePublished(t *testing.T) (base string, snap *engine.Snapshot) {
	t.Helper()
	live, snap := liveSnapshot(t)
	return listen(t, testServer(t, live)), snap
}

// liveSnapshot publishes testSnapshot, its next refresh at nextLoad.
func liveSnapshot(t testing.TB) (*engine.Live, *engine.Snapshot) {
	var live engine.Live
	snap := testSnapshot(t)
	live.Publish(snap)
	live.SetNextRefresh(nextLoad)
	return &live, snap
}

func firstGigID(t *testing.T, s *engine.Snapshot) string {
	var g struct{ ID string }
	if err := json.Unmarshal(s.GigJSON(0), &g); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

func TestRoutes(t *testing.T) {
	base, snap := servePublished(t)
	id := firstGigID(t, snap)
	tests := []struct {
		name, path string
		status     int
		golden     string
	}{
		{"first page", "/v1/gigs", 200, "gigs"},
		{"filtered page", "/v1/gigs?city=London&genre=rock,jazz&from=2026-12-01&to=2027-01-15&page_size=5&page=2", 200, "gigs-filtered"},
		{"country and artist", "/v1/gigs?country=gb,DE&artist=" + firstArtistSlug(snap), 200, ""},
		{"page past the end", "/v1/gigs?page=9999", 200, "gigs-past-end"},
		{"unknown city", "/v1/gigs?city=atlantis", 200, ""},
		{"gig", "/v1/gigs/" + id, 200, "gig"},
		{"unknown gig", "/v1/gigs/nope", 404, "gig-not-found"},
		{"cities", "/v1/cities", 200, "cities"},
		{"venues", "/v1/venues", 200, ""},
		{"venues in a city", "/v1/venues?city=london&country=ca", 200, "venues-filtered"},
		{"venue", "/v1/venues/venue-3", 200, "venue"},
		{"unknown venue", "/v1/venues/nope", 404, ""},
		{"artists", "/v1/artists", 200, ""},
		{"genres", "/v1/genres", 200, "genres"},
		{"bad parameters", "/v1/gigs?page=0&page_size=101&from=2026-13-01&country=Atlantis&color=red&city=a,,b", 400, "gigs-bad-params"},
		{"to before from", "/v1/gigs?from=2026-12-10&to=2026-12-01", 400, ""},
		{"to before now", "/v1/gigs?to=2020-01-01", 400, ""},
		{"repeated parameter", "/v1/gigs?city=london&city=paris", 400, ""},
		{"empty parameter", "/v1/gigs?genre=", 400, ""},
		{"parameter on a directory", "/v1/cities?country=de", 400, ""},
		{"unknown venue filter", "/v1/venues?genre=rock", 400, ""},
		{"unknown path", "/v1/concerts", 404, "not-found"},
		{"trailing slash", "/v1/gigs/", 404, ""},
		{"case", "/V1/gigs", 404, ""},
		{"double slashes", "//v1//gigs", 404, ""},
		{"download is not here yet", "/v1/gigs/download", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, "GET", base+tt.path, nil)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if r.header.Get("Access-Control-Allow-Origin") != "*" || r.header.Get("X-Request-Id") == "" {
				t.Errorf("missing CORS or request id headers: %v", r.header)
			}
			if tt.status == 200 {
				checkCaching(t, r)
			} else {
				checkProblem(t, r, tt.path)
			}
			if tt.golden != "" {
				golden(t, tt.golden, r.body)
			}
		})
	}
}

func firstArtistSlug(s *engine.Snapshot) string {
	var d struct{ Data []struct{ Slug string } }
	_ = json.Unmarshal(s.Artists().Raw, &d)
	return d.Data[0].Slug
}

func checkCaching(t *testing.T, r response) {
	t.Helper()
	if got := r.header.Get("Cache-Control"); got != "public, max-age=1800" {
		t.Errorf("Cache-Control %q", got)
	}
	if !strings.HasPrefix(r.header.Get("ETag"), `W/"`) {
		t.Errorf("ETag %q", r.header.Get("ETag"))
	}
	if got := r.header.Get("Last-Modified"); got != "Sun, 22 Nov 2026 15:04:05 GMT" {
		t.Errorf("Last-Modified %q", got)
	}
	if got := r.header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q", got)
	}
	if !json.Valid(r.body) {
		t.Errorf("body is not JSON: %.300s", r.body)
	}
}

func checkProblem(t *testing.T, r response, path string) {
	t.Helper()
	if got := r.header.Get("Content-Type"); got != "application/problem+json" {
		t.Errorf("Content-Type %q", got)
	}
	var p problemJSON
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("problem body: %v: %s", err, r.body)
	}
	unescaped, _ := url.PathUnescape(p.Instance) // an instance is the path as a URI reference
	if p.Status != r.status || p.Type == "" || p.Title == "" || p.RequestID != r.header.Get("X-Request-Id") ||
		!strings.HasPrefix(path, p.Instance) && !strings.HasPrefix(path, unescaped) {
		t.Errorf("problem %+v does not match the response (status %d, request id %q)", p, r.status, r.header.Get("X-Request-Id"))
	}
	if r.status == 400 && len(p.InvalidParams) == 0 {
		t.Errorf("400 without invalid_params: %s", r.body)
	}
	if r.header.Get("Cache-Control") != "no-store" {
		t.Errorf("problem Cache-Control %q", r.header.Get("Cache-Control"))
	}
}

func TestFirstPage(t *testing.T) {
	base, snap := servePublished(t)
	r := do(t, "GET", base+"/v1/gigs", nil)
	var body struct {
		Data []struct {
			ID       string `json:"id"`
			StartsAt string `json:"starts_at"`
			Date     string `json:"date"`
		}
		Meta  struct{ Page, PageSize, Total, TotalPages int }
		Links map[string]string
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	q.From, q.Limit = engine.AtInstant(testNow), 1
	snap.Run(q)
	if len(body.Data) != 20 || body.Meta.Total != q.Total || body.Meta.Total < 300 {
		t.Fatalf("got %d gigs of total %d; want 20 of %d", len(body.Data), body.Meta.Total, q.Total)
	}
	last := ""
	for _, g := range body.Data {
		at, err := time.Parse(time.RFC3339, g.StartsAt)
		if g.StartsAt == "" {
			at, err = time.Parse(time.DateOnly, g.Date) // time to be announced
		}
		if err != nil || at.Before(testNow.Add(-24*time.Hour)) {
			t.Errorf("gig %s starts %q", g.ID, g.StartsAt)
		}
		if key := at.UTC().Format(time.RFC3339); g.StartsAt != "" && key < last {
			t.Errorf("gig %s out of start order", g.ID)
		} else if g.StartsAt != "" {
			last = key
		}
	}
	q.Offset = 19
	snap.Run(q)
	want := "/v1/gigs?after=" + url.QueryEscape(string(snap.AppendKeyset(nil, q.Page[0])))
	if body.Links["next"] != want || body.Links["prev"] != "" || body.Links["first"] != "/v1/gigs?page=1" {
		t.Errorf("links %v, want next %s", body.Links, want)
	}
	link := r.header.Get("Link")
	if !strings.Contains(link, `<`+want+`>; rel="next"`) || !strings.Contains(link, `rel="last"`) {
		t.Errorf("Link header %q", link)
	}
	// Within a snapshot, next is page 2.
	next, page2 := do(t, "GET", base+body.Links["next"], nil), do(t, "GET", base+"/v1/gigs?page=2", nil)
	if !bytes.Equal(dataOf(t, next.body), dataOf(t, page2.body)) || !bytes.Contains(next.body, []byte(`"page":2,`)) {
		t.Errorf("next is not page 2:\n%.300s\n%.300s", next.body, page2.body)
	}
}

func TestConditionalAndEncoding(t *testing.T) {
	base, snap := servePublished(t)
	for _, path := range []string{"/v1/gigs?city=berlin-1", "/v1/cities", "/v1/venues/venue-0", "/v1/gigs/" + firstGigID(t, snap)} {
		first := do(t, "GET", base+path, nil)
		etag := first.header.Get("ETag")
		for _, inm := range []string{etag, strings.TrimPrefix(etag, "W/"), `"other", ` + etag, "*"} {
			r := do(t, "GET", base+path, map[string]string{"If-None-Match": inm})
			if r.status != 304 || len(r.body) != 0 || r.header.Get("ETag") != etag || r.header.Get("Cache-Control") == "" {
				t.Errorf("%s If-None-Match %s: status %d, %d bytes, headers %v", path, inm, r.status, len(r.body), r.header)
			}
		}
		if r := do(t, "GET", base+path, map[string]string{"If-None-Match": `W/"other"`}); r.status != 200 {
			t.Errorf("%s: a different ETag gave %d", path, r.status)
		}
		head := do(t, "HEAD", base+path, nil)
		if head.status != 200 || len(head.body) != 0 || head.header.Get("ETag") != etag {
			t.Errorf("HEAD %s: %d, %d bytes, %v", path, head.status, len(head.body), head.header)
		}
	}
	ims := map[string]string{"If-Modified-Since": "Sun, 22 Nov 2026 15:04:05 GMT"}
	if r := do(t, "GET", base+"/v1/genres", ims); r.status != 304 {
		t.Errorf("If-Modified-Since at build time: %d", r.status)
	}
	if r := do(t, "GET", base+"/v1/genres", map[string]string{"If-Modified-Since": "Sun, 22 Nov 2026 15:04:04 GMT"}); r.status != 200 {
		t.Errorf("If-Modified-Since before build: %d", r.status)
	}
	// RFC 9110 5.6.7: a recipient accepts the obsolete date formats too.
	for _, date := range []string{"Sunday, 22-Nov-26 15:04:05 GMT", "Sun Nov 22 15:04:05 2026"} {
		if r := do(t, "GET", base+"/v1/genres", map[string]string{"If-Modified-Since": date}); r.status != 304 {
			t.Errorf("If-Modified-Since %q at build time: %d", date, r.status)
		}
	}
	// RFC 9110 5.3: the lines of a list field are one list.
	etag := do(t, "GET", base+"/v1/genres", nil).header.Get("ETag")
	if r := doLines(t, "GET", base+"/v1/genres", http.Header{"If-None-Match": {`"a"`, etag}}); r.status != 304 {
		t.Errorf("If-None-Match on two lines, the second matching: %d", r.status)
	}

	// The artists' identity body is kept; a venue's is written per request from its parts;
	// pages, gigs and venues are assembled from the gigs' compressed forms; meta, the change
	// feed and filtered venues are compressed per request.
	for _, path := range []string{"/v1/artists", "/v1/venues/venue-0", "/v1/gigs?page_size=100", "/v1/gigs?city=berlin-1",
		"/v1/gigs/" + firstGigID(t, snap), "/v1/meta", "/v1/venues?country=DE,GB", "/v1/changes?since=" + snap.Cursor().String() + "&limit=1"} {
		plain := do(t, "GET", base+path, nil)
		for _, tt := range []struct {
			accept string
			gzip   bool
		}{{"gzip", true}, {"br;q=1.0, gzip;q=0.8", true}, {"*", true}, {"gzip;q=0", false}, {"identity", false}, {"", false}, {"*;q=0", false}} {
			r := do(t, "GET", base+path, map[string]string{"Accept-Encoding": tt.accept})
			// Bodies under engine.GzipMin go as they are, but assembled ones.
			tt.gzip = tt.gzip && (len(plain.body) >= engine.GzipMin || strings.HasPrefix(path, "/v1/gigs") || strings.HasPrefix(path, "/v1/venues/"))
			if got := r.header.Get("Content-Encoding") == "gzip"; got != tt.gzip {
				t.Errorf("%s, Accept-Encoding %q: gzip %v, want %v", path, tt.accept, got, tt.gzip)
			}
			if r.header.Get("Vary") != varyOf(path) || r.header.Get("ETag") != plain.header.Get("ETag") {
				t.Errorf("%s, Accept-Encoding %q: Vary %q, ETag %q", path, tt.accept, r.header.Get("Vary"), r.header.Get("ETag"))
			}
			body := r.body
			if tt.gzip {
				zr, err := gzip.NewReader(bytes.NewReader(r.body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(body, plain.body) {
				t.Errorf("%s, Accept-Encoding %q: body differs from the identity body", path, tt.accept)
			}
		}
	}
}

func TestMethodsAndCORS(t *testing.T) {
	var live engine.Live
	live.Publish(testSnapshot(t))
	base := listen(t, testServer(t, &live))
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		r := do(t, m, base+"/v1/gigs", nil)
		if r.status != 405 || r.header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d, Allow %q", m, r.status, r.header.Get("Allow"))
		}
		checkProblem(t, r, "/v1/gigs")
	}
	r := do(t, "OPTIONS", base+"/v1/gigs", map[string]string{"Origin": "https://example.org", "Access-Control-Request-Method": "GET"})
	if r.status != 204 || r.header.Get("Access-Control-Allow-Origin") != "*" || r.header.Get("Access-Control-Allow-Methods") != "GET, HEAD" ||
		!strings.Contains(r.header.Get("Access-Control-Allow-Headers"), "X-API-Key") {
		t.Errorf("preflight: %d %v", r.status, r.header)
	}
	if got := do(t, "GET", base+"/v1/genres", nil).header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "ETag") || !strings.Contains(got, "Link") || !strings.Contains(got, "RateLimit") {
		t.Errorf("Expose-Headers %q", got)
	}
}

func TestNotReady(t *testing.T) {
	var live engine.Live
	base := listen(t, testServer(t, &live))
	if r := do(t, "GET", base+"/readyz", nil); r.status != 503 {
		t.Errorf("readyz before the first snapshot: %d", r.status)
	}
	if r := do(t, "GET", base+"/livez", nil); r.status != 200 {
		t.Errorf("livez: %d", r.status)
	}
	r := do(t, "GET", base+"/v1/gigs", nil)
	if r.status != 503 || r.header.Get("Retry-After") == "" {
		t.Errorf("gigs before the first snapshot: %d %v", r.status, r.header)
	}
	checkProblem(t, r, "/v1/gigs")
	live.Publish(testSnapshot(t))
	if r := do(t, "GET", base+"/readyz", nil); r.status != 200 {
		t.Errorf("readyz after the first snapshot: %d", r.status)
	}
}

func TestMaxAgeNeverNegative(t *testing.T) {
	var live engine.Live
	live.Publish(testSnapshot(t))
	live.SetNextRefresh(testNow.Add(-time.Minute)) // overdue
	base := listen(t, testServer(t, &live))
	if got := do(t, "GET", base+"/v1/genres", nil).header.Get("Cache-Control"); got != "public, max-age=0" {
		t.Errorf("Cache-Control %q", got)
	}
}

func TestMalformedRequests(t *testing.T) {
	var live engine.Live
	live.Publish(testSnapshot(t))
	base := listen(t, testServer(t, &live))
	addr := strings.TrimPrefix(base, "http://")
	for _, tt := range []struct {
		name, raw string
		status    string
	}{
		{"huge header", "GET /v1/gigs HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 10000) + "\r\n\r\n", "431"},
		{"garbage", "NOT HTTP AT ALL\r\n\r\n", "400"},
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprint(c, tt.raw)
		buf := make([]byte, 512)
		n, _ := io.ReadAtLeast(c, buf, 12)
		c.Close()
		if !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 "+tt.status) {
			t.Errorf("%s: got %q", tt.name, buf[:n])
		}
	}
}

// handlerCtx returns a function that runs h on ctx with an in-memory request for uri (a
// "gzip " prefix adds Accept-Encoding: gzip) and writes the response as the server does,
// through a connection-sized buffer (to nowhere), for allocation gates.
func handlerCtx(ctx *fasthttp.RequestCtx, h fasthttp.RequestHandler, uri string) func() {
	uri, gz := strings.CutPrefix(uri, "gzip ")
	w := bufio.NewWriterSize(io.Discard, 16<<10)
	return func() {
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.SetRequestURI(uri)
		if gz {
			ctx.Request.Header.Set("Accept-Encoding", "gzip")
		}
		h(ctx)
		if err := ctx.Response.Write(w); err != nil {
			panic(err)
		}
		if err := w.Flush(); err != nil {
			panic(err)
		}
	}
}

// allocsPerRun is testing.AllocsPerRun with the collector paused, so that a GC emptying
// sync.Pools mid-measurement does not count as the handler's allocations.
// gateAllocations fails t when a warm request for uri (see handlerCtx) to h is not a 200
// or allocates.
func gateAllocations(t *testing.T, h fasthttp.RequestHandler, uri string) {
	t.Helper()
	var ctx fasthttp.RequestCtx
	run := handlerCtx(&ctx, h, uri)
	run()
	if ctx.Response.StatusCode() != 200 {
		t.Fatalf("%s: %d %s", uri, ctx.Response.StatusCode(), ctx.Response.Body())
	}
	if n := allocsPerRun(run); n > 0 {
		t.Errorf("%s: %.1f allocations", uri, n)
	}
}

func allocsPerRun(f func()) float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return testing.AllocsPerRun(500, f)
}

// TestHandlerAllocations gates the hot paths: nothing allocates per gig, and the page and
// detail handlers allocate nothing at all once warm. Routed requests to {param} routes add
// the router's own constant cost (it copies the parameter).
func TestParseObsoleteDate(t *testing.T) {
	want := time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"Sunday, 06-Nov-94 08:49:37 GMT", true},
		{"Sun Nov  6 08:49:37 1994", true},
		{"Sun Nov 06 08:49:37 1994", true},
		{"Sunday, 06-Nov-94 08:49:37 UTC", false},
		{"Sunday, 06-Nox-94 08:49:37 GMT", false},
		{"Sunday, 06-Nov-94 28:49:37 GMT", false},
		{"Sun Nov  6 08:49:37 19x4", false},
		{"Sun Nov  6 08-49-37 1994", false},
		{"Sun, 06 Nov 1994 08:49:37 GMT", false}, // fasthttp's to read
		{"", false},
		{"yesterday", false},
		{",", false},
		// Dates that do not exist, and day names that are none (a review's cases).
		{"Sunday, 30-Feb-25 08:49:37 GMT", false},
		{"Sun Feb 30 08:49:37 2025", false},
		{"Sun Apr 31 08:49:37 2025", false},
		{"Caturday, 06-Nov-94 08:49:37 GMT", false},
		{"Cat Nov  6 08:49:37 1994", false},
		{"day, 06-Nov-94 08:49:37 GMT", false},
		{"Sun, 06-Nov-94 08:49:37 GMT", false}, // RFC 850 names the day in full
		{"Sunday, 06-Nov-94 08:49:60 GMT", false},
	} {
		got, ok := parseObsoleteDate([]byte(tc.in))
		if ok != tc.ok || ok && !got.Equal(want) {
			t.Errorf("parseObsoleteDate(%q) = %v, %v; want ok %v", tc.in, got, ok, tc.ok)
		}
	}
	// Two-digit years as net/http reads them: 69 and later of the 1900s.
	for in, year := range map[string]int{"Monday, 06-Nov-26 08:49:37 GMT": 2026, "Wednesday, 01-Jan-69 00:00:00 GMT": 1969, "Friday, 31-Dec-68 23:59:59 GMT": 2068} {
		if got, _ := parseObsoleteDate([]byte(in)); got.Year() != year {
			t.Errorf("parseObsoleteDate(%q) = %v, want year %d", in, got, year)
		}
	}
}

func TestHandlerAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	live, snap := liveSnapshot(t)
	s := testServer(t, live)
	h := s.Handler()
	id := firstGigID(t, snap)
	// The table's pages run with the page memo off; with it on, a page is answered from the
	// memo once asked (whether its range is given or from now), with nothing allocated.
	noMemo := testServer(t, live)
	noMemo.memos.size = 0
	hNoMemo := noMemo.Handler()
	for _, tt := range []struct {
		uri string
		max float64
	}{
		{"/v1/gigs", 0},
		{"/v1/gigs?page_size=100", 0},
		{"/v1/gigs?city=london&page=2", 0},
		{"/v1/gigs?city=london&after=" + url.QueryEscape(string(snap.AppendKeyset(nil, 30))), 0},
		{"/v1/gigs?status=scheduled,postponed", 0},
		{"/v1/gigs?q=hall&city=london", 0},
		{"/v1/gigs?q=Z%C3%9CRICH%20hall&page_size=100", 0},
		{"/v1/gigs?q=ka&genre=rock&from=2026-12-01&to=2027-01-10", 0},
		{"/v1/gigs?country=gb,de&genre=rock&from=2026-12-01&to=2027-01-10", 8}, // scratch bitmap containers
		{"/v1/gigs?country=gb,de&genre=rock&from=2026-12-01&to=2027-01-10&page_size=100", 8},
		{"/v1/gigs/" + id, 4},
		{"/v1/venues/venue-0", 4}, // identity: written from the snapshot's parts
		{"/v1/cities", 0},
		{"/v1/meta", 0},
		// "gzip ": with Accept-Encoding: gzip.
		{"gzip /v1/gigs", 0},
		{"gzip /v1/gigs?page_size=100", 0},
		{"gzip /v1/gigs/" + id, 4},
		{"gzip /v1/venues/venue-0", 4},
		{"/v1/venues?country=DE,GB", 6},      // roaring's union containers
		{"gzip /v1/venues?country=DE,GB", 6}, // and no more
	} {
		run := handlerCtx(new(fasthttp.RequestCtx), hNoMemo, tt.uri)
		run()
		if n := allocsPerRun(run); n > tt.max {
			t.Errorf("%s: %v allocations per request, want at most %v", tt.uri, n, tt.max)
		}
		memoMax := tt.max
		if u := strings.TrimPrefix(tt.uri, "gzip "); u == "/v1/gigs" || strings.HasPrefix(u, "/v1/gigs?") {
			memoMax = 0
		}
		run = handlerCtx(new(fasthttp.RequestCtx), h, tt.uri)
		run()
		if n := allocsPerRun(run); n > memoMax {
			t.Errorf("%s, page memo on: %v allocations per request, want at most %v", tt.uri, n, memoMax)
		}
	}
	// Revalidations that do not match, and dates in any form or none: nothing either.
	for _, tc := range []struct {
		name string
		hdr  [][2]string
	}{
		{"stale ETag", [][2]string{{"If-None-Match", `W/"stale"`}}},
		{"stale ETags on two lines", [][2]string{{"If-None-Match", `W/"a"`}, {"If-None-Match", `W/"b"`}}},
		{"IMF-fixdate", [][2]string{{"If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT"}}},
		{"RFC 850 date", [][2]string{{"If-Modified-Since", "Sunday, 06-Nov-94 08:49:37 GMT"}}},
		{"asctime date", [][2]string{{"If-Modified-Since", "Sun Nov  6 08:49:37 1994"}}},
		{"no date", [][2]string{{"If-Modified-Since", "yesterday"}}},
	} {
		var ctx fasthttp.RequestCtx
		run := func() {
			ctx.Request.Reset()
			ctx.Response.Reset()
			ctx.Request.SetRequestURI("/v1/cities")
			for _, kv := range tc.hdr {
				ctx.Request.Header.Add(kv[0], kv[1])
			}
			h(&ctx)
		}
		run()
		if n := allocsPerRun(run); n > 0 || ctx.Response.StatusCode() != 200 {
			t.Errorf("%s: %v allocations per request, status %d", tc.name, n, ctx.Response.StatusCode())
		}
	}
	// The detail handler itself, without the router: what it allocates beyond the harness
	// (which stores the path parameter as the router would) must be nothing.
	var ctx fasthttp.RequestCtx
	var idv any = id
	harness := func(h fasthttp.RequestHandler) func() {
		return func() {
			ctx.Request.Reset()
			ctx.Response.Reset()
			ctx.SetUserValue("id", idv)
			ctx.Request.SetRequestURI("/v1/gigs/" + id)
			h(&ctx)
		}
	}
	base := allocsPerRun(harness(func(*fasthttp.RequestCtx) {}))
	if n := allocsPerRun(harness(s.v1(s.gig))); n > base || ctx.Response.StatusCode() != 200 {
		t.Errorf("gig handler: %v allocations beyond the harness's %v, status %d", n-base, base, ctx.Response.StatusCode())
	}
}

// TestInternalErrors checks that a handler's unexpected error or panic becomes a 500 problem
// that leaks nothing, and is logged with its request id.
func TestInternalErrors(t *testing.T) {
	var live engine.Live
	live.Publish(testSnapshot(t))
	var logs bytes.Buffer
	s := New(Options{Live: &live, Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	for name, h := range map[string]fasthttp.RequestHandler{
		"error": s.v1(func(*fasthttp.RequestCtx, *engine.Snapshot) error { return errors.New("disk on fire at /var/secret") }),
		"panic": func() fasthttp.RequestHandler {
			r := router.New()
			r.PanicHandler = s.recoverPanic
			r.GET("/v1/boom", s.v1(func(*fasthttp.RequestCtx, *engine.Snapshot) error { panic("disk on fire at /var/secret") }))
			return r.Handler
		}(),
	} {
		logs.Reset()
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/v1/boom")
		s.begin(&ctx) // as Handler does before routing
		h(&ctx)
		var p problemJSON
		if err := json.Unmarshal(ctx.Response.Body(), &p); err != nil || ctx.Response.StatusCode() != 500 || p.Type != "/problems/internal" {
			t.Errorf("%s: status %d, body %s", name, ctx.Response.StatusCode(), ctx.Response.Body())
		}
		if strings.Contains(string(ctx.Response.Body()), "secret") {
			t.Errorf("%s: the body leaks the internal error: %s", name, ctx.Response.Body())
		}
		if !strings.Contains(logs.String(), "disk on fire") || !strings.Contains(logs.String(), p.RequestID) || p.RequestID == "" {
			t.Errorf("%s: not logged with request id %q: %s", name, p.RequestID, logs.String())
		}
	}
}

// dataOf returns the data member of a body.
func dataOf(t *testing.T, body []byte) []byte {
	t.Helper()
	var b struct{ Data json.RawMessage }
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	return b.Data
}

// TestVenueBodyStreams gates the memory a venue page costs: its body, identity or gzip, is
// streamed from the snapshot, so a venue with hundreds of gigs allocates a few kilobytes
// per request, not a buffer of the body's size (64 connections on the largest venue of
// 1M gigs held 1.4 GB when it did).
func TestVenueBodyStreams(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	snap, err := engine.Build(scale.Generate(scale.Config{Gigs: 40_000, Seed: 42, Now: testNow, Days: 60}), engine.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	checkStreams(t, snap, "/v1/venues/venue-0", "gzip /v1/venues/venue-0")
}

// checkStreams serves each of uris from snap ("gzip " before one: with Accept-Encoding:
// gzip) and fails unless its body is large and the request allocated no buffer of its size.
func checkStreams(t *testing.T, snap *engine.Snapshot, uris ...string) {
	t.Helper()
	var live engine.Live
	live.Publish(snap)
	h := testServer(t, &live).Handler()
	for _, uri := range uris {
		var ctx fasthttp.RequestCtx
		send := handlerCtx(&ctx, h, uri) // and writes the response
		send()
		size := ctx.Response.Header.ContentLength()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			send()
		}
		runtime.ReadMemStats(&after)
		per := (after.TotalAlloc - before.TotalAlloc) / 10
		if size < 200_000 || per > 64<<10 {
			t.Errorf("%s: a body of %d bytes allocated %d bytes per request", uri, size, per)
		}
	}
}

// TestRepeatedParams checks that a repeated filter is told to use commas, and a repeated
// parameter of one value is not.
func TestRepeatedParams(t *testing.T) {
	base, _ := servePublished(t)
	for _, tt := range []struct{ path, name, reason string }{
		{"/v1/gigs?city=berlin&city=paris", "city", "given more than once; separate alternatives with commas"},
		{"/v1/gigs?status=cancelled&status=scheduled", "status", "given more than once; separate alternatives with commas"},
		{"/v1/gigs?page=1&page=2", "page", "given more than once; it takes one value"},
		{"/v1/gigs?from=2026-12-01&from=2026-12-02", "from", "given more than once; it takes one value"},
		{"/v1/changes?since=1-1&since=1-2", "since", "given more than once; it takes one value"},
	} {
		r := do(t, "GET", base+tt.path, nil)
		var p problemJSON
		if err := json.Unmarshal(r.body, &p); err != nil || r.status != 400 || len(p.InvalidParams) != 1 ||
			p.InvalidParams[0].Name != tt.name || p.InvalidParams[0].Reason != tt.reason {
			t.Errorf("%s: %d %s, want %s: %q", tt.path, r.status, r.body, tt.name, tt.reason)
		}
	}
}

// TestExportTimeouts checks which request targets get the export's longer write time
// limit: the export's, in origin or absolute form, and no other.
func TestExportTimeouts(t *testing.T) {
	for _, tt := range []struct {
		target string
		export bool
	}{
		{"/v1/gigs/download", true},
		{"/v1/gigs/download?x=1", true},
		{"http://api.example/v1/gigs/download", true},
		{"HTTPS://api.example:8443/v1/gigs/download?x=1", true},
		{"/v1/gigs", false},
		{"/v1/gigs/download/more", false},
		{"/v1/gigs/downloads", false},
		{"http://api.example/v1/gigs", false},
		{"http://api.example", false},
		{"http://v1/gigs/download", false}, // host "v1", path /gigs/download
		{"*", false},
	} {
		var h fasthttp.RequestHeader
		h.SetRequestURI(tt.target)
		if got := exportTimeouts(&h).WriteTimeout == exportWriteTimeout; got != tt.export {
			t.Errorf("%s: export's time limit %v, want %v", tt.target, got, tt.export)
		}
	}
}

// TestLinkHeaderBounded checks that a page whose links would make a Link header over
// maxLinkHeader (long filter values, escaped in every link) has them in its body only.
func TestLinkHeaderBounded(t *testing.T) {
	base, _ := servePublished(t)
	long := "a" + strings.Repeat("+", 198) + "b" // 200 bytes, each '+' a space escaped as %20
	for _, tt := range []struct {
		query string
		link  bool
	}{
		{"city=berlin,paris", true},
		{"city=" + long + "," + long + "," + long, false},
	} {
		r := do(t, "GET", base+"/v1/gigs?"+tt.query, nil)
		var body struct{ Links map[string]string }
		if err := json.Unmarshal(r.body, &body); err != nil || r.status != 200 || body.Links["self"] == "" {
			t.Fatalf("%.40s: %d %.200s", tt.query, r.status, r.body)
		}
		if link := r.header.Get("Link"); (link != "") != tt.link || len(link) > maxLinkHeader {
			t.Errorf("%.40s: Link header of %d bytes, want one: %v", tt.query, len(link), tt.link)
		}
	}
}
