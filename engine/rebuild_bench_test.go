package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// refreshOf returns the bench's refresh of n gigs: the dataset with 2% of its gigs
// edited, 1% added and 1% removed, and the options of its build an hour after the
// snapshot of the dataset before, which they name as Prev.
func refreshOf(b *testing.B, n int) (*engine.Dataset, engine.Options) {
	ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now})
	prev, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		b.Fatal(err)
	}
	scale.Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 7}.Apply(ds)
	return ds, engine.Options{Now: now.Add(time.Hour), Prev: prev}
}

// BenchmarkRebuild measures an hourly refresh: a build an hour after the snapshot it
// replaces, of the same dataset with 2% of its gigs edited, 1% added and 1% removed (the
// bench's refresh run), with that snapshot as Prev. Besides the wall time it reports
// the process's CPU time per build (cpu-ns/op, where getrusage is), which a machine
// shared with other work leaves as it is; with GOMAXPROCS=1 it is one core's work.
func BenchmarkRebuild(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) {
			ds, opt := refreshOf(b, n)
			var s *engine.Snapshot
			var err error
			var cpu time.Duration
			measured := true
			for b.Loop() {
				b.StopTimer()
				s = nil
				runtime.GC()
				before, ok := processCPU()
				b.StartTimer()
				// Labelled, so that a CPU profile of the benchmark shows the rebuilds alone
				// (go tool pprof -tagfocus build=rebuild), not its setup's first build.
				pprof.Do(context.Background(), pprof.Labels("build", "rebuild"), func(context.Context) {
					s, err = engine.Build(ds, opt)
				})
				if err != nil {
					b.Fatal(err)
				}
				after, ok2 := processCPU()
				measured = measured && ok && ok2
				cpu += after - before
			}
			runtime.KeepAlive(s)
			if measured {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkSnapshotDeltaApply measures a follower's apply of the delta of BenchmarkRebuild's
// refresh (the same datasets, builds and churn): both snapshots written to files, the
// delta between them written once, then SnapshotDelta.Apply timed, into a file as a
// follower writes it. It reports the process's CPU time per apply (cpu-ns/op) as
// BenchmarkRebuild does; the applies are labelled (go tool pprof -tagfocus apply=delta).
func BenchmarkSnapshotDeltaApply(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) {
			ds, opt := refreshOf(b, n)
			prev := opt.Prev
			next, err := engine.Build(ds, opt)
			if err != nil {
				b.Fatal(err)
			}
			dir := b.TempDir()
			pa, pb, made := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "made")
			if err := prev.WriteFile(pa); err != nil {
				b.Fatal(err)
			}
			if err := next.WriteFile(pb); err != nil {
				b.Fatal(err)
			}
			prev, next, ds, opt = nil, nil, nil, engine.Options{}
			var delta bytes.Buffer
			if err := engine.WriteSnapshotDelta(&delta, pa, pb); err != nil {
				b.Fatal(err)
			}
			if err := os.Remove(pb); err != nil {
				b.Fatal(err)
			}
			sd, err := engine.ReadSnapshotDelta(delta.Bytes())
			if err != nil {
				b.Fatal(err)
			}
			var cpu time.Duration
			measured := true
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				f, err := os.Create(made)
				if err != nil {
					b.Fatal(err)
				}
				before, ok := processCPU()
				b.StartTimer()
				pprof.Do(context.Background(), pprof.Labels("apply", "delta"), func(context.Context) {
					_, err = sd.Apply(f, pa, 1<<40)
				})
				after, ok2 := processCPU()
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if err := f.Close(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				measured = measured && ok && ok2
				cpu += after - before
			}
			if measured {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(delta.Len()), "delta-bytes")
			}
		})
	}
}
