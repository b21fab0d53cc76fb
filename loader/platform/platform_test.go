package platform

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gigs/gigs/testkit/emulator"
	"math"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/source"
)

// testNow is the fixed "now" of every adapter test; the default horizon runs to
// 2027-01-10T12:00:00Z.
var testNow = time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)

const testKey = "s3cret-key-42"

// testListings covers the cases the adapters must read right.
func testListings() []emulator.Listing {
	berlin := emulator.Listing{VenueID: "KovZpZAEdntA", VenueName: "The Lantern", Street: "Kastanienallee 12", City: "Berlin",
		PostalCode: "10435", Country: "DE", Lat: 52.5386, Lon: 13.41, Zone: "Europe/Berlin"}
	at := func(base emulator.Listing, id, title, date, clock string) emulator.Listing {
		l := base
		l.ID, l.Name, l.LocalDate, l.LocalTime = id, title, date, clock
		l.URL = "https://tix.example/event/" + id
		l.Status = "scheduled"
		return l
	}
	var ls []emulator.Listing
	add := func(l emulator.Listing, edit func(*emulator.Listing)) {
		if edit != nil {
			edit(&l)
		}
		ls = append(ls, l)
	}
	add(at(berlin, "1001", "Night Owls", "2026-02-14", "20:00:00"), func(l *emulator.Listing) {
		l.Performers, l.Genres = []string{"Night Owls", "The Understudies"}, []string{"Indie Rock", "Shoegaze", "Dream Pop"}
		l.HasPrice, l.PriceMin, l.PriceMax, l.Currency = true, 25, 35.5, "EUR"
	})
	add(at(emulator.Listing{VenueName: "Casa do Fado", City: "Lisboa", Country: "PT", Zone: "Europe/Lisbon", Lat: 38.7111, Lon: -9.1289},
		"1002", "Fado Night", "2026-04-03", ""), func(l *emulator.Listing) {
		l.TimeTBA, l.Genres, l.Performers = true, []string{"Folk"}, []string{"Ana Moura"}
	})
	add(at(emulator.Listing{VenueName: "Union Chapel", Street: "Compton Terrace", City: "London", PostalCode: "N1 2UN", Country: "GB",
		Zone: "Europe/London", Lat: 51.5431, Lon: -0.1025}, "1003", "Low Tide", "2026-05-01", "19:30:00"), func(l *emulator.Listing) {
		l.Status, l.Performers, l.Genres = "cancelled", []string{"Low Tide"}, []string{"Folk"}
		l.HasPrice, l.PriceMin, l.PriceMax, l.Currency = true, 40, 40, "GBP"
	})
	add(at(emulator.Listing{VenueName: "La Cigale", City: "Paris", Country: "FR", Zone: "Europe/Paris", Lat: 48.8822, Lon: 2.3403},
		"1004", "Parquet Courts", "2026-06-12", "21:00:00"), func(l *emulator.Listing) {
		l.SoldOut, l.Performers, l.Genres = true, []string{"Parquet Courts"}, []string{"Punk"}
		l.HasPrice, l.PriceMin, l.PriceMax, l.Currency = true, 30, 30, "EUR"
	})
	add(at(emulator.Listing{VenueName: "NCPA Jamshed Bhabha", City: "Mumbai", Country: "IN", Zone: "Asia/Kolkata", Lat: 18.9256, Lon: 72.8205},
		"1005", "Raga Sunrise", "2026-03-07", "19:00:00"), func(l *emulator.Listing) {
		l.Performers, l.Genres = []string{"Anoushka Shankar"}, []string{"World"}
		l.HasPrice, l.PriceMin, l.PriceMax, l.Currency = true, 1500, 4000, "INR"
	})
	add(at(emulator.Listing{VenueName: "Purple Haze", City: "Kathmandu", Country: "NP", Zone: "Asia/Kathmandu"},
		"1006", "Himalayan Blues", "2026-11-20", "18:00:00"), func(l *emulator.Listing) {
		l.Performers = []string{"Kutumba"}
	})
	add(at(emulator.Listing{VenueName: "The Ship Pub", Street: "265 Water St", City: "St. John's", Country: "CA", Zone: "America/St_Johns",
		Lat: 47.5675, Lon: -52.7072}, "1007", "Kitchen Party", "2026-01-24", "20:00:00"), func(l *emulator.Listing) {
		l.Performers, l.Genres = []string{"The Once"}, []string{"Folk", "Celtic"}
		l.HasPrice, l.PriceMin, l.PriceMax, l.Currency = true, 20, 20, "CAD"
	})
	add(at(berlin, "1008", "Spring Forward Ball", "2026-03-29", "20:00:00"), func(l *emulator.Listing) {
		l.Performers, l.Genres = []string{"Moderat"}, []string{"Electronic"}
	})
	add(at(berlin, "1009", "Clock Gap Club", "2026-03-29", "02:30:00"), func(l *emulator.Listing) {
		l.Performers = []string{"DJ Ruhig"}
	})
	add(at(emulator.Listing{VenueName: "Bowery Ballroom", Street: "6 Delancey St", City: "New York", PostalCode: "10002", Country: "US",
		Zone: "America/New_York", Lat: 40.7204, Lon: -73.9934}, "1010", "Fall Back", "2026-11-01", "01:30:00"), func(l *emulator.Listing) {
		l.Performers, l.Genres = []string{"Late Hours"}, []string{"Rock"}
	})
	add(at(emulator.Listing{VenueName: "Corner Hotel", City: "Melbourne", Country: "AU", Zone: "Australia/Melbourne", Lat: -37.8299, Lon: 144.9996},
		"1011", "Postponed Show", "2026-09-05", "20:00:00"), func(l *emulator.Listing) {
		l.Status, l.Performers = "postponed", []string{"Tame Impala"}
	})
	add(at(emulator.Listing{VenueName: "Metro", City: "Chicago", Country: "US", Zone: "America/Chicago", Lat: 41.9496, Lon: -87.6588},
		"1012", "Rescheduled Show", "2026-10-10", "19:00:00"), func(l *emulator.Listing) {
		l.Status, l.Performers = "rescheduled", []string{"Wilco"}
	})
	add(at(berlin, "1013", `Sigur Rós & Friends <Live> "Unplugged"`, "2026-08-08", "19:45:00"), func(l *emulator.Listing) {
		l.Performers, l.Genres = []string{"Sigur Rós", "Amiina"}, []string{"Post-Rock"}
	})
	add(at(emulator.Listing{VenueName: "Chatham Hall", City: "Waitangi", Country: "NZ", Zone: "Pacific/Chatham"},
		"1014", "Island Time", "2026-12-31", "23:45:00"), nil)
	add(at(emulator.Listing{VenueName: "Kiritimati Beach", City: "London Village", Country: "KI", Zone: "Pacific/Kiritimati"},
		"1015", "First Light", "2026-07-01", "06:00:00"), nil)
	add(at(berlin, "1016", "Free Friday", "2026-05-15", "18:00:00"), func(l *emulator.Listing) {
		l.HasPrice, l.Currency = true, "EUR"
	})
	// Outside the window: one past, one beyond the horizon.
	add(at(berlin, "1017", "Last Week", "2026-01-03", "20:00:00"), nil)
	add(at(berlin, "1018", "Far Future", "2027-03-01", "20:00:00"), nil)
	return ls
}

// inWindow reports whether the test adapters should see l.
func inWindow(l emulator.Listing) bool { return l.ID != "1017" && l.ID != "1018" }

// want is the event an adapter of kind should make of l, and whether the kind serves l.
func want(kind Kind, l emulator.Listing) (source.Event, bool) {
	if (kind == KindContinuation || kind == KindBandsintown) && l.TimeTBA || kind == KindBandsintown && l.Status == "cancelled" {
		return source.Event{}, false
	}
	e := source.Event{Source: "test-" + string(kind), Ref: l.ID, URL: l.URL, Title: l.Name, Status: engine.Status(l.Status),
		ActsOnly: kind == KindBandsintown}
	if kind == KindContinuation && l.Status != "cancelled" || kind == KindBandsintown || kind == KindSongkick && l.Status == "rescheduled" {
		e.Status = engine.StatusScheduled
	}
	d, _ := time.Parse("2006-01-02", l.LocalDate)
	if l.TimeTBA {
		e.Start = source.When{Wall: d, DateOnly: true}
	} else {
		c, _ := time.Parse("15:04:05", l.LocalTime)
		wall := time.Date(d.Year(), d.Month(), d.Day(), c.Hour(), c.Minute(), c.Second(), 0, time.UTC)
		loc, _ := time.LoadLocation(l.Zone)
		instant := time.Date(d.Year(), d.Month(), d.Day(), c.Hour(), c.Minute(), c.Second(), 0, loc)
		e.Start = source.When{Wall: wall, HasOffset: true, Offset: int(wall.Sub(instant.UTC()) / time.Second)}
		if kind == KindBandsintown || kind == KindSongkick {
			e.Start = source.When{Wall: wall} // the platforms' offsets are absent or untrustworthy
		}
	}
	e.Venue = source.Place{Name: l.VenueName, Street: l.Street, Locality: l.City, PostalCode: l.PostalCode, Country: l.Country}
	if l.Lat != 0 || l.Lon != 0 {
		e.Venue.Lat, e.Venue.Lon, e.Venue.HasGeo = l.Lat, l.Lon, true
	}
	var genres []string
	switch kind {
	case KindHAL:
		for _, g := range l.Genres[:min(2, len(l.Genres))] {
			genres = addTag(genres, g)
		}
		e.Genres = genres
		e.Venue.Zone = l.Zone
		if len(l.Genres) > 0 {
			e.Kinds = []string{"Music"}
		}
		for _, p := range l.Performers {
			e.Performers = append(e.Performers, source.Performer{Name: p, Genres: genres})
		}
	case KindMeta:
		e.Venue.Zone, e.Kinds = l.Zone, []string{"concert"}
		for i, p := range l.Performers {
			sp := source.Performer{Name: p}
			if i == 0 {
				for _, g := range l.Genres {
					sp.Genres = addTag(sp.Genres, g)
				}
			}
			e.Performers = append(e.Performers, sp)
		}
	case KindBandsintown:
		e.Venue.Country = countryName(l.Country)
		e.Venue.Street, e.Venue.PostalCode = "", ""
		for _, p := range l.Performers {
			e.Performers = append(e.Performers, source.Performer{Name: p})
		}
	case KindSongkick:
		name := countryName(l.Country)
		e.Venue.Locality, e.Venue.Country, e.Kinds = l.City+", "+name, name, []string{"Concert"}
		e.Venue.Street, e.Venue.PostalCode = "", ""
		for _, p := range l.Performers {
			e.Performers = append(e.Performers, source.Performer{Name: p})
		}
	case KindContinuation:
		e.Venue.Zone, e.Kinds = l.Zone, []string{"Music"}
		if len(l.Genres) > 0 {
			e.Genres = addTag(nil, l.Genres[0])
		}
	}
	o := source.Offer{URL: l.URL}
	price := func() {
		o.HasPrice, o.PriceMin, o.PriceMax, o.Currency = true, l.PriceMin, l.PriceMax, l.Currency
	}
	switch kind {
	case KindHAL:
		if l.Status == "scheduled" && !l.SoldOut { // offsale: unknown
			o.Availability = "in_stock"
		}
		if l.HasPrice {
			price()
		}
	case KindMeta:
		switch {
		case l.SoldOut:
			o.Availability = "sold_out"
		case l.HasPrice:
			o.Availability = "in_stock"
			price()
		}
	case KindContinuation:
		switch {
		case l.SoldOut:
			o.Availability = "sold_out"
		case l.Status != "cancelled":
			o.Availability = "in_stock"
		}
		if l.HasPrice {
			price()
		}
	case KindBandsintown:
		o.Availability = map[bool]string{true: "sold_out", false: "in_stock"}[l.SoldOut]
	}
	if l.Status == "cancelled" {
		o.Availability = ""
	}
	e.Offers = []source.Offer{o}
	return e, true
}

// countryName is the English name of a country code, as Bandsintown and Songkick write it.
func countryName(code string) string {
	c, _ := engine.LookupCountry(code)
	return c.Name
}

// serve starts an emulator, wrapped by wrap when not nil, and returns an adapter for it.
func serve(t testing.TB, kind Kind, listings []emulator.Listing, o emulator.Options, wrap func(http.Handler) http.Handler, edit func(*Config)) source.Source {
	t.Helper()
	var h http.Handler = emulator.New(emulator.Kind(kind), listings, o)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cfg := Config{Name: "test-" + string(kind), Kind: kind, URL: srv.URL + "/v2/events", Credential: testKey,
		Now: func() time.Time { return testNow }}
	if edit != nil {
		edit(&cfg)
	}
	src, err := New(cfg, fetch.New(fetch.Options{Allow: loopback}))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// onRequest wraps a handler to call see with every request but for robots.txt first.
func onRequest(see func(*http.Request)) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/robots.txt" {
				see(r)
			}
			h.ServeHTTP(w, r)
		})
	}
}

// loopback is where the test servers listen: fetches may reach it.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	listings := testListings()
	for _, kind := range Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			// Pages of 4 make every kind page several times.
			var mu sync.Mutex
			var bad []string // protected by mu
			check := onRequest(func(r *http.Request) {
				if err := checkRequest(kind, r); err != nil {
					mu.Lock()
					bad = append(bad, err.Error())
					mu.Unlock()
				}
			})
			src := serve(t, kind, listings, emulator.Options{Key: testKey, PageSize: 4, MaxPageSize: 4}, check, nil)
			b, err := src.Fetch(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Dropped) != 0 {
				t.Errorf("drops: %+v", b.Dropped)
			}
			mu.Lock()
			for _, msg := range bad {
				t.Error(msg)
			}
			mu.Unlock()
			got := map[string]source.Event{}
			for _, e := range b.Events {
				if _, dup := got[e.Ref]; dup {
					t.Errorf("event %s twice", e.Ref)
				}
				got[e.Ref] = e
			}
			n := 0
			for _, l := range listings {
				w, served := want(kind, l)
				if !served || !inWindow(l) {
					if _, ok := got[l.ID]; ok {
						t.Errorf("listing %s should not be read", l.ID)
					}
					continue
				}
				n++
				if g, ok := got[l.ID]; !ok {
					t.Errorf("listing %s missing", l.ID)
				} else if !reflect.DeepEqual(g, w) {
					t.Errorf("listing %s:\n got %+v\nwant %+v", l.ID, g, w)
				}
			}
			if len(b.Events) != n {
				t.Errorf("got %d events, want %d", len(b.Events), n)
			}
			// The events come in start order.
			for i := 1; i < len(b.Events); i++ {
				if instant(b.Events[i].Start).Before(instant(b.Events[i-1].Start).Add(-14 * time.Hour)) {
					t.Errorf("event %s out of order after %s", b.Events[i].Ref, b.Events[i-1].Ref)
				}
			}
		})
	}
}

// checkRequest checks that an adapter's request carries what doc.go promises.
func checkRequest(kind Kind, r *http.Request) error {
	q := r.URL.Query()
	want := map[string]string{}
	switch kind {
	case KindHAL:
		want = map[string]string{"apikey": testKey, "startDateTime": "2026-01-10T12:00:00Z",
			"endDateTime": "2027-01-10T12:00:00Z", "size": "200", "sort": "date,asc", "page": q.Get("page")}
		if q.Get("page") != "0" {
			want["size"] = "4" // from the next link: the size the server pages by
		}
	case KindMeta:
		want = map[string]string{"client_id": testKey, "datetime_utc.gte": "2026-01-10T12:00:00",
			"datetime_utc.lte": "2027-01-10T12:00:00", "per_page": "100", "sort": "datetime_utc.asc", "page": q.Get("page")}
	case KindBandsintown:
		want = map[string]string{"app_id": testKey, "date": "2026-01-10,2027-01-10"}
	case KindSongkick:
		want = map[string]string{"apikey": testKey, "min_date": "2026-01-10", "max_date": "2027-01-10", "per_page": "50", "page": q.Get("page")}
	case KindContinuation:
		want = map[string]string{"start_date.range_start": "2026-01-10T12:00:00Z", "start_date.range_end": "2027-01-10T12:00:00Z",
			"expand": "venue,category,subcategory,ticket_availability"}
		if c := q.Get("continuation"); c != "" {
			want["continuation"] = c
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			return fmt.Errorf("%s: Authorization %q", r.URL, got)
		}
	}
	if q.Get("page") == "" && kind != KindContinuation && kind != KindBandsintown {
		return fmt.Errorf("%s: no page", r.URL)
	}
	for k, v := range want {
		if q.Get(k) != v || len(q[k]) != 1 {
			return fmt.Errorf("%s: %s is %q, want %q", r.URL, k, q[k], v)
		}
	}
	if len(q) != len(want) {
		return fmt.Errorf("%s: parameters %v, want only %v", r.URL, q, want)
	}
	if r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("Accept") != "application/json" {
		return fmt.Errorf("%s: headers %v", r.URL, r.Header)
	}
	return nil
}

// instant approximates a When's instant for ordering checks.
func instant(w source.When) time.Time { return w.Wall.Add(-time.Duration(w.Offset) * time.Second) }

func TestRoundTripZones(t *testing.T) {
	t.Parallel()
	// The offsets the listings must yield, spelled out rather than computed.
	offsets := map[string]string{
		"1005": "+05:30", "1006": "+05:45", "1007": "-03:30", "1008": "+02:00", "1014": "+13:45", "1015": "+14:00",
		"1001": "+01:00", "1010": "-04:00",
	}
	src := serve(t, KindHAL, testListings(), emulator.Options{Key: testKey}, nil, nil)
	b, err := src.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range b.Events {
		wantOff, ok := offsets[e.Ref]
		if !ok {
			continue
		}
		delete(offsets, e.Ref)
		if !e.Start.HasOffset {
			t.Errorf("%s: no offset", e.Ref)
			continue
		}
		if got := time.Date(2000, 1, 1, 0, 0, 0, 0, time.FixedZone("", e.Start.Offset)).Format("-07:00"); got != wantOff {
			t.Errorf("%s: offset %s, want %s", e.Ref, got, wantOff)
		}
	}
	if len(offsets) != 0 {
		t.Errorf("not seen: %v", offsets)
	}
}

// capListings returns n listings in the horizon, with clusters that share one instant.
func capListings(n int) []emulator.Listing {
	var ls []emulator.Listing
	for i := range n {
		day := testNow.AddDate(0, 0, 1+(i*7919)%360)
		clock := fmt.Sprintf("%02d:%02d:00", 17+i%6, (i*13)%60)
		if i%10 == 0 { // every tenth listing at one shared instant: a cluster of n/10
			day, clock = testNow.AddDate(0, 0, 200), "20:00:00"
		}
		ls = append(ls, emulator.Listing{
			ID: fmt.Sprintf("cap-%05d", i), Name: fmt.Sprintf("Show %d", i), URL: fmt.Sprintf("https://tix.example/cap/%d", i),
			VenueName: "Hall", City: "Berlin", Country: "DE", Zone: "Europe/Berlin",
			LocalDate: day.Format("2006-01-02"), LocalTime: clock, Status: "scheduled",
		})
	}
	return ls
}

// halRecorder wraps a HAL emulator and records, per window, the ids served on windows the
// platform pages completely (total within the cap).
type halRecorder struct {
	mu      sync.Mutex
	served  map[string]int // protected by mu
	windows int            // protected by mu
	refused int            // protected by mu
}

func (rec *halRecorder) wrap(cap int) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rr := httptest.NewRecorder()
			h.ServeHTTP(rr, r)
			copyResponse(w, rr)
			if r.URL.Path == "/robots.txt" {
				return
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if rr.Code == http.StatusBadRequest {
				rec.refused++
				return
			}
			var p struct {
				Embedded struct {
					Events []struct{ ID string } `json:"events"`
				} `json:"_embedded"`
				Page struct{ TotalElements, Number int } `json:"page"`
			}
			if err := json.Unmarshal(rr.Body.Bytes(), &p); err != nil {
				panic(err)
			}
			if p.Page.Number == 0 {
				rec.windows++
			}
			if p.Page.TotalElements <= cap {
				for _, e := range p.Embedded.Events {
					rec.served[e.ID]++
				}
			}
		})
	}
}

func copyResponse(w http.ResponseWriter, rr *httptest.ResponseRecorder) {
	for k, v := range rr.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rr.Code)
	_, _ = w.Write(rr.Body.Bytes())
}

func TestHALCap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		n           int
		o           emulator.Options
		leafCap     int // windows with totals up to this are paged completely
		wantRefused bool
	}{
		// 2,500 events: the adapter sees totals over 1,000 and splits before paging.
		{"split on total", 2500, emulator.Options{Key: testKey}, halCap, false},
		// A server whose cap is lower than the documented one: deep pages are refused with
		// a 400 and the adapter splits then.
		{"split on 400", 700, emulator.Options{Key: testKey, Cap: 300, MaxPageSize: 100}, 300, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			listings := capListings(tc.n)
			rec := &halRecorder{served: map[string]int{}}
			src := serve(t, KindHAL, listings, tc.o, rec.wrap(tc.leafCap), nil)
			b, err := src.Fetch(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, e := range b.Events {
				if seen[e.Ref] {
					t.Errorf("event %s twice", e.Ref)
				}
				seen[e.Ref] = true
			}
			for _, l := range listings {
				if !seen[l.ID] {
					t.Errorf("listing %s lost", l.ID)
				}
				if n := rec.served[l.ID]; n != 1 {
					t.Errorf("listing %s served %d times in completely paged windows, want once", l.ID, n)
				}
			}
			if len(b.Events) != tc.n || len(b.Dropped) != 0 {
				t.Errorf("got %d events and %d drops, want %d and none", len(b.Events), len(b.Dropped), tc.n)
			}
			if rec.windows < 3 || tc.wantRefused != (rec.refused > 0) {
				t.Errorf("%d windows, %d refused pages", rec.windows, rec.refused)
			}
			t.Logf("%d windows, %d refused pages", rec.windows, rec.refused)
		})
	}
}

func TestHALCapCannotSplit(t *testing.T) {
	t.Parallel()
	// More events at one second than the platform pages through. A one-hour horizon keeps
	// the halving short.
	var listings []emulator.Listing
	for i := range halCap + 1 {
		listings = append(listings, emulator.Listing{ID: fmt.Sprintf("same-%d", i), Name: "Marathon", VenueName: "Hall", City: "Berlin",
			Country: "DE", Zone: "Europe/Berlin", LocalDate: "2026-01-10", LocalTime: "13:30:00"})
	}
	src := serve(t, KindHAL, listings, emulator.Options{Key: testKey}, nil, func(c *Config) { c.Horizon = time.Hour })
	b, err := src.Fetch(context.Background())
	if err == nil || !strings.Contains(err.Error(), "cannot be narrowed") || len(b.Events) != 0 {
		t.Fatalf("got %d events, error %v; want none and a window that cannot be narrowed", len(b.Events), err)
	}
}

// fault is a misbehaving platform: it sees the emulator's answer to the nth request (1-based,
// robots.txt not counted) and may change it.
type fault func(n int, r *http.Request, rr *httptest.ResponseRecorder)

func faulty(f fault) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		var mu sync.Mutex
		count := 0
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rr := httptest.NewRecorder()
			h.ServeHTTP(rr, r)
			if r.URL.Path != "/robots.txt" {
				mu.Lock()
				count++
				n := count
				mu.Unlock()
				f(n, r, rr)
			}
			copyResponse(w, rr)
		})
	}
}

// editJSON rewrites a recorded JSON body.
func editJSON(rr *httptest.ResponseRecorder, edit func(m map[string]any)) {
	dec := json.NewDecoder(bytes.NewReader(rr.Body.Bytes()))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		panic(err)
	}
	edit(m)
	b, _ := json.Marshal(m)
	rr.Body = bytes.NewBuffer(b)
}

// eventsOf returns the page's event array holder and key.
func eventsOf(m map[string]any) (map[string]any, string) {
	if e, ok := m["_embedded"].(map[string]any); ok {
		return e, "events"
	}
	return m, "events"
}

func bump(m map[string]any, path ...string) {
	for _, k := range path[:len(path)-1] {
		m = m[k].(map[string]any)
	}
	k := path[len(path)-1]
	n, _ := strconv.Atoi(m[k].(json.Number).String())
	m[k] = n + 5
}

func TestEarlyStop(t *testing.T) {
	t.Parallel()
	listings := testListings() // 16 events in the window: 4 pages of 4 (the continuation kind: 15)
	onPage := func(at int, f fault) fault {
		return func(n int, r *http.Request, rr *httptest.ResponseRecorder) {
			if n == at {
				f(n, r, rr)
			}
		}
	}
	// The Getter retries a 500, so the third page fails every time it is asked for.
	status500 := func() fault {
		var mu sync.Mutex
		failing := ""
		return func(n int, r *http.Request, rr *httptest.ResponseRecorder) {
			mu.Lock()
			defer mu.Unlock()
			if n == 3 {
				failing = r.URL.String()
			}
			if failing != "" && r.URL.String() == failing {
				rr.Code, rr.Body = http.StatusInternalServerError, bytes.NewBufferString(`{"error":"upstream timeout"}`)
			}
		}
	}
	malformed := onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
		rr.Body = bytes.NewBuffer(rr.Body.Bytes()[:rr.Body.Len()/2])
	})
	truncate := onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
		editJSON(rr, func(m map[string]any) {
			holder, k := eventsOf(m)
			evs := holder[k].([]any)
			holder[k] = evs[:len(evs)-1]
		})
	})
	notFound := onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
		rr.Code, rr.Body = http.StatusNotFound, bytes.NewBufferString(`{}`)
	})
	tests := []struct {
		name     string
		kind     Kind
		f        fault
		wantE    string
		wantPage int // 0 means 3
	}{
		{"500", KindHAL, status500(), "status 500", 0},
		{"500", KindMeta, status500(), "status 500", 0},
		{"500", KindContinuation, status500(), "status 500", 0},
		{"404", KindMeta, notFound, "status 404", 0},
		{"malformed", KindHAL, malformed, "cannot parse page", 0},
		{"malformed", KindMeta, malformed, "cannot parse page", 0},
		{"malformed", KindContinuation, malformed, "cannot parse page", 0},
		{"short page", KindHAL, truncate, "has 3 events, want 4", 0},
		{"short page", KindMeta, truncate, "has 3 events, want 4", 0},
		{"short page", KindContinuation, truncate, "fewer than page_size", 0},
		{"total inflated", KindHAL, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) {
				bump(m, "page", "totalElements")
				m["page"].(map[string]any)["totalPages"] = 6 // 21 events in pages of 4
			})
		}, "no next link on page 4 of 6", 4},
		{"total inflated", KindMeta, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) { bump(m, "meta", "total") })
		}, "page 5 has 0 events, want 4 of 21", 5},
		{"total inflated", KindContinuation, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) { bump(m, "pagination", "object_count") })
		}, "feed ended after 15 events, object_count promised 20", 4},
		{"total changes", KindMeta, onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) { bump(m, "meta", "total") })
		}), "paging changed", 0},
		{"no next link", KindHAL, onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) { delete(m["_links"].(map[string]any), "next") })
		}), "no next link on page 3 of 4", 0},
		{"next link elsewhere", KindHAL, onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) {
				m["_links"].(map[string]any)["next"] = map[string]any{"href": "http://evil.example/steal?page=3"}
			})
		}), "leaves http://127.0.0.1", 0},
		{"wrong page number", KindMeta, onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) { m["meta"].(map[string]any)["page"] = 2 })
		}), "got page 2, want 3", 0},
		{"token loop", KindContinuation, onPage(3, func(_ int, r *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) {
				m["pagination"].(map[string]any)["continuation"] = r.URL.Query().Get("continuation")
			})
		}), "repeated: the feed loops", 0},
		{"token too long", KindContinuation, onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) {
				m["pagination"].(map[string]any)["continuation"] = strings.Repeat("t", maxContinuation+1)
			})
		}), "continuation token of 2049 bytes", 0},
		{"more without token", KindContinuation, onPage(3, func(_ int, _ *http.Request, rr *httptest.ResponseRecorder) {
			editJSON(rr, func(m map[string]any) { delete(m["pagination"].(map[string]any), "continuation") })
		}), "without a continuation token", 0},
	}
	for _, tc := range tests {
		t.Run(string(tc.kind)+"/"+tc.name, func(t *testing.T) {
			t.Parallel()
			src := serve(t, tc.kind, listings, emulator.Options{Key: testKey, PageSize: 4, MaxPageSize: 4}, faulty(tc.f), nil)
			b, err := src.Fetch(context.Background())
			if err == nil {
				t.Fatalf("no error; %d events", len(b.Events))
			}
			var pe *PageError
			msg := err.Error()
			page := cmp.Or(tc.wantPage, 3)
			if !errors.As(err, &pe) || pe.Page != page || !strings.Contains(msg, fmt.Sprintf("page %d ", page)) || !strings.Contains(msg, tc.wantE) {
				t.Errorf("error %q: want a PageError for page %d containing %q", msg, page, tc.wantE)
			}
			if strings.Contains(msg, testKey) {
				t.Errorf("error shows the credential: %s", msg)
			}
			if tc.kind != KindContinuation && !strings.Contains(msg, "REDACTED") {
				t.Errorf("error does not name the page with its redacted URL: %s", msg)
			}
			if len(b.Events) != 0 || len(b.Dropped) != 0 {
				t.Errorf("partial batch returned with the error: %d events", len(b.Events))
			}
		})
	}
}

func TestMaxRequests(t *testing.T) {
	t.Parallel()
	// A platform that always has more: the first page again, with a new token, forever.
	var mu sync.Mutex
	n := 0
	endless := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			q.Del("continuation")
			r.URL.RawQuery = q.Encode()
			rr := httptest.NewRecorder()
			h.ServeHTTP(rr, r)
			mu.Lock()
			n++
			tok := fmt.Sprintf("tok-%d", n)
			mu.Unlock()
			if r.URL.Path != "/robots.txt" {
				editJSON(rr, func(m map[string]any) {
					p := m["pagination"].(map[string]any)
					p["has_more_items"], p["continuation"] = true, tok
					delete(p, "object_count")
				})
			}
			copyResponse(w, rr)
		})
	}
	src := serve(t, KindContinuation, testListings(), emulator.Options{Key: testKey, PageSize: 4}, endless,
		func(c *Config) { c.MaxRequests = 7 })
	b, err := src.Fetch(context.Background())
	if err == nil || !strings.Contains(err.Error(), "over 7 requests") || len(b.Events) != 0 {
		t.Fatalf("got %d events, error %v; want the request bound", len(b.Events), err)
	}
}

// TestMaxEvents fails a feed with more events than the cap as a whole, each kind, and
// stops paging as soon as the cap is passed.
func TestMaxEvents(t *testing.T) {
	t.Parallel()
	listings := testListings()
	for _, kind := range Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			pages := 0 // protected by mu
			count := onRequest(func(*http.Request) { mu.Lock(); pages++; mu.Unlock() })
			src := serve(t, kind, listings, emulator.Options{Key: testKey, PageSize: 4, MaxPageSize: 4}, count,
				func(c *Config) { c.MaxEvents = 5 })
			b, err := src.Fetch(context.Background())
			if !errors.Is(err, source.ErrTooManyEvents) || !strings.Contains(err.Error(), "more than 5 (max_events)") || len(b.Events) != 0 {
				t.Fatalf("got %d events, error %v; want too many events", len(b.Events), err)
			}
			mu.Lock()
			defer mu.Unlock()
			want := 2
			if kind == KindBandsintown {
				want = 1 // an unpaged list
			}
			if pages != want {
				t.Errorf("%d pages read for a cap of 5 in pages of 4, want %d", pages, want)
			}
		})
	}
	// At the cap exactly, the feed is whole.
	whole, err := serve(t, KindMeta, listings, emulator.Options{Key: testKey, PageSize: 4, MaxPageSize: 4}, nil, nil).Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	src := serve(t, KindMeta, listings, emulator.Options{Key: testKey, PageSize: 4, MaxPageSize: 4}, nil,
		func(c *Config) { c.MaxEvents = len(whole.Events) })
	if b, err := src.Fetch(context.Background()); err != nil || len(b.Events) != len(whole.Events) {
		t.Fatalf("at the cap of %d: %d events, %v", len(whole.Events), len(b.Events), err)
	}
}

func TestContextCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancelOnPage2 := func(n int, _ *http.Request, _ *httptest.ResponseRecorder) {
		if n == 2 {
			cancel()
		}
	}
	src := serve(t, KindMeta, testListings(), emulator.Options{Key: testKey, PageSize: 4, MaxPageSize: 4}, faulty(cancelOnPage2), nil)
	b, err := src.Fetch(ctx)
	if !errors.Is(err, context.Canceled) || len(b.Events) != 0 {
		t.Fatalf("got %d events, error %v; want context.Canceled", len(b.Events), err)
	}
}

func TestCredentialRefused(t *testing.T) {
	t.Parallel()
	for _, kind := range Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			src := serve(t, kind, testListings(), emulator.Options{Key: testKey}, nil, func(c *Config) { c.Credential = "wrong-key" })
			b, err := src.Fetch(context.Background())
			if err == nil {
				t.Fatalf("no error, %d events", len(b.Events))
			}
			code := map[Kind]string{KindHAL: "status 401", KindMeta: "status 403", KindContinuation: "status 401",
				KindBandsintown: "status 403", KindSongkick: "status 401"}[kind]
			if msg := err.Error(); !strings.Contains(msg, "credential refused") || !strings.Contains(msg, code) ||
				!strings.Contains(msg, "page 1 ") || strings.Contains(msg, "wrong-key") {
				t.Errorf("error %q: want credential refused, %s, page 1, no key", msg, code)
			}
		})
	}
}

func TestNew(t *testing.T) {
	get := fetch.New(fetch.Options{Allow: loopback})
	ok := Config{Name: "tix", Kind: KindHAL, URL: "https://api.tix.example/discovery/v2/events.json", Credential: "k"}
	if _, err := New(ok, get); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Kind = "rss" }, `unknown kind "rss"`},
		{func(c *Config) { c.Name = "" }, "no source name"},
		{func(c *Config) { c.URL = "ftp://x.example/" }, "bad url"},
		{func(c *Config) { c.URL = "/v2/events" }, "bad url"},
		{func(c *Config) { c.URL = "http://a b/" }, "bad url"},
		{func(c *Config) { c.Credential = "" }, `kind "hal" needs a credential`},
		{func(c *Config) { c.Kind, c.Credential = KindMeta, "" }, `kind "meta" needs a credential`},
		{func(c *Config) { c.Kind, c.Credential = KindContinuation, "" }, `kind "continuation" needs a credential`},
		{func(c *Config) { c.URL += "?apikey=k" }, "not in the \"apikey\" query parameter"},
	} {
		cfg := ok
		tc.edit(&cfg)
		if _, err := New(cfg, get); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", cfg, err, tc.want)
		}
	}
	if _, err := New(ok, nil); err == nil {
		t.Error("no error for a nil getter")
	}
}

// get reads the emulator directly.
func get(t *testing.T, h http.Handler, target string, header http.Header) (int, string) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	rr := httptest.NewRecorder()
	h.ServeHTTP(rr, r)
	return rr.Code, rr.Body.String()
}

func TestEmulatorQuirks(t *testing.T) {
	listings := testListings()
	bearer := http.Header{"Authorization": {"Bearer " + testKey}}
	hal := emulator.New(emulator.KindHAL, listings, emulator.Options{Key: testKey})
	meta := emulator.New(emulator.KindMeta, listings, emulator.Options{Key: testKey})
	cont := emulator.New(emulator.KindContinuation, listings, emulator.Options{Key: testKey, PageSize: 5})
	for _, tc := range []struct {
		name   string
		h      http.Handler
		target string
		header http.Header
		code   int
		has    []string
		hasNot []string
	}{
		{"hal string coordinates and links", hal, "/discovery/v2/events.json?apikey=" + testKey + "&size=200", nil, 200,
			[]string{`"latitude":"52.5386"`, `"longitude":"13.41"`, `"templated":true`, `{&sort}"`, `"number":0`,
				`"totalElements":18`, `"timeTBA":true`, `"code":"canceled"`, `"code":"offsale"`}, []string{testKey}},
		{"hal cap", hal, "/e?apikey=" + testKey + "&size=200&page=5", nil, 400, []string{"DIS1035", "Max paging depth exceeded"}, nil},
		{"hal size capped", hal, "/e?apikey=" + testKey + "&size=500", nil, 200, []string{`"size":200`}, nil},
		{"hal window", hal, "/e?apikey=" + testKey + "&startDateTime=2026-03-29T00:00:00Z&endDateTime=2026-03-29T17:59:59Z", nil, 200,
			[]string{`"totalElements":1`, `"id":"1009"`}, nil},
		{"hal bad window", hal, "/e?apikey=" + testKey + "&startDateTime=2026-03-29", nil, 400, []string{"DIS1015"}, nil},
		{"hal no key", hal, "/e", nil, 401, []string{"FailedToResolveAPIKey"}, nil},
		{"hal bad key", hal, "/e?apikey=nope", nil, 401, []string{"Invalid ApiKey"}, nil},
		{"meta placeholder time and utc without Z", meta,
			"/2/events?client_id=" + testKey + "&datetime_utc.gte=2026-04-01T00:00:00&datetime_utc.lte=2026-04-30T00:00:00", nil, 200,
			[]string{`"datetime_local":"2026-04-03T03:30:00"`, `"datetime_utc":"2026-04-03T02:30:00"`, `"time_tbd":true`, `"id":1002`,
				`"per_page":10`, `"total":1`}, nil},
		{"meta per_page capped", meta, "/2/events?client_id=" + testKey + "&per_page=1000", nil, 200, []string{`"per_page":100`}, nil},
		{"meta sold out", meta, "/2/events?client_id=" + testKey + "&datetime_utc.gte=2026-06-12&datetime_utc.lte=2026-06-13", nil, 200,
			[]string{`"listing_count":0`, `"lowest_price":null`}, nil},
		{"meta bad page", meta, "/2/events?client_id=" + testKey + "&page=0", nil, 400, []string{`"status":"error"`}, nil},
		{"meta no key", meta, "/2/events", nil, 401, []string{"client_id is required"}, nil},
		{"meta bad key", meta, "/2/events?client_id=nope", nil, 403, []string{"Invalid client_id"}, nil},
		{"continuation name html", cont, "/v3/events/?start_date.range_start=2026-08-01T00:00:00Z&start_date.range_end=2026-08-31T00:00:00Z",
			bearer, 200, []string{`"text":"Sigur Rós & Friends <Live> \"Unplugged\""`,
				`"html":"Sigur Rós &amp; Friends &lt;Live&gt; &#34;Unplugged&#34;"`,
				`"has_more_items":false`, `"utc":"2026-08-08T17:45:00Z"`, `"local":"2026-08-08T19:45:00"`}, nil},
		{"continuation first page", cont, "/v3/events/", bearer, 200, []string{`"has_more_items":true`, `"continuation":"`, `"object_count":17`,
			`"maximum_ticket_price":{"currency":"EUR","value":3550,"major_value":"35.50","display":"35.50 EUR"}`}, nil},
		{"continuation bad token", cont, "/v3/events/?continuation=bm9wZQ", bearer, 400, []string{"INVALID_CONTINUATION_TOKEN"}, nil},
		{"continuation no key", cont, "/v3/events/", nil, 401, []string{"NO_AUTH"}, nil},
		{"continuation bad key", cont, "/v3/events/", http.Header{"Authorization": {"Bearer nope"}}, 401, []string{"INVALID_AUTH"}, nil},
		{"robots", cont, "/robots.txt", nil, 200, []string{"User-agent: *"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := get(t, tc.h, tc.target, tc.header)
			if code != tc.code {
				t.Errorf("status %d, want %d: %s", code, tc.code, body)
			}
			for _, s := range tc.has {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %s:\n%.3000s", s, body)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(body, s) {
					t.Errorf("body has %s", s)
				}
			}
		})
	}
}

func TestEmulatorContinuationTokenBoundToWindow(t *testing.T) {
	cont := emulator.New(emulator.KindContinuation, testListings(), emulator.Options{PageSize: 3})
	_, body := get(t, cont, "/v3/events/?start_date.range_start=2026-01-10T00:00:00Z", nil)
	var p struct{ Pagination struct{ Continuation string } }
	if err := json.Unmarshal([]byte(body), &p); err != nil || p.Pagination.Continuation == "" {
		t.Fatalf("no token: %v %s", err, body)
	}
	tok := url.QueryEscape(p.Pagination.Continuation)
	if code, body := get(t, cont, "/v3/events/?start_date.range_start=2026-01-10T00:00:00Z&continuation="+tok, nil); code != 200 {
		t.Errorf("same window: %d %s", code, body)
	}
	if code, _ := get(t, cont, "/v3/events/?start_date.range_start=2026-02-10T00:00:00Z&continuation="+tok, nil); code != 400 {
		t.Errorf("other window: %d, want 400", code)
	}
}

func TestListingCheck(t *testing.T) {
	good := testListings()[0]
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for _, edit := range []func(*emulator.Listing){
		func(l *emulator.Listing) { l.ID = "" },
		func(l *emulator.Listing) { l.Zone = "Mars/Olympus" },
		func(l *emulator.Listing) { l.LocalDate = "2026-13-01" },
		func(l *emulator.Listing) { l.LocalTime = "8pm" },
		func(l *emulator.Listing) { l.Status = "maybe" },
		func(l *emulator.Listing) { l.PriceMax = math.Inf(1) },
	} {
		l := good
		edit(&l)
		if l.Check() == nil {
			t.Errorf("%+v: no error", l)
		}
	}
	// Listings that fail Check are not served.
	bad := good
	bad.ID, bad.Zone = "bad", "Mars/Olympus"
	_, body := get(t, emulator.New(emulator.KindMeta, []emulator.Listing{good, bad}, emulator.Options{}), "/", nil)
	if !strings.Contains(body, `"total":1`) {
		t.Errorf("bad listing served: %s", body)
	}
	if !slices.Contains(Kinds, KindMeta) {
		t.Error("kinds")
	}
}
