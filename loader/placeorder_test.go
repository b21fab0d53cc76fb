package loader

import (
	"strings"
	"testing"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// orderPlace is a LOCATION line as the ical adapter hands it over (places.Split), in a
// feed of the zone, with the operator's hint's country and the event's GEO (0, 0: none).
func orderPlace(line, zone, country string, lat, lon float64) source.Place {
	a := places.Split(line)
	p := source.Place{Name: a.Name, Street: a.Street, Locality: a.Locality, Country: a.Country, FeedZone: zone}
	if p.Country == "" {
		p.Country = country // the hint fills what the line leaves empty
	}
	if lat != 0 || lon != 0 {
		p.Lat, p.Lon, p.HasGeo = lat, lon, true
	}
	return p
}

// byLondonSubdivision is what decides a British line ending in its county, in a
// Europe/London feed that states no country (package places, feedsubdivision.go).
const byLondonSubdivision = "the country of the feed's time zone (Europe/London); a subdivision of the feed's country"

// TestPlaceOrders checks lines that name their place in another order than venue first
// (see placeorder.go), and lines that must keep the venue-first reading. Most lines are
// those of testdata/real's documents (ical/jordantupper-louisiana-towns.ics,
// ical/fasnacht-rocks-swiss-villages.ics, ical/hse-orchestra-moscow-cyrillic.ics) and of
// calendars seen with them, public repositories' feeds too large to keep here (a Tromsø
// culture house's, HysingBob/tromso-events docs/events.ics; a Münster district's,
// Coerdeevents/coerde-events data/events.ics; Hull's pubs and clubs,
// cking1100/hu5-events public/events.ics); the others (a Munich jazz club's, Swiss and
// Italian towns with their codes, English villages and counties, US towns and states) are
// written here in the shapes such calendars use.
func TestPlaceOrders(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		zone     string  // the feed's zone
		country  string  // the operator's hint's country
		lat, lon float64 // GEO
		city     string  // the city slug; "" when the event is dropped
		venue    string  // the venue's name kept, when it changes
		by       string  // the order decided_by starts with; "" for venue first
	}{
		{"town and state in a Louisiana feed", "Zachary\\, LA", "America/Chicago", "", 0, 0, "zachary", "", byTownAndRegion},
		{"a small town and its state", "Livingston\\, LA", "America/Chicago", "", 0, 0, "livingston-la-us", "", byTownAndRegion},
		{"a town the gazetteer lacks, and its state, is no town", "Zzyzxville\\, LA", "America/Chicago", "", 0, 0, "", "", ""},
		{"a venue before its state's code", "The Stone Pony\\, NJ", "America/New_York", "", 0, 0, "", "", ""},
		{"no venue before a state's code", "Online\\, CA", "America/Los_Angeles", "", 0, 0, "", "", ""},
		{"a venue to be announced before a state's code", "TBA\\, TX", "America/Chicago", "", 0, 0, "", "", ""},
		{"a private event before a state's code", "Private Event\\, MA", "America/New_York", "", 0, 0, "", "", ""},
		{"a venue before its state's code, of a city of the state", "Blue Note\\, NY", "America/New_York", "", 0, 0, "", "", ""},
		{"a venue before its state's name", "Bar\\, New Jersey", "America/New_York", "", 0, 0, "", "", ""},
		{"a town of another zone of the feed's country", "Home", "America/New_York", "", 0, 0, "", "", ""},
		{"a town of another zone, a venue's word", "Dakota", "America/New_York", "", 0, 0, "", "", ""},
		{"a village of another zone, a venue's word", "Arena", "America/New_York", "", 0, 0, "", "", ""},
		{"a village's one word alone in its own zone", "Arena", "America/Chicago", "", 0, 0, "", "", ""},
		{"a state's code alone is no town", "LA", "America/Chicago", "", 0, 0, "", "", ""},
		{"town and state, no zone, the state's code a country's", "Pittsburgh\\, PA", "", "", 0, 0, "pittsburgh", "", byTownAndRegion},
		{"town and state, no zone", "Austin\\, TX", "", "", 0, 0, "austin", "", byTownAndRegion},
		{"town and province", "Hamilton\\, ON", "", "", 0, 0, "hamilton-ca", "", byTownAndRegion},
		{"town and province by its name", "Toronto\\, Ontario", "", "", 0, 0, "toronto", "", byTownAndRegion},
		{"a small town and its state, no zone", "Livingston\\, LA", "", "", 0, 0, "livingston-la-us", "", byTownAndRegion},
		{"a town the gazetteer lacks, no zone to place it", "Zzyzxville\\, LA", "", "", 0, 0, "", "", ""},
		{"a venue in the city named after its state", "The Fillmore\\, New York", "", "", 0, 0, "new-york", "", ""},
		{"a country's code in its own country's feed", "Burgerweeshuis\\, NL", "Europe/Amsterdam", "", 0, 0, "", "", ""},
		{"a village alone, with its coordinates", "Obfelden", "", "CH", 47.26177, 8.419706, "obfelden", "", byTownAlone},
		{"a village of two namesakes, by its coordinates", "Sarmenstorf", "", "CH", 47.309921, 8.24856, "sarmenstorf", "", byTownAlone},
		{"a village alone, coordinates of another place", "Obfelden", "", "CH", 46.2044, 6.1432, "geneve", "", ""},
		{"a town alone in a Cyrillic feed", "Москва", "Europe/Moscow", "", 0, 0, "moscow-ru", "", byTownAlone},
		{"a town alone of another country than the feed's", "Paris", "Europe/Amsterdam", "", 0, 0, "", "", ""},
		{"a venue alone", "Monteray Live Stage", "Europe/Helsinki", "", 0, 0, "", "", ""},
		{"the town first, the hall last", "Москва\\, ул. Старая Басманная 21/4\\, корпус А\\, Актовый Зал", "Europe/Moscow", "", 0, 0, "moscow-ru", "Актовый Зал", byTownFirst},
		{"the town first, a building's parts between", "Москва\\, Покровский б-р\\, 11\\, Строение 6 (Корпус Z)\\, вход 4\\, Центр Культур НИУ ВШЭ", "Europe/Moscow", "", 0, 0, "moscow-ru", "Центр Культур НИУ ВШЭ", byTownFirst},
		{"the town after a venue's name", "Hovedscenen\\, Kulturhuset Tromsø", "Europe/Oslo", "", 0, 0, "tromso", "Hovedscenen, Kulturhuset", byTownWithin},
		{"the town before a district", "AWO Coerde mittendrin\\, Königsberger Straße 8\\, 48157 Münster-Coerde\\, Münster-Coerde", "Europe/Berlin", "", 0, 0, "munster-07-de", "", byTownWithin},
		{"the town, then a district", "Kita Wertvoll\\, Kiesekampweg 8\\, Münster\\, Münster-Coerde", "Europe/Berlin", "", 0, 0, "munster-07-de", "", byTownWithin},
		{"a town of another country within a part", "Le Bar\\, Club Berlin", "Europe/Paris", "", 0, 0, "", "", ""},
		{"the town after a dash", "Jazzclub Unterfahrt - München", "Europe/Berlin", "", 0, 0, "munich", "Jazzclub Unterfahrt", byTownWithin},
		{"the town in brackets", "Jazzclub Unterfahrt (München)", "Europe/Berlin", "", 0, 0, "munich", "Jazzclub Unterfahrt", byTownWithin},
		{"a canton's code after the town", "Muri AG", "", "CH", 0, 0, "muri-ag-ch", "", byTownWithin},
		// A province's code after the town is read off by package places (subdivisions.go).
		{"a province's code after the town", "Teatro Dal Verme\\, Via San Giovanni sul Muro 2\\, 20121 Milano MI", "Europe/Rome", "", 0, 0, "milan", "", "the country of the feed's time zone"},
		{"town, state and ZIP", "Austin\\, TX 78701", "", "", 0, 0, "austin", "", byTownAndRegion},
		{"a town and its province's code", "Teatro\\, Via Roma 1\\, 50122 Firenze FI\\, Italia", "Europe/Rome", "", 0, 0, "florence-it", "", ""},
		{"a small town's name after a venue's is no town", "Hotel California", "America/Los_Angeles", "", 0, 0, "", "", ""},
		{"the town before an English county", "St Mary's Church\\, Church Lane\\, Kings Langley\\, Herts WD4 8AA", "Europe/London", "", 0, 0, "kings-langley-gb", "", byLondonSubdivision}, // Herts: a county ISO 3166-2 lacks
		{"the village before its county", "Village Hall\\, Great Ayton\\, North Yorkshire", "Europe/London", "", 0, 0, "great-ayton", "", byLondonSubdivision},
		{"venue first", "Polar Bear Music Club\\, 229 Spring Bank\\, Hull\\, HU3 1LR", "", "", 0, 0, "kingston-upon-hull", "", ""},
		{"the town before its county, no context", "Molly Mangan's\\, Molly Mangan's Irish Bar\\, 64-70 Newland Avenue\\, Hull\\, East Yorkshire\\, HU5 3AB", "", "", 0, 0, "kingston-upon-hull", "", byTownWithin},
		{"a town and its province", "Sala X\\, Alcalá de Henares (Madrid)", "Europe/Madrid", "", 0, 0, "alcala-de-henares", "Sala X", byTownWithin},
		{"a town and its province, no venue", "Getafe (Madrid)", "Europe/Madrid", "", 0, 0, "getafe", "", byTownWithin},
		{"a venue, a town and its province", "Auditorio\\, Talavera de la Reina (Toledo)", "Europe/Madrid", "", 0, 0, "talavera-de-la-reina", "", byTownWithin},
		{"a town of a namesake abroad and its province", "Teatro\\, Mérida (Badajoz)", "Europe/Madrid", "", 0, 0, "merida-es", "", byTownWithin},
		{"a town and its province, a venue's street before", "Sala Paúl\\, Calle Larga 1\\, Jerez de la Frontera (Cádiz)", "Europe/Madrid", "", 0, 0, "jerez-de-la-frontera", "", byTownWithin},
		{"a venue named like a small town, its town after", "Church\\, 1 High Street\\, Sometown\\, Gloucestershire", "Europe/London", "", 0, 0, "sometown-gb", "", byLondonSubdivision},
		{"a venue named like a town, its town and county after", "Hope\\, 12 Queens Road\\, Brighton\\, East Sussex", "Europe/London", "", 0, 0, "brighton-gb", "", byLondonSubdivision},
		{"a town and its province's code is no venue", "Milano\\, MI", "Europe/Rome", "", 0, 0, "", "", ""},
		{"a town's adjective before a town", "Hamburger Hof", "Europe/Berlin", "", 0, 0, "", "", ""},
		{"a village near a town", "Muri bei Bern", "Europe/Zurich", "", 0, 0, "", "", ""},
		{"an article and an adjective before a town", "Le Petit Paris", "Europe/Paris", "", 0, 0, "", "", ""},
		{"a hotel named after a town", "Hotel Bristol", "Europe/London", "", 0, 0, "", "", ""},
		{"venue first, the venue named like a town", "Paris\\, Oranienstraße 5\\, Berlin", "Europe/Berlin", "", 0, 0, "berlin", "Paris", ""},
		{"a town of namesakes before a county that may tell which", "Pub\\, Newport\\, Isle of Wight", "Europe/London", "", 0, 0, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := strings.ReplaceAll(tt.line, "\\,", ",")
			ev := event("Night Hog", "", "", "", "2026-12-05T21:00")
			ev.Venue = orderPlace(line, tt.zone, tt.country, tt.lat, tt.lon)
			n := newNormalizer(noon, 1)
			var sr SourceReport
			n.addAll([]source.Event{ev}, 0, Source{}, &sr)
			if tt.city == "" {
				if sr.Events != 0 {
					t.Fatalf("%q placed in %+v; want it dropped", line, sr.Places)
				}
				return
			}
			if sr.Events != 1 || len(sr.Places) != 1 || len(n.recs) != 1 {
				t.Fatalf("%q: %d events, places %+v, dropped %+v; want one in %s", line, sr.Events, sr.Places, sr.Dropped, tt.city)
			}
			pr := sr.Places[0]
			if pr.City != tt.city {
				t.Errorf("%q placed in %s (by %q); want %s", line, pr.City, pr.By, tt.city)
			}
			if tt.by == "" && strings.HasPrefix(pr.By, "the line") || tt.by != "" && !strings.HasPrefix(pr.By, tt.by) {
				t.Errorf("%q decided by %q; want it to start with %q", line, pr.By, tt.by)
			}
			want := tt.venue
			if want == "" {
				want = ev.Venue.Name
			}
			if got := n.recs[0].ev.Venue.Name; got != want {
				t.Errorf("%q: venue %q; want %q", line, got, want)
			}
		})
	}
}

// TestRegionCodeIsNotTheFeedsCountry checks that a band's calendar of "Town, LA" lines in
// a Louisiana zone is not read as a feed of venues in Laos: a line naming only the state
// ("LA") is dropped, not made a town of Laos, and the towns are in Louisiana.
func TestRegionCodeIsNotTheFeedsCountry(t *testing.T) {
	var events []source.Event
	for i, line := range []string{"Livingston, LA", "Zachary, LA", "LA", "Clinton, LA", "Baton Rouge, LA"} {
		ev := event("Cover 6", "", "", "", "2026-12-0"+string(rune('1'+i))+"T21:00")
		ev.Ref = line
		ev.Venue = orderPlace(line, "America/Chicago", "", 0, 0)
		events = append(events, ev)
	}
	n := newNormalizer(noon, len(events))
	var sr SourceReport
	n.addAll(events, 0, Source{}, &sr)
	if sr.Events != 4 || len(sr.Dropped) != 1 || sr.Dropped[0].Ref != "LA" {
		t.Fatalf("%d events, dropped %+v; want 4, and \"LA\" dropped", sr.Events, sr.Dropped)
	}
	for _, p := range sr.Places {
		if p.Country != "US" || p.Timezone != "America/Chicago" {
			t.Errorf("%s placed in %s, %s, %s; want Louisiana", p.Place, p.City, p.Country, p.Timezone)
		}
	}
}

// FuzzPlaceOrders reads arbitrary lines in the other orders: no panic, the venue-first
// order untouched unless a town is read, and a town read is a town's name.
func FuzzPlaceOrders(f *testing.F) {
	for _, s := range []string{"Livingston, LA", "Obfelden", "Москва, ул. Старая Басманная 21/4, корпус А, Актовый Зал",
		"Hovedscenen, Kulturhuset Tromsø", "48157 Münster-Coerde, Münster-Coerde", "-", ",,-,", "a-b c-d, e f g", "LA, LA",
		"横浜1000CLUB", "1横", "首尔2"} {
		f.Add(s, "America/Chicago")
		f.Add(s, "Europe/Berlin")
	}
	n := newNormalizer(noon, 1)
	f.Fuzz(func(t *testing.T, line, zone string) {
		p := orderPlace(line, zone, "", 0, 0)
		q := p
		if by := n.restate(&q); by != "" && (q.Name != p.Name || q.Locality == "") {
			t.Fatalf("%q restated %+v as %+v (%s)", line, p, q, by)
		}
		q = p
		if by := n.reorder(&q, false); by != "" && !townLike(q.Locality) {
			t.Fatalf("%q reordered %+v as %+v (%s): no town's name", line, p, q, by)
		}
	})
}

// TestPlaceOrdersLongLine checks that a line longer than maxOrderLine is left as the
// venue-first reading has it: a town first and a venue's name last 20,000 parts later is
// not read town first, and reading it costs what the venue-first reading costs.
func TestPlaceOrdersLongLine(t *testing.T) {
	n := newNormalizer(noon, 1)
	for _, tt := range []struct {
		name, line, zone, by string
	}{
		{"short", "Москва, ул. Старая Басманная 21/4, Актовый Зал", "Europe/Moscow", byTownFirst},
		{"long", "Москва, " + strings.Repeat("корпус А, ", 20000) + "Актовый Зал", "Europe/Moscow", ""},
		{"short, a town within", "Hovedscenen, Kulturhuset Tromsø", "Europe/Oslo", byTownWithin},
		{"long, a town within", strings.Repeat("Hovedscenen ", 100) + ", Kulturhuset Tromsø", "Europe/Oslo", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := orderPlace(tt.line, tt.zone, "", 0, 0)
			if by := n.reorder(&p, false); by != tt.by {
				t.Errorf("%.60q… read %q; want %q", tt.line, by, tt.by)
			}
		})
	}
}
