package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// swapResult is the load run across snapshot swaps.
type swapResult struct {
	Gigs    int
	Refresh time.Duration
	Swaps   int // snapshots published during the load
	Load    wrkResult
	Command string
	// Failed counts the answers other than 2xx and 3xx by route and status, from gigsd's
	// own metrics, e.g. "/v1/gigs/{id} 404": what the load's non-2xx were.
	Failed map[string]int
}

// measureSwaps serves m.SwapSize gigs rebuilt back to back and runs the request mix for
// long enough to see m.Swaps swaps, counting the published snapshots from gigsd's metrics.
func measureSwaps(ctx context.Context, m mode, cfg benchConfig, rep *report) (swapResult, error) {
	sw := swapResult{Gigs: m.SwapSize}
	work, err := filepath.Abs(filepath.Join(cfg.Out, "work", "swaps"))
	if err != nil {
		return sw, err
	}
	// A first gigsd measures how long a build takes, for the refresh interval and the
	// length of the load run.
	sw.Refresh = 200 * time.Millisecond
	p, base, admin, _, err := startGigsd(ctx, cfg, work, m.SwapSize, sw.Refresh)
	if err != nil {
		return sw, err
	}
	defer p.stop()
	l := p.logged("dataset snapshot published", time.Minute)
	if l == nil {
		return sw, fmt.Errorf("gigsd did not log its build")
	}
	cycle := sw.Refresh + logDuration(l, "read") + logDuration(l, "build")
	paths, err := mixPaths(base, m.SwapSize)
	if err != nil {
		return sw, err
	}
	pathsFile := filepath.Join(work, "paths.txt")
	if err := writeLines(pathsFile, paths.All); err != nil {
		return sw, err
	}
	before, err := published(admin)
	if err != nil {
		return sw, err
	}
	failedBefore, err := failedAnswers(admin)
	if err != nil {
		return sw, err
	}
	// Builds share the server's CPU with the load, at a lower priority than the server's
	// (gigsd runs refreshes at niceness 5): allow for them to take three times as long.
	dur := time.Duration(float64(m.Swaps)*4*float64(cycle)) + 2*time.Second
	run := wrkRun{URL: base + "/", Paths: pathsFile, Conns: conns, Dur: dur.Round(time.Second) + time.Second, CPU: loadCPU}
	sw.Load, sw.Command, err = run.run(ctx, work)
	if err != nil {
		return sw, err
	}
	after, err := published(admin)
	if err != nil {
		return sw, err
	}
	sw.Swaps = after - before
	if sw.Failed, err = failedAnswers(admin); err != nil {
		return sw, err
	}
	for k, n := range failedBefore {
		if sw.Failed[k] -= n; sw.Failed[k] == 0 {
			delete(sw.Failed, k)
		}
	}
	rep.command("swaps", sw.Command)
	return sw, nil
}

var (
	answersRE  = regexp.MustCompile(`(?m)^gigs_http_requests_total\{code="([^"]+)",method="[^"]*",route="([^"]+)"\} (\d+)`)
	rejectedRE = regexp.MustCompile(`(?m)^gigs_connections_rejected_total\{cap="([^"]+)"\} (\d+)`)
)

// failedAnswers reads gigsd's answers other than 2xx and 3xx so far, by route and status,
// and the connections it refused over a cap (answered before any request is read).
func failedAnswers(admin string) (map[string]int, error) {
	status, body, _ := get("http://"+admin+"/metrics", nil)
	if status != 200 {
		return nil, fmt.Errorf("%s/metrics: %d", admin, status)
	}
	out := map[string]int{}
	for _, m := range answersRE.FindAllSubmatch(body, -1) {
		if code := string(m[1]); code[0] != '2' && code[0] != '3' {
			n, _ := strconv.Atoi(string(m[3]))
			out[string(m[2])+" "+code] += n
		}
	}
	for _, m := range rejectedRE.FindAllSubmatch(body, -1) {
		if n, _ := strconv.Atoi(string(m[2])); n > 0 {
			out["connections over the "+string(m[1])+" cap"] += n
		}
	}
	return out, nil
}

var publishedRE = regexp.MustCompile(`(?m)^gigs_snapshot_builds_total\{result="published"\} (\d+)`)

// published reads how many snapshots gigsd has published from its metrics.
func published(admin string) (int, error) {
	status, body, _ := get("http://"+admin+"/metrics", nil)
	m := publishedRE.FindSubmatch(body)
	if status != 200 || m == nil {
		return 0, fmt.Errorf("no gigs_snapshot_builds_total in %s/metrics (%d)", admin, status)
	}
	return strconv.Atoi(string(m[1]))
}
