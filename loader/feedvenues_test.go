package loader

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestVenueNamedAloneInItsFeed reads LOCATION lines of an open-air stage's calendar
// (testdata/real/ical/burg-wilhelmstein-wuerselen.ics, no zone: times in UTC) and of a
// Tromsø aggregator's (ical/tromso-culture-aggregator.ics): a venue named alone is where
// the feed's other events at it are, when two or more state one place; a name never
// stated with its town, or stated with two, is left to be dropped.
func TestVenueNamedAloneInItsFeed(t *testing.T) {
	tests := []struct {
		name  string
		zone  string // the feed's
		lines []string
		want  []string // the city slug of each event; "" when dropped
		fed   int      // the events the feed's other events placed
	}{
		{"the stage's other nights", "", []string{"Burg Wilhelmstein\\, 52146 Würselen", "Burg Wilhelmstein\\, 52146 Würselen", "Burg Wilhelmstein", "BURG WILHELMSTEIN"},
			[]string{"wurselen", "wurselen", "wurselen", "wurselen"}, 2},
		{"one event is no feed's word", "", []string{"Burg Wilhelmstein\\, 52146 Würselen", "Burg Wilhelmstein"}, []string{"wurselen", ""}, 0},
		{"never stated with its town", "Europe/Oslo", []string{"Hålogaland Teater", "Hålogaland Teater", "Hovedscenen\\, Kulturhuset Tromsø"}, []string{"", "", "tromso"}, 0},
		{"two towns", "", []string{"Stadthalle\\, 52146 Würselen", "Stadthalle\\, 52146 Würselen", "Stadthalle\\, 48143 Münster", "Stadthalle"}, []string{"wurselen", "wurselen", "munster-07-de", ""}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := make([]source.Event, len(tt.lines))
			for i, l := range tt.lines {
				events[i] = event("KARAT", "", "", "", fmt.Sprintf("2026-02-%02dT19:00", i+1))
				events[i].Ref = string(rune('a' + i))
				events[i].Venue = orderPlace(strings.ReplaceAll(l, "\\,", ","), tt.zone, "", 0, 0)
			}
			n := newNormalizer(noon, len(events))
			var sr SourceReport
			n.addAll(events, 0, Source{}, &sr)
			got := make([]string, len(events))
			for _, r := range n.recs {
				got[r.ev.Ref[0]-'a'] = r.city.Slug
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("placed in %q; want %q (dropped %+v)", got, tt.want, sr.Dropped)
			}
			fed := 0
			for _, p := range sr.Places {
				if strings.HasPrefix(p.By, byFeedVenue) {
					fed += p.Events
				}
			}
			if fed != tt.fed {
				t.Errorf("%d events decided by %q; want %d (places %+v)", fed, byFeedVenue, tt.fed, sr.Places)
			}
		})
	}
}

// Two events at a "Main Stage" give only coordinates, 500 km apart: they do not state one
// place, and the third, named alone, must not be placed at the first's.
func TestVenueAloneWhereCoordinatesDisagree(t *testing.T) {
	events := []source.Event{
		event("A", "Main Stage", "", "", "2026-07-01T19:00"),
		event("B", "Main Stage", "", "", "2026-07-02T19:00"),
		event("C", "Main Stage", "", "", "2026-07-03T19:00"),
	}
	events[0].Venue.Lat, events[0].Venue.Lon, events[0].Venue.HasGeo = 52.52, 13.40, true // Berlin
	events[1].Venue.Lat, events[1].Venue.Lon, events[1].Venue.HasGeo = 48.14, 11.58, true // Munich
	for i := range events {
		events[i].Ref = string(rune('a' + i))
	}
	n := newNormalizer(noon, len(events))
	var sr SourceReport
	n.addAll(events, 0, Source{}, &sr)
	for _, r := range n.recs {
		if r.ev.Ref == "c" {
			t.Errorf("the venue named alone was placed in %s, by %q; the feed's events at it disagree (Berlin, Munich): want it dropped", r.city.Slug, byFeedVenue)
		}
	}
}
