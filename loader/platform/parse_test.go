package platform

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// Fixtures in testdata are named by outcome: <kind>.<case>.good.json and <kind>.good.json
// parse with no drops, <kind>.drops.json parse with the drops listed, and *.bad.json are not
// pages of their shape.

// fixtureRef is the (redacted) page URL each fixture is parsed as.
var fixtureRef = map[Kind]string{
	KindHAL:          "https://api.tixhub.example/discovery/v2/events.json?apikey=REDACTED&page=2",
	KindMeta:         "https://api.seats.example/2/events?client_id=REDACTED&page=2",
	KindContinuation: "https://www.evbapi.example/v3/events/?continuation=eyJwYWdlIjogMn0",
	KindBandsintown:  "https://rest.bandsintown.com/artists/Metallica/events?app_id=REDACTED",
	KindSongkick:     "https://api.songkick.com/api/3.0/metro_areas/35130/calendar.json?apikey=REDACTED&page=1",
}

// parsePage runs the kind's parser.
func parsePage(kind Kind, body []byte, ref string) ([]source.Event, []source.Drop, any, error) {
	switch kind {
	case KindHAL:
		return parseHALPage(body, ref)
	case KindMeta:
		return parseMetaPage(body, ref)
	case KindBandsintown:
		events, drops, err := parseBandsintown(body, ref)
		return events, drops, nil, err
	case KindSongkick:
		return parseSongkickPage(body, ref)
	default:
		return parseContinuationPage(body, ref)
	}
}

func fixtureKind(file string) Kind { return Kind(file[:strings.IndexByte(file, '.')]) }

// iso is source.ParseISO for values known to be valid.
func iso(s string) source.When {
	w, err := source.ParseISO(s)
	if err != nil {
		panic(err)
	}
	return w
}

const (
	scheduled   = engine.StatusScheduled
	cancelled   = engine.StatusCancelled
	rescheduled = engine.StatusRescheduled
)

var fixtures = []struct {
	file   string
	events []source.Event
	drops  []source.Drop // Ref is filled in from fixtureRef
	info   any
	err    string // for *.bad.json: the start of the error
}{
	{
		file: "hal.good.json",
		events: []source.Event{{
			Ref:   "G5vYZ9ZGtXb1K",
			URL:   "https://www.tixhub.example/khruangbin-a-la-sala-tour-berlin-14-02-2026/event/0B005F1AE6A3",
			Title: "Khruangbin: A La Sala Tour",
			Performers: []source.Performer{
				{Name: "Khruangbin", Genres: []string{"Rock", "Psychedelic Rock"}},
				{Name: "Men I Trust", Genres: []string{"Alternative", "Indie Pop"}},
			},
			Status: scheduled,
			Start:  iso("2026-02-14T20:00:00+01:00"),
			Venue: source.Place{Name: "Columbiahalle", Street: "Columbiadamm 13-21", Locality: "Berlin", PostalCode: "10965",
				Country: "DE", Zone: "Europe/Berlin", Lat: 52.483806, Lon: 13.389565, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.tixhub.example/khruangbin-a-la-sala-tour-berlin-14-02-2026/event/0B005F1AE6A3",
				PriceMin: 45, PriceMax: 65, HasPrice: true, Currency: "EUR", Availability: "in_stock"}},
			Genres: []string{"Rock", "Psychedelic Rock"},
			Kinds:  []string{"Music"},
			Image:  "https://s1.tixhub.example/dam/a/3e1/16_9_640.jpg",
			OnSale: iso("2025-10-01T08:00:00Z"),
		}, {
			Ref:        "Z7r9jZ1A7Gf8P",
			URL:        "https://www.tixhub.example/ezra-collective-london-21-03-2026/event/1F0061A4C2B1",
			Title:      "Ezra Collective",
			Performers: []source.Performer{{Name: "Ezra Collective", Genres: []string{"Jazz"}}},
			Status:     scheduled,
			Start:      iso("2026-03-21"),
			Venue: source.Place{Name: "Roundhouse", Street: "Chalk Farm Road", Locality: "London", PostalCode: "NW1 8EH",
				Country: "GB", Zone: "Europe/London", Lat: 51.543307, Lon: -0.151902, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.tixhub.example/ezra-collective-london-21-03-2026/event/1F0061A4C2B1"}}, // offsale: unknown
			Genres: []string{"Jazz"},
			Kinds:  []string{"Music"},
		}, {
			Ref:        "vvG1fZ9pQkRf5e",
			URL:        "https://www.tixhub.example/fleet-foxes-brooklyn-new-york-04-10-2026/event/30006123A5B8",
			Title:      "Fleet Foxes",
			Performers: []source.Performer{{Name: "Fleet Foxes"}},
			Status:     cancelled,
			Start:      iso("2026-04-10T19:00:00-04:00"),
			Venue: source.Place{Name: "Brooklyn Steel", Street: "319 Frost Street", Locality: "Brooklyn", Region: "NY",
				PostalCode: "11211", Country: "US", Zone: "America/New_York", Lat: 40.71926, Lon: -73.93824, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.tixhub.example/fleet-foxes-brooklyn-new-york-04-10-2026/event/30006123A5B8",
				PriceMin: 55, PriceMax: 55, HasPrice: true, Currency: "USD"}},
			Genres: []string{"Folk"},
			Kinds:  []string{"Music"},
		}, {
			Ref:    "1AvjZbYGkd8Pz0k",
			URL:    "https://www.tixhub.example/event/1AvjZbYGkd8Pz0k",
			Title:  "Jazzmandu: Closing Night",
			Status: rescheduled,
			Start:  iso("2026-10-30T17:30:00+05:45"),
			Venue:  source.Place{Name: "Gokarna Forest Resort", Locality: "Kathmandu", Country: "NP", Zone: "Asia/Kathmandu"},
			Offers: []source.Offer{{URL: "https://www.tixhub.example/event/1AvjZbYGkd8Pz0k"}},
		}},
		info: halInfo{Number: 0, Size: 4, TotalElements: 11, TotalPages: 3, Count: 4,
			Next: "/discovery/v2/events.json?startDateTime=2026-01-10T12:00:00Z&endDateTime=2027-01-10T12:00:00Z&page=1&size=4{&sort}"},
	},
	{
		file: "hal.drops.json",
		events: []source.Event{{
			Ref: "G5diZ9Z1pA1_q", URL: "https://www.tixhub.example/event/G5diZ9Z1pA1_q", Title: "Black Country, New Road",
			Status: scheduled, Start: iso("2026-05-02T19:30:00+01:00"),
			Offers: []source.Offer{{URL: "https://www.tixhub.example/event/G5diZ9Z1pA1_q", Availability: "in_stock"}},
		}},
		drops: []source.Drop{
			{Line: 2, Reason: "no event id"},
			{Line: 3, Reason: "start date to be announced"},
			{Line: 4, Reason: `no usable start: cannot parse time "2026-05-04T8:00 PM": bad clock "8:00 PM"`},
			{Line: 5, Reason: `cannot decode event: field "priceRanges" is a json object`},
			{Line: 6, Reason: "no usable start: no start time"},
			{Line: 7, Reason: "no event id"},
			{Line: 8, Reason: "no title"},
		},
		info: halInfo{Number: 2, Size: 8, TotalElements: 24, TotalPages: 3, Count: 8},
	},
	{file: "hal.empty.good.json", info: halInfo{Size: 200}},
	{file: "hal.fault.bad.json", err: "cannot parse page: no page object"},
	{file: "hal.cdn-html.bad.json", err: "cannot parse page: invalid character '<'"},
	{
		file: "meta.good.json",
		events: []source.Event{{
			Ref:   "6702331",
			URL:   "https://seats.example/japanese-breakfast-tickets/san-francisco-california-the-fillmore-2026-05-15-6-pm/concert/6702331",
			Title: "Japanese Breakfast with Hand Habits",
			Performers: []source.Performer{
				{Name: "Japanese Breakfast", Genres: []string{"Indie", "Pop"}},
				{Name: "Hand Habits", Genres: []string{"Folk"}},
			},
			Status: scheduled,
			Start:  iso("2026-05-15T18:00:00-07:00"),
			Venue: source.Place{Name: "The Fillmore", Street: "1805 Geary Blvd", Locality: "San Francisco", Region: "CA",
				PostalCode: "94115", Country: "US", Zone: "America/Los_Angeles", Lat: 37.784, Lon: -122.433, HasGeo: true},
			Offers: []source.Offer{{URL: "https://seats.example/japanese-breakfast-tickets/san-francisco-california-the-fillmore-2026-05-15-6-pm/concert/6702331",
				PriceMin: 58, PriceMax: 240, HasPrice: true, Currency: "USD", Availability: "in_stock"}},
			Kinds: []string{"concert"},
			Image: "https://seats.example/images/performers-landscape/japanese-breakfast.jpg",
		}, {
			Ref:        "6702999",
			URL:        "https://seats.example/fourth-of-july-jam-tickets/chicago-2026-07-04/music-festival/6702999",
			Title:      "Fourth of July Jam",
			Performers: []source.Performer{{Name: "Umphrey's McGee"}},
			Status:     scheduled,
			Start:      iso("2026-07-04"), // time_tbd: the 03:30 is a placeholder
			Venue: source.Place{Name: "Huntington Bank Pavilion", Street: "1300 S Linn White Dr", Locality: "Chicago", Region: "IL",
				PostalCode: "60605", Country: "US", Zone: "America/Chicago", Lat: 41.8645, Lon: -87.6103, HasGeo: true},
			Offers: []source.Offer{{URL: "https://seats.example/fourth-of-july-jam-tickets/chicago-2026-07-04/music-festival/6702999"}},
			Genres: []string{"music_festival"},
			Kinds:  []string{"music_festival", "concert"},
		}, {
			Ref:        "6703111",
			URL:        "https://seats.example/black-midi-tickets/amsterdam-paradiso-2026-06-20-8-pm/concert/6703111",
			Title:      "Black Midi",
			Performers: []source.Performer{{Name: "Black Midi"}},
			Status:     cancelled,
			Start:      iso("2026-06-20T20:00:00+02:00"),
			Venue: source.Place{Name: "Paradiso", Street: "Weteringschans 6-8", Locality: "Amsterdam", PostalCode: "1017 SG",
				Country: "NL", Zone: "Europe/Amsterdam", Lat: 52.3623, Lon: 4.8838, HasGeo: true},
			Offers: []source.Offer{{URL: "https://seats.example/black-midi-tickets/amsterdam-paradiso-2026-06-20-8-pm/concert/6703111"}},
			Kinds:  []string{"concert"},
		}, {
			Ref:    "mum-77",
			URL:    "https://seats.example/raga-night/mumbai/concert/mum-77",
			Title:  "Raga Night",
			Status: scheduled,
			Start:  iso("2026-08-01T21:00:00"), // local minus utc is 3:07, not an offset
			Venue:  source.Place{Name: "NCPA Jamshed Bhabha Theatre", Locality: "Mumbai", Country: "IN", Zone: "Asia/Kolkata", Lat: 18.9256, Lon: 72.8205, HasGeo: true},
			Offers: []source.Offer{{URL: "https://seats.example/raga-night/mumbai/concert/mum-77",
				PriceMin: 800, PriceMax: 1200, HasPrice: true, Currency: "INR", Availability: "in_stock"}},
			Genres: []string{"classical"},
			Kinds:  []string{"concert", "classical"},
		}},
		info: numberedInfo{Page: 1, PerPage: 10, Total: 4, Count: 4},
	},
	{
		file: "meta.drops.json",
		events: []source.Event{{
			Ref: "7100001", URL: "https://seats.example/car-seat-headrest/seattle/concert/7100001", Title: "Car Seat Headrest",
			Performers: []source.Performer{{Name: "Car Seat Headrest", Genres: []string{"Indie"}}},
			Status:     scheduled, Start: iso("2026-09-11T19:00:00-07:00"),
			Venue: source.Place{Name: "The Showbox", Locality: "Seattle", Region: "WA", Country: "US", Zone: "America/Los_Angeles",
				Lat: 47.6085, Lon: -122.3395, HasGeo: true},
			Offers: []source.Offer{{URL: "https://seats.example/car-seat-headrest/seattle/concert/7100001"}},
			Kinds:  []string{"concert"},
		}},
		drops: []source.Drop{
			{Line: 2, Reason: "no event id"},
			{Line: 3, Reason: "start date to be announced"},
			{Line: 4, Reason: `no usable start: cannot parse time "TBA": too short`},
			{Line: 5, Reason: "no title"},
			{Line: 6, Reason: `cannot decode event: field "stats" is a json string`},
		},
		info: numberedInfo{Page: 2, PerPage: 10, Total: 16, Count: 6},
	},
	{file: "meta.fault.bad.json", err: "cannot parse page: no meta object"},
	{file: "meta.negative-total.bad.json", err: "cannot parse page: bad meta"},
	{
		file: "continuation.good.json",
		events: []source.Event{{
			Ref:    "812345678901",
			URL:    "https://www.evb.example/e/nils-frahm-friends-piano-day-tickets-812345678901",
			Title:  "Nils Frahm & Friends – Piano Day",
			Status: scheduled,
			Start:  iso("2026-03-29T19:30:00+02:00"), // the day the clocks go forward
			End:    iso("2026-03-29T22:00:00+02:00"),
			Venue: source.Place{Name: "Funkhaus Berlin", Street: "Nalepastraße 18", Locality: "Berlin", Region: "BE",
				PostalCode: "12459", Country: "DE", Zone: "Europe/Berlin", Lat: 52.4839, Lon: 13.5048, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.evb.example/e/nils-frahm-friends-piano-day-tickets-812345678901",
				PriceMin: 39, PriceMax: 59, HasPrice: true, Currency: "EUR", Availability: "in_stock"}},
			Genres: []string{"Classical"},
			Kinds:  []string{"Music"},
		}, {
			Ref:    "700000000002",
			URL:    "https://www.evb.example/e/kitchen-party-ceilidh-tickets-700000000002",
			Title:  "Kitchen Party & Ceilidh", // from name.html: no name.text
			Status: scheduled,
			Start:  iso("2026-02-07T20:00:00-03:30"),
			Venue: source.Place{Name: "The Ship Pub", Street: "265 Water St", Locality: "St. John's", Region: "NL",
				PostalCode: "A1C 1B9", Country: "CA", Zone: "America/St_Johns", Lat: 47.5675, Lon: -52.7072, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.evb.example/e/kitchen-party-ceilidh-tickets-700000000002",
				PriceMin: 25, PriceMax: 25, HasPrice: true, Currency: "CAD", Availability: "sold_out"}},
			Kinds: []string{"Music"},
		}, {
			Ref:    "700000000003",
			URL:    "https://www.evb.example/e/sunburn-arena-tickets-700000000003",
			Title:  "Sunburn Arena – Cancelled",
			Status: cancelled,
			Start:  iso("2026-04-18T18:30:00+05:30"),
			End:    iso("2026-04-18T23:30:00+05:30"),
			Venue: source.Place{Name: "Jio World Garden", Street: "Jio World Garden, BKC", Locality: "Mumbai", Region: "MH",
				PostalCode: "400051", Country: "IN", Zone: "Asia/Kolkata", Lat: 19.0652, Lon: 72.8644, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.evb.example/e/sunburn-arena-tickets-700000000003"}},
			Genres: []string{"EDM / Electronic"},
			Kinds:  []string{"Music"},
		}},
		info: contInfo{Continuation: "eyJwYWdlIjogMn0", HasMore: true, PageSize: 3, ObjectCount: 7, HasObjectCount: true, Count: 3},
	},
	{
		file: "continuation.drops.json",
		events: []source.Event{{
			Ref: "700000000014", Title: "Online Listening Party", Status: scheduled, Start: iso("2026-06-01T18:00:00Z"),
			Offers: []source.Offer{{HasPrice: true, Currency: "USD", Availability: "in_stock"}}, // free; the javascript: URL is not kept
		}},
		drops: []source.Drop{
			{Line: 1, Reason: "draft event"},
			{Line: 2, Reason: "no event id"},
			{Line: 3, Reason: "no usable start: no start time"},
			{Line: 4, Reason: `no usable start: cannot parse date "2026-13-45T19:00:00": want YYYY-MM-DD`},
		},
		info: contInfo{PageSize: 3, ObjectCount: 7, HasObjectCount: true, Count: 5},
	},
	{file: "continuation.fault.bad.json", err: "cannot parse page: no pagination object"},
	// Real responses, trimmed: bandsintown from artistgrowth/bandsintao, songkick from
	// jrmehle/songkickr (see testdata/real/platforms/provenance.json at the top level).
	{
		file: "bandsintown.drops.json",
		events: []source.Event{{
			Ref: "1007407346", URL: "https://www.bandsintown.com/e/1007407346?app_id=artistgrowth-dev&came_from=267",
			Title: "Metallica", Status: scheduled, Start: iso("2018-09-04T19:30:00"), OnSale: iso("2018-03-02T16:00:00"),
			Performers: []source.Performer{{Name: "Metallica"}, {Name: "Jim Breuer"}}, ActsOnly: true,
			Venue: source.Place{Name: "Target Center", Locality: "Minneapolis", Region: "MN", Country: "United States",
				Lat: 44.979477, Lon: -93.276158, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.bandsintown.com/t/1007407346?app_id=artistgrowth-dev&came_from=267", Availability: "in_stock"}},
		}, {
			Ref: "1007411058", URL: "https://www.bandsintown.com/e/1007411058?app_id=artistgrowth-dev&came_from=267",
			Title: "Metallica", Status: scheduled, Start: iso("2018-09-06T19:30:00"), OnSale: iso("2018-03-02T16:00:00"),
			Performers: []source.Performer{{Name: "Metallica"}}, ActsOnly: true,
			Venue: source.Place{Name: "Pinnacle Bank Arena", Locality: "Lincoln", Region: "NE", Country: "United States",
				Lat: 40.816662, Lon: -96.732857, HasGeo: true},
			Offers: []source.Offer{{URL: "https://www.bandsintown.com/t/1007411058?app_id=artistgrowth-dev&came_from=267", Availability: "in_stock"}},
		}},
		drops: []source.Drop{
			{Line: 3, Reason: "no event id"},
			{Line: 4, Reason: `no usable start: cannot parse time "TBA": too short`},
		},
	},
	{file: "bandsintown.fault.bad.json", err: `refused: "[NotFound] The artist was not found"`},
	{
		file: "songkick.good.json",
		events: []source.Event{{
			Ref: "16210919", URL: "http://www.songkick.com/festivals/681229/id/16210919-tall-ships-duluth-2013?utm_source=4791&utm_medium=partner",
			Title: "Duluth Waterfront/Bayfront Festival Park 2013", Status: scheduled,
			Start: iso("2013-07-25T12:00:00"), End: iso("2013-07-29"),
			Performers: []source.Performer{{Name: "Tall Ships® Duluth 2013"}},
			Venue: source.Place{Name: "Bayfront Festival Park", Locality: "Duluth, MN, US", Region: "MN", Country: "US",
				Lat: 46.7828085, Lon: -92.1055672, HasGeo: true},
			Offers: []source.Offer{{URL: "http://www.songkick.com/festivals/681229/id/16210919-tall-ships-duluth-2013?utm_source=4791&utm_medium=partner"}},
			Kinds:  []string{"Festival"},
		}, {
			Ref: "14639484", URL: "http://www.songkick.com/concerts/14639484-promise-at-church-of-the-nazarene?utm_source=4791&utm_medium=partner",
			Title: "Promise", Status: scheduled, Start: iso("2013-07-28T18:00:00"), // the -0600 offset is wrong in July
			Performers: []source.Performer{{Name: "Promise"}},
			Venue:      source.Place{Name: "Church of the Nazarene", Locality: "Litchfield, MN, US", Region: "MN", Country: "US"},
			Offers:     []source.Offer{{URL: "http://www.songkick.com/concerts/14639484-promise-at-church-of-the-nazarene?utm_source=4791&utm_medium=partner"}},
			Kinds:      []string{"Concert"},
		}},
		info: numberedInfo{Page: 1, PerPage: 50, Total: 2, Count: 2},
	},
	{file: "songkick.fault.bad.json", err: `status "error": "Invalid or missing apikey"`},
	{file: "continuation.truncated.bad.json", err: "cannot parse page: unexpected end of JSON input"},
}

func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	for _, fx := range fixtures {
		tested[fx.file] = true
		t.Run(fx.file, func(t *testing.T) {
			kind := fixtureKind(fx.file)
			ref := fixtureRef[kind]
			body, err := os.ReadFile(filepath.Join("testdata", fx.file))
			if err != nil {
				t.Fatal(err)
			}
			events, drops, info, err := parsePage(kind, body, ref)
			if strings.HasSuffix(fx.file, ".bad.json") {
				if err == nil || !strings.HasPrefix(err.Error(), fx.err) {
					t.Fatalf("error %v, want one starting %q", err, fx.err)
				}
				if events != nil || drops != nil {
					t.Errorf("events or drops with the error: %v %v", events, drops)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(fx.file, ".good.json") && len(fx.drops) != 0 {
				t.Fatal("a .good fixture must not drop records")
			}
			if len(events) != len(fx.events) {
				t.Errorf("got %d events, want %d", len(events), len(fx.events))
			}
			for i := range min(len(events), len(fx.events)) {
				if !reflect.DeepEqual(events[i], fx.events[i]) {
					t.Errorf("event %d:\n got %+v\nwant %+v", i, events[i], fx.events[i])
				}
			}
			var want []source.Drop
			for _, d := range fx.drops {
				d.Ref = ref
				want = append(want, d)
			}
			if !reflect.DeepEqual(drops, want) {
				t.Errorf("drops:\n got %+v\nwant %+v", drops, want)
			}
			if !reflect.DeepEqual(info, fx.info) {
				t.Errorf("info:\n got %+v\nwant %+v", info, fx.info)
			}
		})
	}
	for _, f := range files {
		if !tested[filepath.Base(f)] {
			t.Errorf("fixture %s has no entry in the table", f)
		}
	}
}

func TestMakeWhen(t *testing.T) {
	for _, tc := range []struct {
		local, instant string
		dateOnly       bool
		want           source.When
		err            string
	}{
		{"2026-12-05T20:00:00", "2026-12-05T19:00:00Z", false, iso("2026-12-05T20:00:00+01:00"), ""},
		{"2026-12-05T20:00:00", "2026-12-05T19:00:00", false, iso("2026-12-05T20:00:00+01:00"), ""},
		{"2026-12-05T20:00:00", "2026-12-05T14:15:00Z", false, iso("2026-12-05T20:00:00+05:45"), ""},
		{"2026-12-05T20:00:00", "2026-12-05T23:30:00Z", false, iso("2026-12-05T20:00:00-03:30"), ""},
		{"2026-12-05T20:00:00", "2026-12-05T06:00:00Z", false, iso("2026-12-05T20:00:00+14:00"), ""},
		// Not real offsets: the wall time stands alone.
		{"2026-12-05T20:00:00", "2026-12-05T05:00:00Z", false, iso("2026-12-05T20:00:00"), ""}, // +15:00
		{"2026-12-05T20:00:00", "2026-12-06T08:30:00Z", false, iso("2026-12-05T20:00:00"), ""}, // -12:30
		{"2026-12-05T20:00:00", "2026-12-05T19:07:00Z", false, iso("2026-12-05T20:00:00"), ""}, // +00:53
		{"2026-12-05T20:00:00", "2026-12-05T19:00:30Z", false, iso("2026-12-05T20:00:00"), ""}, // seconds
		{"2026-12-05T20:00:00", "soon", false, iso("2026-12-05T20:00:00"), ""},                 // bad instant
		{"2026-12-05T20:00:00", "2026-12-05", false, iso("2026-12-05T20:00:00"), ""},           // instant without clock
		{"2026-12-05T20:00:00+01:00", "2026-12-05T01:00:00Z", false, iso("2026-12-05T20:00:00+01:00"), ""},
		{"2026-12-05T03:30:00", "2026-12-05T08:30:00", true, iso("2026-12-05"), ""},
		{"2026-12-05", "", false, iso("2026-12-05"), ""},
		{"", "2026-12-05T19:00:00Z", false, iso("2026-12-05T19:00:00Z"), ""},
		{"", "2026-12-05T20:00:00+01:00", false, iso("2026-12-05T19:00:00Z"), ""},
		{"", "2026-12-05T19:00:00Z", true, source.When{}, "no local date"},
		{"", "", false, source.When{}, "no start time"},
		{"20:00", "", false, source.When{}, "cannot parse"},
		{"", "tomorrow night", false, source.When{}, "cannot parse"},
	} {
		got, err := makeWhen(tc.local, tc.instant, tc.dateOnly)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("makeWhen(%q, %q, %v): error %v, want %q", tc.local, tc.instant, tc.dateOnly, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("makeWhen(%q, %q, %v) = %+v, %v; want %+v", tc.local, tc.instant, tc.dateOnly, got, err, tc.want)
		}
	}
}

// TestOneListingPerShow joins the records Ticketmaster lists for one show, as a London
// feed in a public repository has them: the show on TicketWeb and on Ticketmaster, and a
// restaurant package sold with it; an early and a late show, two shows in two rooms at
// once, and records without an attraction stay apart.
func TestOneListingPerShow(t *testing.T) {
	jazzCafe := source.Place{Name: "Jazz Cafe", Locality: "London", Country: "GB"}
	rec := func(ref, title, start, act, url string, price float64) source.Event {
		e := source.Event{Ref: ref, Title: title, Start: iso(start), Venue: jazzCafe, URL: url}
		if act != "" {
			e.Performers = []source.Performer{{Name: act}}
		}
		o := source.Offer{URL: url}
		if price > 0 {
			o.HasPrice, o.PriceMin, o.PriceMax, o.Currency, o.Availability = true, price, price, "GBP", "in_stock"
		}
		e.Offers = []source.Offer{o}
		return e
	}
	events := []source.Event{
		rec("G5dFZ9FBfnkeD", "Charley Crockett", "2022-11-01T19:00:00+00:00", "Charley Crockett", "https://ticketweb.example/1", 0),
		rec("G5vHZ9Fmg8VHC", "Charley Crockett", "2022-11-01T19:00:00+00:00", "Charley Crockett", "https://tm.example/2", 16),
		rec("G5dFZ9FBfRpeT", "Charley Crockett - Restaurant Tables", "2022-11-01T19:00:00+00:00", "Charley Crockett", "https://tm.example/3", 45),
		rec("late", "Charley Crockett", "2022-11-01T22:00:00+00:00", "Charley Crockett", "https://tm.example/4", 16),
		rec("upstairs", "Jo Harman", "2022-11-01T19:00:00+00:00", "Jo Harman", "https://tm.example/5", 12),
		rec("x", "Open Mic", "2022-11-02", "", "https://tm.example/6", 0),
		rec("y", "Open Mic", "2022-11-02", "", "https://tm.example/7", 0),
		rec("matinee", "Jo Harman (Matinee)", "2022-11-05", "Jo Harman", "https://tm.example/8", 20), // no time: apart
		rec("evening", "Jo Harman (Evening)", "2022-11-05", "Jo Harman", "https://tm.example/9", 20),
		rec("tw-moved", "Davina", "2022-07-25T19:00:00+01:00", "Davina", "https://ticketweb.example/10", 0),
		rec("tm-on", "Davina", "2022-07-25T19:00:00+01:00", "Davina", "https://tm.example/11", 18),
	}
	events[len(events)-2].Status, events[len(events)-1].Status = engine.StatusCancelled, engine.StatusScheduled
	got := oneListingPerShow(events)
	var refs []string
	for _, e := range got {
		refs = append(refs, e.Ref)
	}
	if want := []string{"G5dFZ9FBfnkeD", "late", "upstairs", "x", "y", "matinee", "evening", "tw-moved"}; !reflect.DeepEqual(refs, want) {
		t.Fatalf("refs %v, want %v", refs, want)
	}
	want := []source.Offer{{URL: "https://ticketweb.example/1"},
		{URL: "https://tm.example/2", HasPrice: true, PriceMin: 16, PriceMax: 16, Currency: "GBP", Availability: "in_stock"},
		{URL: "https://tm.example/3", Availability: "in_stock"}} // a package's price is not the show's
	if got[0].Title != "Charley Crockett" || !reflect.DeepEqual(got[0].Offers, want) {
		t.Errorf("the show: %q with offers %+v, want %+v", got[0].Title, got[0].Offers, want)
	}
	if got[7].Status != engine.StatusScheduled { // one system withdrew its tickets; the show is on
		t.Errorf("a show cancelled on one system, on sale on another: %s", got[7].Status)
	}
	if events[0].Offers[0].URL != "https://ticketweb.example/1" || len(events[0].Offers) != 1 {
		t.Error("the records given were changed")
	}
}

// TestSongkickWithoutStatus: Songkick's documented example response (as net-songkick's
// t/06-requests.t records it) has no resultsPage.status; its events are read. A page with an
// error is still an error, whatever its status says.
func TestSongkickWithoutStatus(t *testing.T) {
	const event = `{"id":"1","displayName":"a at b","start":{"date":"2012-04-18","time":"20:00:00"},"venue":{"displayName":"b"},` +
		`"performance":[{"billing":"headline","artist":{"displayName":"Wild Flag"}}]}`
	events, _, info, err := parseSongkickPage([]byte(`{"resultsPage":{"page":1,"totalEntries":1,"perPage":50,"results":{"event":[`+event+`]}}}`), "p")
	if err != nil || len(events) != 1 || info.Count != 1 {
		t.Errorf("no status: %d events, %+v, %v", len(events), info, err)
	}
	_, _, _, err = parseSongkickPage([]byte(`{"resultsPage":{"error":{"message":"Invalid or missing apikey"}}}`), "p")
	if err == nil || !strings.Contains(err.Error(), "Invalid or missing apikey") {
		t.Errorf("an error without a status: %v", err)
	}
}

// TestBandsintownLineupIsActs: Bandsintown's lineup is of artists, the title often empty
// (azra-l/festival-fanatic's Kygo feed: Life is Beautiful, "title": "", 22 acts): its
// events say so, and the title is the first act's name.
func TestBandsintownLineupIsActs(t *testing.T) {
	const body = `[{"id":"1","title":"","datetime":"2022-09-17T12:00:00","lineup":["Kygo","Gorillaz"],` +
		`"venue":{"name":"Downtown Las Vegas","city":"Las Vegas","region":"NV","country":"United States"}}]`
	events, _, err := parseBandsintown([]byte(body), "p")
	if err != nil || len(events) != 1 || !events[0].ActsOnly || events[0].Title != "Kygo" || len(events[0].Performers) != 2 {
		t.Fatalf("%+v, %v", events, err)
	}
}

// TestBandsintownFestivalMidnight: a festival's listing at midnight of its first day has
// no time (azra-l/festival-fanatic's Gryffin feed: Freaky Deaky, "datetime":
// "2022-10-29T00:00:00", "festival_start_date": "2022-10-29"); a festival at another time,
// and a show at midnight, keep theirs.
func TestBandsintownFestivalMidnight(t *testing.T) {
	for _, tc := range []struct {
		datetime, festival string
		dateOnly           bool
	}{
		{"2022-10-29T00:00:00", "2022-10-29", true},
		{"2022-10-29T14:00:00", "2022-10-29", false},
		{"2022-10-29T00:00:00", "", false},
	} {
		body := `[{"id":"1","title":"Freaky Deaky","datetime":"` + tc.datetime + `","festival_start_date":"` + tc.festival + `","lineup":["Gryffin"],` +
			`"venue":{"name":"Credit Union 1 Arena","city":"Chicago","region":"IL","country":"United States"}}]`
		events, _, err := parseBandsintown([]byte(body), "p")
		if err != nil || len(events) != 1 || events[0].Start.DateOnly != tc.dateOnly {
			t.Errorf("%s, festival %q: %+v, %v; want date only %v", tc.datetime, tc.festival, events, err, tc.dateOnly)
		}
	}
}
