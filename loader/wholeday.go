package loader

import (
	"time"

	"github.com/gigs/gigs/loader/source"
)

// spansDay reports whether start and end, both with a clock, span start's whole day as
// they state it: a start at 09:00 or earlier and an end at 23:55
// or later the same day, or midnight after it. That is what a site's editor fills in when
// no time was set, or a whole day's opening hours, never a show's time: b-flat's
// Squarespace pages (Berlin) state 09:00–23:55 for concerts at 21:00, and The Events
// Calendar writes an all-day event as 00:00–23:59:59.
func spansDay(start, end source.When) bool {
	if start.IsZero() || end.IsZero() || start.DateOnly || end.DateOnly {
		return false
	}
	day := time.Date(start.Wall.Year(), start.Wall.Month(), start.Wall.Day(), 0, 0, 0, 0, time.UTC)
	from, to := start.Wall.Sub(day), end.Wall.Sub(day)
	return from <= 9*time.Hour && to >= 23*time.Hour+55*time.Minute && to <= 24*time.Hour
}
