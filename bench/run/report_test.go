package main

import (
	"strings"
	"testing"
	"time"
)

// TestRefreshReport: a run of the refresh mode alone reports its rebuild, the bytes its
// follower downloaded and the follower's apply, each against its goal, and no section of
// what it did not measure.
func TestRefreshReport(t *testing.T) {
	delta := followResult{Every: followEvery, Whole: 424_800_000, Delta: 16_900_000, Upload: 3 * time.Second,
		Downloaded: 16_900_000, Deltas: 1, Apply: 800 * time.Millisecond}
	whole := delta
	whole.Delta, whole.Downloaded, whole.Deltas, whole.Fallbacks, whole.Apply = 0, 430_000_000, 0, 1, 20*time.Second
	for _, tc := range []struct {
		name   string
		build  time.Duration
		follow followResult
		met    [3]bool // the rebuild, the bytes, the apply
		says   []string
	}{
		{"within the goals", 2 * time.Second, delta, [3]bool{true, true, true},
			[]string{"3.98% (16.90 of 424.80 MB; deltas applied: 1, fallbacks to the whole object: 0)", "0.80 s (the manifest read every 100ms)", "as a delta of 16.9 MB"}},
		{"a full rebuild, downloaded whole", 14 * time.Second, whole, [3]bool{false, false, false},
			[]string{"101.22% (430.00 of 424.80 MB; deltas applied: 0, fallbacks to the whole object: 1)", "20.00 s", "whole, with no delta"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &report{Mode: modes["refresh"], Started: time.Now(), Refresh: refreshResult{Gigs: 1_000_000, Every: time.Minute,
				Edited: 20_000, Added: 10_000, Removed: 10_000, FirstBuild: 20 * time.Second, Build: tc.build, Follow: tc.follow}}
			g := r.goals()
			if len(g) != 3 {
				t.Fatalf("goals %+v, want the refresh run's three", g)
			}
			for i, what := range []string{"rebuild after 4% of gigs changed, one core (1M gigs)",
				"bytes a follower downloads for that refresh, of the whole snapshot object (1M gigs)",
				"a follower applying it, from its publication to the first answer from it (1M gigs)"} {
				if g[i].What != what || g[i].Met != tc.met[i] {
					t.Errorf("goal %d: %q met %v, want %q met %v", i, g[i].What, g[i].Met, what, tc.met[i])
				}
			}
			md := r.markdown()
			for _, want := range append([]string{"## Refresh", "20000 edited", "## Goals", "`-follow`"}, tc.says...) {
				if !strings.Contains(md, want) {
					t.Errorf("the report lacks %q:\n%s", want, md)
				}
			}
			for _, unwanted := range []string{"## Throughput", "## Swaps under load", "median of 0 runs"} {
				if strings.Contains(md, unwanted) {
					t.Errorf("the report has %q:\n%s", unwanted, md)
				}
			}
		})
	}
}
