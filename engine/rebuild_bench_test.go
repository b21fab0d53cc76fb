package engine_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// BenchmarkRebuild measures an hourly refresh: a build an hour after the snapshot it
// replaces, of the same dataset with 2% of its gigs edited, 1% added and 1% removed (the
// bench's refresh run), with that snapshot as Prev. Besides the wall time it reports
// the process's CPU time per build (cpu-ns/op, where getrusage is), which a machine
// shared with other work leaves as it is; with GOMAXPROCS=1 it is one core's work.
func BenchmarkRebuild(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) {
			ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now})
			prev, err := engine.Build(ds, engine.Options{Now: now})
			if err != nil {
				b.Fatal(err)
			}
			scale.Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 7}.Apply(ds)
			opt := engine.Options{Now: now.Add(time.Hour), Prev: prev}
			var s *engine.Snapshot
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
