// Command run is the maintainers' bench suite (make bench, make bench-full). It starts a
// real gigsd on loopback, pinned to one CPU, serving synthetic datasets of several sizes,
// and loads it with wrk pinned to the other CPU: a realistic mix of reads, one filtered
// page, the same page at half the peak rate, the export, and a rebuild after a few percent
// of the gigs changed, published to a bucket and taken by a follower gigsd. Side by side in
// the same run it measures a ceiling (a minimal fasthttp server answering the same bytes)
// and a peer (PostgreSQL 15 building the same page as JSON, driven by pgbench), counts
// failed requests across snapshot swaps under load, and writes a Markdown report with a
// chart.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"
)

// mode sizes a bench run.
type mode struct {
	Name      string
	Sizes     []int         // datasets, gigs
	Runs      int           // runs of each measurement; figures are min/median/max
	Dur       time.Duration // each wrk run
	SwapSize  int           // the dataset rebuilt under load
	Swaps     int           // swaps to see under load
	PeerSize  int           // the dataset PostgreSQL is loaded with; 0: no peer
	GoalsSize int           // the dataset the goals are judged on
	// RefreshSize is the dataset rebuilt after a few percent of its gigs changed (0: no
	// refresh run), refreshed every RefreshEvery: long enough for the first snapshot to
	// be written to its file, published, and downloaded by a follower before the rebuild
	// begins.
	RefreshSize  int
	RefreshEvery time.Duration
}

var modes = map[string]mode{
	// smoke: make test's check that the suite runs end to end; its figures mean little.
	"smoke": {Name: "smoke", Sizes: []int{2_000}, Runs: 1, Dur: time.Second, SwapSize: 2_000, Swaps: 3, GoalsSize: 2_000,
		RefreshSize: 2_000, RefreshEvery: 10 * time.Second},
	"quick": {Name: "quick", Sizes: []int{10_000, 100_000}, Runs: 3, Dur: 5 * time.Second, SwapSize: 10_000, Swaps: 20,
		PeerSize: 100_000, GoalsSize: 100_000, RefreshSize: 100_000, RefreshEvery: 30 * time.Second},
	"full": {Name: "full", Sizes: []int{10_000, 100_000, 1_000_000}, Runs: 3, Dur: 10 * time.Second, SwapSize: 1_000_000, Swaps: 20,
		PeerSize: 1_000_000, GoalsSize: 1_000_000, RefreshSize: 1_000_000, RefreshEvery: 2 * time.Minute},
	// refresh: full mode's refresh run alone (a few minutes).
	"refresh": {Name: "refresh", RefreshSize: 1_000_000, RefreshEvery: 2 * time.Minute},
	// peer: full mode's 1M gigs and its PostgreSQL peer, without the swaps and the refresh
	// (about 25 minutes); its swaps goals measure nothing.
	"peer": {Name: "peer", Sizes: []int{1_000_000}, Runs: 3, Dur: 10 * time.Second, PeerSize: 1_000_000, GoalsSize: 1_000_000},
}

func main() {
	modeName := flag.String("mode", "quick", "smoke, quick (10k and 100k gigs), full (adds 1M), refresh (the rebuild of 1M gigs after a few percent changed and a follower taking it, alone) or peer (1M gigs and PostgreSQL, without swaps and refresh)")
	out := flag.String("out", "var/bench", "directory for the report (report.md, chart.svg) and the work files")
	gigsd := flag.String("gigsd", "bin/gigsd", "the gigsd binary to measure")
	history := flag.String("history", "", "append a row of this run's goals to this Markdown file (make bench: bench/history.md)")
	note := flag.String("note", "", "a note for the run's row in -history (what changed, what else ran)")
	ceilingBody := flag.String("ceiling", "", "internal: serve this response file as the ceiling server")
	ceilingAddr := flag.String("ceiling-addr", "", "internal: the ceiling server's listen address")
	flag.Parse()
	if *ceilingBody != "" {
		if err := serveCeiling(*ceilingBody, *ceilingAddr); err != nil {
			fmt.Fprintln(os.Stderr, "ceiling:", err)
			os.Exit(1)
		}
		return
	}
	m, ok := modes[*modeName]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown -mode %q: smoke, quick, full, refresh or peer\n", *modeName)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	self, err := os.Executable()
	if err == nil {
		var rep *report
		rep, err = bench(ctx, m, benchConfig{Gigsd: *gigsd, Out: *out, Self: self, Log: os.Stderr})
		if err == nil {
			err = rep.write(*out)
		}
		if err == nil && *history != "" {
			err = appendHistory(*history, rep, *note)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Println("report:", filepath.Join(*out, "report.md"))
}
