package loader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/demo"
)

var (
	today = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	noon  = today.Add(12 * time.Hour)
)

// upstream serves a demo corpus over HTTP and fails the paths it is told to: with an error
// status, or with 200 and a page without events.
type upstream struct {
	*httptest.Server
	mu    sync.Mutex
	fails map[string]int // path → status to answer instead
}

func (u *upstream) fail(path string, status int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.fails[path] = status
}

func newUpstream(t *testing.T) (*upstream, *Config) {
	t.Helper()
	dir := t.TempDir()
	if _, err := demo.Generate(dir, demo.Options{Today: today, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	u := &upstream{fails: map[string]int{}}
	files := http.FileServer(http.Dir(dir))
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		status := u.fails[r.URL.Path]
		u.mu.Unlock()
		switch status {
		case 0:
		case http.StatusOK: // the site answers, but its events are gone (a redesign)
			fmt.Fprint(w, "<!doctype html><title>New website!</title><p>Coming soon.")
			return
		default:
			http.Error(w, "failing on purpose", status)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(u.Close)
	cfg, err := ReadConfig(filepath.Join(dir, "sources.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range cfg.Sources {
		s := &cfg.Sources[i]
		s.URL = u.URL + "/" + strings.TrimPrefix(s.URL, "file://"+filepath.ToSlash(dir)+"/")
	}
	return u, cfg
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

func newLoader(cfg *Config, live *engine.Live, c *clock) *Loader {
	return New(Options{Sources: Sources(cfg, NewFetcher(FetchOptions{Contact: "ops@example.org"})), Live: live,
		Now: c.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

type gigView struct {
	ID       string `json:"id"`
	StartsAt string `json:"starts_at"`
	Date     string `json:"date"`
	Timezone string `json:"timezone"`
	Venue    struct{ Slug string }
	City     struct{ Slug string }
	Country  string
	Sources  []struct{ Name string }
}

func allGigs(t *testing.T, s *engine.Snapshot) []gigView {
	var gigs []gigView
	if err := json.Unmarshal([]byte("["+string(s.GigsJSON())+"]"), &gigs); err != nil {
		t.Fatal(err)
	}
	return gigs
}

func TestRefreshDemoCorpusOverHTTP(t *testing.T) {
	_, cfg := newUpstream(t)
	var live engine.Live
	rep, err := newLoader(cfg, &live, &clock{t: noon}).RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Sources {
		if s.Err != nil || len(s.Dropped) > 0 || s.Events == 0 {
			t.Errorf("source %s: %d events, error %v, dropped %v", s.Name, s.Events, s.Err, s.Dropped)
		}
	}
	snap := live.Load()
	c := snap.Counts()
	if c.Venues < 40 || c.Cities < 12 || c.Gigs < 1500 || c.Genres < 5 {
		t.Errorf("counts %+v: want at least 40 venues, 12 cities, 1500 gigs, 5 genres", c)
	}
	countries := map[string]bool{}
	offsets := map[string]bool{}
	for _, g := range allGigs(t, snap) {
		countries[g.Country] = true
		if g.StartsAt != "" {
			offsets[g.StartsAt[len(g.StartsAt)-6:]] = true
			st, _ := time.Parse(time.RFC3339, g.StartsAt)
			loc, _ := time.LoadLocation(g.Timezone)
			if want := st.In(loc).Format("2006-01-02T15:04:05-07:00"); want != g.StartsAt || g.Date != g.StartsAt[:10] {
				t.Errorf("gig %s: starts_at %s, date %s; the offset of %s at that instant gives %s", g.ID, g.StartsAt, g.Date, g.Timezone, want)
			}
		}
	}
	if len(countries) < 8 {
		t.Errorf("%d countries, want at least 8", len(countries))
	}
	for _, off := range []string{"+05:30", "+05:45", "-03:30", "-02:30", "+01:00", "+02:00"} {
		if !offsets[off] {
			t.Errorf("no gig at UTC offset %s", off)
		}
	}
}

// loadedOnce serves the demo corpus and runs a loader over it once, at noon.
func loadedOnce(t *testing.T) (*upstream, *Config, *engine.Live, *clock, *Loader) {
	t.Helper()
	u, cfg := newUpstream(t)
	live := new(engine.Live)
	c := &clock{t: noon}
	ld := newLoader(cfg, live, c)
	if _, err := ld.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	return u, cfg, live, c, ld
}

// sourceGigs returns the ids of the gigs attributed to a source.
func sourceGigs(t *testing.T, s *engine.Snapshot, name string) []string {
	var ids []string
	for _, g := range allGigs(t, s) {
		for _, src := range g.Sources {
			if src.Name == name {
				ids = append(ids, g.ID)
			}
		}
	}
	return ids
}

func TestLastKnownGood(t *testing.T) {
	u, cfg, live, c, ld := loadedOnce(t)
	victim := cfg.Sources[0]
	before := sourceGigs(t, live.Load(), victim.Name)
	if len(before) == 0 {
		t.Fatalf("source %s has no gigs", victim.Name)
	}

	// The venue's site fails: its last good events still serve, with the same ids.
	u.fail(strings.TrimPrefix(victim.URL, u.URL), http.StatusInternalServerError)
	c.Set(noon.Add(time.Hour))
	rep, err := ld.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Sources[0]; s.Err == nil || !s.Stale {
		t.Fatalf("failing source reported %+v", s)
	}
	if got := sourceGigs(t, live.Load(), victim.Name); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Fatalf("after a failure the source has gigs %v, before %v", got, before)
	}

	// The site answers again, but without events: that is no reason to drop its gigs.
	u.fail(strings.TrimPrefix(victim.URL, u.URL), http.StatusOK)
	c.Set(noon.Add(2 * time.Hour))
	if rep, err = ld.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s := rep.Sources[0]; !errors.Is(s.Err, errSourceShrank) || !s.Stale || len(sourceGigs(t, live.Load(), victim.Name)) != len(before) {
		t.Fatalf("an emptied source reported %+v", s)
	}

	// Past the age limit they go, but one venue is no sharp drop: the build publishes.
	c.Set(noon.Add(49 * time.Hour))
	rep, err = ld.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sources[0].Stale || len(sourceGigs(t, live.Load(), victim.Name)) != 0 {
		t.Errorf("events older than the age limit still used")
	}
}

func TestFailedRefreshKeepsSnapshot(t *testing.T) {
	u, cfg, live, c, ld := loadedOnce(t)
	good := live.Load()
	// Two thirds of the sites fail for longer than the age limit: a sharp drop, refused.
	for i, s := range cfg.Sources {
		if i%3 != 0 {
			u.fail(strings.TrimPrefix(s.URL, u.URL), http.StatusBadGateway)
		}
	}
	c.Set(noon.Add(72 * time.Hour))
	_, err := ld.RunOnce(context.Background())
	if !errors.Is(err, ErrNotPublished) || !strings.Contains(err.Error(), "gigs fell from") {
		t.Fatalf("error %v, want a refused build", err)
	}
	if live.Load() != good {
		t.Fatal("a refused build replaced the published snapshot")
	}
	// The same drop on the following refreshes is taken as real on the third.
	if _, err := ld.RunOnce(context.Background()); !errors.Is(err, ErrNotPublished) {
		t.Fatalf("second refusal: %v", err)
	}
	if _, err := ld.RunOnce(context.Background()); err != nil || live.Load() == good {
		t.Fatalf("third run: error %v, published %v", err, live.Load() != good)
	}
	good = live.Load()
	// Everything fails: the last good events serve while young enough...
	for _, s := range cfg.Sources {
		u.fail(strings.TrimPrefix(s.URL, u.URL), http.StatusServiceUnavailable)
	}
	if rep, err := ld.RunOnce(context.Background()); err != nil || rep.Gigs != good.Len() {
		t.Fatalf("all sources failing, last good events young: error %v, %d gigs, want %d", err, rep.Gigs, good.Len())
	}
	good = live.Load()
	// ...and after that there is nothing to build from: the snapshot stays.
	c.Set(noon.Add(72*time.Hour + 49*time.Hour))
	if _, err := ld.RunOnce(context.Background()); !errors.Is(err, ErrNotPublished) || live.Load() != good {
		t.Fatalf("all sources failing: error %v, snapshot replaced %v", err, live.Load() != good)
	}
}

func TestRunSchedulesRefreshes(t *testing.T) {
	for _, tt := range []struct {
		name     string
		fail     bool
		min, max time.Duration
	}{
		{"after success, the interval", false, 54 * time.Minute, 66 * time.Minute},
		{"after failure, the retry", true, 4*time.Minute + 30*time.Second, 5*time.Minute + 30*time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u, cfg := newUpstream(t)
			if tt.fail {
				for _, s := range cfg.Sources {
					u.fail(strings.TrimPrefix(s.URL, u.URL), http.StatusInternalServerError)
				}
			}
			var live engine.Live
			ld := newLoader(cfg, &live, &clock{t: noon})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { ld.Run(ctx); close(done) }()
			deadline := time.Now().Add(30 * time.Second)
			for live.NextRefresh().IsZero() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			cancel()
			<-done
			wait := live.NextRefresh().Sub(noon)
			if wait < tt.min || wait > tt.max {
				t.Errorf("next refresh in %s, want between %s and %s", wait, tt.min, tt.max)
			}
			if ready := live.Load() != nil; ready == tt.fail {
				t.Errorf("snapshot published: %v", ready)
			}
		})
	}
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, body, err string
	}{
		{"good", `{"sources":[{"name":"a","kind":"jsonld","url":"sites/a.html"},{"name":"b","kind":"jsonld","url":"https://b.example/"}]}`, ""},
		{"unknown field", `{"sources":[{"name":"a","kind":"jsonld","url":"x","hints":1}]}`, `unknown field "hints"`},
		{"duplicate", `{"sources":[{"name":"a","kind":"jsonld","url":"x"},{"name":"a","kind":"jsonld","url":"y"}]}`, "duplicate name"},
		{"bad name", `{"sources":[{"name":"a b","kind":"jsonld","url":"x"}]}`, "name must be"},
		{"bad kind", `{"sources":[{"name":"a","kind":"rss","url":"x"}]}`, `unknown kind "rss"`},
		{"bad scheme", `{"sources":[{"name":"a","kind":"jsonld","url":"ftp://x/"}]}`, `unsupported url scheme "ftp"`},
		{"no url", `{"sources":[{"name":"a","kind":"jsonld","url":""}]}`, "bad url"},
		{"empty", `{"sources":[]}`, "no sources"},
		{"not json", `{"sources":`, "cannot parse sources configuration"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name+".json")
		if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := ReadConfig(path)
		if tt.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			} else if want := "file://" + filepath.ToSlash(filepath.Join(dir, "sites/a.html")); cfg.Sources[0].URL != want {
				t.Errorf("%s: relative url became %q, want %q", tt.name, cfg.Sources[0].URL, want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
}

func TestFetcherLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != "gigs/1 (+ops@example.org)" {
			http.Error(w, "no contact in User-Agent", http.StatusForbidden)
			return
		}
		switch r.URL.Path {
		case "/big":
			fmt.Fprint(w, strings.Repeat("x", 2048))
		case "/slow":
			time.Sleep(2 * time.Second)
		default:
			fmt.Fprint(w, "ok")
		}
	}))
	defer srv.Close()
	f := NewFetcher(FetchOptions{Contact: "ops@example.org", MaxBytes: 1024, Timeout: 500 * time.Millisecond})
	for _, tt := range []struct{ path, err string }{
		{"/ok", ""}, {"/big", "document too large"}, {"/slow", "deadline exceeded"},
	} {
		_, err := f.Get(context.Background(), srv.URL+tt.path)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: error %v, want %q", tt.path, err, tt.err)
		}
	}
	if _, err := f.Get(context.Background(), "file:///nonexistent/page.html"); err == nil {
		t.Error("missing file gave no error")
	}
}
