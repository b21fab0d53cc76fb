package loader

import (
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestFeedContext checks the country a feed's events are read in: the operator's hint, else
// the one country its events state, when two or more state it.
func TestFeedContext(t *testing.T) {
	at := func(country string) source.Event { return event("A", "Hall", "Town", country, "2026-12-05T20:00") }
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
