package schemaorg

import (
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// TestSubEvent files sub-events against their events as the Gulbenkian's concert pages
// (Lisbon, WordPress) list them: every concert's session again as its only sub-event,
// "scheduled" even when the concert is cancelled.
func TestSubEvent(t *testing.T) {
	at := func(s string) source.When {
		w, err := When(s)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	ev := func(title, start, venue string, status engine.Status) source.Event {
		return source.Event{Title: title, Start: at(start), Venue: source.Place{Name: venue}, Status: status}
	}
	acts := func(e source.Event, names ...string) source.Event {
		for _, n := range names {
			e.Performers = append(e.Performers, source.Performer{Name: n})
		}
		return e
	}
	const (
		none      = engine.Status("")
		scheduled = engine.StatusScheduled
		cancelled = engine.StatusCancelled
		postponed = engine.StatusPostponed
	)
	for _, c := range []struct {
		name                string
		parent, sub         source.Event
		own                 bool
		parentWant, subWant engine.Status
	}{
		{"its session, again", ev("Quarteto Diotima", "2026-09-12 19:00:00", "Grande Auditório", scheduled),
			ev("Quarteto Diotima", "2026-09-12 19:00:00", "Grande Auditório", scheduled), false, scheduled, scheduled},
		{"a cancelled concert's session", ev("Beatrice Rana", "2026-10-11 18:00:00", "Grande Auditório", cancelled),
			ev("Beatrice Rana", "2026-10-11 18:00:00", "Grande Auditório", scheduled), false, cancelled, cancelled},
		{"a session cancelled alone", ev("Beatrice Rana", "2026-10-11 18:00:00", "Grande Auditório", none),
			ev("beatrice rana", "2026-10-11T18:00:00", "", cancelled), false, cancelled, cancelled},
		{"no name, no venue", ev("Fest", "2026-07-01T20:00:00+02:00", "Park", none),
			ev("", "2026-07-01T20:00:00+02:00", "", none), false, none, none},
		{"an offset on one side only", ev("Fest", "2026-07-01T20:00:00", "Park", none),
			ev("Fest", "2026-07-01T20:00:00+02:00", "Park", none), false, none, none},
		{"another line-up at the festival's start", acts(ev("Fest", "2026-07-01T20:00:00", "Park", none), "A"),
			acts(ev("Fest", "2026-07-01T20:00:00", "Park", none), "B"), true, none, none},
		{"the same line-up again", acts(ev("Fest", "2026-07-01T20:00:00", "Park", none), "A"),
			acts(ev("fest", "2026-07-01T20:00:00", "Park", none), "a"), false, none, none},
		{"a festival's day", ev("Fest", "2026-07-01", "Park", none),
			ev("Day 2", "2026-07-02", "Park", none), true, none, none},
		{"a show at the festival's start", ev("Fest", "2026-07-01T20:00:00", "Park", none),
			ev("Headliner", "2026-07-01T20:00:00", "Park", none), true, none, none},
		{"the same name on another stage", ev("Fest", "2026-07-01T20:00:00", "Park", none),
			ev("Fest", "2026-07-01T20:00:00", "Tent", none), true, none, none},
		{"the same day, another clock", ev("Fest", "2026-07-01", "Park", none),
			ev("Fest", "2026-07-01T20:00:00", "Park", none), true, none, none},
		{"other offsets", ev("Fest", "2026-07-01T20:00:00+02:00", "Park", none),
			ev("Fest", "2026-07-01T20:00:00+01:00", "Park", none), true, none, none},
		{"a postponed festival's days", ev("Fest", "2026-07-01", "Park", postponed),
			ev("Day 2", "2026-07-02", "Park", scheduled), true, postponed, postponed},
		{"a cancelled day of a festival", ev("Fest", "2026-07-01", "Park", scheduled),
			ev("Day 2", "2026-07-02", "Park", cancelled), true, scheduled, cancelled},
		{"a rescheduled festival's days keep theirs", ev("Fest", "2026-07-01", "Park", engine.StatusRescheduled),
			ev("Day 2", "2026-07-02", "Park", scheduled), true, engine.StatusRescheduled, scheduled},
	} {
		parent, sub := c.parent, c.sub
		if own := SubEvent(&parent, &sub); own != c.own || parent.Status != c.parentWant || sub.Status != c.subWant {
			t.Errorf("%s: own %v, statuses %q and %q; want %v, %q and %q",
				c.name, own, parent.Status, sub.Status, c.own, c.parentWant, c.subWant)
		}
	}
}
