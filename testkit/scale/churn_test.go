package scale

import (
	"slices"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
)

func TestChurnApply(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name                   string
		gigs                   int
		churn                  Churn
		edited, added, removed int
	}{
		{"the bench's refresh", 2000, Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 1}, 40, 20, 20},
		{"nothing changed", 500, Churn{Seed: 2}, 0, 0, 0},
		{"only removals", 500, Churn{Removed: 0.1, Seed: 3}, 0, 0, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := Generate(Config{Gigs: tc.gigs, Seed: 1, Now: now})
			ds := Generate(Config{Gigs: tc.gigs, Seed: 1, Now: now})
			ch := tc.churn.Apply(ds)
			if len(ch.Edited) != tc.edited || len(ch.Added) != tc.added || len(ch.Removed) != tc.removed {
				t.Fatalf("changed %d edited, %d added, %d removed; want %d, %d, %d", len(ch.Edited), len(ch.Added), len(ch.Removed), tc.edited, tc.added, tc.removed)
			}
			if again := Generate(Config{Gigs: tc.gigs, Seed: 1, Now: now}); !slices.Equal(tc.churn.Apply(again).Edited, ch.Edited) {
				t.Error("the same churn edited other gigs")
			}
			old := map[string]engine.Gig{}
			for _, g := range before.Gigs {
				old[g.ID] = g
			}
			ids := map[string]engine.Gig{}
			for _, g := range ds.Gigs {
				if _, dup := ids[g.ID]; dup {
					t.Fatalf("id %s twice", g.ID)
				}
				ids[g.ID] = g
			}
			if len(ds.Gigs) != tc.gigs-tc.removed+tc.added {
				t.Errorf("%d gigs, want %d", len(ds.Gigs), tc.gigs-tc.removed+tc.added)
			}
			for _, id := range ch.Removed {
				if _, ok := ids[id]; ok {
					t.Errorf("removed %s is still there", id)
				}
			}
			for _, id := range ch.Added {
				if _, ok := old[id]; ok {
					t.Errorf("added %s was there before", id)
				}
			}
			for _, id := range ch.Edited {
				if g := ids[id]; !g.Start.Equal(old[id].Start.AddDate(0, 0, 1)) || *g.Tickets[0].PriceMin != *old[id].Tickets[0].PriceMin+5 {
					t.Errorf("edited %s: start %s, price %v", id, g.Start, *g.Tickets[0].PriceMin)
				}
			}
			if _, err := engine.Build(ds, engine.Options{Now: now}); err != nil {
				t.Fatalf("the changed dataset does not build: %v", err)
			}
		})
	}
}
