package loader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/testkit/emulator"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestPlatformPagingForever pages a platform forever, at the fetcher's polite pace (4 pages
// a second), with a timeout of 2 s in the sources file: the refresh publishes within
// seconds, the platform failing over its time budget with its last good events kept, the
// venue beside it fresh; the failure is in the report, the log and the metrics, and a
// check of the source alone (gigsctl sources check, gigsd -check) stops there too. Before
// budgets counted a source's own pace, the platform's waits for its gaps stopped its
// clock, and only the cap of 2,000 requests (500 s) ended it.
func TestPlatformPagingForever(t *testing.T) {
	plat := &emulator.Endless{}
	plat.Finite.Store(true)
	up := httptest.NewServer(plat)
	defer up.Close()
	feeds := newFeedServer(t)
	feeds.set("/venue.ics", calendar(vevent("a", "Wet Leg", "20261205T200000Z", "")))
	var logs bytes.Buffer
	l, live := loaderOver(t, fmt.Sprintf(`{"platforms": [{"name": "forever", "kind": "continuation", "url": %q,
			"credential_env": "FOREVER_KEY", "timeout": "2s"}],
		"venues": [{"name": "venue-garage", "format": "ical", "url": %q, "venue": {"name": "The Garage", "city": "London", "country": "GB"}}]}`,
		up.URL+"/v3/events", feeds.URL+"/venue.ics"), Options{}, fetch.Options{})
	l.o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	m.Sources(sourceNames(l.o.Sources))
	if _, err := l.RunOnce(t.Context()); err != nil || live.Load().Len() != 4 {
		t.Fatalf("first refresh: %v", err)
	}

	plat.Finite.Store(false)
	before := plat.Pages.Load()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	start := time.Now()
	rep, err := l.RunOnce(ctx)
	took := time.Since(start)
	if err != nil || !rep.Published {
		t.Fatalf("the refresh did not publish: %v", err)
	}
	if took > 10*time.Second {
		t.Errorf("the refresh took %v with a source's timeout of 2s", took)
	}
	if pages := plat.Pages.Load() - before; pages < 4 || pages > 40 {
		t.Errorf("%d pages fetched in %v", pages, took)
	}
	sr := rep.Sources[1] // venues first
	if !errors.Is(sr.Err, ErrOverBudget) || !strings.Contains(sr.Err.Error(), "took longer than 2s (its timeout") || !sr.Stale || sr.Events != 3 {
		t.Errorf("the platform: %+v", sr)
	}
	if v := rep.Sources[0]; v.Err != nil || v.Events != 1 {
		t.Errorf("the venue: %+v", v)
	}
	if n := live.Load().Len(); n != 4 {
		t.Errorf("%d gigs, want the platform's last good 3 and the venue's", n)
	}
	l.logRun(rep, err)
	m.Observe(rep, err)
	if !strings.Contains(logs.String(), "source failed") || !strings.Contains(logs.String(), "over its time budget") {
		t.Errorf("the log:\n%s", logs.String())
	}
	if got := testutil.ToFloat64(m.srcTimeouts.WithLabelValues("forever")); got != 1 {
		t.Errorf("gigs_source_timeouts_total{source=forever} = %v", got)
	}
	if got := testutil.ToFloat64(m.srcTimeouts.WithLabelValues("venue-garage")); got != 0 {
		t.Errorf("gigs_source_timeouts_total{source=venue-garage} = %v", got)
	}

	start = time.Now()
	res := Check(ctx, l.o.Sources[1], CheckOptions{Now: noon})
	if took := time.Since(start); !errors.Is(res.Report.Err, ErrOverBudget) || took > 10*time.Second {
		t.Errorf("the check took %v: %v", took, res.Report.Err)
	}
}

// TestTimeoutConfig reads a source's timeout from the sources file: a Go duration from 1s
// to 1h, DefaultTimeout when absent, on venues and platforms alike.
func TestTimeoutConfig(t *testing.T) {
	for _, tt := range []struct {
		timeout string // JSON value, "" for none
		want    time.Duration
		err     string
	}{
		{"", DefaultTimeout, ""},
		{`"90s"`, 90 * time.Second, ""},
		{`"1h"`, time.Hour, ""},
		{`"500ms"`, 0, "timeout 500ms must be from 1s to 1h"},
		{`"2h"`, 0, "timeout 2h0m0s must be from 1s to 1h"},
		{`"-5s"`, 0, "timeout -5s must be from 1s to 1h"},
		{`"soon"`, 0, `"soon" is not a duration`},
		{`120`, 0, `a duration is a string`},
	} {
		t.Run(tt.timeout, func(t *testing.T) {
			field := ""
			if tt.timeout != "" {
				field = `, "timeout": ` + tt.timeout
			}
			for _, cfg := range []string{
				`{"venues": [{"name": "v", "format": "ical", "url": "https://v.example/feed.ics"` + field + `}]}`,
				`{"platforms": [{"name": "p", "kind": "hal", "url": "https://p.example/events", "credential_env": "P_KEY"` + field + `}]}`,
			} {
				path := t.TempDir() + "/sources.json"
				if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
					t.Fatal(err)
				}
				c, err := ReadConfig(path)
				if tt.err != "" {
					if err == nil || !strings.Contains(err.Error(), tt.err) {
						t.Errorf("%s: %v, want %q", cfg, err, tt.err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				srcs, err := Sources(c, fetch.New(fetch.Options{Contact: "ops@gigs.example"}), func(string) string { return "k" }, time.Now)
				if err != nil {
					t.Fatal(err)
				}
				if got := srcs[0].Timeout; got != tt.want {
					t.Errorf("%s: timeout %v, want %v", cfg, got, tt.want)
				}
			}
		})
	}
}
