package schemaorg

import (
	"strings"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// SubEvent files sub, an event read from a "subEvent" of parent, against parent, and
// reports whether sub is a show of its own to list beside it.
//
// A festival's sub-events are its shows, each listed. But pages also list an event's own
// performance again as its only sub-event (a concert hall's WordPress writes every
// concert's session that way): the same start, and the same name and venue where the
// sub-event states them. That sub-event is not a second show: SubEvent reports false, and
// a status it states other than "scheduled" is the parent's when the parent states no
// other. What else it states fills the parent's fields that are empty (performers, offers,
// URL, end, doors, genres, image, age), so that nothing it says is lost: a festival whose
// first day is a sub-event named after it, starting with it, gives the festival that day's
// line-up. A sub-event naming other performers than the parent's is a show of its own.
// Statuses go down too: the sub-events of a cancelled or postponed event are cancelled or
// postponed, whatever their own say (the same hall's cancelled concerts keep their
// session "scheduled").
func SubEvent(parent, sub *source.Event) (own bool) {
	if stopped(parent.Status) && !stopped(sub.Status) {
		sub.Status = parent.Status
	}
	if !sameStart(parent.Start, sub.Start) ||
		(sub.Title != "" && !strings.EqualFold(sub.Title, parent.Title)) ||
		(sub.Venue.Name != "" && parent.Venue.Name != "" && !strings.EqualFold(sub.Venue.Name, parent.Venue.Name)) ||
		(len(sub.Performers) > 0 && len(parent.Performers) > 0 && !samePerformers(sub.Performers, parent.Performers)) {
		return true
	}
	if stated(sub.Status) && !stated(parent.Status) {
		parent.Status = sub.Status
	}
	fill(parent, sub)
	return false
}

// fill gives parent's empty fields the values sub states.
func fill(parent, sub *source.Event) {
	if len(parent.Performers) == 0 {
		parent.Performers, parent.ActsOnly = sub.Performers, sub.ActsOnly
	}
	if len(parent.Offers) == 0 {
		parent.Offers = sub.Offers
	}
	if len(parent.Genres) == 0 {
		parent.Genres = sub.Genres
	}
	if parent.URL == "" {
		parent.URL = sub.URL
	}
	if parent.Image == "" {
		parent.Image = sub.Image
	}
	if parent.End.IsZero() {
		parent.End = sub.End
	}
	if parent.Doors.IsZero() {
		parent.Doors = sub.Doors
	}
	if parent.OnSale.IsZero() {
		parent.OnSale = sub.OnSale
	}
	if !parent.HasMinAge {
		parent.MinAge, parent.HasMinAge = sub.MinAge, sub.HasMinAge
	}
}

// samePerformers reports whether a and b name the same acts in the same order.
func samePerformers(a, b []source.Performer) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i].Name, b[i].Name) {
			return false
		}
	}
	return true
}

// stopped reports whether s says that the event will not take place when it was to.
func stopped(s engine.Status) bool { return s == engine.StatusCancelled || s == engine.StatusPostponed }

// stated reports whether s is a status other than "scheduled", which pages write by default.
func stated(s engine.Status) bool { return s != "" && s != engine.StatusScheduled }

// sameStart reports whether a and b state the same start: the same date and clock, and the
// same offset when both state one.
func sameStart(a, b source.When) bool {
	return a.Wall.Equal(b.Wall) && a.DateOnly == b.DateOnly &&
		(!a.HasOffset || !b.HasOffset || a.Offset == b.Offset)
}
