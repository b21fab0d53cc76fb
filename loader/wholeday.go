package loader

import (
	"fmt"
	"time"

	"github.com/gigs/gigs/loader/source"
)

// wholeDay reads as its date alone the start of every event whose stated start and end
// span its whole day: a start at 09:00 or earlier and an end at 23:55 or later the same day
// (or midnight after it). That is what a site's editor fills in when no time was set, or a
// whole day's opening hours, never a show's time: b-flat's Squarespace pages state
// 09:00–23:55 for concerts at 21:00, and calendars write a day as 00:00–23:59. The time is
// not guessed: the event keeps its date, its time to be announced, and a note per span
// says which were read so.
func wholeDay(events []source.Event) (notes []string) {
	type span struct{ from, to string }
	count := map[span]int{}
	var order []span
	for i := range events {
		e := &events[i]
		if !spansDay(e.Start, e.End) {
			continue
		}
		s := span{e.Start.Wall.Format("15:04"), e.End.Wall.Format("15:04")}
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
		y, m, d := e.Start.Wall.Date()
		e.Start = source.When{Wall: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), DateOnly: true}
		e.End = source.When{}
	}
	for _, s := range order {
		note := fmt.Sprintf("%d events state %s–%s, a whole day: their starts are read as their dates alone, the time to be announced", count[s], s.from, s.to)
		if count[s] == 1 {
			note = fmt.Sprintf("1 event states %s–%s, a whole day: its start is read as its date alone, the time to be announced", s.from, s.to)
		}
		notes = append(notes, note)
	}
	return notes
}

// spansDay reports whether start and end, both with a clock, span start's whole day.
func spansDay(start, end source.When) bool {
	if start.IsZero() || end.IsZero() || start.DateOnly || end.DateOnly ||
		(start.HasOffset && end.HasOffset && start.Offset != end.Offset) {
		return false
	}
	day := time.Date(start.Wall.Year(), start.Wall.Month(), start.Wall.Day(), 0, 0, 0, 0, time.UTC)
	from, to := start.Wall.Sub(day), end.Wall.Sub(day)
	return from <= 9*time.Hour && to >= 23*time.Hour+55*time.Minute && to <= 24*time.Hour
}
