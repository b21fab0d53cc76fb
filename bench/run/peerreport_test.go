package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestPeerReport: each peer page is judged against gigsd's own figure for it (the page
// against the page, near+q against the near+q discovery row), and the report shows the
// schema and both statements; a run without a peer says why.
func TestPeerReport(t *testing.T) {
	rates := func(xs ...float64) []wrkResult {
		out := make([]wrkResult, len(xs))
		for i, x := range xs {
			out[i].ReqPerSec = x
		}
		return out
	}
	own := sizeResult{Gigs: 1_000_000, Page: rates(7000, 8000, 9000), PagePath: "/v1/gigs?city=x",
		Discovery: []discoveryRow{{Name: "q, one common word, and a city", Own: rates(1)}, {Name: nearQName, Own: rates(3000, 4000, 5000)}},
		NearQ:     peerAnswer{Path: "/v1/gigs?near=1,2&q=w&radius=25km"}}
	r := &report{Mode: modes["peer"], PeerPage: own, PeerRows: 1_000_000, Peer: &pgResult{Version: "PostgreSQL 15.x",
		Schema: pgSchema(), Pages: []pgMeasure{
			{Name: "page", TPS: []float64{900, 1000, 1100}, LatencyMS: []float64{1, 2, 3}, SQL: "SELECT page", Command: "pgbench page"},
			{Name: "near+q", TPS: []float64{90, 100, 110}, LatencyMS: []float64{1, 2, 3}, SQL: "SELECT nearq", Command: "pgbench nearq"}}}}
	for _, c := range []struct {
		what, measured string
		met            bool
	}{
		{"vs PostgreSQL 15, same page as JSON (1M gigs)", "8.0× (8000 vs 1000 per s)", false},
		{"near+q page: gigs vs PostgreSQL+PostGIS, same page as JSON, run for each request (1M gigs)", "40.0× (4000 vs 100 per s)", true},
	} {
		found := false
		for _, g := range r.peerGoals() {
			if g.What == c.what {
				found = true
				if g.Measured != c.measured || g.Met != c.met {
					t.Errorf("%s: %q met %v, want %q met %v", c.what, g.Measured, g.Met, c.measured, c.met)
				}
			}
		}
		if !found {
			t.Errorf("no goal %q in %+v", c.what, r.peerGoals())
		}
	}
	var b strings.Builder
	r.peerMarkdown(func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) })
	for _, want := range []string{"| near+q | **100** (90–110) | **2.00** (1.00–3.00) | **4000** (3000–5000) |",
		"| page | **1000** (900–1100) |", "CREATE INDEX gigs_tsv ON gigs USING gin (tsv);", "CREATE INDEX venues_pos ON venues USING gist (pos);",
		"SELECT nearq;", "- near+q: `pgbench nearq`", "near=1,2&q=w"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the peer's section lacks %q:\n%s", want, b.String())
		}
	}

	r.Peer, r.PeerErr = nil, "no PostGIS"
	for _, g := range r.peerGoals() {
		if g.Met || !strings.Contains(g.Measured, "not measured: no PostGIS") {
			t.Errorf("without a peer: %+v", g)
		}
	}
}
