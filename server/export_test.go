package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/keys"
)

type exportFixture struct {
	base       string
	snap       *engine.Snapshot
	store      *keys.Store
	checker    *keys.Checker
	a, b, gone string // two good keys and a revoked one
	logs       *bytes.Buffer
	metrics    *Metrics
	live       *engine.Live
}

func newExportFixture(t *testing.T, readLimit int) *exportFixture {
	f := &exportFixture{logs: new(bytes.Buffer)}
	dir := t.TempDir()
	var err error
	if f.store, err = keys.Open(dir); err != nil {
		t.Fatal(err)
	}
	f.a, _, _ = f.store.Create("a@example.org", "sync", testNow)
	f.b, _, _ = f.store.Create("b@example.org", "sync", testNow)
	var goneRec keys.Record
	f.gone, goneRec, _ = f.store.Create("c@example.org", "old app", testNow)
	if _, err := f.store.Revoke(goneRec.ID, "leaked in a public repository", testNow); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return testNow }
	logger := slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if f.checker, err = keys.NewChecker(f.store, now, logger); err != nil {
		t.Fatal(err)
	}
	f.live = &engine.Live{}
	f.snap = testSnapshot(t)
	f.live.Publish(f.snap)
	f.live.SetNextRefresh(nextLoad)
	f.metrics = NewMetrics(prometheus.NewRegistry(), f.live)
	f.base = listen(t, New(Options{Live: f.live, Now: now, Logger: logger, ReadLimit: readLimit, Keys: f.checker, Contact: "keys@example.org", Metrics: f.metrics}))
	return f
}

func TestExportKeyProblems(t *testing.T) {
	f := newExportFixture(t, 1<<30)
	flipped := []byte(f.a)
	flipped[20] = map[bool]byte{true: 'b', false: 'a'}[flipped[20] == 'a']
	tests := []struct {
		name, key, kind, detail string
	}{
		{"missing", "", "missing-key", "X-API-Key"},
		{"malformed", "gigs_123", "malformed-key", "not a gigs key"},
		{"bad checksum", string(flipped), "malformed-key", "not a gigs key"},
		{"unknown", keys.NewKey(), "unknown-key", "keys@example.org"},
		{"revoked", f.gone, "revoked-key", "leaked in a public repository"},
	}
	for _, tt := range tests {
		r := do(t, "GET", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": tt.key})
		var p problemJSON
		_ = json.Unmarshal(r.body, &p)
		if r.status != 401 || p.Type != "/problems/"+tt.kind || !strings.Contains(p.Detail, tt.detail) {
			t.Errorf("%s: %d %s", tt.name, r.status, r.body)
		}
		checkProblem(t, r, "/v1/gigs/download")
		if tt.key != "" && strings.Contains(string(r.body), tt.key) {
			t.Errorf("%s: the body repeats the key", tt.name)
		}
		if r.header.Get("WWW-Authenticate") != `APIKey header="X-API-Key"` {
			t.Errorf("%s: WWW-Authenticate %q", tt.name, r.header.Get("WWW-Authenticate"))
		}
		if tt.key != "" && strings.Contains(f.logs.String(), tt.key) {
			t.Errorf("%s: the key appears in the logs", tt.name)
		}
	}
	if r := do(t, "GET", f.base+"/v1/gigs/download?api_key="+f.a, nil); r.status != 400 {
		t.Errorf("key as a query parameter: %d", r.status)
	}
	for res, want := range map[keyResult]float64{keyMissing: 1, keyMalformed: 2, keyUnknown: 1, keyRevoked: 1, keyValid: 0} {
		if got := testutil.ToFloat64(f.metrics.keyChecks[res]); got != want {
			t.Errorf("gigs_key_checks_total{result=%q} = %v, want %v", keyResultNames[res], got, want)
		}
	}
	if strings.Contains(f.logs.String(), f.a) || strings.Contains(f.logs.String(), f.gone) {
		t.Error("a key appears in the logs")
	}
}

func TestExport(t *testing.T) {
	f := newExportFixture(t, 1<<30)
	key := map[string]string{"X-API-Key": f.a}
	plain := do(t, "GET", f.base+"/v1/gigs/download", key)
	if plain.status != 200 || plain.header.Get("Cache-Control") != "private, no-store" || plain.header.Get("Content-Length") != strconv.Itoa(f.snap.Export().Size) ||
		plain.header.Get("ETag") == "" || plain.header.Get("Vary") != "Accept-Encoding" || plain.header.Get("RateLimit-Policy") != `"export";q=10;w=60` {
		t.Fatalf("export: %d %v", plain.status, plain.header)
	}
	var body struct {
		Data []struct{ ID string } `json:"data"`
		Meta struct {
			Count       int    `json:"count"`
			DataVersion string `json:"data_version"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(plain.body, &body); err != nil || len(body.Data) != f.snap.Len() || body.Meta.Count != f.snap.Len() || body.Meta.DataVersion != f.snap.Version() {
		t.Fatalf("export body: %d gigs, meta %+v, %v", len(body.Data), body.Meta, err)
	}
	zipped := do(t, "GET", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": f.a, "Accept-Encoding": "gzip"})
	zr, err := gzip.NewReader(bytes.NewReader(zipped.body))
	if err != nil || zipped.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip export: %v %v", err, zipped.header)
	}
	unzipped, _ := io.ReadAll(zr)
	if !bytes.Equal(unzipped, plain.body) {
		t.Fatal("the decompressed export differs from the plain one")
	}
	if id, gz := testutil.ToFloat64(f.metrics.export[0]), testutil.ToFloat64(f.metrics.export[1]); id != float64(len(plain.body)) || gz != float64(len(zipped.body)) {
		t.Errorf("gigs_export_bytes_total: identity %v, gzip %v; want %d and %d", id, gz, len(plain.body), len(zipped.body))
	}
	r := do(t, "GET", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": f.a, "If-None-Match": plain.header.Get("ETag")})
	if r.status != 304 || len(r.body) != 0 || r.header.Get("X-RateLimit-Remaining") != "8" {
		t.Fatalf("conditional export: %d, %d bytes, remaining %q (two exports spent, a 304 is free)", r.status, len(r.body), r.header.Get("X-RateLimit-Remaining"))
	}
}

func TestExportLimitPerKey(t *testing.T) {
	f := newExportFixture(t, 1<<30)
	for i := range 11 {
		r := do(t, "HEAD", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": f.a})
		if want := map[bool]int{true: 429, false: 200}[i == 10]; r.status != want {
			t.Fatalf("export %d with one key: %d, want %d", i+1, r.status, want)
		}
		if i == 10 && r.header.Get("Retry-After") != "6" {
			t.Errorf("Retry-After %q, want 6 (one export every 6 s)", r.header.Get("Retry-After"))
		}
	}
	if r := do(t, "HEAD", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": f.b}); r.status != 200 {
		t.Fatalf("another key is limited too: %d", r.status)
	}
}

func TestExportClientLimitBeforeKeys(t *testing.T) {
	f := newExportFixture(t, 60)
	for i := range 61 {
		r := do(t, "GET", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": keys.NewKey()})
		if want := map[bool]int{true: 429, false: 401}[i == 60]; r.status != want {
			t.Fatalf("guess %d: %d, want %d", i+1, r.status, want)
		}
	}
}

func TestRevocationReachesRunningServer(t *testing.T) {
	f := newExportFixture(t, 1<<30)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.checker.Run(ctx, 20*time.Millisecond)
	if r := do(t, "HEAD", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": f.b}); r.status != 200 {
		t.Fatalf("before revocation: %d", r.status)
	}
	recs, _ := f.store.Read()
	if _, err := f.store.Revoke(recs[1].ID, "revoked by the operator", testNow); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		r := do(t, "GET", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": f.b})
		if r.status == 401 && strings.Contains(string(r.body), "revoked-key") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("a revoked key still works")
}
