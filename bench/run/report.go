package main

import (
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// report is everything one bench run measured.
type report struct {
	Mode     mode
	Started  time.Time
	Took     time.Duration
	Commit   string   // the commit of the working tree the bench runs in
	Machine  []string // lines describing the machine and the versions
	Sizes    []sizeResult
	Swap     swapResult
	Refresh  refreshResult
	Peer     *pgResult
	PeerRows int
	PeerPage sizeResult // the gigsd figures the peer is compared with
	PeerErr  string
	Commands []string // one of each kind of command run
}

// command records a command line the first time its kind is seen.
func (r *report) command(kind, line string) {
	for _, c := range r.Commands {
		if strings.HasPrefix(c, kind+": ") {
			return
		}
	}
	r.Commands = append(r.Commands, kind+": "+line)
}

// first returns the first line a command prints, or what went wrong.
func first(name string, args ...string) string {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil && len(out) == 0 {
		return name + ": " + err.Error()
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// machine describes the machine and the versions of what the bench runs, gigsd's at the
// commit given.
func machine(gigsd, commit string) []string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return []string{
		fmt.Sprintf("CPU: %s, %d logical CPUs; server pinned to CPU %d, load tool to CPU %d", model, runtime.NumCPU(), serverCPU, loadCPU),
		"Kernel: " + first("uname", "-sr"),
		"Go: " + runtime.Version() + "; gigsd " + gigsd + " at " + commit,
		"wrk: " + first("wrk", "-v"),
	}
}

// stats is min, median and max.
func stats(xs []float64) (lo, mid, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	return slices.Min(xs), median(xs), slices.Max(xs)
}

func fmtRange(xs []float64, unit string, scale float64, prec int) string {
	lo, mid, hi := stats(xs)
	f := func(v float64) string { return fmt.Sprintf("%.*f", prec, v/scale) }
	if len(xs) == 1 {
		return f(mid) + unit
	}
	return fmt.Sprintf("**%s**%s (%s–%s)", f(mid), unit, f(lo), f(hi))
}

func p50s(rs []wrkResult) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = float64(r.P50) / float64(time.Millisecond)
	}
	return out
}

func p99s(rs []wrkResult) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = float64(r.P99) / float64(time.Millisecond)
	}
	return out
}

func durationsMS(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = float64(d) / float64(time.Millisecond)
	}
	return out
}

// goal is one line of the goals table.
type goal struct {
	What, Target, Measured string
	Met                    bool
}

// goals judges the goals on the goals size (the largest when it is missing).
func (r *report) goals() []goal {
	var g *sizeResult
	for i := range r.Sizes {
		if r.Sizes[i].Gigs == r.Mode.GoalsSize || g == nil {
			g = &r.Sizes[i]
		}
	}
	if g == nil {
		return r.refreshGoals()
	}
	small := &r.Sizes[0]
	at := fmt.Sprintf(" (%s gigs)", count(g.Gigs))
	var out []goal
	page, ceiling := median(rates(g.Page)), median(rates(g.Ceiling))
	out = append(out, goal{"filtered `/v1/gigs` page vs the ceiling" + at, "≥ 85%",
		fmt.Sprintf("%.0f%% (%.0f vs %.0f req/s)", 100*page/ceiling, page, ceiling), page >= 0.85*ceiling})
	run, runCeiling := median(rates(g.PageRun)), median(rates(g.RunCeiling))
	out = append(out, goal{"the same filtered query run for each request (no memo) vs the ceiling" + at, "≥ 90%",
		fmt.Sprintf("%.0f%% (%.0f vs %.0f req/s)", 100*run/runCeiling, run, runCeiling), run >= 0.9*runCeiling})
	mixRate, mixCeiling := median(rates(g.Mix)), median(rates(g.MixCeiling))
	out = append(out, goal{"mix vs the static server answering the same 1,000 requests" + at, "≥ 80%",
		fmt.Sprintf("%.0f%% (%.0f vs %.0f req/s)", 100*mixRate/mixCeiling, mixRate, mixCeiling), mixRate >= 0.8*mixCeiling})
	if g != small {
		smallMix := median(rates(small.Mix))
		out = append(out, goal{fmt.Sprintf("mix at %s vs at %s gigs", count(g.Gigs), count(small.Gigs)), "≥ 0.9×",
			fmt.Sprintf("%.2f× (%.0f vs %.0f req/s)", mixRate/smallMix, mixRate, smallMix), mixRate >= 0.9*smallMix})
	}
	if gz := median(rates(g.PageGzip)); gz > 0 {
		out = append(out, goal{"the same page gzip-compressed vs identity" + at, "≥ 85%",
			fmt.Sprintf("%.0f%% (%.0f vs %.0f req/s; %d bytes vs %d)", 100*gz/page, gz, page, g.GzipBytes, g.PageBytes), gz >= 0.85*page})
	}
	for _, d := range g.Discovery {
		if d.Goal == 0 {
			continue
		}
		own, ceil := median(rates(d.Own)), median(rates(d.Ceiling))
		out = append(out, goal{d.Name + ", run for each request, vs its ceiling" + at, fmt.Sprintf("≥ %.0f%%", 100*d.Goal),
			fmt.Sprintf("%.0f%% (%.0f vs %.0f req/s)", 100*own/ceil, own, ceil), own >= d.Goal*ceil})
	}
	if t := g.Typeahead; len(t.Half) > 0 {
		tp99 := median(p99s(t.Half))
		out = append(out, goal{"typeahead `" + t.Path + "`, p99 at half of its peak load" + at, "≤ 1 ms",
			fmt.Sprintf("%.2f ms at %.0f req/s (peak %.0f req/s)", tp99, median(rates(t.Half)), median(rates(t.Peak))), tp99 <= 1})
	}
	hp99 := median(p99s(g.Half))
	out = append(out, goal{"p99 at half of peak load" + at, "≤ 2 ms",
		fmt.Sprintf("%.2f ms at %.0f req/s", hp99, median(rates(g.Half))), hp99 <= 2})
	p50big, p50small := median(p50s(g.Half)), median(p50s(small.Half))
	out = append(out, goal{fmt.Sprintf("p50 at %s vs at %s gigs (half load)", count(g.Gigs), count(small.Gigs)), "≤ 1.5×",
		fmt.Sprintf("%.2f× (%.3f vs %.3f ms)", p50big/p50small, p50big, p50small), p50big <= 1.5*p50small})
	gbs := median(rates(g.Export)) * float64(g.ExportRaw) / 1e9
	out = append(out, goal{"export, JSON delivered" + at, "≥ 2 GB/s",
		fmt.Sprintf("%.1f GB/s (%.1f downloads/s of %.0f MB, %.0f MB/s gzip on the wire)", gbs, median(rates(g.Export)),
			float64(g.ExportRaw)/1e6, median(wireRates(g.Export))/1e6), gbs >= 2})
	fb := median(durationsMS(g.FirstByte))
	out = append(out, goal{"export, first byte" + at, "< 1 ms", fmt.Sprintf("%.2f ms (median of %d)", fb, len(g.FirstByte)), fb < 1})
	out = append(out, r.peerGoals()...)
	out = append(out, goal{"build" + at, "≤ 15 s", fmt.Sprintf("%.2f s (and %.2f s to read the dataset file)", g.Build.Seconds(), g.Read.Seconds()), g.Build <= 15*time.Second})
	built, after := float64(g.StartRSS)/float64(g.ExportRaw), float64(g.RSS)/float64(g.ExportRaw)
	out = append(out, goal{"resident memory vs the export's raw JSON, once built and after the runs" + at, "≤ 2.5×",
		fmt.Sprintf("%.2f× and %.2f× (%.0f MB once built, %.0f MB after the runs, %.0f MB peak; export %.0f MB)", built, after,
			float64(g.StartRSS)/1e6, float64(g.RSS)/1e6, float64(g.PeakRSS)/1e6, float64(g.ExportRaw)/1e6), built <= 2.5 && after <= 2.5})
	restart := median(durationsMS(g.Restart))
	out = append(out, goal{"restart to the first page served, from the snapshot file" + at, "≤ 1 s",
		fmt.Sprintf("%.0f ms (median of %d; the file written in %.1f s)", restart, len(g.Restart), g.SnapshotWrite.Seconds()),
		len(g.Restart) > 0 && restart <= 1000})
	out = append(out, r.refreshGoals()...)
	if r.Mode.Swaps == 0 { // the peer mode's
		return out
	}
	failed := r.Swap.Load.Non2xx + r.Swap.Load.SocketErrs
	out = append(out, goal{fmt.Sprintf("failed requests across %d swaps under load (%s gigs)", r.Mode.Swaps, count(r.Swap.Gigs)), "0",
		fmt.Sprintf("%d failed of %d, %d swaps seen", failed, r.Swap.Load.Requests, r.Swap.Swaps), failed == 0 && r.Swap.Swaps >= r.Mode.Swaps})
	sp99 := float64(r.Swap.Load.P99) / float64(time.Millisecond)
	out = append(out, goal{fmt.Sprintf("p99 of the mix while snapshots are rebuilt and swapped (%s gigs)", count(r.Swap.Gigs)), "≤ 50 ms",
		fmt.Sprintf("%.1f ms at %.0f req/s", sp99, r.Swap.Load.ReqPerSec), sp99 <= 50})
	return out
}

// refreshGoals judges the refresh run, when there was one: the rebuild, and what its
// follower downloaded for it and when it answered from it.
func (r *report) refreshGoals() []goal {
	f := r.Refresh
	if f.Gigs == 0 {
		return nil
	}
	at := fmt.Sprintf(" (%s gigs)", count(f.Gigs))
	changed := 100 * float64(f.Edited+f.Added+f.Removed) / float64(f.Gigs)
	w := f.Follow
	share := float64(w.Downloaded) / float64(w.Whole)
	return []goal{
		{fmt.Sprintf("rebuild after %.0f%% of gigs changed, one core", changed) + at, "≤ 3 s",
			fmt.Sprintf("%.2f s (the first build %.2f s; read %.2f s)", f.Build.Seconds(), f.FirstBuild.Seconds(), f.Read.Seconds()), f.Build <= 3*time.Second},
		{"bytes a follower downloads for that refresh, of the whole snapshot object" + at, "≤ 5%",
			fmt.Sprintf("%.2f%% (%.2f of %.2f MB; deltas applied: %d, fallbacks to the whole object: %d)", 100*share, float64(w.Downloaded)/1e6,
				float64(w.Whole)/1e6, w.Deltas, w.Fallbacks), share <= 0.05},
		{"a follower applying it, from its publication to the first answer from it" + at, "≤ 1 s",
			fmt.Sprintf("%.2f s (the manifest read every %s)", w.Apply.Seconds(), w.Every), w.Apply <= time.Second},
	}
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

func wireRates(rs []wrkResult) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.BytesPerSec
	}
	return out
}

func count(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// write writes report.md and chart.svg into dir.
func (r *report) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if len(r.Sizes) > 0 {
		if err := os.WriteFile(filepath.Join(dir, "chart.svg"), []byte(r.chart()), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(r.markdown()), 0o644)
}

func (r *report) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("# gigs bench report (%s mode)", r.Mode.Name)
	w("")
	if r.Mode.Runs > 0 {
		w("%s, %s. Each figure is the median of %d runs of %s, with min–max in brackets.", r.Started.UTC().Format("2006-01-02 15:04 UTC"),
			r.Took.Round(time.Second), r.Mode.Runs, r.Mode.Dur)
	} else {
		w("%s, %s.", r.Started.UTC().Format("2006-01-02 15:04 UTC"), r.Took.Round(time.Second))
	}
	w("")
	for _, m := range r.Machine {
		w("- %s", m)
	}
	if r.Peer != nil {
		w("- PostgreSQL: %s", r.Peer.Version)
	}
	w("")
	w("## Goals")
	w("")
	w("| goal | target | measured | met |")
	w("|---|---|---|---|")
	for _, g := range r.goals() {
		met := "**no**"
		if g.Met {
			met = "yes"
		}
		w("| %s | %s | %s | %s |", g.What, g.Target, g.Measured, met)
	}
	w("")
	if len(r.Sizes) > 0 { // the refresh mode measures no size
		w("## Throughput and latency by dataset size")
		w("")
		w("![throughput and p99 against dataset size](chart.svg)")
		w("")
		w("| gigs | build | mix req/s | mix p50 / p99 ms | mix static req/s | mix/static | static p50 / p99 ms | page req/s | ceiling req/s | page/ceiling | page run req/s | its ceiling req/s | run/ceiling | page gzip req/s | gzip/identity | half load req/s | half p50 / p99 ms | export downloads/s | first byte ms | RSS MB | export MB |")
		w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
		for _, s := range r.Sizes {
			w("| %s | %.2f s | %s | %s / %s | %s | %.0f%% | %s / %s | %s | %s | %.0f%% | %s | %s | %.0f%% | %s | %.0f%% | %s | %s / %s | %s | %s | %.0f | %.1f |", count(s.Gigs), s.Build.Seconds(),
				fmtRange(rates(s.Mix), "", 1, 0), fmtRange(p50s(s.Mix), "", 1, 2), fmtRange(p99s(s.Mix), "", 1, 2),
				fmtRange(rates(s.MixCeiling), "", 1, 0), 100*median(rates(s.Mix))/median(rates(s.MixCeiling)),
				fmtRange(p50s(s.MixCeiling), "", 1, 2), fmtRange(p99s(s.MixCeiling), "", 1, 2),
				fmtRange(rates(s.Page), "", 1, 0), fmtRange(rates(s.Ceiling), "", 1, 0), 100*median(rates(s.Page))/median(rates(s.Ceiling)),
				fmtRange(rates(s.PageRun), "", 1, 0), fmtRange(rates(s.RunCeiling), "", 1, 0), 100*median(rates(s.PageRun))/median(rates(s.RunCeiling)),
				fmtRange(rates(s.PageGzip), "", 1, 0), 100*median(rates(s.PageGzip))/median(rates(s.Page)),
				fmtRange(rates(s.Half), "", 1, 0), fmtRange(p50s(s.Half), "", 1, 3), fmtRange(p99s(s.Half), "", 1, 3),
				fmtRange(rates(s.Export), "", 1, 1), fmtRange(durationsMS(s.FirstByte), "", 1, 2), float64(s.RSS)/1e6, float64(s.ExportRaw)/1e6)
		}
		w("")
		w("### Discovery queries")
		w("")
		w("Each run for every request (sent with `Cache-Control: no-cache`, which the page memo never answers), against a ceiling serving the bytes gigsd answered for it, side by side in each run.")
		w("")
		w("| gigs | query | path | gigs on the page / total | bytes | gigsd req/s | ceiling req/s | gigsd/ceiling |")
		w("|---|---|---|---|---|---|---|---|")
		for _, s := range r.Sizes {
			for _, d := range s.Discovery {
				w("| %s | %s | `%s` | %d / %d | %d | %s | %s | %.0f%% |", count(s.Gigs), d.Name, d.Path, d.Gigs, d.Total, d.Bytes,
					fmtRange(rates(d.Own), "", 1, 0), fmtRange(rates(d.Ceiling), "", 1, 0), 100*median(rates(d.Own))/median(rates(d.Ceiling)))
			}
		}
		w("")
		w("### Typeahead")
		w("")
		w("`/v1/artists` with `q` the three letters that begin the most words of the artists' names and a page of 10, at full load, then at about half of that rate (as the page's half load), and the ceiling server answering the same bytes under that half load (the same connections and delay): the p99 the machine and the load give without gigsd.")
		w("")
		w("| gigs | path | total | req/s | p50 / p99 ms | half load req/s | half p50 / p99 ms | ceiling, half: p50 / p99 ms |")
		w("|---|---|---|---|---|---|---|---|")
		for _, s := range r.Sizes {
			t := s.Typeahead
			w("| %s | `%s` | %d | %s | %s / %s | %s | %s / %s | %s / %s |", count(s.Gigs), t.Path, t.Total, fmtRange(rates(t.Peak), "", 1, 0),
				fmtRange(p50s(t.Peak), "", 1, 3), fmtRange(p99s(t.Peak), "", 1, 3), fmtRange(rates(t.Half), "", 1, 0),
				fmtRange(p50s(t.Half), "", 1, 3), fmtRange(p99s(t.Half), "", 1, 3),
				fmtRange(p50s(t.CeilingHalf), "", 1, 3), fmtRange(p99s(t.CeilingHalf), "", 1, 3))
		}
		w("")
		w("- **mix**: 1,000 requests in turn — filtered `/v1/gigs` pages weighted by city size (55%%), deep pages (15%%), `/v1/gigs/{id}` (17%%), venue pages (5%%), `/v1/gigs` (5%%), small directories (3%%); testkit/mix makes it. **mix static**: the same 1,000 requests, in the same order, against a static fasthttp server (the ceiling's) answering each with the status, headers and body gigsd answered, recorded once per dataset: the limit of this design, an answer already known. Each run loads the static server, then gigsd.")
		if len(r.Sizes) > 0 {
			w("- **page**: one filtered page, `%s` (the largest city, a 30-day range), against gigsd and against the **ceiling**, a minimal fasthttp server answering the same headers and body.", r.Sizes[0].PagePath)
			w("- **page run**: the same query with its range from now (no `from`: `%s`), sent with `Cache-Control: no-cache`, so that gigsd runs it for every request, against a ceiling of its own answering the bytes gigsd answered for it (a range from now holds other gigs than the page's); the page above, its range given, is answered from gigsd's page memo once asked (docs/operations.md).", r.Sizes[0].PageRunPath)
		}
		w("- **half load**: the page at about half of its peak rate (wrk waits 1 ms between a connection's requests; the connection count is calibrated by one run).")
		w("- **export**: `/v1/gigs/download` with `Accept-Encoding: gzip`, 4 connections; JSON delivered = downloads/s × the raw JSON's size. First byte: 20 downloads from the bench process.")
		w("- **RSS**: gigsd's resident memory after the runs (`VmRSS`); the goals line also gives it once the first snapshot is served.")
		w("- **restart**: gigsd stopped and started again on the same data directory, timed from the process's start to the page served from its snapshot file (then killed before its own rebuild ends).")
		w("")
	}
	if r.Swap.Gigs > 0 {
		w("## Swaps under load")
		w("")
		s := r.Swap
		w("%s gigs rebuilt and swapped in every %s (plus the build) while the mix ran: %d snapshots published, %d requests, %.0f req/s, p99 %.2f ms, %d non-2xx, %d socket errors.",
			count(s.Gigs), s.Refresh, s.Swaps, s.Load.Requests, s.Load.ReqPerSec, float64(s.Load.P99)/float64(time.Millisecond), s.Load.Non2xx, s.Load.SocketErrs)
		if len(s.Failed) > 0 {
			keys := slices.Sorted(maps.Keys(s.Failed))
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = fmt.Sprintf("%s: %d", k, s.Failed[k])
			}
			w("By route and status, from gigsd's metrics: %s.", strings.Join(parts, ", "))
		}
		w("")
	}
	if f := r.Refresh; f.Gigs > 0 {
		w("## Refresh")
		w("")
		w("gigsd serving %s gigs from a dataset file, refreshed every %s on one core and publishing each snapshot to a directory bucket (`-publish`); once its first snapshot was published and a follower gigsd (`-follow`, on the other core) served it, the file was replaced by the same gigs with %d edited (a day later, dearer), %d added and %d removed (testkit/scale Churn). gigsd's own log of the rebuild that read it: read %.2f s, build %.2f s (the first build of the data before: read %.2f s, build %.2f s). The rebuild is today's (engine.Build, the served snapshot as its Prev).",
			count(f.Gigs), f.Every, f.Edited, f.Added, f.Removed, f.Read.Seconds(), f.Build.Seconds(), f.FirstRead.Seconds(), f.FirstBuild.Seconds())
		w("")
		fw := f.Follow
		as := fmt.Sprintf("as a delta of %.1f MB", float64(fw.Delta)/1e6)
		if fw.Delta == 0 {
			as = "whole, with no delta"
		}
		w("The follower first downloaded the whole snapshot object (%.1f MB, zstd). gigsd published the rebuild in %.2f s, %s; the follower, reading the manifest every %s, downloaded %.1f MB for it (`gigs_follow_downloaded_bytes_total`; deltas applied: %d, fallbacks to the whole object: %d) and first answered from it (its `/v1/meta` data_version, asked every %s) %.2f s after the manifest's publication time.",
			float64(fw.Whole)/1e6, fw.Upload.Seconds(), as, fw.Every, float64(fw.Downloaded)/1e6, fw.Deltas, fw.Fallbacks, followPoll, fw.Apply.Seconds())
		if fw.Stages != "" {
			w("")
			w("The follower's poll that served it, by step (its log): %s.", fw.Stages)
		}
		w("")
	}
	r.peerMarkdown(w)
	w("## Commands")
	w("")
	w("```")
	for _, c := range r.Commands {
		w("%s", c)
	}
	w("```")
	return b.String()
}

// chart draws mix throughput and mix p99 against dataset size (log scale), side by side.
func (r *report) chart() string {
	var b strings.Builder
	const W, H, pad = 360, 240, 50
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", 2*W+20, H+40)
	panel := func(x0 int, title, unit string, ys []float64) {
		fmt.Fprintf(&b, `<g transform="translate(%d,10)"><text x="%d" y="12" font-weight="bold">%s</text>`+"\n", x0, pad, title)
		top := 0.0
		for _, y := range ys {
			top = math.Max(top, y)
		}
		top = niceCeil(top)
		xs := make([]float64, len(r.Sizes))
		for i, s := range r.Sizes {
			xs[i] = math.Log10(float64(s.Gigs))
		}
		lo, hi := slices.Min(xs)-0.3, slices.Max(xs)+0.3
		px := func(x float64) float64 { return pad + (x-lo)/(hi-lo)*(W-pad-10) }
		py := func(y float64) float64 { return H - 20 - y/top*(H-50) }
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/><line x1="%d" y1="30" x2="%d" y2="%d" stroke="#333"/>`+"\n", pad, H-20, W-10, H-20, pad, pad, H-20)
		for i := 0; i <= 4; i++ {
			v := top * float64(i) / 4
			fmt.Fprintf(&b, `<text x="%d" y="%.0f" text-anchor="end">%s</text><line x1="%d" y1="%.0f" x2="%d" y2="%.0f" stroke="#ddd"/>`+"\n",
				pad-4, py(v)+4, trim(v), pad, py(v), W-10, py(v))
		}
		var pts []string
		for i, s := range r.Sizes {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(xs[i]), py(ys[i])))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#1f6feb"/><text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n",
				px(xs[i]), py(ys[i]), px(xs[i]), H-6, count(s.Gigs))
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#1f6feb">%s</text>`+"\n", px(xs[i]), py(ys[i])-7, trim(ys[i]))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#1f6feb" stroke-width="2"/>`+"\n", strings.Join(pts, " "))
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" fill="#555">gigs (log) · %s</text></g>`+"\n", W-10, H+28, unit)
	}
	var thr, p99 []float64
	for _, s := range r.Sizes {
		thr = append(thr, median(rates(s.Mix)))
		p99 = append(p99, median(p99s(s.Mix)))
	}
	panel(0, "request mix: throughput", "req/s", thr)
	panel(W+20, "request mix: p99 latency", "ms", p99)
	b.WriteString("</svg>\n")
	return b.String()
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func trim(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
