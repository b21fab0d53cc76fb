package loader

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

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
		{"2026-12-05T19:00:23", "Europe/Berlin", "2026-12-05T19:00:00+01:00", false}, // a feed's stray seconds
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

var (
	today = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	noon  = today.Add(12 * time.Hour)
)

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
		n := newNormalizer(noon, len(order))
		for i := range order {
			if err := n.add(&order[i], i, RoleVenue); err != nil {
				t.Fatal(err)
			}
		}
		ds := n.dataset(NewIDStore().begin(), n.clusters())
		for _, v := range ds.Venues {
			if want := map[string]string{"london-gb": "the-garage-london-gb", "glasgow": "the-garage-glasgow"}[v.City]; v.Slug != want {
				t.Errorf("venue in %s has slug %q, want %q", v.City, v.Slug, want)
			}
		}
	}
}

func TestInvalidEventsAreRejected(t *testing.T) {
	n := newNormalizer(noon, 0)
	for _, ev := range []source.Event{
		event("", "Hall", "Paris", "FR", "2026-12-05T20:00"),           // no title
		event("A", "Hall", "Paris", "FR", "2031-12-05T20:00"),          // beyond the horizon
		event("A", "Hall", "Nowhereville", "US", "2026-12-05T20:00"),   // unknown city in a country of several zones
		event("A", "", "Paris", "FR", "2026-12-05T20:00"),              // no venue name
		event("A", "Hall", "Paris", "Neverland", "2026-12-05T20:00"),   // unknown country
		event("(SOLD OUT)", "Hall", "Paris", "FR", "2026-12-05T20:00"), // no name left
	} {
		if err := n.add(&ev, 0, RoleVenue); err == nil {
			t.Errorf("event %+v accepted", ev)
		}
	}
	if len(n.recs)+len(n.venues) > 0 {
		t.Errorf("rejected events left %d records, %d venues", len(n.recs), len(n.venues))
	}
}

func TestCityFromStatedZone(t *testing.T) {
	n := newNormalizer(noon, 1)
	ev := event("A", "Hall", "Puerto Almanza", "AR", "2026-12-05T21:00")
	ev.Venue.Zone = "America/Argentina/Ushuaia"
	if err := n.add(&ev, 0, RoleVenue); err != nil {
		t.Fatal(err)
	}
	ds := n.dataset(NewIDStore().begin(), n.clusters())
	if c := ds.Cities[0]; c.Slug != "puerto-almanza-ar" || c.Timezone != "America/Argentina/Ushuaia" {
		t.Errorf("city %+v", c)
	}
	if got := ds.Gigs[0].Start.UTC().Format(time.RFC3339); got != "2026-12-06T00:00:00Z" {
		t.Errorf("start %s, want 21:00 at -03:00", got)
	}
	bad := event("A", "Hall", "Atlantis", "AR", "2026-12-05T21:00")
	bad.Venue.Zone = "Atlantic/Atlantis"
	if err := n.add(&bad, 0, RoleVenue); err == nil || !strings.Contains(err.Error(), "Atlantic/Atlantis") {
		t.Errorf("unknown zone: err %v", err)
	}
}

// TestInvisibleTextRemoved lists an event whose every text hides format and control
// characters (a right-to-left override that makes "gnaG eht" read as "the Gang", zero-width
// spaces, a BOM, isolates): none reaches the gig, the venue, the artists or the tickets.
func TestInvisibleTextRemoved(t *testing.T) {
	hide := func(s string) string {
		return "\u202e" + s[:1] + "\u200b" + s[1:] + "\u2066\ufeff\u200f\u00ad\x07"
	}
	ev := event(hide("Wet Leg"), hide("The Garage"), hide("London"), "GB", "2026-12-05T20:00")
	ev.Ref = "wet-leg"
	ev.Venue.Street = hide("20 Highbury Corner")
	ev.Performers = []source.Performer{{Name: hide("Wet Leg"), Genres: []string{hide("indie rock")}}, {Name: hide("Support")}}
	ev.Genres = []string{hide("rock")}
	ev.Offers = []source.Offer{{URL: "https://tickets.example/\u202ewet-leg", Currency: hide("GBP"), HasPrice: true, PriceMin: 20}}
	n := newNormalizer(noon, 1)
	if err := n.add(&ev, 0, RoleVenue); err != nil {
		t.Fatal(err)
	}
	ds := n.dataset(NewIDStore().begin(), n.clusters())
	snap, err := engine.Build(&ds, engine.Options{Now: noon})
	if err != nil {
		t.Fatal(err)
	}
	export, err := io.ReadAll(snap.Export().Body(snap, false, 0, snap.Export().Size))
	if err != nil {
		t.Fatal(err)
	}
	body := string(export) + string(snap.Venues().Raw) + string(snap.Artists().Raw) + string(snap.Genres().Raw)
	for _, r := range body {
		if invisible(r) && r != '\n' {
			t.Fatalf("%U survives in the bodies:\n%s", r, body)
		}
	}
	for _, want := range []string{`"title":"Wet Leg"`, `"name":"The Garage"`, `"name":"Support"`, "20 Highbury Corner", `"currency":"GBP"`, "https://tickets.example/wet-leg"} {
		if !strings.Contains(body, want) {
			t.Errorf("%s missing from the bodies:\n%s", want, body)
		}
	}
}

// FuzzVisible never leaves an invisible character, and changes nothing else.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"Wet Leg", "\u202egnaG", "a\u200bb", "Sigur Rós\ufeff", "\x00\x1f\x7f\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := visible(s)
		if strings.IndexFunc(got, invisible) >= 0 {
			t.Fatalf("%q left %q", s, got)
		}
		if utf8.ValidString(s) && got != strings.Map(func(r rune) rune {
			if invisible(r) {
				return -1
			}
			return r
		}, s) {
			t.Fatalf("%q became %q", s, got)
		}
	})
}

func TestVenuesAreOneWhenNamesOrAddressesAgree(t *testing.T) {
	type venue struct {
		name, street string
		lat, lon     float64 // 0, 0: none stated
		role         Role    // of the record naming it; 0 (RoleVenue): a venue site's own
	}
	tests := []struct {
		name string
		a, b venue
		one  bool
	}{
		{"same key", venue{"The Garage", "", 0, 0, RoleVenue}, venue{"Garage (London)", "", 0, 0, RoleVenue}, true},
		{"same street spelled two ways", venue{"Electric Ballroom", "184 Camden High Street", 0, 0, RolePrimary}, venue{"The Electric", "184 Camden High St.", 0, 0, RolePlatform}, true},
		{"Hauptstraße and Hauptstr.", venue{"Kantine", "Hauptstraße 5", 0, 0, RolePlatform}, venue{"Die Kantine", "Hauptstr. 5", 0, 0, RoleGuest}, true},
		// A street is the document's word: it never joins a venue site's own venue to another.
		{"a venue site gives a platform's venue's street", venue{"The Garage", "20-22 Highbury Corner", 0, 0, RolePrimary}, venue{"Evil Bar", "20-22 Highbury Corner", 0, 0, RoleVenue}, false},
		{"a platform gives a venue site's street", venue{"Evil Bar", "20-22 Highbury Corner", 0, 0, RoleVenue}, venue{"The Garage", "20-22 Highbury Corner", 0, 0, RolePrimary}, false},
		{"two venue sites give one street", venue{"The Garage", "20-22 Highbury Corner", 0, 0, RoleVenue}, venue{"Evil Bar", "20-22 Highbury Corner", 0, 0, RoleVenue}, false},
		{"a venue site and a platform agree in part at one street", venue{"The Garage", "20-22 Highbury Corner", 0, 0, RoleVenue}, venue{"Garage Highbury", "20-22 Highbury Corner", 0, 0, RolePrimary}, true},
		{"a venue site's name holds a platform's at one street", venue{"The Garage", "20-22 Highbury Corner", 0, 0, RolePrimary}, venue{"Garage Bar", "20-22 Highbury Corner", 0, 0, RoleVenue}, false},
		{"a platform's name within a venue site's at one street", venue{"Garage Bar", "20-22 Highbury Corner", 0, 0, RoleVenue}, venue{"The Garage", "20-22 Highbury Corner", 0, 0, RolePrimary}, false},
		{"near, one name within the other", venue{"Roundhouse", "", 51.5432, -0.1519, RoleVenue}, venue{"Roundhouse Camden", "", 51.5433, -0.1518, RolePrimary}, true},
		{"near, names disagree", venue{"Jazz Cafe", "", 51.5390, -0.1426, RolePlatform}, venue{"Dingwalls", "", 51.5391, -0.1425, RolePlatform}, false},
		{"one name within the other, far apart", venue{"Roundhouse", "", 51.5432, -0.1519, RolePlatform}, venue{"Roundhouse Camden", "", 51.5032, -0.1119, RolePlatform}, false},
		{"a street without a number names no building", venue{"Bar A", "Camden High Street", 0, 0, RolePlatform}, venue{"Bar B", "Camden High Street", 0, 0, RolePlatform}, false},
		{"other numbers", venue{"Bar A", "10 Camden High Street", 0, 0, RolePlatform}, venue{"Bar B", "12 Camden High Street", 0, 0, RolePlatform}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newNormalizer(noon, 2)
			for i, v := range []venue{tt.a, tt.b} {
				ev := event("Act "+string(rune('A'+i)), v.name, "London", "GB", "2026-12-05T20:00")
				ev.Venue.Street = v.street
				if v.lat != 0 {
					ev.Venue.Lat, ev.Venue.Lon, ev.Venue.HasGeo = v.lat, v.lon, true
				}
				if err := n.add(&ev, i, v.role); err != nil {
					t.Fatal(err)
				}
			}
			if one := len(n.venues) == 1; one != tt.one {
				t.Errorf("%d venues, want one: %v", len(n.venues), tt.one)
			}
		})
	}
}

func TestPlaceholderTimesAreTBA(t *testing.T) {
	tests := []struct {
		title, start, end, zone string
		tba                     bool
		day                     string // the show's local date
	}{
		{"A", "2026-12-05T23:59:00", "", "Europe/London", true, "2026-12-05"},
		{"A", "2026-12-05T23:59:00-05:00", "", "America/New_York", true, "2026-12-05"},
		{"A", "2026-12-06T04:59:00Z", "", "America/New_York", true, "2026-12-05"},
		{"A", "2026-12-06T00:00:00Z", "", "America/New_York", false, "2026-12-05"}, // 19:00 in New York
		{"A", "2026-12-05T00:00:00Z", "2026-12-05", "Europe/London", true, "2026-12-05"},
		{"A", "2026-12-05T00:00:00", "2026-12-06", "Europe/Berlin", true, "2026-12-05"},
		{"A", "2026-12-05T00:00:00", "2026-12-06T00:00:00", "Europe/Berlin", true, "2026-12-05"},
		// The Events Calendar's all-day events (wildundhund.de, in adbar/htmldate's tests/eval).
		{"A", "2023-11-02T00:00:00+01:00", "2023-11-02T23:59:59+01:00", "Europe/Berlin", true, "2023-11-02"},
		{"A", "2026-12-05T00:00:00", "2026-12-05T23:59:00", "Europe/Berlin", true, "2026-12-05"},
		{"A", "2026-12-05T00:00:00", "2026-12-06T23:59:00", "Europe/Berlin", false, "2026-12-05"}, // two days from midnight
		{"A", "2026-12-05T00:00:00", "2026-12-05T23:00:00", "Europe/Berlin", false, "2026-12-05"},
		// b-flat's Squarespace pages (Berlin) state 09:00–23:55 for concerts at 21:00.
		{"A", "2026-08-26T09:00:00+0200", "2026-08-26T23:55:00+0200", "Europe/Berlin", true, "2026-08-26"},
		{"A", "2026-08-26T08:00:00", "2026-08-27T00:00:00", "Europe/Berlin", true, "2026-08-26"},
		{"A", "2026-10-25T00:00:00+02:00", "2026-10-25T23:59:00+01:00", "Europe/Berlin", true, "2026-10-25"},
		{"A", "2026-08-26T09:30:00", "2026-08-26T23:59:00", "Europe/Berlin", false, "2026-08-26"},
		{"A", "2026-08-26T09:00:00", "2026-08-26T23:00:00", "Europe/Berlin", false, "2026-08-26"},
		{"A", "2026-08-26T09:00:00", "2026-08-27T02:00:00", "Europe/Berlin", false, "2026-08-26"},
		{"A – time TBA", "2026-12-05T00:00:00", "", "Europe/Berlin", true, "2026-12-05"},
		{"A (TBC)", "2026-12-05T00:00:00+01:00", "", "Europe/Berlin", true, "2026-12-05"},
		{"A", "2026-12-05T00:00:00", "", "Europe/Berlin", false, "2026-12-05"}, // a midnight show
		{"A", "2026-12-05T00:00:00", "2026-12-05T04:00:00", "Europe/Berlin", false, "2026-12-05"},
		{"A", "2026-12-05T20:00:00", "2026-12-06", "Europe/Berlin", false, "2026-12-05"},
		{"Tbablo", "2026-12-05T00:00:00", "", "Europe/Berlin", false, "2026-12-05"},
	}
	for _, tt := range tests {
		ev := event(tt.title, "Hall", "", "", tt.start)
		ev.Venue.Zone = tt.zone
		if tt.end != "" {
			ev.End, _ = source.ParseISO(tt.end)
		}
		loc, _ := time.LoadLocation(tt.zone)
		got := placeholder(&ev, loc)
		if got != tt.tba {
			t.Errorf("%q from %s to %q in %s: placeholder %v, want %v", tt.title, tt.start, tt.end, tt.zone, got, tt.tba)
			continue
		}
		n := newNormalizer(noon, 1)
		city := map[string][2]string{"Europe/London": {"London", "GB"}, "America/New_York": {"New York", "US"}, "Europe/Berlin": {"Berlin", "DE"}}[tt.zone]
		ev.Venue.Locality, ev.Venue.Country = city[0], city[1]
		if err := n.add(&ev, 0, RoleVenue); err != nil {
			t.Fatal(err)
		}
		if r := n.recs[0]; r.tba != tt.tba || r.start.Format(time.DateOnly) != tt.day {
			t.Errorf("%q at %s: record tba %v on %s, want %v on %s", tt.title, tt.start, r.tba, r.start.Format(time.DateOnly), tt.tba, tt.day)
		}
	}
}

func TestAddressOnOneLine(t *testing.T) {
	n := newNormalizer(noon, 1)
	named := event("A", "Memphis, TN, US", "", "", "2026-12-05T20:00") // a location given as text
	if err := n.add(&named, 0, RoleVenue); err != nil || n.recs[0].city.Slug != "memphis" {
		t.Errorf("venue named by its address: %v", err)
	}
	for _, c := range []struct{ street, region, country, city, zone string }{
		{"1234 Main St, Austin, TX 78701", "", "", "austin", "America/Chicago"},
		{"5 Rue X, 75011 Paris, France", "", "", "paris", "Europe/Paris"},
		{"The Brudenell, 33 Queen's Rd, Leeds LS6 1NY", "", "UK", "leeds", "Europe/London"},
		{"200 W 5th St, Portland", "Maine", "US", "portland-me-us", "America/New_York"},
	} {
		n := newNormalizer(noon, 1)
		ev := event("A", "Hall", "", c.country, "2026-12-05T20:00")
		ev.Venue.Street, ev.Venue.Region = c.street, c.region
		if err := n.add(&ev, 0, RoleVenue); err != nil {
			t.Errorf("%q: %v", c.street, err)
			continue
		}
		if got := n.recs[0].city; got.Slug != c.city || got.Timezone != c.zone {
			t.Errorf("%q: in %s (%s), want %s (%s)", c.street, got.Slug, got.Timezone, c.city, c.zone)
		}
	}
}

func TestRepeatedPositionalRecordsAreOne(t *testing.T) {
	n := newNormalizer(noon, 3)
	evs := []source.Event{
		event("Night Owls", "The Lantern", "Berlin", "DE", "2026-12-05T20:00"),
		event("Night Owls", "The Lantern", "Berlin", "DE", "2026-12-05T20:00"), // the "featured" box
		event("Night Owls", "The Lantern", "Berlin", "DE", "2026-12-06T20:00"), // another night
	}
	for i := range evs {
		evs[i].Ref, evs[i].Positional = fmt.Sprintf("https://lantern.example/#%d", i+1), true
		if err := n.add(&evs[i], 0, RoleVenue); err != nil {
			t.Fatal(err)
		}
	}
	if len(n.recs) != 2 {
		t.Errorf("%d records, want 2: a repeat without an identity is one record", len(n.recs))
	}
}
