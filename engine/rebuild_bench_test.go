package engine_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// BenchmarkRebuild measures an hourly refresh: a build an hour after the snapshot it
// replaces, of the same dataset with 2% of its gigs edited, 1% added and 1% removed (the
// bench's refresh run), with that snapshot as Prev.
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
			for b.Loop() {
				b.StopTimer()
				s = nil
				runtime.GC()
				b.StartTimer()
				if s, err = engine.Build(ds, opt); err != nil {
					b.Fatal(err)
				}
			}
			runtime.KeepAlive(s)
		})
	}
}
