package demo

import (
	"math/rand/v2"
	"strings"
	"time"
)

// residency is a weekly show an iCalendar feed states once, as a VEVENT with RRULE and
// EXDATE; each occurrence that takes place is a gig of its own.
type residency struct {
	title   string
	count   int         // RRULE COUNT: weeks from the first, the excluded ones included
	exdates []time.Time // the weeks it does not take place, in the venue's zone
	gigs    []*gig      // the weeks it does, in order; gigs[0] starts the series
}

// Counts of the hand-made cases.
const (
	residencyCount       = 8
	tributeOnPlatform    = 3 // the original on the venue's page, a tribute act only on a platform
	tributeOnPage        = 2 // the tribute on the page, the original only on a platform
	misdatedCount        = 3
	brokenSiteOnlyListed = 5 // broken sites that leave one show to the platforms
)

// nearNamePairs are acts whose names differ by a letter and must never merge.
var nearNamePairs = [][2]string{
	{"Daughter", "Daughters"}, {"Mirror Lake", "Mirror Lakes"}, {"Kid Astra", "Kid Astro"},
	{"Pale Blue", "Pale Blues"}, {"Sunhouse", "Sunhouses"},
}

// nearNameCount is how many of nearNamePairs the corpus books.
const nearNameCount = 3

// addExtras adds what slot booking does not make: weekly residencies in iCal feeds, tribute
// acts beside the acts they copy, near-named acts on one night at one venue, after-midnight
// shows their page dates to the evening before, and shows of broken sites that only the
// platforms list. It runs before gigs are numbered.
func (c *corpus) addExtras(r *rand.Rand) {
	c.addResidencies(r)
	c.addTributes(r)
	c.addNearNames(r)
	c.misdate(r)
	for _, v := range shuffled(r, c.venuesWhere(func(v *venue) bool { return v.site != nil && v.site.fault != noFault })) {
		if c.brokenOnly == brokenSiteOnlyListed {
			break
		}
		if gs := c.gigsAt(v, func(g *gig) bool { return g.onPage && c.open(g) }); len(gs) > 0 {
			g := pick(r, gs)
			g.onPage, g.listed = false, true
			c.brokenOnly++
		}
	}
}

// open reports whether an upcoming gig is an ordinary scheduled show, free to serve as an
// example: a timed evening show, not part of a residency, not already a special case.
func (c *corpus) open(g *gig) bool {
	d := dayIndex(c.today, g.start)
	return d >= 3 && d < horizon-40 && g.status == scheduled && !g.dateOnly && g.kind == evening && !g.plain &&
		g.series == nil && g.name == "" && !g.listed && !g.misdated && g.start.Hour() >= 19
}

// local returns the next act of the ones that never tour.
func (c *corpus) local() *artist {
	a := c.artists[artistCount+c.locals]
	c.locals++
	return a
}

// freeDay returns an upcoming day in [from, to) on which v has no show, or -1.
func (c *corpus) freeDay(r *rand.Rand, v *venue, from, to int) int {
	busy := map[int]bool{} // lookups only
	for _, g := range v.gigs {
		busy[dayIndex(c.today, g.start)] = true
	}
	for _, i := range r.Perm(to - from) {
		if !busy[from+i] {
			return from + i
		}
	}
	return -1
}

// at returns day's date at a wall time in v's zone.
func (c *corpus) at(v *venue, day, minutes int) time.Time {
	y, m, d := c.today.AddDate(0, 0, day).Date()
	return time.Date(y, m, d, minutes/60, minutes%60, 0, 0, v.loc)
}

var weekdays = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// addResidencies gives residencyCount working iCal feeds a weekly early-evening residency of
// a local act over eight to twelve weeks. Weeks the venue has another show, and one more at
// random, are excluded.
func (c *corpus) addResidencies(r *rand.Rand) {
	feeds := shuffled(r, c.venuesWhere(func(v *venue) bool { return v.site != nil && v.site.format == iCal && v.site.fault == noFault }))
	for _, v := range feeds[:min(residencyCount, len(feeds))] {
		act := c.local()
		first := 1 + r.IntN(14)
		count := 8 + r.IntN(5)
		minutes := pick(r, []int{18 * 60, 18*60 + 30, 19 * 60})
		wd := weekdays[c.today.AddDate(0, 0, first).Weekday()]
		res := &residency{title: pick(r, []string{
			wd + " Jazz with " + act.name,
			act.name + ": Weekly Residency",
			wd + " Sessions – " + act.name,
			"Happy Hour Live: " + act.name,
		})}
		busy := map[int]bool{} // lookups only
		for _, g := range v.gigs {
			busy[dayIndex(c.today, g.start)] = true
		}
		skip := 1 + r.IntN(count-1)
		for k := range count {
			day := first + 7*k
			if day >= horizon {
				break
			}
			res.count = k + 1
			start := c.at(v, day, minutes)
			if k > 0 && (busy[day] || k == skip) {
				res.exdates = append(res.exdates, start)
				continue
			}
			g := &gig{venue: v, start: start, acts: []*artist{act}, kind: evening, onPage: true, series: res, name: res.title}
			res.gigs = append(res.gigs, g)
			v.gigs = append(v.gigs, g)
		}
		c.residencies = append(c.residencies, res)
	}
}

// addTributes puts tribute acts at the venue and on the date of the act they copy, in
// another source: tributeOnPlatform times the original plays a page and the tribute is only
// on a platform, tributeOnPage times the tribute is on the page and the original only on a
// platform.
func (c *corpus) addTributes(r *rand.Rand) {
	pages := c.venuesWhere(func(v *venue) bool {
		return v.site != nil && v.site.fault == noFault && v.site.format != iCal
	})
	done := 0
	for _, v := range shuffled(r, pages) {
		if done == tributeOnPlatform {
			break
		}
		gs := c.gigsAt(v, func(g *gig) bool { return g.onPage && c.open(g) && g.acts[0].rank < 200 })
		if len(gs) == 0 {
			continue
		}
		g := pick(r, gs)
		orig := g.acts[0]
		t := c.tributeAct(r, orig)
		start := g.start.Add(3*time.Hour + 15*time.Minute)
		if g.start.Hour() >= 20 {
			start = time.Date(g.start.Year(), g.start.Month(), g.start.Day(), 16, 0, 0, 0, v.loc) // a matinee
		}
		g.listed = true
		v.gigs = append(v.gigs, &gig{venue: v, start: start, acts: []*artist{t}, kind: evening, name: tributeTitle(r, t.name, orig.name), listed: true})
		done++
	}
	done = 0
	for _, v := range shuffled(r, pages) {
		if done == tributeOnPage {
			break
		}
		day := c.freeDay(r, v, 10, 120)
		if day < 0 {
			continue
		}
		var orig *artist
		for _, a := range shuffled(r, c.artists[:150]) {
			if c.diary.free(a, day, v.city) {
				orig = a
				break
			}
		}
		if orig == nil {
			continue
		}
		c.diary.add(orig, day, v.city)
		t := c.tributeAct(r, orig)
		v.gigs = append(v.gigs,
			&gig{venue: v, start: c.at(v, day, 20*60), acts: []*artist{t}, kind: evening, onPage: true, name: tributeTitle(r, t.name, orig.name), listed: true},
			&gig{venue: v, start: c.at(v, day, 22*60+30), acts: []*artist{orig}, kind: evening, listed: true})
		done++
	}
}

// tributeAct returns a new act that copies a.
func (c *corpus) tributeAct(r *rand.Rand, a *artist) *artist {
	base := strings.TrimPrefix(a.name, "The ")
	forms := []string{"Fake " + base, "The " + base + " Experience", base + " Reborn", "Counterfeit " + base}
	if !strings.Contains(base, " ") {
		forms = append(forms, base+"ish", base+"ish")
	}
	return c.newAct(pick(r, forms), a.genres)
}

// tributeTitle names a tribute show.
func tributeTitle(r *rand.Rand, tribute, original string) string {
	return pick(r, []string{
		tribute + " – a tribute to " + original,
		tribute + ": The Music of " + original,
		"A Tribute to " + original + " by " + tribute,
	})
}

// newAct returns an act outside the pool, booked once by a hand-made case.
func (c *corpus) newAct(name string, genres []int) *artist {
	a := &artist{name: name, rank: len(c.artists) + len(c.made), genres: genres}
	c.made = append(c.made, a)
	return a
}

// addNearNames books acts whose names differ by one letter at one venue on one night: the
// first pair both on the venue's page, the others with the later show only on a platform.
func (c *corpus) addNearNames(r *rand.Rand) {
	taken := map[string]bool{} // pool names; lookups only
	for _, a := range c.artists {
		taken[a.name] = true
	}
	pages := shuffled(r, c.venuesWhere(func(v *venue) bool { return v.site != nil && v.site.fault == noFault }))
	k := 0
	for _, pair := range nearNamePairs {
		if k == nearNameCount || k >= len(pages) {
			return
		}
		if taken[pair[0]] || taken[pair[1]] {
			continue
		}
		v := pages[k]
		day := c.freeDay(r, v, 7, 120)
		if day < 0 {
			continue
		}
		a, b := c.newAct(pair[0], []int{indie}), c.newAct(pair[1], []int{punk})
		v.gigs = append(v.gigs,
			&gig{venue: v, start: c.at(v, day, 19*60+30), acts: []*artist{a}, kind: evening, onPage: true, listed: true},
			&gig{venue: v, start: c.at(v, day, 22*60+30), acts: []*artist{b}, kind: evening, onPage: k == 0, listed: true})
		k++
	}
}

// misdate makes misdatedCount pages give a club night starting after midnight the date of
// the evening before, when its acts have no show that evening (so no act seems to play two
// places on one night).
func (c *corpus) misdate(r *rand.Rand) {
	n := 0
	for _, v := range shuffled(r, c.venuesWhere(func(v *venue) bool {
		return v.site != nil && v.site.fault == noFault && v.site.format != iCal
	})) {
		for _, g := range v.gigs {
			if n == misdatedCount {
				return
			}
			night := dayIndex(c.today, g.start) - 1
			if !g.onPage || g.kind != clubNight || g.start.Hour() != 0 || g.status != scheduled || night < 3 || !c.freeNight(g.acts, night-1) {
				continue
			}
			g.misdated, g.listed = true, true
			n++
			break
		}
	}
}

// freeNight reports whether none of acts has a show on night day.
func (c *corpus) freeNight(acts []*artist, day int) bool {
	for _, a := range acts {
		if a.rank >= len(c.diary) {
			continue
		}
		for _, b := range c.diary[a.rank] {
			if b.day == day {
				return false
			}
		}
	}
	return true
}

// venuesWhere returns the venues ok accepts, in venue order.
func (c *corpus) venuesWhere(ok func(*venue) bool) []*venue {
	var out []*venue
	for _, v := range c.venues {
		if ok(v) {
			out = append(out, v)
		}
	}
	return out
}

// gigsAt returns v's gigs that ok accepts, in v's order.
func (c *corpus) gigsAt(v *venue, ok func(*gig) bool) []*gig {
	var out []*gig
	for _, g := range v.gigs {
		if ok(g) {
			out = append(out, g)
		}
	}
	return out
}

// shuffled returns a shuffled copy of xs.
func shuffled[T any](r *rand.Rand, xs []T) []T {
	out := make([]T, len(xs))
	for i, j := range r.Perm(len(xs)) {
		out[i] = xs[j]
	}
	return out
}
