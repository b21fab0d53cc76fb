package loader

import (
	"reflect"
	"testing"

	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/source"
)

// TestWholeDay reads as dates alone the starts of events whose times span their whole day,
// as b-flat's Squarespace pages (Berlin) state their concerts at 21:00, and no other.
func TestWholeDay(t *testing.T) {
	when := func(s string) source.When {
		if s == "" {
			return source.When{}
		}
		w, err := schemaorg.When(s)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, c := range []struct {
		name, start, end string
		day              bool
	}{
		{"b-flat's Squarespace", "2026-08-26T09:00:00+0200", "2026-08-26T23:55:00+0200", true},
		{"a calendar's day", "2026-08-26T00:00:00", "2026-08-26T23:59:59", true},
		{"to midnight", "2026-08-26T08:00:00+02:00", "2026-08-27T00:00:00+02:00", true},
		{"a concert", "2026-08-26T21:00:00+02:00", "2026-08-26T23:55:00+02:00", false},
		{"a festival's afternoon", "2026-08-26T12:00:00", "2026-08-26T23:59:00", false},
		{"a morning to evening", "2026-08-26T09:00:00", "2026-08-26T23:00:00", false},
		{"past midnight", "2026-08-26T09:00:00", "2026-08-27T02:00:00", false},
		{"days", "2026-08-26T09:00:00", "2026-08-28T23:59:00", false},
		{"other offsets", "2026-10-25T00:00:00+02:00", "2026-10-25T23:59:00+01:00", false},
		{"no end", "2026-08-26T09:00:00", "", false},
		{"a date", "2026-08-26", "2026-08-26", false},
	} {
		events := []source.Event{{Title: "Sir Bradley", Start: when(c.start), End: when(c.end)}}
		notes := wholeDay(events)
		got := events[0].Start
		switch {
		case c.day && (!got.DateOnly || got.Wall.Format("2006-01-02") != "2026-08-26" || !events[0].End.IsZero() || len(notes) != 1):
			t.Errorf("%s: start %+v, end %+v, notes %q; want the date alone and a note", c.name, got, events[0].End, notes)
		case !c.day && (got != when(c.start) || notes != nil):
			t.Errorf("%s: start %+v, notes %q; want it as stated", c.name, got, notes)
		}
	}
	events := []source.Event{
		{Start: when("2026-08-26T09:00:00+0200"), End: when("2026-08-26T23:55:00+0200")},
		{Start: when("2026-09-01T19:00:00+0200"), End: when("2026-09-01T23:00:00+0200")},
		{Start: when("2026-08-15T09:00:00+0200"), End: when("2026-08-15T23:55:00+0200")},
		{Start: when("2026-08-16T00:00:00"), End: when("2026-08-16T23:59:00")},
	}
	want := []string{
		"2 events state 09:00–23:55, a whole day: their starts are read as their dates alone, the time to be announced",
		"1 event states 00:00–23:59, a whole day: its start is read as its date alone, the time to be announced",
	}
	if notes := wholeDay(events); !reflect.DeepEqual(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
}
