package engine

import "slices"

// maxDayWindow caps the days a snapshot's day tables span from its earliest gig: a gig
// announced years ahead (or a source's wrong year) must not make every table that long.
// A date bound beyond the window is answered by looking at its edges' gigs instead.
const maxDayWindow = 3 * 366

// dayTable counts a set of positions by venue-local day, for the days of the snapshot's
// window [dayBase, dayBase+dayN]: cum[k] is the number of members whose day is before
// dayBase+k, and first[k] the first member (in position order) whose day is dayBase+k or
// later, or Len() when there is none. Both have dayN+1 entries. With it, the matches of a
// date range in a set are counted by two lookups, instead of looking at every member in
// the range's edges (the hours in which a date has begun in some zones and not in others).
type dayTable struct{ cum, first []uint32 }

// ok reports whether t holds tables.
func (t dayTable) ok() bool { return len(t.cum) > 0 }

// at returns the index of day d in the window, and false when d lies beyond it. A day
// before the window is index 0: no member is before it.
func (s *Snapshot) dayAt(d int32) (int, bool) {
	k := int64(d) - int64(s.dayBase)
	switch {
	case k < 0:
		return 0, true
	case k > int64(s.dayN):
		return 0, false
	}
	return int(k), true
}

// dayWindow sets the snapshot's window from its gigs' days.
func (s *Snapshot) dayWindow() {
	if len(s.days) == 0 {
		s.dayBase, s.dayN = 0, 0
		return
	}
	lo, hi := slices.Min(s.days), slices.Max(s.days)
	s.dayBase, s.dayN = lo, int(min(int64(hi)-int64(lo)+1, maxDayWindow))
}

// appendDayTable appends the cum and first tables (dayN+1 entries each) of the ascending
// positions members, which is every position when members is nil.
func (s *Snapshot) appendDayTable(cum, first []uint32, members []uint32) ([]uint32, []uint32) {
	n := s.dayN + 1
	cum, first = slices.Grow(cum, n), slices.Grow(first, n)
	c, f := cum[len(cum):len(cum)+n], first[len(first):len(first)+n]
	clear(c)
	for k := range f {
		f[k] = uint32(len(s.days))
	}
	count := func(p uint32) {
		k := int64(s.days[p]) - int64(s.dayBase)
		if k >= int64(s.dayN) { // beyond the window: in no count, first only of the last
			k = int64(s.dayN)
		} else {
			c[k+1]++
		}
		f[k] = min(f[k], p)
	}
	if members == nil {
		for p := range s.days {
			count(uint32(p))
		}
	} else {
		for _, p := range members {
			count(p)
		}
	}
	for k := 1; k < n; k++ {
		c[k] += c[k-1]
	}
	for k := n - 2; k >= 0; k-- {
		f[k] = min(f[k], f[k+1])
	}
	return cum[:len(cum)+n], first[:len(first)+n]
}

// validDayTables reports whether cum and first hold whole tables of a window of dayN+1
// entries, cum ascending within each and first below limit or equal to it.
func validDayTables(cum, first []uint32, dayN, limit int) bool {
	n := dayN + 1
	if dayN < 0 || dayN > maxDayWindow || len(cum) != len(first) || len(cum)%n != 0 {
		return false
	}
	for t := 0; t < len(cum); t += n {
		if cum[t] != 0 || !ascending(cum[t:t+n], false) || int(cum[t+n-1]) > limit {
			return false
		}
	}
	for _, p := range first {
		if int(p) > limit {
			return false
		}
	}
	return true
}
