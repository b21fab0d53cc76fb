package ical

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/source"
)

// form is how a DATE or DATE-TIME value is anchored in time.
type form uint8

const (
	floating form = iota // a wall time without a zone: venue-local
	utc                  // a wall time in UTC ("...Z")
	zoned                // a wall time in a known zone
	dateOnly             // a date without a time
)

// stamp is one DATE or DATE-TIME value as the document states it.
type stamp struct {
	wall time.Time      // date and clock in time.UTC's fields; its instant means nothing by itself
	form form           //
	loc  *time.Location // the zone, for zoned stamps only
}

// instant is the moment s stands for. Floating and date-only stamps have none; their wall
// read as UTC stands in for it.
//
// A zoned wall time that a daylight saving change skips, or that it repeats, gets the
// instant time.Date gives it, which Go does not promise to choose in a particular way.
func (s stamp) instant() time.Time {
	if s.form != zoned {
		return s.wall
	}
	y, m, d := s.wall.Date()
	hh, mm, ss := s.wall.Clock()
	return time.Date(y, m, d, hh, mm, ss, 0, s.loc)
}

// when turns s into a source.When. The wall stays as stated; a zoned stamp's offset is the
// one that, subtracted from the wall, gives its instant. For a wall time in a gap that
// offset is the one time.Date normalized it with.
func (s stamp) when() source.When {
	switch s.form {
	case dateOnly:
		return source.When{Wall: s.wall, DateOnly: true}
	case utc:
		return source.When{Wall: s.wall, HasOffset: true}
	case zoned:
		return source.When{Wall: s.wall, HasOffset: true, Offset: int(s.wall.Unix() - s.instant().Unix())}
	}
	return source.When{Wall: s.wall}
}

// in expresses s in ref's form, so that values stated in different forms (an EXDATE in
// UTC for a zoned series) compare: a date takes the date of s, a date given to a
// date-time form takes ref's clock, a zoned or UTC instant moves to ref's zone, and a
// floating wall time, which has no instant, keeps its wall. A wall in ref's own form
// stays as it is, even one that a daylight saving change skips.
func (s stamp) in(ref stamp) stamp {
	switch {
	case s.form == ref.form && (s.form != zoned || s.loc.String() == ref.loc.String()):
		return stamp{wall: s.wall, form: ref.form, loc: ref.loc}
	case ref.form == dateOnly:
		return stamp{wall: day(s.wall), form: dateOnly}
	case s.form == dateOnly:
		return stamp{wall: s.wall.Add(ref.wall.Sub(day(ref.wall))), form: ref.form, loc: ref.loc}
	case s.form == floating || ref.form == floating:
		return stamp{wall: s.wall, form: ref.form, loc: ref.loc}
	case ref.form == utc:
		return stamp{wall: s.instant().UTC(), form: utc}
	}
	return stamp{wall: wallOf(s.instant().In(ref.loc)), form: zoned, loc: ref.loc}
}

// day returns the date of a wall, at 00:00.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// wallOf returns t's date and clock in its own zone as a wall.
func wallOf(t time.Time) time.Time {
	y, m, d := t.Date()
	hh, mm, ss := t.Clock()
	return time.Date(y, m, d, hh, mm, ss, 0, time.UTC)
}

// parseStamp reads a DATE ("20261205") or DATE-TIME ("20261205T200000", with "Z" for UTC)
// value. valueType is the VALUE parameter; a date-time without "Z" is in zone loc, or
// floating when loc is nil.
func parseStamp(v, valueType string, loc *time.Location) (stamp, error) {
	v = strings.TrimSpace(v)
	switch strings.ToUpper(valueType) {
	case "", "DATE-TIME":
	case "DATE":
		// A VALUE=DATE that carries a time anyway ("20261205T200000") is read as the
		// date-time it states: some producers write the parameter whatever the value.
	default:
		return stamp{}, fmt.Errorf("value=%s is not a date", strings.ToLower(clip(valueType, maxQuote)))
	}
	if len(v) == 8 {
		t, err := civil(v, "000000")
		return stamp{wall: t, form: dateOnly}, err
	}
	if len(v) < 15 || len(v) > 16 || v[8] != 'T' && v[8] != 't' || len(v) == 16 && v[15] != 'Z' && v[15] != 'z' {
		return stamp{}, errors.New("want yyyymmdd or yyyymmddThhmmss with an optional Z")
	}
	t, err := civil(v[:8], v[9:15])
	switch {
	case err != nil:
		return stamp{}, err
	case len(v) == 16:
		return stamp{wall: t, form: utc}, nil
	case loc != nil:
		return stamp{wall: t, form: zoned, loc: loc}, nil
	}
	return stamp{wall: t, form: floating}, nil
}

// civil reads the digits of a date (yyyymmdd) and a clock (hhmmss) and checks their ranges.
func civil(date, clock string) (time.Time, error) {
	n := func(s string) int {
		v := 0
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return -1
			}
			v = v*10 + int(s[i]-'0')
		}
		return v
	}
	y, mo, d := n(date[:4]), n(date[4:6]), n(date[6:])
	hh, mm, ss := n(clock[:2]), n(clock[2:4]), n(clock[4:])
	if y < 0 || mo < 0 || d < 0 || hh < 0 || mm < 0 || ss < 0 {
		return time.Time{}, errors.New("not a number")
	}
	if y < 1900 {
		return time.Time{}, errors.New("year out of range")
	}
	t := time.Date(y, time.Month(mo), d, hh, mm, ss, 0, time.UTC)
	if t.Month() != time.Month(mo) || t.Day() != d || hh > 23 || mm > 59 || ss > 59 {
		return time.Time{}, errors.New("date or time out of range")
	}
	return t, nil
}

// duration is a DURATION value: nominal days (weeks count 7) and exact seconds.
type duration struct {
	days int
	secs int64
}

// parseDuration reads a positive RFC 5545 duration such as "PT2H30M", "P1D" or "P1W".
func parseDuration(v string) (duration, error) {
	s := strings.ToUpper(strings.TrimSpace(v))
	s = strings.TrimPrefix(s, "+")
	if strings.HasPrefix(s, "-") {
		return duration{}, errors.New("negative duration")
	}
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return duration{}, errors.New("want P[n]W, P[n]D or PT[n]H[n]M[n]S")
	}
	var d duration
	inTime := false
	for rest != "" {
		if rest[0] == 'T' && !inTime {
			inTime, rest = true, rest[1:]
			continue
		}
		i := 0
		for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
			i++
		}
		switch {
		case i == 0 || i == len(rest):
			return duration{}, errors.New("want P[n]W, P[n]D or PT[n]H[n]M[n]S")
		case i > 7:
			return duration{}, errors.New("number too large")
		}
		n := 0
		for _, c := range rest[:i] {
			n = n*10 + int(c-'0')
		}
		switch u := rest[i]; {
		case !inTime && u == 'W':
			d.days += 7 * n
		case !inTime && u == 'D':
			d.days += n
		case inTime && u == 'H':
			d.secs += 3600 * int64(n)
		case inTime && u == 'M':
			d.secs += 60 * int64(n)
		case inTime && u == 'S':
			d.secs += int64(n)
		default:
			return duration{}, fmt.Errorf("unexpected %q", string(u))
		}
		rest = rest[i+1:]
	}
	return d, nil
}

// after returns the end of a span of d that starts at s. Days are nominal (the same wall
// clock d.days later) and seconds exact, so a zoned span across a daylight saving change
// ends at the right instant. A date-only start takes whole days only.
func (d duration) after(s stamp) (stamp, bool) {
	e := s
	e.wall = s.wall.AddDate(0, 0, d.days)
	switch {
	case s.form == dateOnly:
		return e, d.days > 0
	case s.form == zoned:
		e.wall = wallOf(e.instant().Add(time.Duration(d.secs) * time.Second).In(s.loc))
	default:
		e.wall = e.wall.Add(time.Duration(d.secs) * time.Second)
	}
	return e, true
}
