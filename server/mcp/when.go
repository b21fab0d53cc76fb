package mcp

import (
	"errors"
	"strings"
	"time"
)

// span is a range of days in a place's zone, as whats_on asks /v1/gigs for it: from an
// instant (zero: now, the API's default) or from the start of a date, to the end of a
// date (both venue-local, as the API compares dates).
type span struct {
	from     time.Time // an instant; zero when fromDate or now is meant
	fromDate time.Time // a date (midnight in the zone); zero when from or now is meant
	to       time.Time // the last date, midnight in the zone
}

// errWhen says what when accepts.
var errWhen = errors.New(`must be today, tonight, tomorrow, this weekend, next weekend, this week, next week, this month, next month, a weekday (friday), a date YYYY-MM-DD or dates YYYY-MM-DD..YYYY-MM-DD`)

// maxSpanDays caps a span of dates: listings reach about a year ahead.
const maxSpanDays = 400

// parseWhen reads a span in plain words (see whenSchema) as of now, which is in the
// place's zone. A span that starts now leaves from and fromDate zero, so that the API's
// own default applies (and its answers stay shared between callers).
func parseWhen(s string, now time.Time) (span, error) {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	s = strings.TrimPrefix(s, "on ")
	today := midnight(now)
	evening := at18(today)
	weekday := (int(today.Weekday()) + 6) % 7 // Monday 0 … Sunday 6
	monday := today.AddDate(0, 0, -weekday)
	sunday := monday.AddDate(0, 0, 6)
	laterOf := func(t time.Time) time.Time { // an instant, or now once it has passed
		if now.Before(t) {
			return t
		}
		return time.Time{}
	}
	switch s {
	case "", "today", "now":
		return span{to: today}, nil
	case "tonight":
		return span{from: laterOf(evening), to: today}, nil
	case "tomorrow":
		d := today.AddDate(0, 0, 1)
		return span{fromDate: d, to: d}, nil
	case "this weekend", "weekend", "the weekend":
		return span{from: laterOf(at18(monday.AddDate(0, 0, 4))), to: sunday}, nil
	case "next weekend":
		friday := monday.AddDate(0, 0, 11)
		return span{from: at18(friday), to: friday.AddDate(0, 0, 2)}, nil
	case "this week":
		return span{to: sunday}, nil
	case "next week":
		return span{fromDate: monday.AddDate(0, 0, 7), to: sunday.AddDate(0, 0, 7)}, nil
	case "this month":
		return span{to: time.Date(now.Year(), now.Month()+1, 0, 0, 0, 0, 0, now.Location())}, nil
	case "next month":
		first := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, now.Location())
		return span{fromDate: first, to: first.AddDate(0, 1, -1)}, nil
	}
	name, next := strings.CutPrefix(strings.TrimPrefix(s, "this "), "next ")
	for d := range 8 {
		if d == 0 && next || d == 7 && !next {
			continue // next friday, said on a Friday, is a week on
		}
		day := today.AddDate(0, 0, d)
		if w := strings.ToLower(day.Weekday().String()); name == w || name == w[:3] {
			if d == 0 {
				return span{to: today}, nil
			}
			return span{fromDate: day, to: day}, nil
		}
	}
	a, b, ok := strings.Cut(s, "..")
	if !ok {
		b = a
	}
	first, err1 := time.ParseInLocation(time.DateOnly, strings.TrimSpace(a), now.Location())
	last, err2 := time.ParseInLocation(time.DateOnly, strings.TrimSpace(b), now.Location())
	switch {
	case err1 != nil || err2 != nil:
		return span{}, errWhen
	case last.Before(first):
		return span{}, errors.New("the last date is before the first")
	case last.Sub(first) > maxSpanDays*24*time.Hour:
		return span{}, errors.New("a span is at most 400 days")
	}
	return span{fromDate: first, to: last}, nil
}

// at18 is 18:00 on day's date, in its zone.
func at18(day time.Time) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, 18, 0, 0, 0, day.Location())
}

// midnight is the start of t's day in its zone.
func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// describe says the span in words, for the answer's first line: "Fri 4 Dec 2026" or
// "Fri 4 Dec to Sun 6 Dec 2026".
func (s span) describe(now time.Time) string {
	first := s.fromDate
	if first.IsZero() {
		first = midnight(now)
		if !s.from.IsZero() {
			first = midnight(s.from)
		}
	}
	if first.Equal(s.to) {
		return s.to.Format("Mon 2 Jan 2006")
	}
	return first.Format("Mon 2 Jan") + " to " + s.to.Format("Mon 2 Jan 2006")
}
