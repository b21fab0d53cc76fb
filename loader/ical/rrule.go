package ical

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// freq is an RRULE's FREQ.
type freq uint8

const (
	daily freq = iota + 1
	weekly
	monthly
	yearly
)

// rule is a parsed RRULE. The BY parts are bit sets.
type rule struct {
	freq     freq
	interval int
	count    int       // 0 when not given
	until    *stamp    // nil when not given
	months   uint16    // BYMONTH: bit m for month m
	mdays    uint64    // BYMONTHDAY: bit d for day d, bit 32+d for the d-th day from the end
	wdays    uint8     // BYDAY without an ordinal: bit w for weekday w
	nth      [7]uint64 // BYDAY with an ordinal: bit n of nth[w] for the n-th weekday w,
	nthLast  [7]uint64 // and of nthLast[w] for the n-th weekday w from the end
	ordinals bool      // nth or nthLast has a bit set
	wkst     time.Weekday
}

// unsupportedParts are valid RRULE parts the adapter does not expand.
var unsupportedParts = map[string]bool{
	"BYSETPOS": true, "BYHOUR": true, "BYMINUTE": true, "BYSECOND": true, "BYYEARDAY": true,
	"BYWEEKNO": true, "RSCALE": true, "SKIP": true,
}

var weekdays = map[string]time.Weekday{
	"SU": time.Sunday, "MO": time.Monday, "TU": time.Tuesday, "WE": time.Wednesday,
	"TH": time.Thursday, "FR": time.Friday, "SA": time.Saturday,
}

// parseRule reads an RRULE value. A part the adapter does not expand, or a rule that
// RFC 5545 forbids, is an error: the series is not guessed at.
func parseRule(v string) (*rule, error) {
	r := &rule{interval: 1, wkst: time.Monday}
	seen := map[string]bool{}
	for part := range strings.SplitSeq(strings.ToUpper(strings.TrimSpace(v)), ";") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		switch {
		case !ok:
			return nil, fmt.Errorf("part %q has no value", clip(part, maxQuote))
		case seen[name]:
			return nil, fmt.Errorf("part %q is given twice", clip(name, maxQuote))
		case unsupportedParts[name]:
			return nil, fmt.Errorf("part %s is not supported", name)
		}
		seen[name] = true
		var err error
		switch name {
		case "FREQ":
			err = r.setFreq(val)
		case "INTERVAL":
			r.interval, err = number(val, 1, maxInterval)
		case "COUNT":
			r.count, err = number(val, 1, maxCount)
		case "UNTIL":
			var u stamp
			u, err = parseStamp(val, "", nil)
			r.until = &u
		case "BYMONTH":
			err = eachNumber(val, 1, 12, func(n int) { r.months |= 1 << n })
		case "BYMONTHDAY":
			err = eachNumber(val, -31, 31, func(n int) {
				if n > 0 {
					r.mdays |= 1 << n
				} else {
					r.mdays |= 1 << (32 - n)
				}
			})
		case "BYDAY":
			err = r.setDays(val)
		case "WKST":
			w, ok := weekdays[val]
			if !ok {
				err = fmt.Errorf("unknown weekday %q", clip(val, maxQuote))
			}
			r.wkst = w
		default:
			return nil, fmt.Errorf("unknown part %q", clip(name, maxQuote))
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", strings.ToLower(name), err)
		}
	}
	switch {
	case r.freq == 0:
		return nil, errors.New("no freq")
	case r.ordinals && r.freq != monthly && r.freq != yearly:
		return nil, errors.New("byday with an ordinal needs freq=monthly or freq=yearly")
	case r.mdays != 0 && r.freq == weekly:
		return nil, errors.New("bymonthday cannot go with freq=weekly")
	}
	return r, nil
}

func (r *rule) setFreq(v string) error {
	switch v {
	case "DAILY":
		r.freq = daily
	case "WEEKLY":
		r.freq = weekly
	case "MONTHLY":
		r.freq = monthly
	case "YEARLY":
		r.freq = yearly
	case "SECONDLY", "MINUTELY", "HOURLY":
		return fmt.Errorf("%s is not supported", strings.ToLower(v))
	default:
		return fmt.Errorf("unknown frequency %q", clip(v, maxQuote))
	}
	return nil
}

// setDays reads BYDAY: weekdays with an optional signed ordinal, "MO", "1FR", "-1SA".
func (r *rule) setDays(v string) error {
	for item := range strings.SplitSeq(v, ",") {
		item = strings.TrimSpace(item) // "MO, TU", as some producers write it
		if len(item) < 2 {
			return fmt.Errorf("bad weekday %q", clip(item, maxQuote))
		}
		w, ok := weekdays[item[len(item)-2:]]
		if !ok {
			return fmt.Errorf("bad weekday %q", clip(item, maxQuote))
		}
		ord := item[:len(item)-2]
		if ord == "" {
			r.wdays |= 1 << w
			continue
		}
		n, err := number(strings.TrimPrefix(ord, "+"), -53, 53)
		r.ordinals = true
		switch {
		case err != nil || n == 0 || strings.HasPrefix(ord, "+-"):
			return fmt.Errorf("bad weekday %q", clip(item, maxQuote))
		case n > 0:
			r.nth[w] |= 1 << n
		default:
			r.nthLast[w] |= 1 << -n
		}
	}
	return nil
}

// number reads a decimal integer in [lo, hi].
func number(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("want a number from %d to %d, not %q", lo, hi, clip(s, maxQuote))
	}
	return n, nil
}

// eachNumber reads a comma list of non-zero integers in [lo, hi].
func eachNumber(s string, lo, hi int, f func(int)) error {
	for item := range strings.SplitSeq(s, ",") {
		n, err := number(item, lo, hi)
		if err != nil || n == 0 {
			return fmt.Errorf("want numbers from %d to %d, not %q", lo, hi, clip(item, maxQuote))
		}
		f(n)
	}
	return nil
}

// expansion is the outcome of expanding one rule.
type expansion struct {
	walls     []time.Time // occurrence starts in the window, in dtstart's form, in order
	capped    bool        // more than the limit lay in the window; walls holds the first ones
	exhausted bool        // the work budget ran out; walls is incomplete
}

// expand returns the occurrences of r from dtstart that start within w and that excluded
// (the EXDATEs) does not take away; at most limit of them. dtstart is always the first
// occurrence, and excluded ones still count towards COUNT, as RFC 5545 says. Days are
// generated in wall time, so a zoned series keeps its clock across daylight saving
// changes. Every day looked at costs one unit of *budget.
func (r *rule) expand(dt stamp, w window, limit int, excluded func(time.Time) bool, budget *int) expansion {
	c := r.withDefaults(dt.wall)
	var x expansion
	var until stamp
	if r.until != nil {
		until = r.until.in(dt)
	}
	beyondUntil := func(wall time.Time) bool {
		if r.until == nil {
			return false
		}
		if dt.form == dateOnly || r.until.form == dateOnly {
			return day(wall).After(day(until.wall))
		}
		return wall.After(until.wall)
	}
	if w.pos(dt) == 0 && !excluded(dt.wall) {
		x.walls = append(x.walls, dt.wall)
	}
	first := day(dt.wall)
	clock := dt.wall.Sub(first)
	last := day(w.to).AddDate(0, 0, 2)
	n := 1 // occurrences so far, dtstart included
	k := 0
	if r.count == 0 {
		k = c.skip(first, day(w.from).AddDate(0, 0, -2))
	}
	var days []time.Time
	for ; r.count == 0 || n < r.count; k++ {
		p := c.period(first, k)
		if p.After(last) {
			break
		}
		days = c.days(p, days[:0], budget)
		for _, d := range days {
			wall := d.Add(clock)
			if !wall.After(dt.wall) {
				continue
			}
			if beyondUntil(wall) {
				return x
			}
			n++
			switch w.pos(stamp{wall: wall, form: dt.form, loc: dt.loc}) {
			case 1:
				return x
			case 0:
				switch {
				case excluded(wall):
				case len(x.walls) == limit:
					x.capped = true
					return x
				default:
					x.walls = append(x.walls, wall)
				}
			}
			if r.count > 0 && n >= r.count {
				return x
			}
		}
		if *budget <= 0 {
			x.exhausted = true
			return x
		}
	}
	return x
}

// withDefaults fills in what RFC 5545 takes from DTSTART when a rule does not say: the
// weekday of a weekly rule, the day of a monthly one, the day and month of a yearly one.
func (r *rule) withDefaults(dt time.Time) rule {
	c := *r
	byDay := c.wdays != 0 || c.ordinals
	switch {
	case c.freq == weekly && !byDay:
		c.wdays = 1 << dt.Weekday()
	case c.freq == monthly && !byDay && c.mdays == 0:
		c.mdays = 1 << dt.Day()
	case c.freq == yearly && !byDay && c.mdays == 0:
		c.mdays = 1 << dt.Day()
		if c.months == 0 {
			c.months = 1 << dt.Month()
		}
	}
	return c
}

// period returns the first day of the k-th period of the rule that starts at first.
func (r *rule) period(first time.Time, k int) time.Time {
	switch r.freq {
	case weekly:
		return weekStart(first, r.wkst).AddDate(0, 0, 7*k*r.interval)
	case monthly:
		return time.Date(first.Year(), first.Month()+time.Month(k*r.interval), 1, 0, 0, 0, 0, time.UTC)
	case yearly:
		return time.Date(first.Year()+k*r.interval, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return first.AddDate(0, 0, k*r.interval)
}

// skip returns how many periods from first end before from, less one for safety.
func (r *rule) skip(first, from time.Time) int {
	var n int
	switch r.freq {
	case daily:
		n = int((from.Unix() - first.Unix()) / 86400)
	case weekly:
		n = int((from.Unix() - weekStart(first, r.wkst).Unix()) / (7 * 86400))
	case monthly:
		n = (from.Year()-first.Year())*12 + int(from.Month()) - int(first.Month())
	case yearly:
		n = from.Year() - first.Year()
	}
	return max(n/r.interval-1, 0)
}

// weekStart returns the day on or before d that is the week's first day wkst.
func weekStart(d time.Time, wkst time.Weekday) time.Time {
	return d.AddDate(0, 0, -((int(d.Weekday()) - int(wkst) + 7) % 7))
}

// calDay is a day as the BY parts test it, kept as numbers: walking days this way costs no
// calendar arithmetic.
type calDay struct {
	y          int
	m          time.Month
	d, dim     int // day of the month, days in the month
	wd         time.Weekday
	yday, ylen int // day of the year, days in the year
}

func calDayOf(t time.Time) calDay {
	y, m, d := t.Date()
	return calDay{y: y, m: m, d: d, dim: daysIn(y, m), wd: t.Weekday(), yday: t.YearDay(), ylen: yearLen(y)}
}

// skip moves c forward n days within its month.
func (c *calDay) skip(n int) {
	c.d += n
	c.yday += n
	c.wd = (c.wd + time.Weekday(n)) % 7
}

// next moves c to the following day.
func (c *calDay) next() {
	if c.d < c.dim {
		c.skip(1)
		return
	}
	c.wd = (c.wd + 1) % 7
	c.d, c.m, c.yday = 1, c.m+1, c.yday+1
	if c.m > time.December {
		c.y, c.m, c.yday = c.y+1, time.January, 1
		c.ylen = yearLen(c.y)
	}
	c.dim = daysIn(c.y, c.m)
}

// days appends the days of the period that starts at p which the rule's BY parts allow,
// in order, and charges each day looked at to *budget.
func (r *rule) days(p time.Time, out []time.Time, budget *int) []time.Time {
	c := calDayOf(p)
	var n int // days in the period
	switch r.freq {
	case daily:
		n = 1
	case weekly:
		n = 7
	case monthly:
		n = c.dim
	case yearly:
		n = c.ylen
	}
	for i := 0; i < n; i++ {
		if r.freq == yearly && r.months != 0 && r.months&(1<<c.m) == 0 {
			// Skip to the month's last day.
			i += c.dim - c.d
			c.skip(c.dim - c.d)
		} else {
			*budget--
			if r.match(c) {
				out = append(out, time.Date(c.y, c.m, c.d, 0, 0, 0, 0, time.UTC))
			}
		}
		c.next()
	}
	return out
}

// match reports whether the BY parts allow day c.
func (r *rule) match(c calDay) bool {
	if r.months != 0 && r.months&(1<<c.m) == 0 {
		return false
	}
	if r.mdays != 0 && r.mdays&(1<<c.d) == 0 && r.mdays&(1<<(32+c.dim-c.d+1)) == 0 {
		return false
	}
	if r.wdays == 0 && !r.ordinals || r.wdays&(1<<c.wd) != 0 {
		return true
	}
	// An ordinal counts within the month, or within the year for a yearly rule without
	// BYMONTH.
	pos, size := c.d, c.dim
	if r.freq == yearly && r.months == 0 {
		pos, size = c.yday, c.ylen
	}
	return r.nth[c.wd]&(1<<((pos-1)/7+1)) != 0 || r.nthLast[c.wd]&(1<<((size-pos)/7+1)) != 0
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// yearLen returns the number of days of year y.
func yearLen(y int) int {
	if isLeap(y) {
		return 366
	}
	return 365
}

// daysIn returns the number of days of month m of year y.
func daysIn(y int, m time.Month) int {
	switch {
	case m == time.February && isLeap(y):
		return 29
	case m == time.February:
		return 28
	case m == time.April || m == time.June || m == time.September || m == time.November:
		return 30
	}
	return 31
}
