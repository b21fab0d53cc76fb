package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/server/openapi/openapitest"
	"github.com/gigs/gigs/testkit/demo"
	"github.com/gigs/gigs/testkit/fixture"
	"github.com/gigs/gigs/testkit/scale"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		addr string
		err  string
	}{
		{"defaults", []string{"-sources", "s.json"}, nil, ":8080", ""},
		{"env", nil, map[string]string{"GIGS_SOURCES": "s.json", "GIGS_ADDR": ":9000"}, ":9000", ""},
		{"flag beats env", []string{"-addr", ":9100"}, map[string]string{"GIGS_SOURCES": "s.json", "GIGS_ADDR": ":9000"}, ":9100", ""},
		{"no sources", nil, nil, "", "no sources: set -sources or GIGS_SOURCES"},
		{"bad env duration", []string{"-sources", "s"}, map[string]string{"GIGS_REFRESH": "soon"}, "", `invalid value "soon" for GIGS_REFRESH`},
		{"negative duration", []string{"-sources", "s", "-retry", "-1m"}, nil, "", "-retry must be positive"},
		{"bad log level", []string{"-sources", "s", "-log-level", "loud"}, nil, "", "-log-level"},
		{"stray argument", []string{"-sources", "s", "extra"}, nil, "", "unexpected arguments"},
		{"proxies", []string{"-sources", "s", "-trusted-proxies", "10.0.0.0/8, 192.0.2.7,2001:db8::/32"}, nil, ":8080", ""},
		{"bad proxy", []string{"-sources", "s"}, map[string]string{"GIGS_TRUSTED_PROXIES": "10.0.0.0/33"}, "", `neither a network`},
		{"zero limit", []string{"-sources", "s", "-read-limit", "0"}, nil, "", "-read-limit must be from 1 to 1000000000"},
		{"zero export limit", []string{"-sources", "s"}, map[string]string{"GIGS_EXPORT_LIMIT": "0"}, "", "-export-limit must be from 1 to 1000000000"},
		// A review's: a limit over 6×10¹⁰ a minute made a request cost 0 ns, and the limiter divided by it.
		{"limit beyond any client", []string{"-sources", "s", "-read-limit", "100000000000"}, nil, "", "-read-limit must be from 1 to 1000000000"},
		{"bad admin addr", []string{"-sources", "s", "-admin-addr", "localhost"}, nil, "", `-admin-addr "localhost" is not host:port`},
		{"an empty variable is unset", []string{"-sources", "s"}, map[string]string{"GIGS_ADMIN_ADDR": ""}, ":8080", ""},
		{"bad addr", []string{"-sources", "s", "-addr", "8080"}, nil, "", `-addr "8080" is not host:port`},
		{"negative drain", []string{"-sources", "s", "-drain-delay", "-1s"}, nil, "", "-drain-delay must not be negative"},
		// An operator's review: these were refused only once running, exit status 1.
		{"port out of range", []string{"-sources", "s"}, map[string]string{"GIGS_ADDR": ":99999"}, "", `-addr ":99999"`},
		{"bad fetch proxy", []string{"-sources", "s"}, map[string]string{"GIGS_FETCH_PROXY": "::bad"}, "", "-fetch-proxy"},
		{"bad redis URL", []string{"-sources", "s"}, map[string]string{"GIGS_REDIS": "http://x"}, "", "-redis"},
		{"bad bucket scheme", []string{"-sources", "s", "-snapshot"}, map[string]string{"GIGS_PUBLISH": "ftp://x"}, "", `-publish: bucket "ftp://x": unknown scheme "ftp"`},
		{"bucket directory", []string{"-sources", "s", "-snapshot", "-publish", "var/bucket"}, nil, ":8080", ""},
		{"access log env", []string{"-sources", "s"}, map[string]string{"GIGS_ACCESS_LOG": "yes"}, "", `invalid value "yes" for GIGS_ACCESS_LOG`},
		{"a dataset needs no sources", []string{"-dataset", "var/dataset"}, nil, ":8080", ""},
		{"a dataset or sources", []string{"-dataset", "d", "-sources", "s"}, nil, "", "-sources and -dataset exclude each other"},
	}
	for _, tt := range tests {
		m := NewMain()
		err := m.ParseFlags(tt.args, env(tt.env), io.Discard)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || m.Config.Addr != tt.addr {
			t.Errorf("%s: addr %q, error %v; want %q", tt.name, m.Config.Addr, err, tt.addr)
		}
	}
}

func TestHelpListsEveryFlagWithItsVariable(t *testing.T) {
	var out bytes.Buffer
	err := NewMain().ParseFlags([]string{"-h"}, env(nil), &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("error %v", err)
	}
	for _, v := range []string{"GIGS_ADDR", "GIGS_SOURCES", "GIGS_REFRESH", "GIGS_RETRY", "GIGS_MAX_STALE", "GIGS_CONTACT", "GIGS_LOG_LEVEL", "GIGS_SHUTDOWN_TIMEOUT", "GIGS_READ_LIMIT", "GIGS_TRUSTED_PROXIES", "GIGS_EXPORT_LIMIT", "GIGS_DATA_DIR", "GIGS_KEY_SYNC", "GIGS_FETCH_PROXY",
		"GIGS_ADMIN_ADDR", "GIGS_ACCESS_LOG", "GIGS_DRAIN_DELAY", "GIGS_CHECK"} {
		if !strings.Contains(out.String(), v) {
			t.Errorf("-h does not mention %s:\n%s", v, out.String())
		}
	}
}

// TestRun starts the daemon on a free port with the demo corpus served by its fixture
// server, as make run does, and closes it as SIGTERM does, twice.
func TestRun(t *testing.T) {
	dir := demoCorpus(t)
	vars, _ := demoUpstream(t, dir)
	m := demoMain(t, dir, env(vars), "-log-level", "error", "-key-sync", "100ms")
	start(t, m)
	base := "http://" + m.Addr().String()
	waitFor(t, "gigsd to be ready", 60*time.Second, func() bool { return getStatus("http://"+m.AdminAddr().String()+"/readyz") == 200 })
	// A key issued into the running daemon's store downloads the export.
	key := issueKey(t, filepath.Join(dir, "data"))
	waitFor(t, "the export with a new key", 30*time.Second, func() bool {
		status, _ := fetchChecked(t, base+"/v1/gigs/download", map[string]string{"X-API-Key": key})
		return status == 200
	})
	status, body := fetchChecked(t, base+"/v1/gigs", nil)
	var page struct {
		Data []json.RawMessage
		Meta struct{ Total int }
	}
	if err := json.Unmarshal(body, &page); err != nil || status != 200 || len(page.Data) != 20 || page.Meta.Total < 4000 {
		t.Fatalf("first page: %d, %d gigs of %d, error %v", status, len(page.Data), page.Meta.Total, err)
	}
	for _, path := range []string{"/v1/meta", "/v1/cities", "/v1/openapi.json", "/docs", "/livez", "/v1/gigs?city=nowhere&page=2"} {
		if status, _ := fetchChecked(t, base+path, nil); status != 200 {
			t.Errorf("%s: %d", path, status)
		}
	}
	closed := make(chan error, 1)
	go func() { closed <- m.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("gigsd did not stop")
	}
	if err := m.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
}

// fetchChecked GETs url with header, checks the response against the OpenAPI document,
// and returns its status and (decompressed) body.
func fetchChecked(t *testing.T, url string, header map[string]string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	v, err := openapitest.Default()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Check(req.Method, req.URL.EscapedPath(), resp.StatusCode, resp.Header, body); err != nil {
		t.Error(err)
	}
	return resp.StatusCode, body
}

// TestRunFailsBeforeListening is a regression test: Addr used to wait forever when Run
// failed before it opened its listener (here: a platform credential missing). Close
// after it closes what Run had opened.
func TestRunFailsBeforeListening(t *testing.T) {
	m := demoMain(t, demoCorpus(t), env(nil))
	err := m.Run(t.Context())
	if err == nil || !strings.Contains(err.Error(), "GIGS_TIXHUB_KEY") {
		t.Errorf("Run: %v, want an error naming the missing credential", err)
	}
	closeMain(t, m)
	addr := make(chan net.Addr, 1)
	go func() { addr <- m.Addr() }()
	select {
	case a := <-addr:
		if a != nil {
			t.Errorf("Addr after a failed Run: %v", a)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Addr still waits after Run failed")
	}
}

// demoCorpus writes a demo corpus for today into a new directory.
func demoCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := demo.Generate(dir, demo.Options{Today: time.Now().UTC(), Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// demoUpstream serves the corpus in dir with its fixture server until the test ends. It
// returns the environment gigsd needs to read it (credentials and GIGS_FETCH_PROXY), and
// the server.
func demoUpstream(t *testing.T, dir string) (map[string]string, *httptest.Server) {
	t.Helper()
	fx, env, err := fixture.OpenDemo(dir, fixture.Options{Stall: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	upstream := httptest.NewServer(fx)
	t.Cleanup(upstream.Close)
	env["GIGS_FETCH_PROXY"] = upstream.URL
	return env, upstream
}

// runDemo runs gigsd in-process on a new demo corpus, with more flags, until the test
// ends, and returns it once it listens.
func runDemo(t *testing.T, flags ...string) *Main {
	t.Helper()
	dir := demoCorpus(t)
	vars, _ := demoUpstream(t, dir)
	m := demoMain(t, dir, env(vars), append([]string{"-log-level", "error"}, flags...)...)
	start(t, m)
	return m
}

// start runs m until the test closes it, or ends, and returns once it listens.
func start(t *testing.T, m *Main) {
	t.Helper()
	t.Cleanup(func() { closeMain(t, m) })
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("gigsd did not listen: %v", err)
	}
}

// closeMain closes m, as SIGTERM does, and reports its error.
func closeMain(t *testing.T, m *Main) {
	t.Helper()
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// issueKey issues a key into the store in dataDir, as gigsctl keys create does.
func issueKey(t *testing.T, dataDir string) string {
	t.Helper()
	store, err := keys.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := store.Create("ops@example.org", "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// demoMain returns a Main configured for the corpus in dir, on a free loopback port, with
// its data in dir/data, the environment getenv, and more flags.
func demoMain(t *testing.T, dir string, getenv func(string) string, flags ...string) *Main {
	t.Helper()
	m := NewMain()
	args := append([]string{"-addr", "127.0.0.1:0", "-admin-addr", "127.0.0.1:0", "-sources", filepath.Join(dir, "sources.json"), "-data-dir", filepath.Join(dir, "data")}, flags...)
	if err := m.ParseFlags(args, getenv, io.Discard); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTrustedProxiesParsed(t *testing.T) {
	m := NewMain()
	if err := m.ParseFlags([]string{"-sources", "s", "-trusted-proxies", "10.1.2.3/8, 192.0.2.7,,2001:db8::1"}, env(nil), io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(m.Config.TrustedProxies); got != "[10.0.0.0/8 192.0.2.7/32 2001:db8::1/128]" {
		t.Errorf("trusted proxies %s", got)
	}
}

var update = flag.Bool("update", false, "rewrite the configuration table in docs/operations.md from the flags")

// operationsDoc is where the configuration table lives.
var operationsDoc = filepath.Join("..", "..", "docs", "operations.md")

// The table sits between these lines.
const (
	tableStart = "<!-- flags: written from gigsd's flag set by go test ./cmd/gigsd -run TestConfigTable -update -->\n"
	tableEnd   = "<!-- end of flags -->\n"
)

// configTable renders the flag set as the documentation's table: each flag, its variable,
// its default and its meaning, as -h says them. Defaults are stated once, in the flags.
func configTable() string {
	var b strings.Builder
	b.WriteString("| flag | environment | default | meaning |\n|---|---|---|---|\n")
	NewMain().flagSet(io.Discard).VisitAll(func(f *flag.Flag) {
		def := f.DefValue
		if d, err := time.ParseDuration(def); err == nil && strings.ContainsAny(def, "hms") {
			def = shortDuration(d)
		}
		if def != "" {
			def = "`" + def + "`"
		}
		_, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "| `-%s` | `%s` | %s | %s |\n", f.Name, flagenv.Name(f.Name), def, strings.ReplaceAll(usage, "|", "\\|"))
	})
	return b.String()
}

// shortDuration writes 1h rather than 1h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// TestConfigTable keeps the documentation's configuration table what the flag set says,
// and -h explaining every flag with its variable.
func TestConfigTable(t *testing.T) {
	doc, err := os.ReadFile(operationsDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), tableStart)
	old, after, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no flags table between %q and %q", operationsDoc, tableStart, tableEnd)
	}
	if want := configTable(); old != want {
		if !*update {
			t.Fatalf("the configuration table in %s is not the flag set's: run go test ./cmd/gigsd -run TestConfigTable -update", operationsDoc)
		}
		if err := os.WriteFile(operationsDoc, []byte(before+tableStart+want+tableEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var help bytes.Buffer
	if err := NewMain().ParseFlags([]string{"-h"}, env(nil), &help); !errors.Is(err, flag.ErrHelp) {
		t.Fatal(err)
	}
	n := 0
	NewMain().flagSet(io.Discard).VisitAll(func(f *flag.Flag) {
		n++
		entry := regexp.MustCompile(`(?m)^  -` + f.Name + ` .*\n\s+(.*)$`).FindStringSubmatch(help.String())
		if entry == nil || len(entry[1]) < 30 || !strings.Contains(entry[1], "(env "+flagenv.Name(f.Name)) {
			t.Errorf("-h does not explain -%s with its variable: %q", f.Name, entry)
		}
	})
	if n < 18 {
		t.Errorf("only %d flags", n)
	}
}

// TestCheck runs gigsd -check against the demo corpus: it builds, says so, and leaves the
// data directory alone; with every upstream down it fails.
func TestCheck(t *testing.T) {
	dir := demoCorpus(t)
	vars, upstream := demoUpstream(t, dir)
	m := demoMain(t, dir, env(vars), "-log-level", "error")
	var out bytes.Buffer
	if err := m.Check(t.Context(), &out); err != nil {
		t.Fatalf("check: %v\n%s", err, out.String())
	}
	for _, want := range []string{"sources: 325, ", "snapshot: ", " gigs, ", "failed  venue-", "records: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); !os.IsNotExist(err) {
		t.Errorf("check touched the data directory: %v", err)
	}

	upstream.Close() // every source fails: no snapshot
	m = demoMain(t, dir, env(vars), "-log-level", "error")
	out.Reset()
	err := m.Check(t.Context(), &out)
	if err == nil || !strings.Contains(out.String(), "snapshot: not built") {
		t.Errorf("check with every source down: %v\n%s", err, out.String())
	}
}

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"1024", 1024, true}, {"512MiB", 512 << 20, true}, {"4GiB", 4 << 30, true},
		{"2 GB", 2e9, true}, {"10KB", 10e3, true}, {"7B", 7, true},
		{"", 0, false}, {"4G", 0, false}, {"-1", 0, false}, {"GiB", 0, false}, {"99999999999TiB", 0, false}, {"1.5GiB", 0, false},
	}
	for _, tt := range tests {
		got, err := parseBytes(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%q: %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestMachineMemory(t *testing.T) {
	if n := machineMemory(); n < 64<<20 {
		t.Errorf("machine memory %d bytes", n)
	}
}

// TestDataset serves a dataset file as the bench does, and keeps serving it when the file
// is replaced by one that does not read.
func TestDataset(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dataset")
	var buf bytes.Buffer
	if err := engine.WriteDataset(&buf, scale.Generate(scale.Config{Gigs: 500, Seed: 1, Now: time.Now()})); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewMain()
	if err := m.ParseFlags([]string{"-dataset", path, "-addr", "127.0.0.1:0", "-admin-addr", "127.0.0.1:0", "-refresh", "200ms",
		"-data-dir", filepath.Join(dir, "data"), "-log-level", "error"}, env(nil), io.Discard); err != nil {
		t.Fatal(err)
	}
	start(t, m)
	waitFor(t, "the dataset served", 30*time.Second, func() bool { return getStatus("http://"+m.AdminAddr().String()+"/readyz") == 200 })
	version := m.Live.Load().Version()
	if err := os.WriteFile(path, []byte("not a dataset"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // refreshes that fail
	if snap := m.Live.Load(); snap == nil || snap.Version() != version || snap.Len() == 0 {
		t.Fatalf("the last good dataset is no longer served")
	}
}

// A refresh builds at buildGCPercent with a P more than the runtime's default, keeps both
// until its memory is released (published sets the collector back) and gives the P back
// when settled; a GOGC or GOMAXPROCS of the operator's is left alone.
func TestBuildingSetsGC(t *testing.T) {
	gcPercent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	defer debug.SetGCPercent(debug.SetGCPercent(defaultGCPercent))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(runtimeProcs))
	for _, tc := range []struct {
		gogc, gomaxprocs      string // the environment's
		start, during, after  int    // GOGC
		procsDuring, procsNow int    // GOMAXPROCS while building, and once settled
	}{
		{"", "", defaultGCPercent, buildGCPercent, defaultGCPercent, runtimeProcs + 1, runtimeProcs},
		{"50", "", 50, 50, 50, runtimeProcs + 1, runtimeProcs},
		{"", "3", defaultGCPercent, buildGCPercent, defaultGCPercent, 3, 3},
	} {
		debug.SetGCPercent(tc.start)
		runtime.GOMAXPROCS(runtimeProcs)
		if tc.gomaxprocs != "" {
			runtime.GOMAXPROCS(3)
		}
		m := NewMain()
		m.getenv = func(k string) string { return map[string]string{"GOGC": tc.gogc, "GOMAXPROCS": tc.gomaxprocs}[k] }
		during, procs := 0, 0
		m.building(func() { during, procs = gcPercent(), runtime.GOMAXPROCS(0) })
		if held, heldProcs := gcPercent(), runtime.GOMAXPROCS(0); held != tc.during || heldProcs != procs {
			t.Errorf("GOGC %q: GOGC %d and GOMAXPROCS %d after the build, before the memory is released; want %d and %d", tc.gogc, held, heldProcs, tc.during, procs)
		}
		m.collectAsServing()
		m.settled()
		if after := gcPercent(); during != tc.during || after != tc.after {
			t.Errorf("GOGC %q: %d while building and %d after, want %d and %d", tc.gogc, during, after, tc.during, tc.after)
		}
		if tc.gomaxprocs == "" && (procs != tc.procsDuring || runtime.GOMAXPROCS(0) != tc.procsNow) {
			t.Errorf("GOMAXPROCS %d while building and %d once settled, want %d and %d", procs, runtime.GOMAXPROCS(0), tc.procsDuring, tc.procsNow)
		}
		if tc.gomaxprocs != "" && (procs != 3 || runtime.GOMAXPROCS(0) != 3) {
			t.Errorf("GOMAXPROCS=%s: %d while building and %d once settled, want the operator's", tc.gomaxprocs, procs, runtime.GOMAXPROCS(0))
		}
	}
}
