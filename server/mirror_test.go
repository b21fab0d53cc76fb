package server

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/mirror"
	"github.com/gigs/gigs/testkit/scale"
)

// TestMirror keeps a mirror through the export and the change feed across refreshes with
// edits, a reschedule, a cancellation, a merge, removals (gone, and past as days go by),
// a new gig and an identical refresh, and checks it against a fresh export each time: the
// same gigs, byte for byte, at the same cursor.
func TestMirror(t *testing.T) {
	f := newExportFixture(t, 1<<30, 0)
	m := &mirror.Mirror{Key: f.a, Get: func(path string, header map[string]string) (int, []byte) {
		r := do(t, "GET", f.base+path, header)
		return r.status, r.body
	}}
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	exportTag := func() string {
		return do(t, "HEAD", f.base+"/v1/gigs/download", map[string]string{"X-API-Key": f.a}).header.Get("ETag")
	}
	tag := exportTag()
	ds := scale.Generate(scale.Config{Gigs: 400, Seed: 42, Now: testNow, Days: 60}) // testSnapshot's
	prev := f.snap
	byID := func(id string) *engine.Gig {
		for i := range ds.Gigs {
			if ds.Gigs[i].ID == id {
				return &ds.Gigs[i]
			}
		}
		t.Fatalf("no gig %s", id)
		return nil
	}
	ids := slices.Sorted(maps.Keys(m.Gigs))
	for i, step := range []struct {
		name    string
		at      time.Duration
		edit    func()
		changes bool
	}{
		{"edits", time.Hour, func() {
			byID(ids[0]).Title += " (sold out)"
			g := byID(ids[1])
			g.PreviousStart, g.Start, g.Status = g.Start, g.Start.AddDate(0, 0, 9), engine.StatusRescheduled
			byID(ids[2]).Status = engine.StatusCancelled
			ds.Merges = []engine.Merge{{From: ids[3], Into: ids[4]}}
			byID(ids[4]).Sources = append(byID(ids[4]).Sources, byID(ids[3]).Sources...)
			gone := []string{ids[3], ids[5]}
			ds.Gigs = slices.DeleteFunc(ds.Gigs, func(g engine.Gig) bool { return slices.Contains(gone, g.ID) })
			g = byID(ids[6])
			extra := *g
			extra.ID, extra.Start = "g-new-1", g.Start.Add(2*time.Hour)
			ds.Gigs = append(ds.Gigs, extra)
		}, true},
		{"a day later", 26 * time.Hour, func() { byID(ids[7]).Title += " (moved upstairs)" }, true},
		{"nothing changed", 27 * time.Hour, func() {}, false},
	} {
		step.edit()
		s, err := engine.Build(ds, engine.Options{Now: testNow.Add(step.at), Prev: prev})
		if err != nil {
			t.Fatal(err)
		}
		f.live.Publish(s)
		prev = s
		if step.at > 24*time.Hour && s.Tombstones() <= 2 {
			t.Errorf("%s: %d tombstones; the first day's gigs should be past", step.name, s.Tombstones())
		}
		applied, err := m.Follow(3)
		if err != nil {
			t.Fatal(err)
		}
		if changed := len(applied) > 0; changed != step.changes {
			t.Errorf("%s: changes applied %v", step.name, applied)
		}
		if stale, err := m.Check(); err != nil || stale {
			t.Fatalf("refresh %d (%s): stale %v, %v", i+1, step.name, stale, err)
		}
		if changed := exportTag() != tag; changed != step.changes {
			t.Errorf("%s: export ETag changed %v", step.name, changed)
		}
		tag = exportTag()
	}
	if m.Pages < 3 {
		t.Errorf("%d change pages read: the test does not page", m.Pages)
	}
}
