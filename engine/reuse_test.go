package engine_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestRebuildReuse edits a dataset step by step as refreshes find it changed, and builds
// each step with the snapshot of the step before as Prev: the snapshot file of the build
// that reuses Prev is byte for byte the file of a build that renders and compresses every
// gig (the same ledger), and so is a build whose Prev was read back from its file. Gigs
// whose input did not change are taken from Prev unrendered, at least want of them.
func TestRebuildReuse(t *testing.T) {
	n := 3000
	if raceEnabled {
		n = 400
	}
	start := time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)
	ds := scale.Generate(scale.Config{Gigs: n, Seed: 3, Now: start, Days: 60})
	r := rand.New(rand.NewPCG(5, 6))
	pick := func() *engine.Gig { return &ds.Gigs[r.IntN(len(ds.Gigs))] }
	steps := []struct {
		name  string
		after time.Duration // since the step before
		edit  func()
		want  float64 // the least share of the gigs taken unrendered
	}{
		{"nothing changed", time.Hour, func() {}, 1},
		{"churn", time.Hour, func() { scale.Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 9}.Apply(ds) }, 0.9},
		{"every field of some gigs", time.Hour, func() {
			for k := range n / 50 {
				g := pick()
				switch k % 9 {
				case 0:
					g.Title += " (extra show)"
				case 1:
					g.Status = engine.StatusCancelled
				case 2:
					g.End = g.Start.Add(3 * time.Hour)
				case 3:
					g.OnSale = start.Add(-time.Hour)
				case 4:
					g.Image = fmt.Sprintf("https://img.example/%d.jpg", k)
				case 5:
					g.MinAge, g.HasMinAge = 18, true
				case 6:
					g.Sources = append(g.Sources[:len(g.Sources):len(g.Sources)], engine.Attribution{Name: "extra", URL: "https://extra.example/"})
				case 7:
					if len(g.Artists) > 0 {
						g.Artists = append([]engine.Billing(nil), g.Artists...)
						g.Artists[0].Headliner = !g.Artists[0].Headliner
					}
				case 8:
					g.TimeTBA = !g.TimeTBA
				}
			}
		}, 0.9},
		{"a venue, a city and an artist renamed", time.Hour, func() {
			ds.Venues[r.IntN(len(ds.Venues))].Name += " Hall"
			ds.Cities[r.IntN(len(ds.Cities))].Name += " City"
			ds.Artists[r.IntN(len(ds.Artists))].Name += " & Band"
			ds.Genres[0].Name += " Music" // in no gig's body
		}, 0.5},
		{"merged gigs", time.Hour, func() {
			for range 5 {
				i := r.IntN(len(ds.Gigs) - 1)
				ds.Merges = append(ds.Merges, engine.Merge{From: ds.Gigs[i].ID, Into: ds.Gigs[i+1].ID})
				ds.Gigs = append(ds.Gigs[:i:i], ds.Gigs[i+1:]...)
			}
		}, 0.9},
		{"two days later, past gigs gone", 48 * time.Hour, func() {}, 0.9},
		{"ids alike in their first 8 bytes, at one time", time.Hour, func() {
			for k := range 30 {
				g := &ds.Gigs[k]
				g.ID, g.Start, g.TimeTBA = fmt.Sprintf("samepfx-%03d", k), start.AddDate(0, 0, 20), false
			}
		}, 0.9},
		{"and the first of them gone, some edited", time.Hour, func() {
			ds.Gigs = ds.Gigs[1:]
			for k := range 10 {
				ds.Gigs[k].Title += " (moved)"
			}
		}, 0.9},
		{"gigs shuffled in the dataset", time.Hour, func() {
			r.Shuffle(len(ds.Gigs), func(i, j int) { ds.Gigs[i], ds.Gigs[j] = ds.Gigs[j], ds.Gigs[i] })
		}, 1},
	}
	dir := t.TempDir()
	now := start
	prev, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	for k, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.edit()
			now = now.Add(step.after)
			file := func(name string, prev *engine.Snapshot, build func(*engine.Dataset, engine.Options) (*engine.Snapshot, error)) (*engine.Snapshot, []byte) {
				t.Helper()
				s, err := build(ds, engine.Options{Now: now, Prev: prev})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				path := filepath.Join(dir, fmt.Sprintf("%d-%s", k, name))
				if err := s.WriteFile(path); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				return s, b
			}
			reused, err := engine.ReusedGigs(ds, engine.Options{Now: now, Prev: prev})
			if err != nil {
				t.Fatal(err)
			}
			next, got := file("reused", prev, engine.Build)
			if min := int(step.want * float64(next.Len())); reused < min {
				t.Errorf("%d of %d gigs taken from prev unrendered, want %d at least", reused, next.Len(), min)
			}
			_, want := file("fresh", prev, engine.BuildFresh)
			if !bytes.Equal(got, want) {
				t.Errorf("the snapshot file reusing prev (%d bytes) differs from the file of a fresh build (%d bytes)", len(got), len(want))
			}
			read, err := engine.ReadSnapshotFile(filepath.Join(dir, fmt.Sprintf("%d-prev", k)))
			if err == nil {
				_, fromFile := file("from prev's file", read, engine.Build)
				if !bytes.Equal(fromFile, want) {
					t.Errorf("the snapshot file built on prev read from its file differs from the file built on prev")
				}
			} else if !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := next.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-prev", k+1))); err != nil {
				t.Fatal(err)
			}
			prev = next
		})
	}
}
