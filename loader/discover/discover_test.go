package discover

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/loader"
	"github.com/gigs/gigs/loader/fetch"
)

// realDir holds real venue pages and feeds written by others (testdata/real/README.md).
const realDir = "../../testdata/real"

// site serves a venue site: paths to bodies (read from realDir when they name a file
// there as "@file"), with their content type; anything else is a 404.
func site(t *testing.T, pages map[string][2]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.RequestURI()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body := p[1]
		if file, ok := strings.CutPrefix(body, "@"); ok {
			b, err := os.ReadFile(filepath.Join(realDir, file))
			if err != nil {
				t.Error(err)
			}
			body = string(b)
		}
		body = strings.ReplaceAll(body, "{{site}}", "http://"+r.Host)
		body = strings.ReplaceAll(body, "{{host}}", r.Host)
		w.Header().Set("Content-Type", p[0])
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// client is the guarded fetcher with the loopback allowance the test sites need.
func client() *fetch.Client {
	return fetch.New(fetch.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
}

const htmlType = "text/html; charset=utf-8"

// realEvent reads one real event of testdata/real/tribe, to make the pages of a REST list.
func realEvent(t *testing.T, file string) string {
	b, err := os.ReadFile(filepath.Join(realDir, "tribe", file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFind serves real pages and feeds behind the layouts venue sites have, and checks
// that Find settles on the right feed of each, saying how long each took.
func TestFind(t *testing.T) {
	tcw, asturias := realEvent(t, "tcw-zurich-interclub-event.json"), realEvent(t, "musicasturiana-folk-event.json")
	for _, tc := range []struct {
		name   string
		pages  map[string][2]string
		now    string
		format string // of the feed chosen
		path   string // of the feed chosen
		gigs   int
		read   int // pages read to find it
		hint   *loader.VenueHint
	}{{
		name: "an events page linking its .ics",
		pages: map[string][2]string{
			"/":                    {htmlType, `<html><body><nav><a href="/">Home</a> <a href="/about/">About</a> <a href="/whats-on/">What's On</a></nav><p>Live music nightly.</p></body></html>`},
			"/whats-on/":           {htmlType, `<html><body><h1>What's on</h1><p>Our shows, in your calendar: <a href="webcal://{{host}}/calendar/lastfm.ics">subscribe</a></p></body></html>`},
			"/calendar/lastfm.ics": {"text/calendar; charset=utf-8", "@ical/lastfm-concerts-netherlands.ics"},
		},
		now: "2010-02-08T00:00:00Z", format: "ical", path: "/calendar/lastfm.ics", gigs: 32, read: 2,
	}, {
		name: "a home page whose events page carries JSON-LD",
		pages: map[string][2]string{
			"/":                   {htmlType, `<html><head><title>Grossman's Tavern</title></head><body><a href="/menu">Menu</a> <a href="/calendar-of-events">Calendar</a> <a href="https://twitter.com/events">Twitter</a></body></html>`},
			"/calendar-of-events": {htmlType, "@pages/ml-grossmans.html"},
		},
		// The page names no city: the operator's hint (sources add -venue) places its events.
		now: "2024-09-05T00:00:00Z", format: "jsonld", path: "/calendar-of-events", gigs: 12, read: 2,
		hint: &loader.VenueHint{Name: "Grossman's Tavern", City: "Toronto", Country: "CA"},
	}, {
		name: "a WordPress site with The Events Calendar",
		pages: map[string][2]string{
			"/": {htmlType, `<html><head><link rel='stylesheet' href='/wp-content/plugins/the-events-calendar/src/resources/css/views.min.css' />` +
				`<link rel="alternate" href="{{site}}/wp-json/tribe/events/v1/" /></head><body class="tribe-events-page-template"><a href="/events/">Events</a></body></html>`},
			"/wp-json/tribe/events/v1/events?per_page=50": {"application/json; charset=UTF-8",
				`{"events":[` + tcw + `],"rest_url":"{{site}}\/wp-json\/tribe\/events\/v1\/events\/?page=1&per_page=50","next_rest_url":"{{site}}\/wp-json\/tribe\/events\/v1\/events\/?page=2&per_page=50","total":2,"total_pages":2}`},
			"/wp-json/tribe/events/v1/events/?page=2&per_page=50": {"application/json; charset=UTF-8", `{"events":[` + asturias + `],"total":2,"total_pages":2}`},
		},
		// The Asturian concert is five years ahead of then, past the horizon: one gig.
		now: "2021-06-01T00:00:00Z", format: "tribe", path: "/wp-json/tribe/events/v1/events?per_page=50", gigs: 1, read: 1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := site(t, tc.pages)
			now, _ := time.Parse(time.RFC3339, tc.now)
			start := time.Now()
			res, err := Find(context.Background(), srv.URL+"/", Options{Get: client(), Now: now, Hint: tc.hint})
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			best := res.Best()
			if best == nil {
				t.Fatalf("nothing chosen: %s", res.Why)
			}
			if best.Format != tc.format || best.URL != srv.URL+tc.path || best.Gigs() != tc.gigs || len(res.Pages) != tc.read {
				t.Errorf("chose %s %s with %d gigs after %d pages (%s); want %s %s, %d gigs, %d pages",
					best.Format, best.URL, best.Gigs(), len(res.Pages), res.Why, tc.format, srv.URL+tc.path, tc.gigs, tc.read)
			}
			t.Logf("%s: %s in %s", tc.name, res.Why, took.Round(time.Millisecond))
		})
	}
}

// TestFindNothing: a site with no feed says so; a page that does not answer is an error;
// links to other sites are not followed.
func TestFindNothing(t *testing.T) {
	other := site(t, map[string][2]string{"/events": {htmlType, "@pages/ml-grossmans.html"}})
	srv := site(t, map[string][2]string{"/": {htmlType, `<a href="` + other.URL + `/events">Events</a><a href="/gigs">Gigs</a>`}})
	res, err := Find(context.Background(), srv.URL+"/", Options{Get: client()})
	if err != nil || res.Best() != nil || !strings.Contains(res.Why, "no feed found") || len(res.Pages) != 2 {
		t.Errorf("got %+v, %v; want no feed after reading the page and /gigs", res, err)
	}
	if _, err := Find(context.Background(), srv.URL+"/missing", Options{Get: client()}); err == nil {
		t.Error("a 404: no error")
	}
	if _, err := Find(context.Background(), "ftp://x/", Options{Get: client()}); err == nil {
		t.Error("an ftp URL: no error")
	}
	// Without the loopback allowance the guard refuses the site.
	if _, err := Find(context.Background(), srv.URL+"/", Options{Get: fetch.New(fetch.Options{})}); err == nil {
		t.Error("a loopback site without the allowance: no error")
	}
}
