package engine_test

import (
	"runtime"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// heapObjects returns the live heap objects after two collections (the second empties the
// pools' victim caches).
func heapObjects() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapObjects
}

// TestSnapshotObjects holds the snapshot to what the garbage collector can mark in no time:
// gigs, keys, small postings and bodies live in flat arrays and arenas, so the objects grow
// only with the large postings' bitmap containers (one each), not with gigs, venues or
// artists. The words index's large postings (a word or prefix on more than 4,096 gigs:
// "hall", "london", "l", "lo" …) are about a hundred more at 40k gigs. The directories'
// indexes (directory.go) are a hundred or so more whatever the size: flat arrays, some
// thirty per directory. Under -race the counts move by a hundred from run to run (553 to
// 602 at 40k), so the test runs in the plain pass (make test-alloc), as allocation gates do.
func TestSnapshotObjects(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two snapshots")
	}
	if raceEnabled {
		t.Skip("-race moves the heap's object count; make test-alloc runs this without it")
	}
	var counts []uint64
	for _, n := range []int{2_000, 40_000} {
		ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now})
		if _, err := engine.Build(ds, engine.Options{Now: now}); err != nil { // warms one-time caches
			t.Fatal(err)
		}
		before := heapObjects()
		s, err := engine.Build(ds, engine.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		objects := heapObjects() - before
		runtime.KeepAlive(s)
		runtime.KeepAlive(ds)
		t.Logf("%d gigs (%d venues, %d artists): %d heap objects", n, s.Counts().Venues, s.Counts().Artists, objects)
		counts = append(counts, objects)
	}
	if counts[0] > 300 || counts[1] > 550 {
		t.Errorf("a snapshot holds %d objects at 2k gigs and %d at 40k: want at most 300 and 550", counts[0], counts[1])
	}
}
