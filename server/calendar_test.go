package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/ical"
	"github.com/gigs/gigs/loader/jsonld"
	"github.com/gigs/gigs/testkit/icalcheck"
)

// calNow is the build time of calendarDataset: a week before Europe's clocks go forward.
var calNow = time.Date(2027, 3, 20, 12, 0, 0, 0, time.UTC)

// calendarDataset has gigs in zones with a daylight saving change within the feed's dates
// (Paris, Lord Howe's half hour), with a half-hour offset (St John's) and a 45-minute one
// (Kathmandu); of every status; a date-only one; titles and names that need escaping and
// folding.
func calendarDataset() *engine.Dataset {
	price := func(f float64) *float64 { return &f }
	at := func(zone string, y int, m time.Month, d, h, min int) time.Time {
		l, err := time.LoadLocation(zone)
		if err != nil {
			panic(err)
		}
		return time.Date(y, m, d, h, min, 0, 0, l)
	}
	ds := &engine.Dataset{
		Cities: []engine.City{
			{Slug: "paris", Name: "Paris", Country: "FR", Timezone: "Europe/Paris"},
			{Slug: "lord-howe-island", Name: "Lord Howe Island", Country: "AU", Timezone: "Australia/Lord_Howe"},
			{Slug: "st-johns", Name: "St. John's", Country: "CA", Timezone: "America/St_Johns"},
			{Slug: "kathmandu", Name: "Kathmandu", Country: "NP", Timezone: "Asia/Kathmandu"},
		},
		Venues: []engine.Venue{
			{Slug: "la-cigale", Name: "La Cigale", City: "paris", Address: "120 Boulevard de Rochechouart", Lat: 48.8823, Lon: 2.3404, HasGeo: true, Website: "https://www.lacigale.fr/"},
			{Slug: "reef-hall", Name: "Reef Hall", City: "lord-howe-island", Address: "1 Lagoon Road", Lat: -31.5553, Lon: 159.0821, HasGeo: true},
			{Slug: "the-ship", Name: "The Ship Pub", City: "st-johns", Address: "265 Duckworth Street", Lat: 47.5663, Lon: -52.7070, HasGeo: true},
			{Slug: "purple-haze", Name: "Purple Haze", City: "kathmandu"},
		},
		Artists: []engine.Artist{
			{Slug: "sigur-ros", Name: "Sigur Rós"},
			{Slug: "ambre", Name: "Ambre; the \"Band\", live\\"},
			{Slug: "hiromi", Name: "上原ひろみ"},
		},
		Genres: []engine.Genre{{Slug: "post-rock", Name: "Post-rock"}, {Slug: "jazz", Name: "Jazz"}},
	}
	bill := func(slugs ...string) []engine.Billing {
		var b []engine.Billing
		for i, s := range slugs {
			b = append(b, engine.Billing{Artist: s, Headliner: i == 0})
		}
		return b
	}
	tickets := func(id string, lo, hi float64) []engine.Ticket {
		return []engine.Ticket{{URL: "https://tickets.example/e/" + id + "?a=1&b=2", Source: "tixhub", PriceMin: price(lo), PriceMax: price(hi), Currency: "EUR", Availability: "in_stock"},
			{URL: "https://venue.example/" + id, Source: "venue"}}
	}
	src := []engine.Attribution{{Name: "tixhub", URL: "https://tixhub.example/"}}
	ds.Gigs = []engine.Gig{
		{ID: "c1", Title: "Sigur Rós", Venue: "la-cigale", Start: at("Europe/Paris", 2027, 3, 27, 20, 0), End: at("Europe/Paris", 2027, 3, 27, 23, 0),
			Doors: at("Europe/Paris", 2027, 3, 27, 19, 0), OnSale: at("Europe/Paris", 2026, 12, 1, 10, 0), Image: "https://img.example/sr.jpg",
			Artists: bill("sigur-ros", "ambre"), Genres: []string{"post-rock"}, Tickets: tickets("c1", 45, 65.5), Sources: src},
		{ID: "c2", Title: "Ambre; the \"Band\", live\\ — an évening of very long titles, with commas, semicolons; and 日本語の文字 that must fold", Venue: "la-cigale",
			Start: at("Europe/Paris", 2027, 3, 28, 20, 30), Artists: bill("ambre"), Tickets: tickets("c2", 20, 20), Sources: src},
		{ID: "c3", Title: "Hiromi: date to be announced", Venue: "la-cigale", Start: at("Europe/Paris", 2027, 4, 2, 0, 0), TimeTBA: true,
			Artists: bill("hiromi"), Genres: []string{"jazz"}, Sources: src},
		{ID: "c4", Title: "Sigur Rós (postponed)", Status: engine.StatusPostponed, Venue: "la-cigale", Start: at("Europe/Paris", 2027, 4, 3, 20, 0),
			Artists: bill("sigur-ros"), Sources: src},
		{ID: "c5", Title: "Ambre", Status: engine.StatusCancelled, Venue: "la-cigale", Start: at("Europe/Paris", 2027, 4, 4, 20, 0), Artists: bill("ambre"), Sources: src},
		{ID: "c6", Title: "Sigur Rós at the reef", Venue: "reef-hall", Start: at("Australia/Lord_Howe", 2027, 4, 4, 19, 0), Artists: bill("sigur-ros"), Sources: src},
		{ID: "c7", Title: "Sigur Rós in St. John's", Venue: "the-ship", Start: at("America/St_Johns", 2027, 3, 25, 21, 0), End: at("America/St_Johns", 2027, 3, 26, 0, 30),
			Artists: bill("sigur-ros"), Sources: src},
		{ID: "c8", Title: "Hiromi", Venue: "purple-haze", Start: at("Asia/Kathmandu", 2027, 3, 30, 18, 0), Artists: bill("hiromi"), Sources: src},
		{ID: "c9", Title: "Sigur Rós (moved)", Status: engine.StatusRescheduled, Venue: "la-cigale", Start: at("Europe/Paris", 2027, 4, 10, 21, 0),
			PreviousStart: at("Europe/Paris", 2027, 3, 21, 21, 0), Artists: bill("sigur-ros"), Sources: src},
	}
	return ds
}

// serveCalendar serves calendarDataset built at calNow, refreshed next an hour later.
func serveCalendar(t *testing.T) (string, *engine.Live, *engine.Snapshot, *Server) {
	t.Helper()
	snap, err := engine.Build(calendarDataset(), engine.Options{Now: calNow})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(snap)
	live.SetNextRefresh(calNow.Add(time.Hour))
	s := New(Options{Live: &live, Now: func() time.Time { return calNow }, ReadLimit: 1 << 30, PublicURL: "https://gigs.example"})
	return listen(t, s), &live, snap, s
}

// listedGig is a gig as /v1/gigs lists it: what a feed's event must agree with.
type listedGig struct {
	ID, Title, Status, Timezone, Date string
	StartsAt                          string `json:"starts_at"`
	EndsAt                            string `json:"ends_at"`
	TimeTBA                           bool   `json:"time_tba"`
	Venue, City                       struct{ Name string }
	Country                           string
}

// listed returns the gigs /v1/gigs lists for query, every page.
func listed(t *testing.T, base, query string) []listedGig {
	t.Helper()
	var all []listedGig
	for page := 1; ; page++ {
		r := do(t, "GET", fmt.Sprintf("%s/v1/gigs?%spage_size=100&page=%d", base, query, page), nil)
		var body struct {
			Data []listedGig
			Meta struct {
				TotalPages int `json:"total_pages"`
			}
		}
		if r.status != 200 || json.Unmarshal(r.body, &body) != nil {
			t.Fatalf("/v1/gigs?%s: %d %s", query, r.status, r.body)
		}
		all = append(all, body.Data...)
		if page >= body.Meta.TotalPages {
			return all
		}
	}
}

var icsStatus = map[string]string{"scheduled": "CONFIRMED", "rescheduled": "CONFIRMED", "postponed": "TENTATIVE", "cancelled": "CANCELLED"}

// checkParsed compares what a parser read of a feed with the gigs /v1/gigs lists: one
// event per gig (and no other but the cancelled copies of merged gigs), each with the
// gig's id, title, local start, zone and status.
func checkParsed(t *testing.T, p icalcheck.Parser, c icalcheck.Calendar, gigs []listedGig) {
	t.Helper()
	if c.Props["VERSION"] != "2.0" || c.Props["METHOD"] != "PUBLISH" || c.Props["PRODID"] == "" || c.Props["X-WR-CALNAME"] == "" {
		t.Errorf("%s: calendar properties %v", p, c.Props)
	}
	byUID := map[string]icalcheck.Event{}
	for _, e := range c.Events {
		if _, dup := byUID[e.UID]; dup {
			t.Errorf("%s: UID %s twice", p, e.UID)
		}
		byUID[e.UID] = e
	}
	for _, g := range gigs {
		e, ok := byUID[g.ID+"@gigs.example"]
		if !ok {
			t.Errorf("%s: no event of gig %s", p, g.ID)
			continue
		}
		delete(byUID, e.UID)
		start, zone := g.StartsAt, g.Timezone
		if g.TimeTBA {
			start, zone = g.Date, ""
		}
		if e.Summary != g.Title || e.Start != start || e.TZID != zone || e.Zone != zone || e.Status != icsStatus[g.Status] {
			t.Errorf("%s: gig %s read as %q %s %s/%s %s, want %q %s %s %s", p, g.ID, e.Summary, e.Start, e.TZID, e.Zone, e.Status,
				g.Title, start, zone, icsStatus[g.Status])
		}
		if g.EndsAt != "" && e.End != g.EndsAt {
			t.Errorf("%s: gig %s ends %s, want %s", p, g.ID, e.End, g.EndsAt)
		}
		if !strings.HasPrefix(e.Location, g.Venue.Name+", ") || !strings.Contains(e.Location, g.City.Name) {
			t.Errorf("%s: gig %s at %q", p, g.ID, e.Location)
		}
	}
	for uid, e := range byUID {
		if e.Status != "CANCELLED" {
			t.Errorf("%s: event %s is no gig listed, and not cancelled", p, uid)
		}
	}
}

func TestCalendarFeedsParsed(t *testing.T) {
	base, _, _, _ := serveCalendar(t)
	for _, tt := range []struct{ feed, query string }{
		{"/v1/gigs.ics", ""},
		{"/v1/gigs.ics?city=paris&status=scheduled,postponed", "city=paris&status=scheduled,postponed&"},
		{"/v1/gigs.ics?country=au,np&from=2027-03-01", "country=au,np&from=2027-03-01&"},
		{"/v1/venues/la-cigale.ics", "venue=la-cigale&"},
		{"/v1/artists/sigur-ros.ics", "artist=sigur-ros&"},
		{"/v1/artists/hiromi.ics", "artist=hiromi&"},
	} {
		t.Run(tt.feed, func(t *testing.T) {
			r := do(t, "GET", base+tt.feed, nil)
			if r.status != 200 || r.header.Get("Content-Type") != "text/calendar; charset=utf-8" {
				t.Fatalf("%d %s %s", r.status, r.header.Get("Content-Type"), r.body)
			}
			checkFraming(t, r.body)
			gigs := listed(t, base, tt.query)
			if len(gigs) == 0 {
				t.Fatal("the listing is empty: the test checks nothing")
			}
			for _, p := range icalcheck.Parsers {
				checkParsed(t, p, icalcheck.Read(t, p, r.body), gigs)
			}
		})
	}
}

// checkFraming checks the lines of a feed: CRLF only, none longer than 75 octets, each
// valid UTF-8 (no fold splits a character).
func checkFraming(t *testing.T, feed []byte) {
	t.Helper()
	if !bytes.HasSuffix(feed, []byte("\r\n")) || bytes.Contains(bytes.ReplaceAll(feed, []byte("\r\n"), nil), []byte("\n")) ||
		bytes.Contains(bytes.ReplaceAll(feed, []byte("\r\n"), nil), []byte("\r")) {
		t.Error("lines do not all end in CRLF")
	}
	for i, line := range bytes.Split(bytes.TrimSuffix(feed, []byte("\r\n")), []byte("\r\n")) {
		if len(line) > 75 || !utf8Valid(line) {
			t.Errorf("line %d: %d octets, %q", i+1, len(line), line)
		}
	}
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

func TestCalendarGolden(t *testing.T) {
	base, _, _, _ := serveCalendar(t)
	for _, tt := range []struct{ path, name string }{
		{"/v1/venues/la-cigale.ics", "venue-feed.ics"},
		{"/v1/artists/sigur-ros.ics", "artist-feed.ics"},
	} {
		r := do(t, "GET", base+tt.path, nil)
		goldenFile(t, tt.name, r.body)
	}
	r := do(t, "GET", base+"/v1/gigs/c1", map[string]string{"Accept": "application/ld+json"})
	golden(t, "gig-ld", r.body)
	r = do(t, "GET", base+"/v1/venues/la-cigale", map[string]string{"Accept": "application/ld+json"})
	golden(t, "venue-ld", r.body)
}

func TestCalendarHTTP(t *testing.T) {
	base, live, snap, s := serveCalendar(t)
	r := do(t, "GET", base+"/v1/venues/la-cigale.ics", nil)
	etag := r.header.Get("ETag")
	if r.status != 200 || etag == "" || r.header.Get("Cache-Control") != "public, max-age=3600" || r.header.Get("Vary") != "Accept-Encoding" ||
		r.header.Get("Content-Disposition") != `inline; filename="la-cigale.ics"` {
		t.Fatalf("%d %v", r.status, r.header)
	}
	if !bytes.Contains(r.body, []byte("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\nX-PUBLISHED-TTL:PT1H\r\n")) {
		t.Error("no refresh interval of an hour")
	}
	rendered := testutil.ToFloat64(s.m.rendered[viewICS])
	if c := do(t, "GET", base+"/v1/venues/la-cigale.ics", map[string]string{"If-None-Match": etag}); c.status != 304 || len(c.body) != 0 {
		t.Errorf("conditional: %d", c.status)
	}
	z := do(t, "GET", base+"/v1/venues/la-cigale.ics", map[string]string{"Accept-Encoding": "gzip"})
	if z.header.Get("Content-Encoding") != "gzip" || z.header.Get("ETag") != etag || !bytes.Equal(gunzip(t, z.body), r.body) {
		t.Errorf("gzip: %v", z.header)
	}
	if got := testutil.ToFloat64(s.m.rendered[viewICS]); got != rendered {
		t.Errorf("the venue's feed was rendered again: %v events, then %v", rendered, got)
	}
	g := do(t, "GET", base+"/v1/gigs.ics?city=paris", map[string]string{"Accept-Encoding": "gzip"})
	if g.status != 200 || g.header.Get("Content-Encoding") != "gzip" || g.header.Get("Content-Disposition") != `inline; filename="gigs.ics"` {
		t.Errorf("gigs.ics gzip: %d %v", g.status, g.header)
	}
	if c := do(t, "GET", base+"/v1/gigs.ics?city=paris", map[string]string{"If-None-Match": g.header.Get("ETag")}); c.status != 304 {
		t.Errorf("gigs.ics conditional: %d", c.status)
	}

	// An identical refresh: the same bytes, the same ETag, a new render.
	again, err := engine.Build(calendarDataset(), engine.Options{Now: calNow.Add(time.Hour), Prev: snap})
	if err != nil {
		t.Fatal(err)
	}
	live.Publish(again)
	live.SetNextRefresh(calNow.Add(2 * time.Hour))
	if r2 := do(t, "GET", base+"/v1/venues/la-cigale.ics", nil); r2.header.Get("ETag") != etag || !bytes.Equal(r2.body, r.body) {
		t.Errorf("an identical refresh changed the feed:\n%s", r2.body)
	}

	for _, tt := range []struct {
		path   string
		status int
		param  string
	}{
		{"/v1/venues/nowhere.ics", 404, ""},
		{"/v1/artists/nobody.ics", 404, ""},
		{"/v1/venues/la-cigale.ics?x=1", 400, "x"},
		{"/v1/gigs.ics?page=2", 400, "page"},
		{"/v1/gigs.ics?page_size=10", 400, "page_size"},
		{"/v1/gigs.ics?city=paris&from=tomorrow", 400, "from"},
		{"/v1/gigs.ics?colour=red", 400, "colour"},
	} {
		r := do(t, "GET", base+tt.path, nil)
		if r.status != tt.status || tt.param != "" && !bytes.Contains(r.body, []byte(`"name":"`+tt.param+`"`)) {
			t.Errorf("%s: %d %s", tt.path, r.status, r.body)
		}
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	var out []byte
	if err == nil {
		out, err = io.ReadAll(zr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCalendarCap: a feed lists at most MaxCalendarEvents gigs, the first by start, and
// says how many matched.
func TestCalendarCap(t *testing.T) {
	base, _ := servePublished(t) // 400 gigs
	r := do(t, "GET", base+"/v1/gigs.ics?from=2026-01-01", nil)
	n := bytes.Count(r.body, []byte("BEGIN:VEVENT"))
	if r.status != 200 || n == 0 || !bytes.Contains(r.body, []byte(fmt.Sprintf("DESCRIPTION:%d upcoming gigs match", n))) {
		t.Fatalf("%d events, %d: %.600s", n, r.status, r.body)
	}
	if engine.MaxCalendarEvents != 1000 {
		t.Fatalf("the cap is %d, documented as 1,000", engine.MaxCalendarEvents)
	}
}

// TestCalendarRefreshes drives two refreshes of a real listener: a gig cancelled, one
// rescheduled, one merged into another and one no source lists any more show in the next
// feed as STATUS:CANCELLED, the same UID with a higher SEQUENCE, the old UID cancelled,
// and the gone gig cancelled.
func TestCalendarRefreshes(t *testing.T) {
	base, live, snap, _ := serveCalendar(t)
	before := map[icalcheck.Parser]map[string]icalcheck.Event{}
	feed := do(t, "GET", base+"/v1/venues/la-cigale.ics", nil).body
	for _, p := range icalcheck.Parsers {
		before[p] = events(icalcheck.Read(t, p, feed))
	}
	ds := calendarDataset()
	paris, _ := time.LoadLocation("Europe/Paris")
	for i := range ds.Gigs {
		switch g := &ds.Gigs[i]; g.ID {
		case "c1":
			g.Status = engine.StatusCancelled
		case "c2":
			g.PreviousStart, g.Start, g.Status = g.Start, time.Date(2027, 4, 20, 21, 0, 0, 0, paris), engine.StatusRescheduled
		}
	}
	// c9 turns out to be c4, which keeps its sources; no source lists c3 any more.
	ds.Gigs = slices.DeleteFunc(ds.Gigs, func(g engine.Gig) bool { return g.ID == "c9" || g.ID == "c3" })
	ds.Merges = []engine.Merge{{From: "c9", Into: "c4"}}
	next, err := engine.Build(ds, engine.Options{Now: calNow.Add(time.Hour), Prev: snap})
	if err != nil {
		t.Fatal(err)
	}
	live.Publish(next)
	feed = do(t, "GET", base+"/v1/venues/la-cigale.ics", nil).body
	checkFraming(t, feed)
	for _, p := range icalcheck.Parsers {
		after, was := events(icalcheck.Read(t, p, feed)), before[p]
		for _, tt := range []struct {
			uid, status, start string
		}{
			{"c1@gigs.example", "CANCELLED", "2027-03-27T20:00:00+01:00"},
			{"c2@gigs.example", "CONFIRMED", "2027-04-20T21:00:00+02:00"},
			{"c9@gigs.example", "CANCELLED", "2027-04-03T20:00:00+02:00"}, // the survivor's date
			{"c4@gigs.example", "TENTATIVE", "2027-04-03T20:00:00+02:00"},
			{"c3@gigs.example", "CANCELLED", "2027-04-02"},
		} {
			e, ok := after[tt.uid]
			if !ok {
				t.Errorf("%s: no event %s after the refresh", p, tt.uid)
				continue
			}
			if e.Status != tt.status || e.Start != tt.start {
				t.Errorf("%s: %s is %s at %s, want %s at %s", p, tt.uid, e.Status, e.Start, tt.status, tt.start)
			}
			changed := tt.uid != "c4@gigs.example"
			if changed && e.Sequence <= was[tt.uid].Sequence || !changed && e.Sequence != was[tt.uid].Sequence {
				t.Errorf("%s: %s SEQUENCE %d, was %d", p, tt.uid, e.Sequence, was[tt.uid].Sequence)
			}
		}
		if e := after["c9@gigs.example"]; !strings.Contains(e.Description, "merged into c4@gigs.example") {
			t.Errorf("%s: the merged gig's event says %q", p, e.Description)
		}
		if e := after["c3@gigs.example"]; !strings.HasPrefix(e.Description, "No source lists this gig any more") || e.Summary != "Hiromi: date to be announced" {
			t.Errorf("%s: the gone gig's event: %+v", p, e)
		}
	}
	// The listing's feed of the venue's city, and of a search for it, cross out the same
	// gigs alike: the cancelled, the merged copy and the gone one.
	for _, q := range []string{"city=paris", "q=cigale"} {
		for _, p := range icalcheck.Parsers {
			got, want := events(icalcheck.Read(t, p, do(t, "GET", base+"/v1/gigs.ics?"+q, nil).body)), events(icalcheck.Read(t, p, feed))
			for uid, e := range want {
				if g := got[uid]; g.Status != e.Status || g.Sequence != e.Sequence || g.Start != e.Start || g.Description != e.Description {
					t.Errorf("%s %s: %s is %s %d at %s, in the venue's feed %s %d at %s", q, p, uid, g.Status, g.Sequence, g.Start, e.Status, e.Sequence, e.Start)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s %s: %d events, the venue's feed %d", q, p, len(got), len(want))
			}
		}
	}
	// The gig itself answers 301 to its survivor, as its event says.
	if r := do(t, "GET", base+"/v1/gigs/c9", nil); r.status != 301 {
		t.Errorf("merged gig: %d", r.status)
	}
	// The gone gig is in its artist's feed too, and in the feeds of a snapshot read back
	// from its file (the tombstone keeps the gig's JSON).
	if !bytes.Contains(do(t, "GET", base+"/v1/artists/hiromi.ics", nil).body, []byte("UID:c3@gigs.example")) {
		t.Error("the gone gig is not in its artist's feed")
	}
	live.Publish(readBack(t, next))
	if r := do(t, "GET", base+"/v1/venues/la-cigale.ics", nil); !bytes.Equal(r.body, feed) {
		t.Errorf("the feed of the snapshot read back differs:\n%s", r.body)
	}
}

func events(c icalcheck.Calendar) map[string]icalcheck.Event {
	m := map[string]icalcheck.Event{}
	for _, e := range c.Events {
		m[e.UID] = e
	}
	return m
}

// TestCalendarRoundTrip: the loader's own adapters, reading what gigs publishes, yield
// the same gigs: titles, local times and offsets, venues, cities, statuses.
func TestCalendarRoundTrip(t *testing.T) {
	base, _, _, _ := serveCalendar(t)
	gigs := listed(t, base, "")
	feed := do(t, "GET", base+"/v1/gigs.ics", nil).body
	evs, drops := ical.Parse(feed, base+"/v1/gigs.ics", ical.Options{Now: calNow})
	if len(drops) > 0 {
		t.Errorf("loader/ical dropped %v", drops)
	}
	byRef := map[string]int{}
	for i, e := range evs {
		byRef[e.Ref] = i
	}
	for _, g := range gigs {
		i, ok := byRef[g.ID+"@gigs.example"]
		if !ok {
			t.Errorf("loader/ical: no event of %s", g.ID)
			continue
		}
		checkRead(t, "loader/ical", g, evs[i].Title, evs[i].Start.Wall, evs[i].Start.DateOnly, evs[i].Start.Offset,
			evs[i].Venue.Name, evs[i].Venue.Locality, string(evs[i].Status), evs[i].Venue.Country)

		r := do(t, "GET", base+"/v1/gigs/"+url.PathEscape(g.ID), map[string]string{"Accept": "application/ld+json"})
		if r.header.Get("Content-Type") != "application/ld+json" || r.header.Get("Vary") != "Accept-Encoding, Accept" {
			t.Errorf("%s: %v", g.ID, r.header)
		}
		page := append(append([]byte(`<html><head><script type="application/ld+json">`), r.body...), "</script></head></html>"...)
		lds, drops := jsonld.Parse(page, "https://gigs.example/v1/gigs/"+g.ID)
		if len(lds) != 1 || len(drops) > 0 {
			t.Errorf("loader/jsonld read %d events of %s, dropped %v", len(lds), g.ID, drops)
			continue
		}
		e := lds[0]
		checkRead(t, "loader/jsonld", g, e.Title, e.Start.Wall, e.Start.DateOnly, e.Start.Offset, e.Venue.Name, e.Venue.Locality, string(e.Status), e.Venue.Country)
	}
}

// checkRead compares what an adapter read of a gig with the gig. iCalendar cannot say
// postponed or rescheduled: its adapter reads only cancelled.
func checkRead(t *testing.T, adapter string, g listedGig, title string, wall time.Time, dateOnly bool, offset int, venue, city, status, country string) {
	t.Helper()
	wantStatus := g.Status
	if adapter == "loader/ical" && g.Status != "cancelled" {
		wantStatus = ""
	}
	var local string
	if g.TimeTBA {
		local = g.Date
		if !dateOnly || wall.Format(time.DateOnly) != local {
			t.Errorf("%s: %s starts %v (date only %v), want the date %s", adapter, g.ID, wall, dateOnly, local)
		}
	} else {
		start, _ := time.Parse(time.RFC3339, g.StartsAt)
		_, off := start.Zone()
		if dateOnly || wall.Format("2006-01-02T15:04:05") != start.Format("2006-01-02T15:04:05") || offset != off {
			t.Errorf("%s: %s starts %v%+d, want %s", adapter, g.ID, wall, offset, g.StartsAt)
		}
	}
	if title != g.Title || venue != g.Venue.Name || city != g.City.Name || status != wantStatus {
		t.Errorf("%s: %s read as %q at %q, %q, status %q; want %q at %q, %q, %q", adapter, g.ID, title, venue, city, status,
			g.Title, g.Venue.Name, g.City.Name, wantStatus)
	}
	if c, _ := engine.LookupCountry(g.Country); country != g.Country && country != c.Name {
		t.Errorf("%s: %s in country %q, want %s", adapter, g.ID, country, g.Country)
	}
}

func TestJSONLDNegotiation(t *testing.T) {
	base, _, _, _ := serveCalendar(t)
	for _, tt := range []struct {
		accept, want string
	}{
		{"", "application/json"},
		{"application/json", "application/json"},
		{"*/*", "application/json"},
		{"application/ld+json", "application/ld+json"},
		{"application/ld+json;q=0.5, application/json", "application/json"},
		{"application/json;q=0.5, application/ld+json", "application/ld+json"},
		{"application/ld+json;q=0", "application/json"},
		{"text/html, application/ld+json;q=0.9, */*;q=0.8", "application/ld+json"},
		{"Application/LD+JSON", "application/ld+json"},
		{"application/ld+json;q=2, application/json", "application/json"}, // a q-value out of range counts as 1
		{"application/ld+json;profile=\"https://schema.org\"", "application/ld+json"},
	} {
		for _, path := range []string{"/v1/gigs/c1", "/v1/venues/la-cigale", "/v1/artists/sigur-ros"} {
			r := do(t, "GET", base+path, map[string]string{"Accept": tt.accept})
			if r.status != 200 || r.header.Get("Content-Type") != tt.want || r.header.Get("Vary") != "Accept-Encoding, Accept" {
				t.Errorf("%s Accept %q: %d %s, Vary %q", path, tt.accept, r.status, r.header.Get("Content-Type"), r.header.Get("Vary"))
			}
			if tt.want == "application/ld+json" {
				etag := r.header.Get("ETag")
				if c := do(t, "GET", base+path, map[string]string{"Accept": tt.accept, "If-None-Match": etag}); c.status != 304 || c.header.Get("Vary") != "Accept-Encoding, Accept" {
					t.Errorf("%s conditional: %d %v", path, c.status, c.header)
				}
			}
		}
	}
	r := do(t, "GET", base+"/v1/venues/la-cigale", map[string]string{"Accept": "application/ld+json"})
	var graph struct {
		Graph []struct {
			Name      string
			StartDate string
			Performer []struct{ Name string }
		} `json:"@graph"`
	}
	if err := json.Unmarshal(r.body, &graph); err != nil || len(graph.Graph) != 6 || graph.Graph[0].Name != "Sigur Rós" ||
		len(graph.Graph[0].Performer) != 2 || graph.Graph[0].Performer[1].Name != "Ambre; the \"Band\", live\\" {
		t.Errorf("venue graph: %v %+v", err, graph)
	}
	if r := do(t, "GET", base+"/v1/gigs/nope", map[string]string{"Accept": "application/ld+json"}); r.status != 404 {
		t.Errorf("unknown gig: %d", r.status)
	}
}

// TestGigsFeedMemo: a feed asked again is answered from the memo until a gig begins.
func TestGigsFeedMemo(t *testing.T) {
	snap, err := engine.Build(calendarDataset(), engine.Options{Now: calNow})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(snap)
	now := calNow
	s := New(Options{Live: &live, Now: func() time.Time { return now }, ReadLimit: 1 << 30, PublicURL: "https://gigs.example"})
	base := listen(t, s)
	for _, enc := range []string{"", "gzip"} {
		h := map[string]string{"Accept-Encoding": enc}
		first := do(t, "GET", base+"/v1/gigs.ics?city=paris", h)
		rendered := testutil.ToFloat64(s.m.rendered[viewICS])
		again := do(t, "GET", base+"/v1/gigs.ics?city=paris", h)
		if testutil.ToFloat64(s.m.rendered[viewICS]) != rendered || !bytes.Equal(again.body, first.body) ||
			again.header.Get("ETag") != first.header.Get("ETag") || again.header.Get("Content-Type") != "text/calendar; charset=utf-8" ||
			again.header.Get("Content-Encoding") != first.header.Get("Content-Encoding") {
			t.Errorf("%q: asked again, the feed was rendered again or differs: %v", enc, again.header)
		}
	}
	if !bytes.Contains(do(t, "GET", base+"/v1/gigs.ics?city=paris", nil).body, []byte("UID:c1@")) {
		t.Fatal("c1 is not in the feed before it begins")
	}
	now = time.Date(2027, 3, 27, 19, 0, 1, 0, time.UTC) // c1 began at 20:00 in Paris
	if r := do(t, "GET", base+"/v1/gigs.ics?city=paris", nil); bytes.Contains(r.body, []byte("UID:c1@")) ||
		!bytes.Contains(r.body, []byte("UID:c2@")) {
		t.Errorf("after c1 began, the feed still lists it (or lost c2):\n%.500s", r.body)
	}
}

// TestCalendarAllocations: a feed kept for the snapshot, and a /v1/gigs.ics answer in the
// page memo, are sent without allocating (but for the router's path parameter), from a
// snapshot whose feeds list a gone gig (c1), its range from now (keyed by the gigs begun,
// live and gone) or from a date.
func TestCalendarAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	snap, err := engine.Build(calendarDataset(), engine.Options{Now: calNow})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(withoutC1(t, snap))
	h := testServer(t, &live).Handler()
	for _, tt := range []struct {
		uri string
		max float64
	}{
		{"/v1/venues/la-cigale.ics", 4}, // as /v1/gigs/{id}: the router's path parameter
		{"gzip /v1/artists/sigur-ros.ics", 4},
		{"gzip /v1/gigs.ics?city=paris&from=2027-03-01", 0},
		{"gzip /v1/gigs.ics?city=paris", 0},
		{"/v1/gigs.ics?q=sigur&from=2027-03-01", 0},
		{"gzip /v1/gigs.ics?near=48.88,2.34&radius=3km", 0},
	} {
		ctx := new(fasthttp.RequestCtx)
		run := handlerCtx(ctx, h, tt.uri)
		run()
		if ctx.Response.StatusCode() != 200 {
			t.Fatalf("%s: %d %s", tt.uri, ctx.Response.StatusCode(), ctx.Response.Body())
		}
		if n := allocsPerRun(run); n > tt.max {
			t.Errorf("%s: %v allocations per request, want at most %v", tt.uri, n, tt.max)
		}
	}
}

// FuzzPrefersLD: any Accept header is read without panicking, and JSON-LD is chosen only
// when it names it.
func FuzzPrefersLD(f *testing.F) {
	for _, s := range []string{"", "application/ld+json", "application/json;q=0.5, application/ld+json", "application/ld+json;q=0",
		"application/ld+json;q=abc", ";;,,;q=", "APPLICATION/LD+JSON;Q=0.1, application/json;q=0.05"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		if prefersLD([]byte(accept)) && !strings.Contains(strings.ToLower(accept), "application/ld+json") {
			t.Fatalf("%q prefers JSON-LD", accept)
		}
	})
}

// TestViewCacheConcurrent: requests that ask for a venue's feed at once get the same
// bytes, rendered once.
func TestViewCacheConcurrent(t *testing.T) {
	snap, err := engine.Build(calendarDataset(), engine.Options{Now: calNow})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(snap)
	s := testServer(t, &live)
	h := s.Handler()
	bodies := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Go(func() {
			var ctx fasthttp.RequestCtx
			ctx.Request.SetRequestURI("/v1/venues/la-cigale.ics")
			h(&ctx)
			bodies[i] = append([]byte(nil), ctx.Response.Body()...)
		})
	}
	wg.Wait()
	for i, b := range bodies {
		if !bytes.Equal(b, bodies[0]) || !bytes.HasPrefix(b, []byte("BEGIN:VCALENDAR")) {
			t.Fatalf("request %d: %.200s", i, b)
		}
	}
	if n, events := testutil.ToFloat64(s.m.rendered[viewICS]), bytes.Count(bodies[0], []byte("BEGIN:VEVENT")); n != float64(events) {
		t.Errorf("%v events rendered for a feed of %d", n, events)
	}
}
