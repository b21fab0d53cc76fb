package loader

import (
	"cmp"
	"strings"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// A venue's or a town's calendar writes its place in full on most events and only the
// venue's name on some: an open-air stage's feed has "Burg Wilhelmstein, 52146 Würselen"
// on its theatre nights and "Burg Wilhelmstein" alone on a band's sixteen dates. The
// feed's other events say where the venue is: a venue named alone (no street, town,
// region, postcode, country or coordinates) is placed where the feed's other events at a
// venue of that name are, when they all state the same place (street, town, postcode,
// region and country, compared folded) and two of them at least do. A name the feed places in two towns, or
// never with its town, is left as it is (dropped with its reason). decided_by names it.

// byFeedVenue is the order decided_by names for a venue placed by the feed's other events.
const byFeedVenue = "the feed's other events at this venue"

// minFeedVenue is how many of the feed's other events must state a venue's place.
const minFeedVenue = 2

// feedVenue is the place the feed's events at one venue name state, and how many do.
type feedVenue struct {
	place source.Place
	n     int
	split bool // they state two places
}

// placeAlone fills the place of each event whose venue is named alone from the feed's
// other events at a venue of that name (see above), marking it in n.orders; an event
// already read in another order (restate) is left.
func (n *normalizer) placeAlone(events []source.Event) {
	some := false
	for i := range events {
		some = some || alone(&events[i].Venue)
	}
	if !some {
		return // most feeds: nothing to fill, no map made
	}
	venues := map[string]*feedVenue{}
	for i := range events {
		p := &events[i].Venue
		if alone(p) {
			continue
		}
		key := engine.Fold(strings.TrimSpace(p.Name))
		v := venues[key]
		switch {
		case v == nil:
			venues[key] = &feedVenue{place: *p, n: 1}
		case samePlace(&v.place, p):
			v.n++
		default:
			v.split = true
		}
	}
	for i := range events {
		ev := &events[i]
		if !alone(&ev.Venue) || n.orders[ev] != "" {
			continue
		}
		v := venues[engine.Fold(strings.TrimSpace(ev.Venue.Name))]
		if v == nil || v.split || v.n < minFeedVenue {
			continue
		}
		own := ev.Venue
		ev.Venue = v.place
		ev.Venue.Name, ev.Venue.FeedZone = own.Name, own.FeedZone
		ev.Venue.Zone, ev.Venue.URL = cmp.Or(own.Zone, v.place.Zone), cmp.Or(own.URL, v.place.URL)
		n.orders[ev] = byFeedVenue
	}
}

// alone reports whether a place names its venue and nothing else.
func alone(p *source.Place) bool {
	return strings.TrimSpace(p.Name) != "" && strings.TrimSpace(p.Street) == "" && strings.TrimSpace(p.Locality) == "" &&
		strings.TrimSpace(p.Region) == "" && strings.TrimSpace(p.PostalCode) == "" && strings.TrimSpace(p.Country) == "" && !p.HasGeo
}

// samePlace reports whether two places state the same street, town, postcode, region and
// country (a line's town may be read as its street: "52146 Würselen").
func samePlace(a, b *source.Place) bool {
	if a.HasGeo != b.HasGeo || a.HasGeo && places.Distance(a.Lat, a.Lon, b.Lat, b.Lon) > 1 {
		return false // coordinates a kilometre apart or more: two places
	}
	return engine.Fold(strings.TrimSpace(a.Street)) == engine.Fold(strings.TrimSpace(b.Street)) &&
		engine.Fold(strings.TrimSpace(a.PostalCode)) == engine.Fold(strings.TrimSpace(b.PostalCode)) &&
		engine.Fold(strings.TrimSpace(a.Locality)) == engine.Fold(strings.TrimSpace(b.Locality)) &&
		engine.Fold(strings.TrimSpace(a.Region)) == engine.Fold(strings.TrimSpace(b.Region)) &&
		engine.Fold(strings.TrimSpace(a.Country)) == engine.Fold(strings.TrimSpace(b.Country))
}
