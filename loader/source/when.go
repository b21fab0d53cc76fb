package source

import (
	"fmt"
	"strings"
	"time"
)

// ParseISO reads an ISO 8601 date or date-time as schema.org and most feeds write it:
// "2026-12-05", "2026-12-05T20:00", "2026-12-05T20:00:00", with optional fractional
// seconds and an optional offset "Z", "+01:00" or "+0100". A space may stand for "T".
// Surrounding white space is ignored.
func ParseISO(s string) (When, error) {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return When{}, fmt.Errorf("cannot parse time %q: too short", s)
	}
	d, err := time.Parse("2006-01-02", s[:10])
	if err != nil {
		return When{}, fmt.Errorf("cannot parse date %q: want YYYY-MM-DD", s)
	}
	if d.Year() < 1900 {
		return When{}, fmt.Errorf("cannot parse date %q: year out of range", s)
	}
	rest := s[10:]
	if rest == "" {
		return When{Wall: d, DateOnly: true}, nil
	}
	if rest[0] != 'T' && rest[0] != 't' && rest[0] != ' ' {
		return When{}, fmt.Errorf("cannot parse time %q: unexpected %q after the date", s, rest[:1])
	}
	rest = rest[1:]
	// Split clock and offset.
	cut := strings.IndexAny(rest, "Zz+-")
	clock, off := rest, ""
	if cut >= 0 {
		clock, off = rest[:cut], rest[cut:]
	}
	if i := strings.IndexByte(clock, '.'); i >= 0 {
		frac := clock[i+1:]
		if frac == "" || strings.Trim(frac, "0123456789") != "" {
			return When{}, fmt.Errorf("cannot parse time %q: bad fractional seconds", s)
		}
		clock = clock[:i]
	}
	var c time.Time
	switch len(clock) {
	case 5:
		c, err = time.Parse("15:04", clock)
	case 8:
		c, err = time.Parse("15:04:05", clock)
	default:
		err = fmt.Errorf("want HH:MM or HH:MM:SS")
	}
	if err != nil {
		return When{}, fmt.Errorf("cannot parse time %q: bad clock %q", s, clock)
	}
	w := When{Wall: time.Date(d.Year(), d.Month(), d.Day(), c.Hour(), c.Minute(), c.Second(), 0, time.UTC)}
	if off == "" {
		return w, nil
	}
	secs, err := parseOffset(off)
	if err != nil {
		return When{}, fmt.Errorf("cannot parse time %q: %w", s, err)
	}
	w.HasOffset, w.Offset = true, secs
	return w, nil
}

func parseOffset(off string) (int, error) {
	if off == "Z" || off == "z" {
		return 0, nil
	}
	sign := 1
	if off[0] == '-' {
		sign = -1
	}
	digits := strings.ReplaceAll(off[1:], ":", "")
	if len(digits) != 4 && len(digits) != 2 || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Errorf("bad offset %q", off)
	}
	h := int(digits[0]-'0')*10 + int(digits[1]-'0')
	m := 0
	if len(digits) == 4 {
		m = int(digits[2]-'0')*10 + int(digits[3]-'0')
	}
	if h > 14 || m > 59 || h == 14 && m > 0 {
		return 0, fmt.Errorf("offset %q out of range", off)
	}
	return sign * (h*3600 + m*60), nil
}
