package loader

import (
	"strings"
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestTownAfterStreet checks a venue that states no locality and whose name runs its
// street and town together before the first comma (townAfterStreet): the town that ends
// the run is read when the gazetteer has it in the region the line states, and the venue
// is dropped, not made a town of its street, when none does. The first lines are The
// Events Calendar's venues of testdata/real/tribe/patron-feed-house-of-blues-demo.json.
func TestTownAfterStreet(t *testing.T) {
	us := func(name, street string) source.Place {
		return source.Place{Name: name, Street: street, Country: "United States"}
	}
	for _, tt := range []struct {
		venue    source.Place
		city     string // "" when dropped
		byStreet bool   // decided by the town that ends the street run into it
	}{
		{us("House of Blues Boston 15 Landsdowne Street Boston, MA 02215", ""), "boston", true},
		{us("House of Blues New Orleans 225 Decatur St New Orleans, LA 70130", "100 Decatur St"), "new-orleans", true}, // two words
		{us("Venue 100 Main St West Hartford, CT 06107", ""), "west-hartford", true},                                   // the longest first
		{us("House of Blues Anaheim 400 W Disney Way Suite 337 Anaheim, CA 92802", "2 Disney Way"), "anaheim", true},   // a suite's number
		{us("House of Blues 225 Decatur St Nowheresville, LA 70130", ""), "", false},
		// a name with a number before its town, no street between them: the town, the name whole
		{us("Studio 54 New York, NY", ""), "new-york", false}, // no town the gazetteer has
	} {
		sr := readVenue(tt.venue)
		if tt.city == "" {
			if sr.Events != 0 || len(sr.Dropped) != 1 || !strings.Contains(sr.Dropped[0].Reason, "has no city: its address runs the street and town together") {
				t.Errorf("%q: places %+v, dropped %+v; want the street and town run together", tt.venue.Name, sr.Places, sr.Dropped)
			}
			continue
		}
		if sr.Events != 1 || len(sr.Places) != 1 || sr.Places[0].City != tt.city || sr.Places[0].Made ||
			strings.HasPrefix(sr.Places[0].By, byStreetTown) != tt.byStreet {
			t.Errorf("%q: %d events, places %+v, dropped %+v; want %s", tt.venue.Name, sr.Events, sr.Places, sr.Dropped, tt.city)
		}
	}
}

// readVenue is the report of one event at the venue p, read alone.
func readVenue(p source.Place) SourceReport {
	n := newNormalizer(noon, 1)
	ev := event("A", "", "", "", "2026-12-05T20:00")
	ev.Venue = p
	var sr SourceReport
	n.addAll([]source.Event{ev}, 0, Source{}, &sr)
	return sr
}

// TestStreetOutOfName checks the venue's name and street left by a line whose town was
// read after its street (streetOutOfName).
func TestStreetOutOfName(t *testing.T) {
	for _, tt := range []struct {
		name, street, town   string
		wantName, wantStreet string
	}{
		{"House of Blues Boston 15 Landsdowne Street Boston, MA 02215", "", "Boston", "House of Blues Boston", "15 Landsdowne Street"},
		{"House of Blues New Orleans 225 Decatur St New Orleans, LA 70130", "100 Decatur St", "New Orleans", "House of Blues New Orleans", "100 Decatur St"},
		{"House of Blues Anaheim 400 W Disney Way Suite 337 Anaheim, CA 92802", "", "Anaheim", "House of Blues Anaheim", "400 W Disney Way Suite 337"},
		{"Club 9 Hauptstrasse Neustadt", "", "Bad Neustadt", "Club", ""},
		{"15 Landsdowne Street Boston, MA 02215", "", "Boston", "15 Landsdowne Street Boston, MA 02215", ""},
	} {
		p := source.Place{Name: tt.name, Street: tt.street}
		streetOutOfName(&p, tt.town)
		if p.Name != tt.wantName || p.Street != tt.wantStreet {
			t.Errorf("%q in %s: name %q, street %q; want %q, %q", tt.name, tt.town, p.Name, p.Street, tt.wantName, tt.wantStreet)
		}
	}
}

// FuzzTownAfterStreet reads arbitrary one-line addresses as a venue's name: no panic, and
// a line read as running street and town together is in a town of the gazetteer or
// dropped, never in a made town.
func FuzzTownAfterStreet(f *testing.F) {
	for _, s := range []string{"House of Blues Boston 15 Landsdowne Street Boston, MA 02215",
		"House of Blues Anaheim 400 W Disney Way Suite 337 Anaheim, CA 92802", "1 2 3, 4", "Club 5 Main St, , ,", " 9 , NY", "7"} {
		f.Add(s, "United States")
		f.Add(s, "")
	}
	n := newNormalizer(noon, 1)
	f.Fuzz(func(t *testing.T, line, country string) {
		p := source.Place{Name: line, Country: country}
		q := statedPlace(p)
		r, err := n.places.Read(q, n.placeContext(p))
		if err != nil {
			return
		}
		rs, ok, err := n.townAfterStreet(p, q, r)
		if ok && err == nil && rs.Made {
			t.Fatalf("%q read as the made town %q", line, rs.City.Name)
		}
		if !ok && rs.City != r.City {
			t.Fatalf("%q: a reading changed without being read", line)
		}
	})
}

// TestStreetOutOfOtherName: a venue's name is cut at its first number only when the name
// is the line its town was read from; a venue named "Studio 54" whose street runs street
// and town together keeps its name.
func TestStreetOutOfOtherName(t *testing.T) {
	for _, tt := range []struct{ name, street string }{
		{"Studio 54", "254 W 54th St New York, NY 10019"},
		{"Club 9", "123 Main Street Boston, MA 02215"},
		{"The 40 Watt Club", "285 W Washington St Athens, GA 30601"},
	} {
		n := newNormalizer(noon, 1)
		ev := event("A", "", "", "", "2026-12-05T20:00")
		ev.Venue = source.Place{Name: tt.name, Street: tt.street, Country: "United States"}
		c, r, err := n.placeEvent(&ev)
		if err != nil {
			t.Errorf("%q: %v", tt.name, err)
			continue
		}
		if ev.Venue.Name != tt.name {
			t.Errorf("%q / %q: in %s (%s), venue renamed %q", tt.name, tt.street, c.Name, r.By, ev.Venue.Name)
		}
	}
}
