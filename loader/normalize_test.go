package loader

import (
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

func TestInstant(t *testing.T) {
	tests := []struct {
		in, zone string
		want     string // RFC 3339 in the venue's zone, or a date for date-only
		tba      bool
	}{
		{"2026-12-05T20:00:00+01:00", "Europe/Berlin", "2026-12-05T20:00:00+01:00", false},
		{"2026-12-05T19:00:00Z", "Europe/Berlin", "2026-12-05T20:00:00+01:00", false},
		{"2026-12-05T20:00", "Asia/Kolkata", "2026-12-05T20:00:00+05:30", false},
		{"2026-12-05T20:00", "Asia/Kathmandu", "2026-12-05T20:00:00+05:45", false},
		{"2026-12-05T20:00", "America/St_Johns", "2026-12-05T20:00:00-03:30", false},
		{"2027-03-28T20:00", "Europe/Berlin", "2027-03-28T20:00:00+02:00", false},    // spring forward day
		{"2027-03-28T02:30", "Europe/Berlin", "2027-03-28T03:30:00+02:00", false},    // in the gap: clocks moved on
		{"2027-03-14T21:00", "America/New_York", "2027-03-14T21:00:00-04:00", false}, // US spring forward
		{"2027-04-04T20:00", "Australia/Sydney", "2027-04-04T20:00:00+10:00", false}, // southern autumn
		{"2026-12-24", "Europe/Paris", "2026-12-24", true},
		{"2026-12-05T20:00:00+00:00", "America/Sao_Paulo", "2026-12-05T17:00:00-03:00", false},
	}
	for _, tt := range tests {
		w, err := source.ParseISO(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		loc, _ := time.LoadLocation(tt.zone)
		got, tba := instant(w, loc)
		s := got.Format("2006-01-02T15:04:05-07:00")
		if tt.tba {
			s = got.Format(time.DateOnly)
		}
		if s != tt.want || tba != tt.tba {
			t.Errorf("instant(%s in %s) = %s, tba %v; want %s, %v", tt.in, tt.zone, s, tba, tt.want, tt.tba)
		}
	}
}

func TestCanonicalGenre(t *testing.T) {
	for tag, want := range map[string]string{
		"Rock": "rock", "indie rock": "indie", "Hip-Hop": "hip-hop", "hip hop": "hip-hop", "R&B": "rnb",
		"TECHNO": "techno", "drum & bass": "electronic", "drum and bass": "electronic", "live music": "", "": "",
	} {
		if got := canonicalGenre(tag); got != want {
			t.Errorf("canonicalGenre(%q) = %q, want %q", tag, got, want)
		}
	}
}

func TestGigIDStable(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/Berlin")
	at := time.Date(2026, 12, 5, 20, 0, 0, 0, loc)
	a := gigID("venue", at, false, "artist")
	if a != gigID("venue", at.UTC().In(loc), false, "artist") || len(a) != 13 {
		t.Errorf("id %q is not stable", a)
	}
	for _, other := range []string{
		gigID("venue", at.Add(3*time.Hour), false, "artist"), // late show
		gigID("venue", at, false, "artist-tribute"),
		gigID("venue", at, true, "artist"),
		gigID("venue-2", at, false, "artist"),
	} {
		if other == a {
			t.Errorf("different gigs share id %q", a)
		}
	}
}

func event(title, venue, city, country, start string) source.Event {
	w, err := source.ParseISO(start)
	if err != nil {
		panic(err)
	}
	return source.Event{Source: "s", Title: title, Start: w, Venue: source.Place{Name: venue, Locality: city, Country: country}}
}

func TestVenueSlugsDoNotDependOnOrder(t *testing.T) {
	a := event("A", "The Garage", "London", "GB", "2026-12-05T20:00")
	b := event("B", "The Garage", "Glasgow", "United Kingdom", "2026-12-06T20:00")
	for _, order := range [][]source.Event{{a, b}, {b, a}, {b}} {
		n := newNormalizer(noon)
		for i := range order {
			if err := n.add(&order[i]); err != nil {
				t.Fatal(err)
			}
		}
		for _, v := range n.ds.Venues {
			if want := map[string]string{"london-gb": "the-garage-london-gb", "glasgow": "the-garage-glasgow"}[v.City]; v.Slug != want {
				t.Errorf("venue in %s has slug %q, want %q", v.City, v.Slug, want)
			}
		}
	}
}

func TestInvalidEventsAddNoPlaces(t *testing.T) {
	n := newNormalizer(noon)
	for _, ev := range []source.Event{
		event("", "Hall", "Paris", "FR", "2026-12-05T20:00"),         // no title
		event("A", "Hall", "Paris", "FR", "2031-12-05T20:00"),        // beyond the horizon
		event("A", "Hall", "Atlantis", "FR", "2026-12-05T20:00"),     // unknown city
		event("A", "", "Paris", "FR", "2026-12-05T20:00"),            // no venue name
		event("A", "Hall", "Paris", "Neverland", "2026-12-05T20:00"), // unknown country
	} {
		if err := n.add(&ev); err == nil {
			t.Errorf("event %+v accepted", ev)
		}
	}
	if len(n.ds.Cities)+len(n.ds.Venues)+len(n.ds.Gigs) > 0 {
		t.Errorf("rejected events left %d cities, %d venues, %d gigs", len(n.ds.Cities), len(n.ds.Venues), len(n.ds.Gigs))
	}
}

func TestMergeSameGig(t *testing.T) {
	n := newNormalizer(noon)
	first := event("A", "Hall", "Paris", "FR", "2026-12-05T20:00")
	first.Offers = []source.Offer{{URL: "https://t.example/1", PriceMin: 20, HasPrice: true, Currency: "EUR"}}
	second := first
	second.Source = "other"
	second.Status = engine.StatusPostponed
	second.Doors, _ = source.ParseISO("2026-12-05T19:00")
	second.Offers = []source.Offer{first.Offers[0], {URL: "https://t.example/2"}}
	again := first // the same source lists it twice
	for _, ev := range []*source.Event{&first, &second, &again} {
		if err := n.add(ev); err != nil {
			t.Fatal(err)
		}
	}
	if len(n.ds.Gigs) != 1 {
		t.Fatalf("%d gigs, want 1", len(n.ds.Gigs))
	}
	g := n.ds.Gigs[0]
	if len(g.Sources) != 2 || len(g.Tickets) != 3 || g.Status != engine.StatusPostponed || g.Doors.IsZero() {
		t.Errorf("merged gig: %d sources, %d tickets, status %q, doors %v", len(g.Sources), len(g.Tickets), g.Status, g.Doors)
	}
}
