package loader

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/fetch"
)

// TestPagedVenueFeed reads a tribe feed over a real listener: its pages are followed on
// the same site, and a feed whose paging is broken or hostile fails as a whole.
func TestPagedVenueFeed(t *testing.T) {
	event := `{"id":%d,"url":"https://club.example/e/%d","title":"Show %d","start_date":"2026-07-04 21:00:00","timezone":"Europe/Oslo","utc_start_date":"2026-07-04 19:00:00","venue":{"venue":"Blå","city":"Oslo","country":"Norway"}}`
	var next func(host string, page int) string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		fmt.Fprintf(w, `{"events":[`+event+`],"next_rest_url":%q}`, page, page, page, next(r.Host, page))
	}))
	defer srv.Close()
	client := fetch.New(fetch.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, MinGap: -1})
	read := func() (int, error) {
		cfg := &Config{Venues: []VenueConfig{{Name: "club", Format: "tribe", URL: srv.URL + "/wp-json/tribe/events/v1/events"}}}
		srcs, err := Sources(cfg, client, nil, func() time.Time { return time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC) })
		if err != nil {
			t.Fatal(err)
		}
		b, err := srcs[0].Fetch(context.Background())
		return len(b.Events), err
	}
	for _, tc := range []struct {
		name   string
		next   func(host string, page int) string
		events int
		err    string
	}{
		{"three pages", func(h string, p int) string {
			if p == 3 {
				return ""
			}
			return fmt.Sprintf("http://%s/wp-json/tribe/events/v1/events?page=%d", h, p+1)
		}, 3, ""},
		{"another site", func(string, int) string { return "http://other.example/wp-json/tribe/events/v1/events?page=2" }, 0, "another site"},
		// WordPress writes next_rest_url with the site's own address: read on the first's.
		{"the site's own address", func(h string, p int) string {
			if p == 3 {
				return ""
			}
			return fmt.Sprintf("https://www.%s/wp-json/tribe/events/v1/events?page=%d", h, p+1)
		}, 3, ""},
		{"another scheme", func(h string, _ int) string { return "ftp://" + h + "/wp-json/tribe/events/v1/events?page=2" }, 0, "another site"},
		{"a site under this one's name", func(h string, _ int) string { return "http://" + h + ".other.example/e?page=2" }, 0, "another site"},
		{"a loop", func(h string, _ int) string { return "http://" + h + "/wp-json/tribe/events/v1/events?page=2" }, 0, "read before"},
		{"endless", func(h string, p int) string {
			return fmt.Sprintf("http://%s/wp-json/tribe/events/v1/events?page=%d", h, p+1)
		}, 0, "more than 40 pages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next = tc.next
			n, err := read()
			if n != tc.events || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("got %d events, error %v; want %d, %q", n, err, tc.events, tc.err)
			}
		})
	}
}
