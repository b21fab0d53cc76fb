package demo

import (
	"math"
	"math/rand/v2"
	"strings"
)

// What revision 1, "an hour later", changes.
const (
	editShare       = 0.015 // of upcoming gigs on pages: the title edited
	rescheduleCount = 12    // shows moved one to five weeks later; the page gives previousStartDate
	cancelCount     = 10
	newEventCount   = 10
	retitledShare   = 0.08 // of the changed platform's listings
	repricedShare   = 0.05
	droppedCount    = 3 // listings the changed platform drops (their concerts keep other records)
	addedCount      = 6 // gigs the changed platform starts listing
)

// revise turns the corpus into revision 1. Only gigs of pages that identify their events
// (iCal UIDs, JSON-LD @id, microdata itemid) move or appear, so every other event keeps
// its position on its page and with it its ref; no residency changes. Of the platforms only
// changedPlatform changes: it follows the venues' moves and cancellations, retitles and
// reprices some listings, drops a few and adds a few.
func (c *corpus) revise(r *rand.Rand) {
	touched := map[*gig]bool{} // lookups only
	var upcoming []*gig
	for _, v := range c.venues {
		for _, g := range v.gigs {
			if g.onPage && g.series == nil && dayIndex(c.today, g.start) >= 1 {
				upcoming = append(upcoming, g)
			}
		}
	}
	upcoming = shuffled(r, upcoming)
	take := func(n int, ok func(*gig) bool) []*gig {
		var out []*gig
		for _, g := range upcoming {
			if len(out) == n {
				break
			}
			if !touched[g] && ok(g) {
				touched[g] = true
				out = append(out, g)
			}
		}
		return out
	}
	stable := func(v *venue) bool { return v.site.format == iCal || v.site.ids != idNone }

	for _, g := range take(rescheduleCount, func(g *gig) bool {
		return stable(g.venue) && g.status == scheduled && !g.dateOnly && !g.misdated && g.name == "" && !g.plain &&
			g.partner == nil && g.kind == evening && dayIndex(c.today, g.start) < horizon-60
	}) {
		night := dayIndex(c.today, g.start)
		days := 7 + r.IntN(29)
		for !c.freeNight(g.acts, night+days) {
			days++
		}
		g.previous, g.status, g.edited = g.start, rescheduled, true
		g.start = g.start.AddDate(0, 0, days)
		if !g.doors.IsZero() {
			g.doors = g.doors.AddDate(0, 0, days)
		}
		if !g.end.IsZero() {
			g.end = g.end.AddDate(0, 0, days)
		}
		for _, a := range g.acts {
			if a.rank < len(c.diary) {
				c.diary.add(a, night+days, g.venue.city)
			}
		}
		if l := g.listingOn(changedPlatform); l != nil {
			c.setWhen(r, changedPlatform, &l.l, g, g.start)
			l.l.Status = "rescheduled"
			l.l.URL = listingURL(changedPlatform, l.l)
		}
	}
	for _, g := range take(cancelCount, func(g *gig) bool { return g.status == scheduled && g.name == "" && !g.misdated }) {
		g.status, g.edited = cancelled, true
		if l := g.listingOn(changedPlatform); l != nil {
			l.l.Status = "cancelled"
		}
	}
	for _, g := range take(int(math.Round(editShare*float64(len(upcoming)))), func(g *gig) bool { return g.name == "" && g.status == scheduled }) {
		t := baseTitle(g)
		g.name, g.edited = pick(r, []string{
			t + " – Album Release Show",
			t + " + Special Guests",
			"An Evening with " + t,
			strings.ToUpper(t[:1]) + t[1:] + " (Extra Date)",
		}), true
	}
	c.addNewEvents(r, stable)
	c.changePlatform(r, touched)
	for _, v := range c.venues {
		sortGigs(v)
	}
}

// addNewEvents adds newEventCount shows of local acts to working sites that identify their
// events; half go on changedPlatform too.
func (c *corpus) addNewEvents(r *rand.Rand, stable func(*venue) bool) {
	vs := shuffled(r, c.venuesWhere(func(v *venue) bool { return v.site != nil && v.site.fault == noFault && stable(v) }))
	for i, v := range vs[:min(newEventCount, len(vs))] {
		day := c.freeDay(r, v, 5, 150)
		if day < 0 {
			continue
		}
		n := v.style.firstID
		for _, g := range v.gigs {
			n = max(n, g.n+1)
		}
		act := c.local()
		g := &gig{venue: v, n: n, start: c.at(v, day, v.style.usual), acts: []*artist{act}, kind: evening, onPage: true, edited: true}
		setTimes(g)
		g.tickets = price(r, g)
		c.concerts++
		g.concert = c.concerts
		v.gigs = append(v.gigs, g)
		if i%2 == 0 {
			c.addListing(r, changedPlatform, g, "")
		}
	}
}

// changePlatform retitles, reprices, drops and adds listings of changedPlatform.
func (c *corpus) changePlatform(r *rand.Rand, touched map[*gig]bool) {
	var mine []*listing
	var owners []*gig
	var unlisted []*gig
	for _, v := range c.venues {
		for _, g := range v.gigs {
			l := g.listingOn(changedPlatform)
			switch {
			case l != nil:
				mine = append(mine, l)
				owners = append(owners, g)
			case g.onPage && g.series == nil && dayIndex(c.today, g.start) >= 1 && !touched[g]:
				unlisted = append(unlisted, g)
			}
		}
	}
	for _, i := range r.Perm(len(mine))[:int(math.Round(retitledShare*float64(len(mine))))] {
		l := &mine[i].l
		switch r.IntN(3) {
		case 0:
			l.Name = strings.ToUpper(l.Name)
		case 1:
			if !strings.HasPrefix(l.Name, "SOLD OUT") {
				l.Name = "SOLD OUT: " + l.Name
			}
			l.SoldOut = true
		default:
			l.Name += " – Last Tickets"
		}
		l.URL = listingURL(changedPlatform, *l)
	}
	for _, i := range r.Perm(len(mine))[:int(math.Round(repricedShare*float64(len(mine))))] {
		l := &mine[i].l
		if l.HasPrice {
			l.PriceMin = math.Round(l.PriceMin*110) / 100
			l.PriceMax = math.Round(l.PriceMax*110) / 100
		}
	}
	dropped := 0
	for _, i := range r.Perm(len(mine)) {
		if dropped == droppedCount {
			break
		}
		g := owners[i]
		if len(g.listings) < 2 && !g.onPage {
			continue // its only record
		}
		g.dropListing(changedPlatform)
		dropped++
	}
	for _, g := range shuffled(r, unlisted)[:min(addedCount, len(unlisted))] {
		c.addListing(r, changedPlatform, g, "")
	}
}

// listingOn returns g's listing on platform p, or nil.
func (g *gig) listingOn(p int) *listing {
	for _, l := range g.listings {
		if l.p == p {
			return l
		}
	}
	return nil
}

// dropListing removes g's listing on platform p.
func (g *gig) dropListing(p int) {
	for i, l := range g.listings {
		if l.p == p {
			g.listings = append(g.listings[:i:i], g.listings[i+1:]...)
			return
		}
	}
}
