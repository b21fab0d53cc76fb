package loader

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/testkit/demo"
	"github.com/gigs/gigs/testkit/fixture"
)

// corpusDay is the day the test corpora are generated for; runs start at corpusNow.
var (
	corpusDay = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	corpusNow = corpusDay.Add(9 * time.Hour)
)

// clock is a settable time source, safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// servedCorpus is a demo corpus on disk, served by a fixture server on a real listener,
// and a loader whose sources read it through that server as their proxy, with its gig ids
// kept in a file.
type servedCorpus struct {
	dir    string
	fx     *fixture.Server
	clock  *clock
	live   *engine.Live
	loader *Loader
	srcs   []Source
	cfg    *Config
	stats  func() fetch.Stats
}

// serveCorpus generates revision rev of the demo corpus into a new directory and serves it.
// Stalling sites answer after 300ms, well within the fetcher's patience, so that a slow
// machine cannot make a healthy site fail.
func serveCorpus(t *testing.T, rev int) *servedCorpus {
	t.Helper()
	c := &servedCorpus{dir: t.TempDir(), clock: &clock{t: corpusNow}}
	c.generate(t, rev)
	fx, env, err := fixture.OpenDemo(c.dir, fixture.Options{Stall: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c.fx = fx
	ts := httptest.NewServer(fx)
	t.Cleanup(ts.Close)
	proxy, err := ProxyFunc(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	// Politeness and patience at test speed: refreshes here follow each other at once, so a
	// site's Retry-After may hold its host off for 50ms, not the minute production allows.
	fc := fetch.New(fetch.Options{Proxy: proxy, MinGap: time.Millisecond, HeaderTimeout: 5 * time.Second,
		Timeout: 5 * time.Second, RetryBase: 5 * time.Millisecond, RetryMax: 20 * time.Millisecond,
		MaxRetryAfter: 50 * time.Millisecond})
	t.Cleanup(fc.CloseIdleConnections)
	cfg, err := ReadConfig(filepath.Join(c.dir, "sources.json"))
	if err != nil {
		t.Fatal(err)
	}
	c.cfg = cfg
	if c.srcs, err = Sources(cfg, fc, func(k string) string { return env[k] }, c.clock.Now); err != nil {
		t.Fatal(err)
	}
	c.stats = fc.Stats
	c.restart(t)
	return c
}

// restart replaces the loader with a new one that reads the id store and last good events
// the old one saved, as gigsd does when it starts again, and a new, empty Live.
func (c *servedCorpus) restart(t *testing.T) {
	t.Helper()
	ids, err := OpenIDStore(filepath.Join(c.dir, "data", "gig-ids"))
	if err != nil {
		t.Fatal(err)
	}
	lastGood, err := OpenLastGood(filepath.Join(c.dir, "data", "last-good"))
	if err != nil {
		t.Fatal(err)
	}
	c.live = &engine.Live{}
	c.loader = New(Options{Sources: c.srcs, IDs: ids, LastGood: lastGood, Stats: c.stats, Live: c.live, Now: c.clock.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// generate writes revision rev of the corpus in place: files that do not change keep
// their modification times, so the fixture server answers 304 for them.
func (c *servedCorpus) generate(t *testing.T, rev int) {
	t.Helper()
	if _, err := demo.Generate(c.dir, demo.Options{Today: corpusDay, Seed: 1, Revision: rev}); err != nil {
		t.Fatal(err)
	}
}

// concert is one entry of expected-merges.json: the truth about one concert.
type concert struct {
	ID      string
	Start   string // venue-local "2006-01-02T15:04", or a date when the time is to be announced
	Zone    string
	Status  engine.Status
	Records []struct{ Source, Ref string }
}

// concerts reads the corpus's expected-merges.json, by record.
func (c *servedCorpus) concerts(t *testing.T) map[recordRef]*concert {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.dir, "expected-merges.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Concerts []*concert }
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	out := map[recordRef]*concert{}
	for _, k := range m.Concerts {
		for _, r := range k.Records {
			out[recordRef{r.Source, r.Ref}] = k
		}
	}
	return out
}

// recordRef names a source record as expected-merges.json does.
type recordRef struct{ source, ref string }

func (r *record) ref() recordRef { return recordRef{r.ev.Source, r.ev.Ref} }
