package ical

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A VTIMEZONE that defines a TZID no name resolves (an Outlook display name, "Customized
// Time Zone") is resolved by its rules: the adapter computes the UTC offset its STANDARD
// and DAYLIGHT observances give at instants across three years, and takes the IANA zone
// (of those CLDR's windowsZones maps to, one per rule set in the world) that gives the same
// offsets at every one of them. The times of such a TZID then follow that zone, daylight
// saving included. A VTIMEZONE whose rules no such zone follows resolves nothing, and its
// events are dropped with the reason.
//
// The offset at an instant is that of the onset that came last before it. An observance
// has an onset at its DTSTART and at each of its RDATEs, and a yearly one every year from
// its DTSTART to its RRULE's UNTIL or COUNT; each holds until a later onset. Exchange
// writes a zone's history as eras, each a yearly STANDARD and DAYLIGHT with a later
// DTSTART than the era before and often no UNTIL on the old rules: a yearly observance's
// onsets end where a yearly one of its kind (STANDARD or DAYLIGHT) with a later DTSTART
// begins. A zone must agree with the rules at noon every day of the three years; of those
// that do, the one that agrees most a minute either side of each onset is taken (Lotus
// Notes gives central Europe's autumn change at 02:00, not 03:00, but Europe/Berlin is
// still the zone; eastern Europe's rules are Helsinki's, whose clocks change at 01:00 UTC,
// not Beirut's, whose change at midnight local agrees at noon every day too).

// observance is one STANDARD or DAYLIGHT component of a VTIMEZONE.
type observance struct {
	start       time.Time // DTSTART, a local wall time (in the offset it changes from)
	until       time.Time // the RRULE's UNTIL, in UTC; zero when it has none
	daylight    bool      // a DAYLIGHT, not a STANDARD
	from, to    int       // TZOFFSETFROM, TZOFFSETTO in seconds
	month       time.Month
	nth         int // BYDAY ordinal: 1..5, or -1 for the last; 0 when the rule has none
	weekday     time.Weekday
	onOrAfter   int         // the weekday on or after this day of the month, when not 0
	monthDay    int         // this day of the month, when not 0
	onStartDate bool        // DTSTART's month and day every year
	yearly      bool        // an RRULE FREQ=YEARLY with BYMONTH and BYDAY: it recurs every year
	count       int         // the RRULE's COUNT: its onsets are in as many years from DTSTART's; 0: none
	rrules      int         // its RRULEs, read or not
	rdates      []time.Time // RDATE values, local wall times (in the offset they change from)
	badRdate    bool        // an RDATE value could not be read, or there were too many
	hasFrom     bool
	hasTo       bool
	hasStartTS  bool
}

// add reads one property of an observance.
func (o *observance) add(name, value string) {
	value = strings.TrimSpace(value)
	switch name {
	case "DTSTART":
		if t, err := civilStamp(value); err == nil {
			o.start, o.hasStartTS = t, true
		}
	case "TZOFFSETFROM":
		o.from, o.hasFrom = parseOffset(value)
	case "TZOFFSETTO":
		o.to, o.hasTo = parseOffset(value)
	case "RRULE":
		o.rrules++
		o.readRule(value)
	case "RDATE":
		for v := range strings.SplitSeq(value, ",") {
			t, err := civilStamp(strings.TrimSpace(v))
			if err != nil || len(o.rdates) == maxZoneDates {
				o.badRdate = true
				return
			}
			o.rdates = append(o.rdates, t)
		}
	}
}

// maxZoneDates bounds the RDATE values of one observance.
const maxZoneDates = 500

// civilStamp reads an observance's DTSTART, a local date-time: of any year (Outlook
// writes 1601), where events' times are held to 1900 on.
func civilStamp(v string) (time.Time, error) {
	if len(v) < 15 {
		return time.Parse("20060102", v)
	}
	return time.Parse("20060102T150405", v[:15])
}

// parseOffset reads "+0100", "-0330", "+013000".
func parseOffset(v string) (int, bool) {
	if len(v) != 5 && len(v) != 7 || v[0] != '+' && v[0] != '-' {
		return 0, false
	}
	h, err1 := strconv.Atoi(v[1:3])
	m, err2 := strconv.Atoi(v[3:5])
	s := 0
	var err3 error
	if len(v) == 7 {
		s, err3 = strconv.Atoi(v[5:7])
	}
	if err1 != nil || err2 != nil || err3 != nil || h > 23 || m > 59 || s > 59 {
		return 0, false
	}
	off := h*3600 + m*60 + s
	if v[0] == '-' {
		off = -off
	}
	return off, true
}

// readRule reads the yearly rules time zones use: a weekday of a month by its ordinal
// (FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU), the first weekday on or after a day of a month with
// the week as days of the month (BYDAY=SU;BYMONTHDAY=8,9,10,11,12,13,14 is the second
// Sunday; 25 to 31 of a month of 31 days the last), a day of a month (BYMONTHDAY=22), or
// DTSTART's date every year (no BY part), with an UNTIL (a UTC date-time, or a date) or a
// COUNT when the rule ends. A rule with any other part is not read: the observance is then
// not yearly, and its rules not usable.
func (o *observance) readRule(v string) {
	var freq string
	first, days := 0, 0 // BYMONTHDAY: its first day and how many follow it one by one
	byDay := false
	for part := range strings.SplitSeq(strings.ToUpper(v), ";") {
		name, val, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch name {
		case "FREQ":
			freq = val
		case "UNTIL":
			t, err := civilStamp(val)
			if err != nil {
				return
			}
			o.until = t
		case "COUNT":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return
			}
			o.count = n
		case "BYMONTH":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 12 {
				return
			}
			o.month = time.Month(n)
		case "BYDAY":
			if len(val) < 2 {
				return
			}
			w, ok := weekdays[val[len(val)-2:]]
			n, err := strconv.Atoi(cmp.Or(strings.TrimPrefix(val[:len(val)-2], "+"), "0"))
			if !ok || err != nil || n < -1 || n > 5 {
				return
			}
			o.nth, o.weekday, byDay = n, w, true
		case "BYMONTHDAY":
			for d := range strings.SplitSeq(val, ",") {
				n, err := strconv.Atoi(d)
				if err != nil || n < 1 || n > 31 || days > 0 && n != first+days {
					return
				}
				if days == 0 {
					first = n
				}
				days++
			}
		case "INTERVAL":
			if val != "1" {
				return
			}
		case "WKST", "BYHOUR", "BYMINUTE", "BYSECOND":
			// Lotus Notes writes BYHOUR and BYMINUTE: the onset's clock is DTSTART's.
		default:
			return
		}
	}
	switch {
	case freq != "YEARLY":
		return
	case byDay && o.nth != 0 && days == 0:
	case byDay && o.nth == 0 && days == 7:
		// The last seven days of a month of fixed length are its last week; February's
		// 22 to 28 are not in a leap year.
		if last := time.Date(2025, o.month+1, 0, 0, 0, 0, 0, time.UTC).Day(); o.month != 0 && o.month != time.February && first+6 == last {
			o.nth = -1
		} else {
			o.onOrAfter = first
		}
	case !byDay && days == 1:
		o.monthDay = first
	case !byDay && days == 0 && o.month == 0:
		o.onStartDate = true
	default:
		return
	}
	o.yearly = o.month != 0 || o.onStartDate
}

// onset returns the instant the observance begins in year, and whether it begins then.
func (o *observance) onset(year int) (time.Time, bool) {
	clock := o.start.Sub(day(o.start))
	month := o.month
	if o.onStartDate {
		month = o.start.Month()
	}
	var d time.Time
	switch {
	case !o.yearly && year == o.start.Year():
		d = day(o.start)
	case !o.yearly:
		return time.Time{}, false
	case o.onStartDate:
		d = time.Date(year, month, o.start.Day(), 0, 0, 0, 0, time.UTC)
	case o.monthDay > 0:
		d = time.Date(year, month, o.monthDay, 0, 0, 0, 0, time.UTC)
	case o.onOrAfter > 0:
		from := time.Date(year, month, o.onOrAfter, 0, 0, 0, 0, time.UTC)
		d = from.AddDate(0, 0, (int(o.weekday)-int(from.Weekday())+7)%7)
	case o.nth > 0:
		first := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC)
		d = first.AddDate(0, 0, (int(o.weekday)-int(first.Weekday())+7)%7+7*(o.nth-1))
	default:
		last := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC)
		d = last.AddDate(0, 0, -((int(last.Weekday()) - int(o.weekday) + 7) % 7))
	}
	if o.yearly && (d.Month() != month || year < o.start.Year() || o.count > 0 && year >= o.start.Year()+o.count) {
		return time.Time{}, false
	}
	at := d.Add(clock).Add(-time.Duration(o.from) * time.Second)
	if !o.until.IsZero() && at.After(o.until) {
		return time.Time{}, false
	}
	return at, true
}

// first returns the instant of the observance's DTSTART, when it begins to apply.
func (o *observance) first() time.Time {
	return o.start.Add(-time.Duration(o.from) * time.Second)
}

// rules is what a VTIMEZONE says: its observances.
type rules []*observance

// transition is an onset: from at on, the offset is off.
type transition struct {
	at  time.Time
	off int
}

// transitions returns the onsets of the rules that matter from the start of year from to
// the end of year to, in order: every onset at a DTSTART or an RDATE up to then (the last
// before the range is the offset it starts with), and the yearly ones from the year before
// it, or around their UNTIL when that came before; without those a later yearly one of
// their kind replaced by then.
func (r rules) transitions(from, to int) []transition {
	end := time.Date(to+1, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []transition
	add := func(o *observance, at time.Time) {
		if at.Before(end) && !r.replaced(o, at) {
			out = append(out, transition{at, o.to})
		}
	}
	for _, o := range r {
		if at, ok := o.onset(o.start.Year()); ok || !o.yearly {
			add(o, cmp.Or(at, o.first()))
		}
		for _, d := range o.rdates {
			add(o, d.Add(-time.Duration(o.from)*time.Second))
		}
		if !o.yearly {
			continue
		}
		years := []int{}
		for y := max(from-1, o.start.Year()+1); y <= to; y++ {
			years = append(years, y)
		}
		if last := o.until.Year(); !o.until.IsZero() && last < from-1 {
			years = append(years, last-1, last)
		}
		if o.count > 0 && o.start.Year()+o.count-1 < from-1 {
			years = append(years, o.start.Year()+o.count-1)
		}
		for _, y := range years {
			if at, ok := o.onset(y); ok {
				add(o, at)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b transition) int { return a.at.Compare(b.at) })
	return out
}

// offsetIn returns the offset transitions (sorted) give at t, and whether one does.
func offsetIn(ts []transition, t time.Time) (int, bool) {
	i, _ := slices.BinarySearchFunc(ts, t, func(x transition, t time.Time) int {
		if x.at.After(t) {
			return 1
		}
		return -1
	})
	if i == 0 {
		return 0, false
	}
	return ts[i-1].off, true
}

// offset returns the UTC offset the rules give at instant t.
func (r rules) offset(t time.Time) (int, bool) {
	return offsetIn(r.transitions(t.Year(), t.Year()), t)
}

// replaced reports whether yearly observance o's onset at is after a yearly observance of
// its kind with a later DTSTART began.
func (r rules) replaced(o *observance, at time.Time) bool {
	if !o.yearly {
		return false
	}
	for _, n := range r {
		if n.yearly && n.daylight == o.daylight && n.start.After(o.start) && !n.first().After(at) {
			return true
		}
	}
	return false
}

// usable reports whether every observance was read whole: an RRULE other than the yearly
// rules readRule reads (BYMONTHDAY, a second RRULE) could only be guessed at.
func (r rules) usable() bool {
	if len(r) == 0 {
		return false
	}
	for _, o := range r {
		if !o.hasStartTS || !o.hasFrom || !o.hasTo || o.rrules > 1 || o.rrules == 1 && !o.yearly || o.badRdate {
			return false
		}
	}
	return true
}

// ruleZones are the candidate zones: one per rule set, those windowsZones maps to.
var ruleZones = sync.OnceValue(func() []*time.Location {
	seen := map[string]bool{}
	var out []*time.Location
	for _, name := range windowsZones() {
		if seen[name] {
			continue
		}
		seen[name] = true
		if loc := ianaZone(name); loc != nil {
			out = append(out, loc)
		}
	}
	return out
})

// zoneFor returns the zone that follows the rules at every sample instant of the three
// years around year, or nil.
func (r rules) zoneFor(year int) *time.Location {
	if !r.usable() {
		return nil
	}
	ts := r.transitions(year-1, year+1)
	var daily, near []time.Time // samples: at noon every day; a minute either side of each onset
	var dailyOff, nearOff []int
	sample := func(at *[]time.Time, offs *[]int, t time.Time) {
		if off, ok := offsetIn(ts, t); ok && t.Year() >= year-1 && t.Year() <= year+1 {
			*at, *offs = append(*at, t), append(*offs, off)
		}
	}
	for t := time.Date(year-1, 1, 1, 12, 0, 0, 0, time.UTC); t.Year() <= year+1; t = t.Add(24 * time.Hour) {
		sample(&daily, &dailyOff, t)
	}
	for _, x := range ts {
		sample(&near, &nearOff, x.at.Add(-time.Minute))
		sample(&near, &nearOff, x.at.Add(time.Minute))
	}
	if len(daily) == 0 {
		return nil
	}
	agree := func(loc *time.Location, at []time.Time, offs []int, all bool) int {
		n := 0
		for i, t := range at {
			if _, off := t.In(loc).Zone(); off == offs[i] {
				n++
			} else if all {
				return -1
			}
		}
		return n
	}
	var found *time.Location
	best := -1
	for _, loc := range ruleZones() {
		if agree(loc, daily, dailyOff, true) < 0 {
			continue
		}
		n := agree(loc, near, nearOff, false)
		if n > best || n == best && loc.String() < found.String() {
			found, best = loc, n
		}
	}
	return found
}
