package loader

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/source"
)

// TestRefreshMetrics feeds reports to the refresh metrics as the loader would and checks
// the exposition: builds by result, each source's series, and a removed source's series
// gone after a reload.
func TestRefreshMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	m.Sources([]string{"tixhub", "venue-a", "venue-new"})
	// Before the first refresh, a source's failures are at zero: an alert on their
	// increase sees the first one.
	if got := testutil.ToFloat64(m.fetches.WithLabelValues("venue-new", "failed")); got != 0 || testutil.CollectAndCount(m.fetches) != 6 {
		t.Fatalf("before the first refresh: %d fetch series, venue-new failed %v", testutil.CollectAndCount(m.fetches), got)
	}
	m.Observe(Report{
		Sources: []SourceReport{
			{Name: "tixhub", Events: 120, LastSuccess: at},
			{Name: "venue-a", Events: 8, Err: errors.New("503"), Stale: true, LastSuccess: at.Add(-time.Hour),
				Dropped: []source.Drop{{Ref: "x"}, {Ref: "y"}}},
			{Name: "venue-new", Err: errors.New("404")},
		},
		Fetch: fetch.Stats{Requests: 10, NotModified: 4, BytesWire: 5000}, Duration: 2 * time.Second,
	}, nil)
	m.Observe(Report{ // after a reload without venue-a and venue-new; refused
		Sources: []SourceReport{{Name: "tixhub", Events: 121, LastSuccess: at.Add(time.Hour)}},
		Fetch:   fetch.Stats{Requests: 3, BytesWire: 100}, Duration: time.Second,
	}, errors.New("snapshot not published: gigs fell"))
	want := `
# HELP gigs_snapshot_builds_total Refreshes, by result: published, or failed (not built, or refused by the sanity checks; the previous snapshot keeps serving).
# TYPE gigs_snapshot_builds_total counter
gigs_snapshot_builds_total{result="failed"} 1
gigs_snapshot_builds_total{result="published"} 1
# HELP gigs_source_fetches_total Fetches of each source, by result: ok, or failed (an error, or a sharp shrink taken for a broken page).
# TYPE gigs_source_fetches_total counter
gigs_source_fetches_total{result="failed",source="tixhub"} 0
gigs_source_fetches_total{result="ok",source="tixhub"} 2
# HELP gigs_source_events Events each source contributed to the last refresh (its last good ones when stale).
# TYPE gigs_source_events gauge
gigs_source_events{source="tixhub"} 121
# HELP gigs_source_last_success_timestamp_seconds When each source last answered with events that were used, in Unix seconds; 0 when it never has.
# TYPE gigs_source_last_success_timestamp_seconds gauge
gigs_source_last_success_timestamp_seconds{source="tixhub"} 1.7955252e+09
# HELP gigs_fetch_requests_total HTTP requests sent to upstreams: every attempt, redirect and robots.txt.
# TYPE gigs_fetch_requests_total counter
gigs_fetch_requests_total 13
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gigs_snapshot_builds_total", "gigs_source_fetches_total",
		"gigs_source_events", "gigs_source_last_success_timestamp_seconds", "gigs_fetch_requests_total"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(m.srcStale); n != 1 {
		t.Errorf("%d stale series after the reload, want tixhub's only", n)
	}

	// Before the reload: the failing sources, one never successful.
	reg = prometheus.NewRegistry()
	m = NewMetrics(reg)
	m.Observe(Report{Sources: []SourceReport{
		{Name: "venue-a", Events: 8, Err: errors.New("503"), Stale: true, LastSuccess: at, LastError: "503", LastErrorAt: at,
			Dropped: []source.Drop{{Ref: "x", Reason: "venue without a name"}, {Ref: "y", Reason: `not music: the source classifies it as "Sports"`},
				{Ref: "z", Reason: "venue without a name"}}},
		{Name: "venue-new", Err: errors.New("404")},
	}}, nil)
	for _, tt := range []struct {
		metric prometheus.Collector
		want   float64
	}{
		{m.srcStale.WithLabelValues("venue-a"), 1},
		{m.srcStale.WithLabelValues("venue-new"), 0},
		{m.srcSuccess.WithLabelValues("venue-new"), 0},
		{m.srcSuccess.WithLabelValues("venue-a"), float64(at.Unix())},
		{m.srcDropped.WithLabelValues("venue-a", "no_venue"), 2},
		{m.srcDropped.WithLabelValues("venue-a", "not_music"), 1},
		{m.srcLastErr.WithLabelValues("venue-a"), float64(at.Unix())},
		{m.srcLastErr.WithLabelValues("venue-new"), 0},
		{m.fetches.WithLabelValues("venue-new", "failed"), 1},
	} {
		if got := testutil.ToFloat64(tt.metric); got != tt.want {
			t.Errorf("%v = %v, want %v", tt.metric, got, tt.want)
		}
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %+v", err, problems)
	}
}
