package ical

import (
	"cmp"
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
// The offset at an instant is that of the observance whose onset came last before it. A
// yearly observance has an onset every year from its DTSTART to its RRULE's UNTIL; any
// other has one, at its DTSTART, and holds until a later onset. Exchange writes a zone's
// history as eras, each a STANDARD and a DAYLIGHT with a later DTSTART than the era before
// and often no UNTIL on the old rules: an observance's onsets end where one of its kind
// (STANDARD or DAYLIGHT) with a later DTSTART begins.

// observance is one STANDARD or DAYLIGHT component of a VTIMEZONE.
type observance struct {
	start      time.Time // DTSTART, a local wall time (in the offset it changes from)
	until      time.Time // the RRULE's UNTIL, in UTC; zero when it has none
	daylight   bool      // a DAYLIGHT, not a STANDARD
	from, to   int       // TZOFFSETFROM, TZOFFSETTO in seconds
	month      time.Month
	nth        int // BYDAY ordinal: 1..5, or -1 for the last; 0 when the rule has no BYDAY
	weekday    time.Weekday
	yearly     bool // an RRULE FREQ=YEARLY with BYMONTH and BYDAY: it recurs every year
	rrules     int  // its RRULEs, read or not
	hasFrom    bool
	hasTo      bool
	hasStartTS bool
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
	}
}

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

// readRule reads the yearly rules time zones use: FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU, or
// with the week as days of the month (BYDAY=SU;BYMONTHDAY=8,9,10,11,12,13,14 for the
// second Sunday), with an UNTIL (a UTC date-time, or a date) when the rule ends. A rule
// with any other part is not read: the observance is then not yearly, and its rules not
// usable.
func (o *observance) readRule(v string) {
	var freq string
	first, days := 0, 0 // BYMONTHDAY: its first day and how many follow it one by one
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
			o.nth, o.weekday = n, w
		case "BYMONTHDAY":
			for d := range strings.SplitSeq(val, ",") {
				n, err := strconv.Atoi(d)
				if err != nil || days > 0 && n != first+days {
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
		case "WKST":
		default:
			return
		}
	}
	if days == 7 && o.nth == 0 && o.month != 0 {
		switch last := time.Date(2025, o.month+1, 0, 0, 0, 0, 0, time.UTC).Day(); {
		case first%7 == 1 && first <= 22:
			o.nth = (first-1)/7 + 1
		case first+6 == last:
			o.nth = -1
		}
	} else if days > 0 {
		return
	}
	o.yearly = freq == "YEARLY" && o.month != 0 && o.nth != 0
}

// onset returns the instant the observance begins in year, and whether it begins then.
func (o *observance) onset(year int) (time.Time, bool) {
	clock := o.start.Sub(day(o.start))
	var d time.Time
	switch {
	case o.yearly:
		if o.nth > 0 {
			first := time.Date(year, o.month, 1, 0, 0, 0, 0, time.UTC)
			d = first.AddDate(0, 0, (int(o.weekday)-int(first.Weekday())+7)%7+7*(o.nth-1))
		} else {
			last := time.Date(year, o.month+1, 0, 0, 0, 0, 0, time.UTC)
			d = last.AddDate(0, 0, -((int(last.Weekday()) - int(o.weekday) + 7) % 7))
		}
		if d.Month() != o.month || year < o.start.Year() {
			return time.Time{}, false
		}
	case year == o.start.Year():
		d = day(o.start)
	default:
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

// offset returns the UTC offset the rules give at instant t: that of the observance whose
// onset came last before it, of those a later one of their kind has not replaced by then.
func (r rules) offset(t time.Time) (int, bool) {
	var best time.Time
	off, found := 0, false
	consider := func(o *observance, at time.Time, ok bool) {
		if ok && !at.After(t) && (!found || at.After(best)) {
			best, off, found = at, o.to, true
		}
	}
	for _, o := range r {
		if r.replaced(o, t) {
			continue
		}
		if !o.yearly {
			at, ok := o.onset(o.start.Year())
			consider(o, at, ok)
			continue
		}
		// The last onset before t is in its year or the one before, or it is the
		// rule's last, around its UNTIL.
		years := [4]int{t.Year() - 1, t.Year(), o.until.Year() - 1, o.until.Year()}
		for i, y := range years {
			if i < 2 || !o.until.IsZero() && y < t.Year()-1 {
				at, ok := o.onset(y)
				consider(o, at, ok)
			}
		}
	}
	return off, found
}

// replaced reports whether an observance of o's kind with a later DTSTART has begun by t.
func (r rules) replaced(o *observance, t time.Time) bool {
	for _, n := range r {
		if n.daylight == o.daylight && n.start.After(o.start) && !n.first().After(t) {
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
		if !o.hasStartTS || !o.hasFrom || !o.hasTo || o.rrules > 1 || o.rrules == 1 && !o.yearly {
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
	var samples []time.Time
	var offsets []int
	for t := time.Date(year-1, 1, 1, 12, 0, 0, 0, time.UTC); t.Year() <= year+1; t = t.Add(24 * time.Hour) {
		off, ok := r.offset(t)
		if !ok {
			continue
		}
		samples, offsets = append(samples, t), append(offsets, off)
	}
	if len(samples) == 0 {
		return nil
	}
	var found *time.Location
	for _, loc := range ruleZones() {
		match := true
		for i, t := range samples {
			if _, off := t.In(loc).Zone(); off != offsets[i] {
				match = false
				break
			}
		}
		if match && (found == nil || loc.String() < found.String()) {
			found = loc
		}
	}
	return found
}
