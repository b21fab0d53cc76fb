package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/testkit/mix"
	"github.com/gigs/gigs/testkit/scale"
)

// The CPUs: the server measured on one, the load tool on the other.
const (
	serverCPU = 0
	loadCPU   = 1
	conns     = 64 // wrk's connections at full load
)

type benchConfig struct {
	Gigsd string    // the gigsd binary
	Out   string    // work and report directory
	Self  string    // this program, re-run as the ceiling server
	Log   io.Writer // progress
}

// sizeResult is every figure measured on one dataset size.
type sizeResult struct {
	Gigs                  int
	Read, Build           time.Duration // gigsd's own log of its first snapshot
	ExportRaw, ExportGzip int64
	StartRSS              int64       // resident memory once the first snapshot is served
	RSS, PeakRSS          int64       // after the runs, and the peak
	Mix, Page, Ceiling    []wrkResult // full load
	MixCeiling            []wrkResult // the mix against the ceiling server answering its 1,000 requests
	PageGzip              []wrkResult // the page with Accept-Encoding: gzip, run after Page
	PageRun               []wrkResult // the page's query from now: run for each request, asking for no memo (noMemo)
	RunCeiling            []wrkResult // the ceiling answering the page run's own bytes (not the page's)
	PageBytes, GzipBytes  int         // the page's body, identity and gzip
	Half                  []wrkResult // the page at about half the page's peak rate
	HalfConns             int
	Export                []wrkResult
	FirstByte             []time.Duration
	PagePath, PageRunPath string
	PageIDs               []string // the page's gig ids, and its total, for the peer's check
	PageTotal             int
	Restart               []time.Duration // from gigsd's start on the same data directory to the page served
	SnapshotWrite         time.Duration   // gigsd's own log of writing its snapshot file
	Discovery             []discoveryRow  // near, sort=distance, q: each against a ceiling of its own
	Typeahead             typeaheadRow    // /v1/artists?q=<3 letters>&page_size=10, at full and half load
	NearQ                 peerAnswer      // at the peer's size: the near + q page the peer must answer
}

// runCeiling starts the ceiling server on the CPU gigsd uses, serving the answers recorded
// in file, loads it with run (whose URL is a path only: the ceiling's address goes in
// front), records the command as kind, and stops it.
func runCeiling(ctx context.Context, cfg benchConfig, work, file, kind string, run wrkRun, rep *report) (wrkResult, error) {
	caddr, err := freeAddr()
	if err != nil {
		return wrkResult{}, err
	}
	c, err := start(ctx, serverCPU, "http://"+caddr+"/readyz", time.Minute, cfg.Self, "-ceiling", file, "-ceiling-addr", caddr)
	if err != nil {
		return wrkResult{}, err
	}
	defer c.stop()
	run.URL = "http://" + caddr + run.URL
	cr, cmd, err := run.run(ctx, work)
	if err != nil {
		return wrkResult{}, err
	}
	rep.command(kind, cmd)
	return cr, nil
}

// bench measures every size of m and the swaps and peer, and returns the report.
func bench(ctx context.Context, m mode, cfg benchConfig) (*report, error) {
	commit := first("git", "rev-parse", "--short", "HEAD")
	rep := &report{Mode: m, Started: time.Now(), Commit: commit, Machine: machine(cfg.Gigsd, commit)}
	logf := func(format string, args ...any) { fmt.Fprintf(cfg.Log, "bench: "+format+"\n", args...) }
	for _, n := range m.Sizes {
		logf("%d gigs", n)
		r, err := measureSize(ctx, m, cfg, n, rep, logf)
		if err != nil {
			return nil, fmt.Errorf("%d gigs: %w", n, err)
		}
		rep.Sizes = append(rep.Sizes, r)
	}
	if m.Swaps > 0 {
		logf("%d swaps under load at %d gigs", m.Swaps, m.SwapSize)
		sw, err := measureSwaps(ctx, m, cfg, rep)
		if err != nil {
			return nil, fmt.Errorf("swaps: %w", err)
		}
		rep.Swap = sw
	}
	if m.RefreshSize > 0 {
		logf("a refresh of %d gigs after %.0f%% edited, %.0f%% added, %.0f%% removed", m.RefreshSize,
			100*refreshChurn.Edited, 100*refreshChurn.Added, 100*refreshChurn.Removed)
		var err error
		if rep.Refresh, err = measureRefresh(ctx, m, cfg); err != nil {
			return nil, fmt.Errorf("refresh: %w", err)
		}
		logf("  rebuilt in %s (read %s); the first build %s", rep.Refresh.Build, rep.Refresh.Read, rep.Refresh.FirstBuild)
		f := rep.Refresh.Follow
		logf("  a follower downloaded %d bytes for it (the whole object %d), and answered from it %s after its publication", f.Downloaded, f.Whole, f.Apply)
	}
	if m.PeerSize > 0 {
		logf("PostgreSQL at %d gigs", m.PeerSize)
		if err := measurePeer(ctx, m, cfg, rep); err != nil {
			rep.PeerErr = err.Error() // reported as it is, not hidden
		}
	}
	rep.Took = time.Since(rep.Started)
	return rep, nil
}

// startGigsd starts gigsd on a dataset file of n synthetic gigs in work, read and rebuilt
// every refresh, with limits that never throttle the load, a key for the export, and
// more flags when given. It returns the process, its base URL and admin address, and the
// key.
func startGigsd(ctx context.Context, cfg benchConfig, work string, n int, refresh time.Duration, more ...string) (*process, string, string, string, error) {
	if err := os.RemoveAll(work); err != nil {
		return nil, "", "", "", err
	}
	data := filepath.Join(work, "data")
	store, err := keys.Open(data)
	if err != nil {
		return nil, "", "", "", err
	}
	key, _, err := store.Create("bench@example.org", "bench", time.Now())
	if err != nil {
		return nil, "", "", "", err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, "", "", "", err
	}
	admin, err := freeAddr()
	if err != nil {
		return nil, "", "", "", err
	}
	dataset := filepath.Join(work, "dataset")
	if err := writeDataset(dataset, n); err != nil {
		return nil, "", "", "", err
	}
	base := "http://" + addr
	p, err := start(ctx, serverCPU, base+"/readyz", 10*time.Minute, cfg.Gigsd, append([]string{"-dataset", dataset, "-addr", addr,
		"-admin-addr", admin, "-data-dir", data, "-read-limit", "1000000000", "-export-limit", "1000000000",
		// The load tool is one address standing for many clients: no per-client connection cap.
		"-max-conns-per-client", "-1",
		"-refresh", refresh.String(), "-log-level", "info"}, more...)...)
	return p, base, admin, key, err
}

// writeDataset writes the synthetic dataset of n gigs from today on to path.
func writeDataset(path string, n int) error {
	return writeFile(path, func(f *os.File) error {
		return engine.WriteDataset(f, scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: time.Now()}))
	})
}

// writeFile creates path and writes it with write. The file is on disk and the bench's
// memory handed back before it returns, so that neither the kernel's writeback of the file
// nor the bench's own collector shares gigsd's CPU while it reads and builds.
func writeFile(path string, write func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	debug.FreeOSMemory()
	return f.Close()
}

func measureSize(ctx context.Context, m mode, cfg benchConfig, n int, rep *report, logf func(string, ...any)) (sizeResult, error) {
	r := sizeResult{Gigs: n}
	work, err := filepath.Abs(filepath.Join(cfg.Out, "work", strconv.Itoa(n)))
	if err != nil {
		return r, err
	}
	p, base, _, key, err := startGigsd(ctx, cfg, work, n, 24*time.Hour)
	if err != nil {
		return r, err
	}
	defer p.stop()
	l := p.logged("dataset snapshot published", time.Minute) // logged just after readiness
	if l == nil {
		return r, fmt.Errorf("gigsd did not log its build")
	}
	r.Read, r.Build = logDuration(l, "read"), logDuration(l, "build")
	// gigsd writes its snapshot file after the publish: wait for it, so that the writing
	// does not share the server's CPU with the runs.
	if l = p.logged("snapshot file written", 10*time.Minute); l == nil {
		return r, fmt.Errorf("gigsd did not log its snapshot file written")
	}
	r.SnapshotWrite = logDuration(l, "took")
	if r.StartRSS, _, err = p.rss(); err != nil {
		return r, err
	}
	paths, err := mixPaths(base, n)
	if err != nil {
		return r, err
	}
	pathsFile := filepath.Join(work, "paths.txt")
	if err := writeLines(pathsFile, paths.All); err != nil {
		return r, err
	}
	r.PagePath, r.PageRunPath = paths.Page, paths.PageRun
	status, body, header := get(base+paths.Page, nil)
	if status != 200 {
		return r, fmt.Errorf("%s: %d", paths.Page, status)
	}
	var page struct {
		Data []struct{ ID string }
		Meta struct{ Total int }
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return r, err
	}
	for _, g := range page.Data {
		r.PageIDs = append(r.PageIDs, g.ID)
	}
	r.PageTotal = page.Meta.Total
	ceilingFile := filepath.Join(work, "ceiling.json")
	if err := writeCeiling(ceilingFile, paths.Page, header, body); err != nil {
		return r, err
	}
	// The page run's own ceiling: its bytes are not the page's (a range from now holds
	// other gigs), and a few hundred bytes more may cost a write more.
	status, runBody, runHeader := get(base+paths.PageRun, map[string]string{"Cache-Control": "no-cache"})
	if status != 200 {
		return r, fmt.Errorf("%s: %d", paths.PageRun, status)
	}
	runCeilingFile := filepath.Join(work, "ceiling-run.json")
	if err := writeCeiling(runCeilingFile, paths.PageRun, runHeader, runBody); err != nil {
		return r, err
	}
	// The mix's ceiling: every answer gigsd gave to the mix's requests, recorded once.
	answers, err := recordAnswers(base, paths.All)
	if err != nil {
		return r, err
	}
	mixCeilingFile := filepath.Join(work, "ceiling-mix.json")
	if err := answers.write(mixCeilingFile); err != nil {
		return r, err
	}

	page1 := wrkRun{URL: base + paths.Page, Conns: conns, Dur: m.Dur, CPU: loadCPU}
	pageGzip := page1
	pageRun := page1
	pageRun.URL, pageRun.Headers = base+paths.PageRun, []string{noMemo}
	pageGzip.Headers = []string{"Accept-Encoding: gzip"}
	r.PageBytes = len(body)
	if status, zbody, _ := get(base+paths.Page, map[string]string{"Accept-Encoding": "gzip"}); status == 200 {
		r.GzipBytes = len(zbody)
	}
	load := wrkRun{URL: base + "/", Paths: pathsFile, Conns: conns, Dur: m.Dur, CPU: loadCPU}
	for range m.Runs {
		// Side by side: the ceiling, then gigsd, each run.
		cr, err := runCeiling(ctx, cfg, work, ceilingFile, "ceiling", wrkRun{URL: paths.Page, Conns: conns, Dur: m.Dur, CPU: loadCPU}, rep)
		if err != nil {
			return r, err
		}
		r.Ceiling = append(r.Ceiling, cr)
		pr, cmd, err := page1.run(ctx, work)
		if err != nil {
			return r, err
		}
		rep.command("page", cmd)
		r.Page = append(r.Page, pr)
		zr, cmd, err := pageGzip.run(ctx, work)
		if err != nil {
			return r, err
		}
		rep.command("page gzip", cmd)
		r.PageGzip = append(r.PageGzip, zr)
		rr, cmd, err := pageRun.run(ctx, work)
		if err != nil {
			return r, err
		}
		rep.command("page run", cmd)
		r.PageRun = append(r.PageRun, rr)
		rcr, err := runCeiling(ctx, cfg, work, runCeilingFile, "page run ceiling", wrkRun{URL: paths.PageRun, Conns: conns, Dur: m.Dur, CPU: loadCPU}, rep)
		if err != nil {
			return r, err
		}
		r.RunCeiling = append(r.RunCeiling, rcr)
		mcr, err := runCeiling(ctx, cfg, work, mixCeilingFile, "mix ceiling", wrkRun{URL: "/", Paths: pathsFile, Conns: conns, Dur: m.Dur, CPU: loadCPU}, rep)
		if err != nil {
			return r, err
		}
		r.MixCeiling = append(r.MixCeiling, mcr)
		mr, cmd, err := load.run(ctx, work)
		if err != nil {
			return r, err
		}
		rep.command("mix", cmd)
		r.Mix = append(r.Mix, mr)
	}
	logf("  page %.0f req/s (gzip %.0f, run %.0f), ceiling %.0f req/s (the run's %.0f), mix %.0f req/s (its ceiling %.0f)", median(rates(r.Page)), median(rates(r.PageGzip)), median(rates(r.PageRun)),
		median(rates(r.Ceiling)), median(rates(r.RunCeiling)), median(rates(r.Mix)), median(rates(r.MixCeiling)))
	if r.Discovery, err = discoveryPaths(base, paths.City); err != nil {
		return r, err
	}
	if err := measureDiscovery(ctx, m, cfg, work, base, r.Discovery, rep); err != nil {
		return r, err
	}
	for _, d := range r.Discovery {
		logf("  %s: %.0f req/s, ceiling %.0f req/s", d.Name, median(rates(d.Own)), median(rates(d.Ceiling)))
	}
	if n == m.PeerSize {
		if r.NearQ, err = recordNearQ(base, r.Discovery); err != nil {
			return r, err
		}
	}

	if r.HalfConns, r.Half, err = halfLoad(ctx, m, work, base+paths.Page, median(rates(r.Page)), rep, "half"); err != nil {
		return r, err
	}
	if r.Typeahead, err = measureTypeahead(ctx, m, cfg, work, base, rep); err != nil {
		return r, err
	}
	logf("  typeahead %s: %.0f req/s; at half load p99 %.2f ms", r.Typeahead.Path, median(rates(r.Typeahead.Peak)), median(p99s(r.Typeahead.Half)))

	// The export, compressed as clients ask for it.
	export := wrkRun{URL: base + "/v1/gigs/download", Headers: []string{"X-API-Key: " + key, "Accept-Encoding: gzip"}, Conns: 4, Dur: m.Dur, CPU: loadCPU}
	for range m.Runs {
		er, cmd, err := export.run(ctx, work)
		if err != nil {
			return r, err
		}
		rep.command("export", strings.Replace(cmd, key, "<key>", 1))
		r.Export = append(r.Export, er)
	}
	if r.ExportRaw, r.ExportGzip, r.FirstByte, err = exportFacts(base, key); err != nil {
		return r, err
	}
	if r.RSS, r.PeakRSS, err = p.rss(); err != nil {
		return r, err
	}
	r.Restart, err = measureRestarts(ctx, m, p, base+paths.Page)
	return r, err
}

// measureRestarts times gigsd's restarts on the snapshot file it wrote: from the start of
// the process to the page served, m.Runs times. Each restarted gigsd is killed once it
// served, as a crash would end it (it would otherwise finish its first rebuild first).
func measureRestarts(ctx context.Context, m mode, p *process, page string) ([]time.Duration, error) {
	p.stop()
	var out []time.Duration
	for range m.Runs {
		q, took, err := p.restart(ctx, page, time.Minute)
		if err != nil {
			return nil, err
		}
		q.kill()
		if q.logged("snapshot file served", 0) == nil {
			return nil, fmt.Errorf("the restarted gigsd did not serve its snapshot file")
		}
		out = append(out, took)
	}
	return out, nil
}

// exportFacts measures the export's sizes, and the time to its first byte over 20
// downloads (each stopped at its first byte).
func exportFacts(base, key string) (raw, gz int64, firstByte []time.Duration, err error) {
	for i := range 21 {
		req, _ := http.NewRequest("GET", base+"/v1/gigs/download", nil)
		req.Header.Set("X-API-Key", key)
		if i > 0 {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		var start, first time.Time
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotFirstResponseByte: func() { first = time.Now() },
		}))
		start = time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, 0, nil, err
		}
		if i == 0 { // the identity body: its length is the raw JSON's
			raw = resp.ContentLength
		} else {
			gz = resp.ContentLength
			firstByte = append(firstByte, first.Sub(start))
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return 0, 0, nil, fmt.Errorf("export: %d", resp.StatusCode)
		}
	}
	return raw, gz, firstByte, nil
}

// mixPaths makes the dataset's request mix (testkit/mix) from what gigsd at base lists,
// seeded by the dataset's size.
func mixPaths(base string, n int) (mix.Set, error) {
	return mix.Paths(func(path string) (int, []byte) {
		status, body, _ := get(base+path, nil)
		return status, body
	}, uint64(n), time.Now())
}

func writeLines(path string, lines []string) error {
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

func rates(rs []wrkResult) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.ReqPerSec
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
