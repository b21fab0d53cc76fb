package tribe

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/schemaorg/schemaorgtest"
	"github.com/gigs/gigs/loader/source"
)

// realDir holds REST responses of real sites, written by others (see its provenance.json).
const realDir = "../../testdata/real/tribe"

// page is a page of the list endpoint as the plugin writes it: escaped slashes, HTML
// entities in titles, a venue as [] when there is none, image false.
const page = `{"events":[
{"id":1,"url":"https:\/\/club.example\/event\/a\/","title":"Night &amp; Day","all_day":false,
 "start_date":"2026-07-04 21:00:00","end_date":"2026-07-04 23:30:00",
 "utc_start_date":"2026-07-05 01:00:00","utc_end_date":"2026-07-05 03:30:00","timezone":"America\/New_York",
 "cost":"$10 \u2013 $15","cost_details":{"currency_code":"USD","values":["10","15"]},"website":"https:\/\/tix.example\/a",
 "image":{"url":"https:\/\/club.example\/a.jpg"},"categories":[{"name":"Live Music"}],"tags":[{"name":"jazz"}],
 "venue":{"venue":"The Club","address":"1 Main St","city":"Brooklyn","stateprovince":"NY","zip":"11201","country":"United States","geo_lat":40.69,"geo_lng":-73.99}},
{"id":2,"url":"https:\/\/club.example\/event\/b\/","title":"Festival","all_day":true,"start_date":"2026-07-10 00:00:00","utc_start_date":"2026-07-10 04:00:00","timezone":"UTC-4","venue":[],"image":false},
{"id":3,"title":"","start_date":"soon"}
],"total":3,"total_pages":1,"rest_url":"https:\/\/club.example\/wp-json\/tribe\/events\/v1\/events\/?page=1",
"next_rest_url":"https:\/\/club.example\/wp-json\/tribe\/events\/v1\/events\/?page=2"}`

func TestParse(t *testing.T) {
	const ref = "https://club.example/wp-json/tribe/events/v1/events"
	events, drops, err := Parse([]byte(page), ref, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []source.Event{{
		Ref: "https://club.example/event/a/", URL: "https://club.example/event/a/", Line: 2, Title: "Night & Day",
		Start: source.When{Wall: time.Date(2026, 7, 4, 21, 0, 0, 0, time.UTC), HasOffset: true, Offset: -4 * 3600},
		End:   source.When{Wall: time.Date(2026, 7, 4, 23, 30, 0, 0, time.UTC), HasOffset: true, Offset: -4 * 3600},
		Venue: source.Place{Name: "The Club", Street: "1 Main St", Locality: "Brooklyn", Region: "NY", PostalCode: "11201",
			Country: "United States", Zone: "America/New_York", Lat: 40.69, Lon: -73.99, HasGeo: true},
		Offers: []source.Offer{{URL: "https://tix.example/a", PriceMin: 10, PriceMax: 15, HasPrice: true, Currency: "USD"}},
		Kinds:  []string{"Live Music"}, Genres: []string{"jazz"}, Image: "https://club.example/a.jpg",
	}, {
		// "UTC-4" is WordPress's fixed offset: not trusted, the date alone for an all-day event.
		Ref: "https://club.example/event/b/", URL: "https://club.example/event/b/", Line: 8, Title: "Festival",
		Start: source.When{Wall: time.Date(2026, 7, 10, 0, 0, 0, 0, time.UTC), DateOnly: true},
	}}
	schemaorgtest.CompareEvents(t, events, want)
	wantDrops := []source.Drop{{Ref: ref, Line: 9, Reason: `event #3: missing title; cannot read start_date "soon": not a date and time as YYYY-MM-DD HH:MM:SS`}}
	if !reflect.DeepEqual(drops, wantDrops) {
		t.Errorf("drops = %+v, want %+v", drops, wantDrops)
	}
	if got := Next([]byte(page)); got != "https://club.example/wp-json/tribe/events/v1/events/?page=2" {
		t.Errorf("Next = %q", got)
	}
}

// TestReal reads the real responses: one event each, as /events/{id} serves it.
func TestReal(t *testing.T) {
	for _, tc := range []struct {
		file            string
		title, start    string // start as "2006-01-02 15:04 -0700", or without the offset when not trusted
		venue, locality string
		zone, kind      string
	}{
		{"tcw-zurich-interclub-event.json", "Interclub 40+ 3L Damen (R. Bachmann)", "2021-06-26 09:00 +0200", "Tennis Club Witikon", "Zürich", "Europe/Berlin", "Platzbelegung Interclub"},
		{"musicasturiana-folk-event.json", "María Trubia y Pau Santirso en Santu Adrianu", "2026-06-07 12:00", "Santo Adriano", "", "", "Folk / Celta / Tradicional"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := os.ReadFile(filepath.Join(realDir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			events, drops, err := Parse(doc, "https://site.example/wp-json/tribe/events/v1/events/1", Options{})
			if err != nil || len(drops) > 0 || len(events) != 1 {
				t.Fatalf("got %d events, drops %v, error %v; want one event", len(events), drops, err)
			}
			e := events[0]
			start := e.Start.Wall.Format("2006-01-02 15:04")
			if e.Start.HasOffset {
				start = e.Start.Wall.Format("2006-01-02 15:04") + " " + time.Date(2000, 1, 1, 0, 0, 0, 0, time.FixedZone("", e.Start.Offset)).Format("-0700")
			}
			got := []string{e.Title, start, e.Venue.Name, e.Venue.Locality, e.Venue.Zone, strings.Join(e.Kinds, ",")}
			want := []string{tc.title, tc.start, tc.venue, tc.locality, tc.zone, tc.kind}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
			schemaorgtest.CheckPromises(t, events, drops, "https://site.example/wp-json/tribe/events/v1/events/1")
		})
	}
}

// TestRealUnlisted reads real responses with events the site does not list: each is
// one drop naming why, and the page's other events are kept.
func TestRealUnlisted(t *testing.T) {
	for _, tc := range []struct {
		file   string
		events int
		drop   string
	}{
		// status "tribe-ignored": an event the site's aggregator imported and then ignored.
		{"atlbyday-braves-event.json", 0, `event "Atlanta Braves vs. Miami Marlins": not published (status "tribe-ignored")`},
		// A scraper's fixture of a Hannover culture project's page: "Verstecktes internes
		// Treffen" (a hidden internal meeting) is hidden from the listings.
		{"platzprojekt-hannover-fixture.json", 5, `event "Verstecktes internes Treffen": hidden from the site's listings`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := os.ReadFile(filepath.Join(realDir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			const ref = "https://site.example/wp-json/tribe/events/v1/events"
			events, drops, err := Parse(doc, ref, Options{})
			if err != nil || len(events) != tc.events || len(drops) != 1 || drops[0].Reason != tc.drop {
				t.Fatalf("got %d events, drops %+v, error %v; want %d events and the drop %q", len(events), drops, err, tc.events, tc.drop)
			}
			schemaorgtest.CheckPromises(t, events, drops, ref)
		})
	}
}

func TestNotTribe(t *testing.T) {
	for _, doc := range []string{``, `[]`, `{"name":"x"}`, `<html></html>`, `{"events":{}}`, `{"events":[`} {
		if _, _, err := Parse([]byte(doc), "p", Options{}); err == nil && doc != `{"events":[` {
			t.Errorf("%q: no error", doc)
		}
	}
	// A page cut short keeps what it read and says so.
	events, drops, err := Parse([]byte(`{"events":[{"title":"a","start_date":"2026-01-01 20:00:00"},{"title":`), "p", Options{})
	if err != nil || len(events) != 1 || len(drops) != 1 || !strings.Contains(drops[0].Reason, "cannot read the rest") {
		t.Errorf("cut page: %d events, drops %v, error %v", len(events), drops, err)
	}
}

// TestLimits: a page with more events than MaxEvents yields MaxEvents and one drop.
func TestLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"events":[`)
	for i := range 5 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"%d","start_date":"2026-01-01 20:00:00"}`, i, i)
	}
	b.WriteString(`]}`)
	events, drops, err := Parse([]byte(b.String()), "p", Options{MaxEvents: 3})
	want := []source.Drop{{Ref: "p", Line: 4, Reason: "more than 3 events on the page: the rest are ignored"}}
	if err != nil || len(events) != 3 || !reflect.DeepEqual(drops, want) {
		t.Errorf("got %d events, drops %+v, error %v", len(events), drops, err)
	}
	long := strings.Repeat("x", 100000)
	events, _, _ = Parse([]byte(`{"events":[{"title":"`+long+`","url":"https://a.example/`+long+`","start_date":"2026-01-01 20:00:00"}]}`), "p", Options{})
	if len(events) != 1 || len(events[0].Title) > 500 || events[0].URL != "" {
		t.Errorf("long values not capped: %d events", len(events))
	}
}

// TestListed checks which events a site lists: published ones (or ones whose status the
// response leaves out), not drafts, private posts or events hidden from its listings.
func TestListed(t *testing.T) {
	for _, tc := range []struct {
		fields string
		listed bool
	}{
		{`"status":"publish"`, true},
		{`"status":"publish","hide_from_listings":false`, true},
		{`"hide_from_listings":false`, true},
		{`"status":"draft"`, false},
		{`"status":"private"`, false},
		{`"status":"publish","hide_from_listings":true`, false},
	} {
		doc := `{"events":[{"title":"a","start_date":"2026-01-01 20:00:00",` + tc.fields + `}]}`
		events, drops, err := Parse([]byte(doc), "p", Options{})
		if err != nil || len(events)+len(drops) != 1 || (len(events) == 1) != tc.listed {
			t.Errorf("%s: %d events, drops %+v, error %v; want listed %v", tc.fields, len(events), drops, err, tc.listed)
		}
	}
}

// TestRealPage reads page 1 of 4 of a Barcelona bookshop's events (Llibreria Byron, saved
// by a venue-research project): no venue on any event, WordPress's "UTC+0" with the UTC
// times equal to the local ones, which the descriptions confirm ("a les 20 h"), and a
// next_rest_url on the site.
func TestRealPage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(realDir, "llibreria-byron-barcelona-page1.json"))
	if err != nil {
		t.Fatal(err)
	}
	const ref = "https://llibreriabyron.com/wp-json/tribe/events/v1/events/"
	events, drops, err := Parse(doc, ref, Options{})
	if err != nil || len(drops) != 0 || len(events) != 5 {
		t.Fatalf("got %d events, drops %v, error %v; want 5 events", len(events), drops, err)
	}
	var got []string
	for _, e := range events {
		if e.Start.HasOffset || e.Venue != (source.Place{}) {
			t.Errorf("%s: offset %v, venue %+v; want the wall time alone and no venue", e.Title, e.Start.HasOffset, e.Venue)
		}
		got = append(got, e.Start.Wall.Format("2006-01-02 15:04")+" "+e.Title)
	}
	want := []string{"2026-08-29 20:00 Joanna D’arc – Byron Experience", "2026-09-02 20:00 Yurii Kartuzov – Byron Piano",
		"2026-09-04 18:45 “Destellos de la nada”, de Alba Irene González", "2026-09-04 20:00 Cantoría – Byron Música Antiga",
		"2026-09-05 11:00 V Byron Chess Open"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if next := Next(doc); !strings.HasPrefix(next, "https://llibreriabyron.com/wp-json/tribe/events/v1/events/?") || !strings.HasSuffix(next, "&page=2") {
		t.Errorf("Next = %q", next)
	}
}

// TestCost reads an event's price: cost_details' values with its code or symbol, else the
// cost text when it is one price. The lines are real sites' (atlbyday's, Hannover's
// PLATZprojekt's, Almo2bar's in Barcelona), but for the last two.
func TestCost(t *testing.T) {
	for _, tc := range []struct {
		fields   string
		lo, hi   float64
		currency string
		priced   bool
	}{
		{`"cost":"$6.00","cost_details":{"currency_symbol":"","currency_position":"prefix","values":["6.00"]}`, 6, 6, "", true},
		{`"cost":"5 €"`, 5, 5, "", true},
		{`"cost":"","cost_details":{"currency_symbol":"\u20ac","currency_position":"suffix","values":[]}`, 0, 0, "", false},
		{`"cost":"10 € – 15 €","cost_details":{"currency_symbol":"\u20ac","values":["10","15"]}`, 10, 15, "€", true},
		{`"cost":"10 – 15"`, 0, 0, "", false},
	} {
		doc := `{"events":[{"title":"a","start_date":"2026-01-01 20:00:00",` + tc.fields + `}]}`
		events, _, err := Parse([]byte(doc), "p", Options{})
		if err != nil || len(events) != 1 {
			t.Fatalf("%s: %d events, error %v", tc.fields, len(events), err)
		}
		var o source.Offer
		if len(events[0].Offers) == 1 {
			o = events[0].Offers[0]
		}
		if o.HasPrice != tc.priced || o.PriceMin != tc.lo || o.PriceMax != tc.hi || o.Currency != tc.currency {
			t.Errorf("%s: offer %+v; want %v to %v %q", tc.fields, o, tc.lo, tc.hi, tc.currency)
		}
	}
}

// TestCostTextNoPrice: a cost text that is no price (an age limit, a door time, a
// thousands' dot with a currency's name) states none; a bare price does.
func TestCostTextNoPrice(t *testing.T) {
	for _, tt := range []struct {
		cost  string
		price bool
	}{
		{"21+", false}, {"18+", false}, {"Doors 8pm", false}, {"1.500 Ft", false}, {"5 €", true}, {"$6.00", true},
	} {
		doc := `{"events":[{"title":"a","start_date":"2026-01-01 20:00:00","cost":"` + tt.cost + `"}]}`
		events, _, err := Parse([]byte(doc), "p", Options{})
		if err != nil || len(events) != 1 {
			t.Fatalf("%q: %d events, %v", tt.cost, len(events), err)
		}
		priced := false
		for _, o := range events[0].Offers {
			priced = priced || o.HasPrice
		}
		if priced != tt.price {
			t.Errorf("cost %q: priced %v, want %v (offers %+v)", tt.cost, priced, tt.price, events[0].Offers)
		}
	}
}
