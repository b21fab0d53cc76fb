package scale

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gigs/gigs/engine"
)

// Churn says what changes in a dataset between two refreshes, as fractions of its gigs.
type Churn struct {
	Edited, Added, Removed float64
	Seed                   uint64
}

// Changed is what Apply changed, by gig id.
type Changed struct {
	Edited, Added, Removed []string
}

// Apply changes ds in place as an hourly refresh would find it changed: c.Removed of its
// gigs dropped, c.Edited of the others moved a day later with their price up by 5, and
// c.Added new gigs, each a copy of a kept gig at the same venue a few hours later, with an
// id no gig had and tickets of its own. The same Churn on the same dataset makes the same changes.
func (c Churn) Apply(ds *engine.Dataset) Changed {
	r := rand.New(rand.NewPCG(c.Seed, 0xc4a11))
	n := len(ds.Gigs)
	var out Changed
	order := r.Perm(n) // the gigs in a random order: removed first, then edited
	nRemoved, nEdited := int(c.Removed*float64(n)), int(c.Edited*float64(n))
	removed := make([]bool, n)
	for _, i := range order[:nRemoved] {
		removed[i] = true
		out.Removed = append(out.Removed, ds.Gigs[i].ID)
	}
	for _, i := range order[nRemoved : nRemoved+nEdited] {
		g := &ds.Gigs[i]
		g.Start = g.Start.AddDate(0, 0, 1)
		if !g.Doors.IsZero() {
			g.Doors = g.Doors.AddDate(0, 0, 1)
		}
		g.Tickets = slices.Clone(g.Tickets)
		for k := range g.Tickets {
			if p := g.Tickets[k].PriceMin; p != nil {
				price := *p + 5
				g.Tickets[k].PriceMin = &price
			}
		}
		out.Edited = append(out.Edited, g.ID)
	}
	kept := ds.Gigs[:0:0]
	for i, g := range ds.Gigs {
		if !removed[i] {
			kept = append(kept, g)
		}
	}
	for k := range int(c.Added * float64(n)) {
		g := kept[r.IntN(len(kept))]
		g.ID = fmt.Sprintf("g%07d", n+k) // past every id Generate gave
		g.Start = g.Start.Add(time.Duration(1+r.IntN(48)) * time.Hour)
		if !g.Doors.IsZero() {
			g.Doors = g.Start.Add(-time.Hour)
		}
		g.Tickets = []engine.Ticket{{URL: "https://tickets.example/" + g.ID, Source: "platform", PriceMin: g.Tickets[0].PriceMin, Currency: "EUR", Availability: "in_stock"}}
		kept = append(kept, g)
		out.Added = append(out.Added, g.ID)
	}
	ds.Gigs = kept
	return out
}
