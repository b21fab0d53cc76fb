package main

import (
	"strings"
	"testing"
	"time"
)

// TestRefreshReport: a run of the refresh mode alone reports its rebuild against the goal,
// and no section of what it did not measure.
func TestRefreshReport(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build time.Duration
		met   bool
	}{
		{"within the goal", 2 * time.Second, true},
		{"a full rebuild", 14 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &report{Mode: modes["refresh"], Started: time.Now(), Refresh: refreshResult{Gigs: 1_000_000, Every: time.Minute,
				Edited: 20_000, Added: 10_000, Removed: 10_000, FirstBuild: 20 * time.Second, Build: tc.build}}
			g := r.goals()
			if len(g) != 1 || !strings.HasPrefix(g[0].What, "rebuild after 4% of gigs changed, one core (1M gigs)") || g[0].Met != tc.met {
				t.Fatalf("goals %+v, want the rebuild's alone, met %v", g, tc.met)
			}
			md := r.markdown()
			for _, want := range []string{"## Refresh", "20000 edited", "## Goals"} {
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
