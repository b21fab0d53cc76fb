package engine_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestBuildIgnoresDatasetOrder checks that a snapshot does not depend on the order of its
// dataset's gigs, which a build renders in that order before placing them by start: the
// same gigs as generated and shuffled give the snapshot of the same gigs sorted by start
// (nearly the snapshot's order), built first, and rebuilt two days later (past gigs
// dropped, some edited, some gone) on the first as built and as read from its file.
func TestBuildIgnoresDatasetOrder(t *testing.T) {
	// Four Ps: the build renders on three goroutines, so that -race sees them.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	ordered := func(ds *engine.Dataset) map[string]*engine.Dataset {
		sorted, shuffled := *ds, *ds
		sorted.Gigs = slices.Clone(ds.Gigs)
		slices.SortStableFunc(sorted.Gigs, func(a, b engine.Gig) int { return a.Start.Compare(b.Start) })
		shuffled.Gigs = slices.Clone(ds.Gigs)
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled.Gigs), func(i, j int) {
			shuffled.Gigs[i], shuffled.Gigs[j] = shuffled.Gigs[j], shuffled.Gigs[i]
		})
		return map[string]*engine.Dataset{"sorted": &sorted, "as generated": ds, "shuffled": &shuffled}
	}
	ds := scale.Generate(scale.Config{Gigs: 9_000, Seed: 5, Now: now, Days: 40}) // three chunks of rendering
	first := map[string]*engine.Snapshot{}
	for name, d := range ordered(ds) {
		first[name] = buildAt(t, d, now, nil)
	}
	for _, name := range []string{"as generated", "shuffled"} {
		sameSnapshot(t, "first build, "+name, ds, first[name], first["sorted"])
	}

	edited := *ds
	edited.Gigs = slices.Clone(ds.Gigs)
	for i := range edited.Gigs {
		if i%7 == 0 {
			edited.Gigs[i].Title += ", edited"
		}
	}
	edited.Gigs = edited.Gigs[:len(edited.Gigs)-100] // and some gone
	later := now.Add(50 * time.Hour)
	for prevName, prev := range map[string]*engine.Snapshot{"as built": first["sorted"], "from its file": roundTrip(t, first["sorted"])} {
		var want *engine.Snapshot
		var wantFeed []string
		for _, name := range []string{"sorted", "as generated", "shuffled"} {
			got := buildAt(t, ordered(&edited)[name], later, prev)
			feed, _ := changes(t, got, first["sorted"].Cursor(), 10_000)
			if want == nil {
				want, wantFeed = got, summary(feed)
				kinds := map[string]int{}
				for _, c := range wantFeed {
					kinds[strings.Fields(c)[0]]++
				}
				// Every gig was in the first build: none is created; the edited ones kept
				// (a seventh, less the past ones) are updated.
				if got.Len() >= len(edited.Gigs) || kinds["created"] != 0 || kinds["updated"] < got.Len()/8 || kinds["updated"] > got.Len()/6 {
					t.Fatalf("rebuild on the snapshot %s: %d of %d gigs kept, changes %v: past gigs should go, only edits show",
						prevName, got.Len(), len(edited.Gigs), kinds)
				}
				continue
			}
			what := "rebuild on the snapshot " + prevName + ", " + name
			sameSnapshot(t, what, &edited, got, want)
			if got.Cursor() != want.Cursor() || !slices.Equal(summary(feed), wantFeed) {
				t.Errorf("%s: cursor %v and %d changes, want %v and %d", what, got.Cursor(), len(feed), want.Cursor(), len(wantFeed))
			}
		}
	}
}
