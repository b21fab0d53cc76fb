package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/openapi"
)

func TestMeta(t *testing.T) {
	base, snap := servePublished(t)
	r := do(t, "GET", base+"/v1/meta", nil)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	checkCaching(t, r)
	golden(t, "meta", r.body)
	var m struct {
		Data struct {
			DataVersion string `json:"data_version"`
			Next        string `json:"next_refresh_at"`
			Counts      struct{ Gigs int }
		}
	}
	if err := json.Unmarshal(r.body, &m); err != nil || m.Data.DataVersion != snap.Version() || m.Data.Counts.Gigs != snap.Len() ||
		m.Data.Next != nextLoad.Format(time.RFC3339) {
		t.Errorf("meta %+v, %v", m.Data, err)
	}
	if r := do(t, "GET", base+"/v1/meta?verbose=1", nil); r.status != 400 {
		t.Errorf("meta with a parameter: %d", r.status)
	}

	var live engine.Live // no refresh scheduled: next_refresh_at is omitted
	live.Publish(snap)
	r = do(t, "GET", listen(t, testServer(t, &live))+"/v1/meta", nil)
	if r.status != 200 || bytes.Contains(r.body, []byte("next_refresh_at")) {
		t.Errorf("meta with no refresh scheduled: %d %.200s", r.status, r.body)
	}
}

// TestMetrics checks the request, limit and snapshot metrics against requests made over a
// real listener, and lints them as Prometheus would.
func TestMetrics(t *testing.T) {
	live, _ := liveSnapshot(t)
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg, live)
	base := listen(t, New(Options{Live: live, Now: func() time.Time { return testNow }, ReadLimit: 9, Metrics: m,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	do(t, "GET", base+"/v1/gigs", nil)
	do(t, "HEAD", base+"/v1/gigs", nil)
	do(t, "GET", base+"/v1/gigs?page=0", nil)
	do(t, "GET", base+"/v1/cities", nil)
	do(t, "POST", base+"/v1/gigs", nil)
	for i := range 3 { // unknown paths share one series
		do(t, "GET", base+"/v1/nothing/"+strings.Repeat("x", i), nil)
	}
	do(t, "GET", base+"/livez", nil)
	do(t, "GET", base+"/v1/gigs", nil) // over the limit
	tests := []struct {
		route, method, code string
		want                float64
	}{
		{"/v1/gigs", "GET", "200", 1},
		{"/v1/gigs", "HEAD", "200", 1},
		{"/v1/gigs", "GET", "400", 1},
		{"/v1/gigs", "GET", "429", 1},
		{"/v1/cities", "GET", "200", 1},
		{"other", "other", "405", 1},
		{"other", "GET", "404", 3},
		{"/livez", "GET", "200", 1},
	}
	for _, tt := range tests {
		if got := testutil.ToFloat64(m.requests.WithLabelValues(tt.route, tt.method, tt.code)); got != tt.want {
			t.Errorf("gigs_http_requests_total{route=%q,method=%q,code=%q} = %v, want %v", tt.route, tt.method, tt.code, got, tt.want)
		}
	}
	if n := testutil.CollectAndCount(m.requests); n != len(tests) {
		t.Errorf("%d request series, want %d", n, len(tests))
	}
	if got := testutil.ToFloat64(m.limits[limitRead][0]); got != 9 {
		t.Errorf("read limit allowed %v, want 9", got)
	}
	if got := testutil.ToFloat64(m.limits[limitRead][1]); got != 1 {
		t.Errorf("read limit refused %v, want 1", got)
	}
	want := `
# HELP gigs_snapshot_gigs Upcoming gigs in the served snapshot.
# TYPE gigs_snapshot_gigs gauge
gigs_snapshot_gigs 400
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gigs_snapshot_gigs"); err != nil {
		t.Error(err)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %+v", err, problems)
	}
	var h bytes.Buffer
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		if !strings.HasPrefix(mf.GetName(), "gigs_") {
			t.Errorf("metric %s lacks the gigs_ prefix", mf.GetName())
		}
		h.WriteString(mf.GetName() + " ")
	}
	for _, name := range []string{"gigs_http_request_duration_seconds", "gigs_rate_limit_decisions_total", "gigs_key_checks_total",
		"gigs_export_bytes_total", "gigs_page_memo_total", "gigs_snapshot_last_success_timestamp_seconds", "gigs_snapshot_export_bytes", "gigs_next_refresh_timestamp_seconds"} {
		if !strings.Contains(h.String(), name+" ") {
			t.Errorf("metric %s is missing from %s", name, h.String())
		}
	}
}

// TestMetricsCodes checks that every status the server writes has its own code label:
// resumed exports (206), bad ranges (416) and slow clients (408) were all "other".
func TestMetricsCodes(t *testing.T) {
	m := NewMetrics(prometheus.NewRegistry(), new(engine.Live))
	for _, code := range []int{200, 204, 206, 301, 304, 400, 401, 404, 405, 408, 410, 413, 416, 429, 431, 500, 503} {
		m.request(routeDownload, []byte("GET"), code, time.Millisecond)
		if got := testutil.ToFloat64(m.requests.WithLabelValues(routeTemplates[routeDownload], "GET", strconv.Itoa(code))); got != 1 {
			t.Errorf("status %d: its series counts %v, want 1", code, got)
		}
	}
	m.request(routeDownload, []byte("GET"), 418, time.Millisecond)
	if got := testutil.ToFloat64(m.requests.WithLabelValues(routeTemplates[routeDownload], "GET", "other")); got != 1 {
		t.Errorf("status 418 counted %v times as other, want 1", got)
	}
}

// TestAccessLog checks the access log's fields, that it leaves out the query and every
// header, and that it is off by default; client errors are never logged as errors.
func TestAccessLog(t *testing.T) {
	for _, on := range []bool{true, false} {
		var live engine.Live
		live.Publish(testSnapshot(t))
		var logs bytes.Buffer
		base := listen(t, New(Options{Live: &live, Now: func() time.Time { return testNow }, AccessLog: on,
			Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}))
		ok := do(t, "GET", base+"/v1/gigs?city=secret-city", map[string]string{"X-API-Key": "gigs_secretkey"})
		do(t, "GET", base+"/v1/gigs?page=zero", nil)
		do(t, "GET", base+"/v1/no-such-thing", nil)
		if strings.Contains(logs.String(), `"level":"ERROR"`) || strings.Contains(logs.String(), `"level":"WARN"`) {
			t.Errorf("access log %v: client errors logged as errors: %s", on, logs.String())
		}
		if !on {
			if logs.Len() > 0 {
				t.Errorf("access log off, yet logged: %s", logs.String())
			}
			continue
		}
		lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
		if len(lines) != 3 {
			t.Fatalf("%d lines, want 3: %s", len(lines), logs.String())
		}
		var line struct {
			Msg, Method, Route, Path, Client string
			RequestID                        string `json:"request_id"`
			Status, Bytes                    int
			DurationMS                       float64 `json:"duration_ms"`
		}
		if err := json.Unmarshal([]byte(lines[0]), &line); err != nil {
			t.Fatal(err)
		}
		if line.Msg != "request" || line.RequestID != ok.header.Get("X-Request-Id") || line.Method != "GET" || line.Route != "/v1/gigs" ||
			line.Path != "/v1/gigs" || line.Status != 200 || line.Client != "127.0.0.1" || line.Bytes != len(ok.body) || line.DurationMS <= 0 {
			t.Errorf("access log line %s", lines[0])
		}
		if strings.Contains(logs.String(), "secret") {
			t.Errorf("the log shows a query or a key: %s", logs.String())
		}
		if !strings.Contains(lines[2], `"route":"other"`) || !strings.Contains(lines[2], `"status":404`) {
			t.Errorf("unknown path logged as %s", lines[2])
		}
	}
}

func TestDrain(t *testing.T) {
	var live engine.Live
	live.Publish(testSnapshot(t))
	s := testServer(t, &live)
	base := listen(t, s)
	if r := do(t, "GET", base+"/readyz", nil); r.status != 200 {
		t.Fatalf("readyz before draining: %d", r.status)
	}
	s.Drain()
	if r := do(t, "GET", base+"/readyz", nil); r.status != 503 || !strings.Contains(string(r.body), "shutting down") {
		t.Errorf("readyz while draining: %d %s", r.status, r.body)
	}
	if r := do(t, "GET", base+"/v1/gigs", nil); r.status != 200 {
		t.Errorf("a read while draining: %d", r.status)
	}
}

func TestDocs(t *testing.T) {
	base, _ := servePublished(t)
	doc := do(t, "GET", base+"/v1/openapi.json", nil)
	if doc.status != 200 || !bytes.Equal(doc.body, openapi.Document) || doc.header.Get("Content-Type") != "application/json" {
		t.Fatalf("openapi.json: %d %s, %d bytes", doc.status, doc.header.Get("Content-Type"), len(doc.body))
	}
	if doc.header.Get("Cache-Control") != "public, max-age=1800" || doc.header.Get("ETag") == "" {
		t.Errorf("openapi.json caching: %v", doc.header)
	}
	if r := do(t, "GET", base+"/v1/openapi.json", map[string]string{"If-None-Match": doc.header.Get("ETag")}); r.status != 304 {
		t.Errorf("openapi.json revalidated: %d", r.status)
	}
	page := do(t, "GET", base+"/docs", nil)
	if page.status != 200 || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") ||
		!strings.Contains(page.header.Get("Content-Security-Policy"), "default-src 'self'") ||
		!bytes.Contains(page.body, []byte(`spec-url="v1/openapi.json"`)) || !bytes.Contains(page.body, []byte(`src="docs/redoc.standalone.js"`)) {
		t.Errorf("docs page: %d %v\n%s", page.status, page.header, page.body)
	}
	js := do(t, "GET", base+"/docs/redoc.standalone.js", map[string]string{"Accept-Encoding": "gzip"})
	if js.status != 200 || js.header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(js.header.Get("Content-Type"), "text/javascript") ||
		len(js.body) >= len(redocJS)/2 {
		t.Errorf("renderer: %d %v, %d bytes", js.status, js.header, len(js.body))
	}
	for _, path := range []string{"/docs/other.js", "/docs/"} {
		if r := do(t, "GET", base+path, nil); r.status != 404 {
			t.Errorf("%s: %d", path, r.status)
		}
	}
}

// TestRedocBundlePinned checks that the embedded renderer is the pinned release (make redoc
// fetches it and writes the checksum).
func TestRedocBundlePinned(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("docs", "redoc.standalone.js.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(redocJS)
	if got := hex.EncodeToString(sum[:]) + "  redoc.standalone.js\n"; got != string(want) {
		t.Errorf("docs/redoc.standalone.js has sha256 %s; the pinned one is %s", got, want)
	}
}
