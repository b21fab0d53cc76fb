package demo

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// status is a gig's schema.org eventStatus.
type status int

const (
	scheduled status = iota
	cancelled
	postponed
	rescheduled
)

// availability is a ticket offer's schema.org availability.
type availability int

const (
	inStock availability = iota
	limited
	soldOut
)

// gig is one concert: a show at a venue, as its venue page lists it when it has one.
type gig struct {
	venue    *venue
	n        int       // number on the venue's site, in its @id; set by numberGigs
	start    time.Time // in the venue's zone
	dateOnly bool      // the time is to be announced
	doors    time.Time // zero when not stated
	end      time.Time // zero when not stated
	status   status
	previous time.Time // the earlier start of a postponed or rescheduled show
	acts     []*artist // billing order, headliner first
	label    string    // "Early Show", "Late Show" or ""
	kind     slotKind
	tickets  *tickets // nil when the listing has no offers

	plain    bool       // must stay as booked: a DST edge case or a past show
	onPage   bool       // the venue's own site lists it
	name     string     // the title when it is not title(g): tributes, residencies, edits
	misdated bool       // the page gives an after-midnight show the previous evening's date
	series   *residency // the weekly residency whose occurrence it is, or nil
	concert  int        // the concert number of expected-merges.json, from 1
	listings []*listing // the platforms that list it
	listed   bool       // platforms must list it: an adversarial case or a show no site lists
	partner  *gig       // the other show of an early and late pair
	edited   bool       // revision 1 changed it on the venue's site
}

// tickets are a gig's prices in the venue's currency.
type tickets struct {
	low, high float64
	avail     availability
}

// makeGigs turns booked slots into gigs on their venues' gig lists. Slots without acts are
// skipped. today is midnight UTC of the corpus day.
func makeGigs(r *rand.Rand, slots []*slot, today time.Time) {
	var all, open []*gig // open: not plain, so free to get a status or lose their time
	for _, s := range slots {
		if len(s.acts) == 0 {
			continue
		}
		var first *gig
		for _, start := range startTimes(r, s, today) {
			g := &gig{venue: s.venue, start: start, acts: s.acts, kind: s.kind, plain: s.plain, onPage: s.venue.site != nil}
			if s.kind == twoShows {
				g.label = "Late Show"
				if start.Hour() < 20 {
					g.label = "Early Show"
				}
				if first != nil {
					g.partner, first.partner = first, g
				}
				first = g
			}
			all = append(all, g)
			if !s.plain {
				open = append(open, g)
			}
		}
	}
	setStatuses(r, open, len(all))
	setDateOnly(r, open, len(all))
	for _, g := range all {
		setTimes(g)
		g.tickets = price(r, g)
		g.venue.gigs = append(g.venue.gigs, g)
	}
}

// startTimes returns the starts of a slot's shows in the venue's zone: one, or two for
// twoShows. Evening shows start 19:00–21:30, club nights at 23:00 or 00:30 the next day.
func startTimes(r *rand.Rand, s *slot, today time.Time) []time.Time {
	v := s.venue
	y, m, d := today.AddDate(0, 0, s.day).Date()
	at := func(dayOffset, minutes int) time.Time {
		return time.Date(y, m, d+dayOffset, minutes/60, minutes%60, 0, 0, v.loc)
	}
	switch s.kind {
	case afterHours:
		return []time.Time{s.at}
	case twoShows:
		return []time.Time{at(0, 19*60), at(0, 21*60+30)}
	case clubNight:
		if r.IntN(10) == 0 {
			return []time.Time{at(1, 30)}
		}
		return []time.Time{at(0, 23*60)}
	}
	minutes := v.style.usual
	if r.IntN(10) < 3 {
		minutes = min(max(minutes+30*(r.IntN(5)-2), 19*60), 21*60+30)
	}
	return []time.Time{at(0, minutes)}
}

// Shares of all gigs, drawn from the open ones, that get each status other than scheduled.
var statusShares = []struct {
	status status
	share  float64
}{{cancelled, 0.03}, {postponed, 0.02}, {rescheduled, 0.01}}

// setStatuses gives random open gigs a status by statusShares of total. A postponed gig's
// previous start is its start, as no new date is set; a rescheduled one was moved here from
// one to six weeks earlier.
func setStatuses(r *rand.Rand, open []*gig, total int) {
	order := r.Perm(len(open))
	for _, q := range statusShares {
		for range int(math.Round(q.share * float64(total))) {
			if len(order) == 0 {
				return
			}
			g := open[order[0]]
			order = order[1:]
			g.status = q.status
			switch q.status {
			case postponed:
				g.previous = g.start
			case rescheduled:
				g.previous = g.start.AddDate(0, 0, -7-r.IntN(36))
			}
		}
	}
}

// dateOnlyShare is the share of all gigs, drawn from open single shows, whose time is to
// be announced.
const dateOnlyShare = 0.03

// setDateOnly makes dateOnlyShare of total gigs date-only, choosing open gigs at random
// but never one of an early and late pair (the time is all that tells those apart) nor one
// starting after midnight (its date alone would name the wrong night).
func setDateOnly(r *rand.Rand, open []*gig, total int) {
	var single []*gig
	for _, g := range open {
		if g.kind != twoShows && g.start.Hour() >= 12 {
			single = append(single, g)
		}
	}
	n := min(len(single), int(math.Round(dateOnlyShare*float64(total))))
	for _, i := range r.Perm(len(single))[:n] {
		single[i].dateOnly = true
	}
}

// setTimes sets doors and end as the venue's style states them; date-only gigs have none.
func setTimes(g *gig) {
	s := &g.venue.style
	if g.dateOnly {
		return
	}
	if s.doors > 0 && g.kind != clubNight && g.kind != afterHours {
		g.doors = g.start.Add(-s.doors)
	}
	if s.ends {
		length := 3 * time.Hour
		switch g.kind {
		case clubNight:
			length = 6 * time.Hour
		case afterHours:
			length = 4 * time.Hour
		case twoShows:
			length = 105 * time.Minute
		}
		g.end = g.start.Add(length)
	}
}

// price returns a gig's tickets, or nil for the 8% listed without offers. Prices grow with
// the venue's size and the headliner's popularity, are converted to the local currency and
// rounded to its usual step; popular acts sell out more often.
func price(r *rand.Rand, g *gig) *tickets {
	if r.Float64() < 0.08 {
		return nil
	}
	base := [...]float64{tiny: 8, small: 10, mid: 15, big: 25}[g.venue.size]
	base += r.Float64() * base
	rank := float64(g.acts[0].rank)
	base *= 1 + 1.2/(1+rank/15)
	c := countries[g.venue.city.country]
	round := func(eur float64) float64 { return max(c.step, math.Round(eur*c.perEuro/c.step)*c.step) }
	t := &tickets{low: round(base)}
	t.high = max(round(base*(1.4+0.8*r.Float64())), t.low+c.step)
	soldOutChance := 0.04 + 0.3/(1+rank/8)
	switch x := r.Float64(); {
	case x < soldOutChance:
		t.avail = soldOut
	case x < soldOutChance+0.15:
		t.avail = limited
	}
	return t
}

// numberGigs sorts a venue's gigs by start and numbers them from the style's first id.
func numberGigs(v *venue) {
	sortGigs(v)
	for i, g := range v.gigs {
		g.n = v.style.firstID + i
	}
}

// sortGigs sorts a venue's gigs by start; ties keep their order.
func sortGigs(v *venue) {
	slices.SortStableFunc(v.gigs, func(a, b *gig) int { return a.start.Compare(b.start) })
}
