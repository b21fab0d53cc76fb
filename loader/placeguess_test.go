package loader

import (
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestGuessedFeedCountry checks a feed whose country is guessed from where its own towns
// are placed (readCountry), a US band's calendar: the guess reads a state's code after a
// town ("Salem, IN" is in Indiana) but never takes a small town of its own over a namesake
// abroad four times as populous ("Lee's Palace, Toronto" is in Toronto, Canada, not
// Toronto, Ohio). The Toronto case is a reviewer's of session 48.
func TestGuessedFeedCountry(t *testing.T) {
	tour := []source.Event{
		event("A", "Hall", "Chicago, IL", "", "2026-12-05T20:00"),
		event("B", "Barn", "Detroit, MI", "", "2026-12-06T20:00"),
		event("C", "Grange", "Cleveland, OH", "", "2026-12-07T20:00"),
		event("D", "Club", "Pittsburgh, PA", "", "2026-12-08T20:00"),
	}
	tests := []struct {
		locality, country string
	}{
		{"Toronto", "CA"},
		{"Salem, IN", "US"},
		{"Moscow, ID", "US"},
	}
	for _, tt := range tests {
		n := newNormalizer(noon, 5)
		events := append(append([]source.Event(nil), tour...), event("E", "Lee's Palace", tt.locality, "", "2026-12-09T20:00"))
		var sr SourceReport
		n.addAll(events, 0, Source{}, &sr)
		found := false
		for _, p := range sr.Places {
			if p.Place == tt.locality+" |  | " {
				found = true
				if p.Country != tt.country {
					t.Errorf("%q placed in %s (%s), by %q; want %s", tt.locality, p.City, p.Country, p.By, tt.country)
				}
			}
		}
		if !found {
			t.Errorf("%q: not placed; dropped %+v", tt.locality, sr.Dropped)
		}
	}
}
