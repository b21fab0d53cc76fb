package loader

import (
	"strings"
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestFeedContext checks the country a feed's events are read in: the operator's hint, else
// the one country its events state, when two or more state it, else the country its
// events are placed in without doubt, when two or more are.
func TestFeedContext(t *testing.T) {
	at := func(country string) source.Event { return event("A", "Hall", "Town", country, "2026-12-05T20:00") }
	in := func(town string) source.Event { return event("A", "Hall", town, "", "2026-12-05T20:00") }
	tests := []struct {
		name   string
		events []source.Event
		home   *VenueHint
		want   string
	}{
		{"the hint's country", []source.Event{at("FR"), at("FR")}, &VenueHint{Country: "Germany"}, "DE"},
		{"the one country of the feed", []source.Event{at("Deutschland"), at("DE"), at("")}, nil, "DE"},
		{"one event is not a feed's country", []source.Event{at("DE"), at("")}, nil, ""},
		{"two countries", []source.Event{at("DE"), at("AT")}, nil, ""},
		// A band's calendar states no country: the towns its events are placed in say it.
		{"the country its towns are in", []source.Event{in("Indianapolis, IN"), in("Fort Wayne, IN"), in("Zzyzxville, IN")}, nil, "US"},
		{"towns in two countries", []source.Event{in("Indianapolis, IN"), in("Toronto, ON")}, nil, ""},
		{"one town is not a feed's country", []source.Event{in("Indianapolis, IN"), in("Zzyzxville, IN")}, nil, ""},
	}
	for _, tt := range tests {
		n := newNormalizer(noon, 1)
		if got := n.feedContext(tt.events, Source{Home: tt.home}).Country; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestPlaceReadings checks that a source's report lists where its events were placed, the
// feed's country deciding for a town named bare.
func TestPlaceReadings(t *testing.T) {
	n := newNormalizer(noon, 4)
	events := []source.Event{
		event("A", "Hall", "Moscow", "US", "2026-12-05T20:00"),
		event("B", "Hall", "Moscow", "", "2026-12-06T20:00"),
		event("C", "Barn", "Moscow", "US", "2026-12-07T20:00"),
	}
	events[0].Venue.Region, events[2].Venue.Region = "ID", "ID"
	var sr SourceReport
	n.addAll(events, 0, Source{}, &sr)
	if sr.Events != 3 || len(sr.Places) != 2 {
		t.Fatalf("%d events, places %+v", sr.Events, sr.Places)
	}
	if p := sr.Places[0]; p.City != "moscow-us" || p.Events != 2 || p.By != "" {
		t.Errorf("stated: %+v", p)
	}
	if p := sr.Places[1]; p.City != "moscow-us" || p.Place != "Moscow |  | " || p.By != "the country of the feed's other events (US); the most populous of its namesakes by four times" {
		t.Errorf("bare: %+v", p)
	}
}

// TestStreetAsTown checks a venue whose street is its postcode and town, with no locality
// ("Hauptstraße 1-5; 4041 Linz" in an Apple calendar): the town is read off the street when
// the gazetteer has it, and never made from a street.
func TestStreetAsTown(t *testing.T) {
	tests := []struct {
		name, street, country string
		lat, lon              float64 // the venue's coordinates, when not both 0
		city                  string  // "" when dropped
	}{
		{"a postcode and a town", "4041 Linz", "", 0, 0, "linz"},
		{"with its country", "52249 Eschweiler", "DE", 0, 0, "eschweiler"},
		{"a British postcode and a town", "SW2 5BZ London", "", 0, 0, "london-gb"},
		{"a town the gazetteer lacks is not made", "12764 Happyville", "DK", 0, 0, ""},
		{"a street numbered first is not a town", "1415 E University Dr", "US", 0, 0, ""},
		{"coordinates in the town agree", "4041 Linz", "AT", 48.31, 14.29, "linz"},
		{"coordinates elsewhere win", "1600 Paris", "FR", 45.76, 4.84, "lyon"},
	}
	for _, tt := range tests {
		n := newNormalizer(noon, 1)
		ev := event("A", "Hall", "", tt.country, "2026-12-05T20:00")
		ev.Venue.Street = tt.street
		if tt.lat != 0 || tt.lon != 0 {
			ev.Venue.Lat, ev.Venue.Lon, ev.Venue.HasGeo = tt.lat, tt.lon, true
		}
		var sr SourceReport
		n.addAll([]source.Event{ev}, 0, Source{}, &sr)
		switch {
		case tt.city == "" && sr.Events != 0:
			t.Errorf("%s: kept %+v", tt.name, sr.Places)
		case tt.city != "" && (sr.Events != 1 || len(sr.Places) != 1 || sr.Places[0].City != tt.city || sr.Places[0].Place != tt.street+" |  | "+tt.country):
			t.Errorf("%s: %d events, places %+v; want %s", tt.name, sr.Events, sr.Places, tt.city)
		}
	}
}

// TestStateCodeInFeedCountry checks that a US state's code after a town the gazetteer
// lacks, in a feed whose other events are in the US, is read as the state and never as
// the country of that code ("IN", India): the town is made in the state, or dropped with
// the reason when the state keeps two clocks and nothing tells which.
func TestStateCodeInFeedCountry(t *testing.T) {
	n := newNormalizer(noon, 3)
	events := []source.Event{
		event("A", "Hall", "Indianapolis, IN", "", "2026-12-05T20:00"),
		event("B", "Barn", "Fort Wayne, IN", "", "2026-12-06T20:00"),
		event("C", "Grange", "Zzyzxville, IN", "", "2026-12-07T20:00"),
		event("D", "Saloon", "Zzyzxton, OH", "", "2026-12-08T20:00"),
	}
	var sr SourceReport
	n.addAll(events, 0, Source{}, &sr)
	if sr.Events != 3 || len(sr.Dropped) != 1 || !strings.Contains(sr.Dropped[0].Reason, `"Zzyzxville" in US`) {
		t.Fatalf("%d events, dropped %+v", sr.Events, sr.Dropped)
	}
	for _, p := range sr.Places {
		if p.Country != "US" {
			t.Errorf("placed outside the US: %+v", p)
		}
	}
}
