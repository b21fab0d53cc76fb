package demo

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"time"
)

// horizon is how many days, Today included, the corpus lists upcoming shows for.
const horizon = 180

// slotKind is what sort of night a slot is.
type slotKind int

const (
	evening    slotKind = iota // a show at or near the venue's usual start
	clubNight                  // a club night from 23:00, or from 00:30 the next day
	twoShows                   // an early and a late show with the same bill
	afterHours                 // a club set starting in the hour after a spring-forward change
)

// slot is one night at one venue, before it becomes one gig (two for twoShows).
type slot struct {
	venue *venue
	day   int // the night, in days after Today; negative for past shows
	kind  slotKind
	at    time.Time // the start of an afterHours set, in the venue's zone
	plain bool      // must stay a timed, scheduled show: DST edge cases and past shows
	acts  []*artist // the bill in billing order, filled by book
}

// dayIndex returns how many days after today t's calendar date (in t's zone) is.
func dayIndex(today, t time.Time) int {
	y, m, d := t.Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(today) / (24 * time.Hour))
}

// planSlots picks the nights every venue has a show, in a fixed order: by day, then venue.
// today is midnight UTC of the corpus day.
func planSlots(r *rand.Rand, vs []*venue, today time.Time) []*slot {
	var all []*slot
	for _, v := range vs {
		all = append(all, venueSlots(r, v, today)...)
	}
	slices.SortStableFunc(all, func(a, b *slot) int {
		return cmp.Or(cmp.Compare(a.day, b.day), cmp.Compare(a.venue.index, b.venue.index), cmp.Compare(a.kind, b.kind))
	})
	return all
}

// venueSlots returns one venue's nights: a number of upcoming nights that fits its size,
// one evening show on each day its zone changes offset within the horizon, an after-hours
// set after each spring-forward change for clubs, and sometimes a show just before Today.
func venueSlots(r *rand.Rand, v *venue, today time.Time) []*slot {
	byDay := make([]*slot, horizon)
	var out []*slot
	for _, d := range pickDays(r, v, today, showCount(r, v.size)) {
		s := &slot{venue: v, day: d, kind: nightKind(r, v.kind)}
		byDay[d] = s
		out = append(out, s)
	}
	from := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, v.loc)
	for _, change := range zoneChanges(v.loc, from, from.AddDate(0, 0, horizon)) {
		d := dayIndex(today, change)
		if d >= horizon {
			continue
		}
		if byDay[d] == nil {
			byDay[d] = &slot{venue: v, day: d}
			out = append(out, byDay[d])
		}
		byDay[d].kind, byDay[d].plain = evening, true
		if v.kind == club && springForward(change) {
			at := change.Add(30 * time.Minute) // in the small hours: the night is the day before
			out = append(out, &slot{venue: v, day: dayIndex(today, at) - 1, kind: afterHours, at: at, plain: true})
		}
	}
	if r.IntN(4) == 0 {
		out = append(out, &slot{venue: v, day: -1 - r.IntN(3), kind: evening, plain: true})
	}
	return out
}

// showCount returns how many ordinary nights a venue of a size lists.
func showCount(r *rand.Rand, s venueSize) int {
	switch s {
	case tiny:
		return 5 + r.IntN(5)
	case small:
		return 8 + r.IntN(9)
	case big:
		return 86 + r.IntN(23)
	default:
		return 26 + r.IntN(15)
	}
}

// nightKind decides what an ordinary night at a kind of venue is.
func nightKind(r *rand.Rand, k venueKind) slotKind {
	x := r.Float64()
	switch {
	case k == club && x < 0.7:
		return clubNight
	case k == jazz && x < 0.08, k == hall && x < 0.03:
		return twoShows
	}
	return evening
}

// Relative chance of a show by weekday, Sunday first.
var (
	weekdayWeight = [7]float64{0.7, 0.45, 0.7, 0.9, 1.15, 1.6, 1.7}
	clubDayWeight = [7]float64{0.5, 0.1, 0.2, 0.5, 1.0, 2.0, 2.2}
)

// pickDays draws n distinct days in [0, horizon), favouring weekends and the nearer
// months, returned in ascending order. It uses weighted sampling without replacement
// (each day keyed by an exponential variate divided by its weight).
func pickDays(r *rand.Rand, v *venue, today time.Time, n int) []int {
	weights := weekdayWeight
	if v.kind == club {
		weights = clubDayWeight
	}
	type keyed struct {
		day int
		key float64
	}
	days := make([]keyed, horizon)
	for d := range days {
		w := weights[today.AddDate(0, 0, d).Weekday()]
		w *= 1 - 0.5*float64(max(0, d-60))/float64(horizon-60) // listings thin out
		days[d] = keyed{d, r.ExpFloat64() / w}
	}
	slices.SortStableFunc(days, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	out := make([]int, min(n, horizon))
	for i := range out {
		out[i] = days[i].day
	}
	slices.Sort(out)
	return out
}

// zoneChanges returns the instants in [from, to) at which loc's UTC offset changes, in loc.
func zoneChanges(loc *time.Location, from, to time.Time) []time.Time {
	var out []time.Time
	for t := from; ; {
		_, end := t.In(loc).ZoneBounds()
		if end.IsZero() || !end.Before(to) {
			return out
		}
		_, before := end.Add(-time.Second).In(loc).Zone()
		_, after := end.In(loc).Zone()
		if before != after {
			out = append(out, end.In(loc))
		}
		t = end
	}
}

// springForward reports whether the offset change at t moves clocks forward.
func springForward(t time.Time) bool {
	_, before := t.Add(-time.Second).Zone()
	_, after := t.Zone()
	return after > before
}
