package loader

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/source"
)

// feedServer serves iCalendar documents by path over HTTP; they may change between
// refreshes.
type feedServer struct {
	mu    sync.Mutex
	feeds map[string]string // by path; protected by mu
	*httptest.Server
}

func newFeedServer(t *testing.T) *feedServer {
	f := &feedServer{feeds: map[string]string{}}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		doc, ok := f.feeds[r.URL.Path]
		f.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
		io.WriteString(w, doc)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *feedServer) set(path, doc string) {
	f.mu.Lock()
	f.feeds[path] = doc
	f.mu.Unlock()
}

// calendar is an iCalendar document of the VEVENTs given.
func calendar(vevents ...string) string {
	return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + strings.Join(vevents, "") + "END:VCALENDAR\r\n"
}

func vevent(uid, summary, start, extra string) string {
	return "BEGIN:VEVENT\r\nUID:" + uid + "\r\nSUMMARY:" + summary + "\r\nDTSTART:" + start + "\r\n" + extra + "END:VEVENT\r\n"
}

// hostileLoader reads the sources file written from cfg (JSON) in a temporary directory,
// with fetches allowed to loopback, and returns a Loader over them.
func hostileLoader(t *testing.T, cfg string, o Options) (*Loader, *engine.Live) {
	t.Helper()
	return loaderOver(t, cfg, o, fetch.Options{MinGap: -1})
}

// loaderOver is hostileLoader fetching with fo (its contact and loopback set), every
// credential variable holding "test-credential".
func loaderOver(t *testing.T, cfg string, o Options, fo fetch.Options) (*Loader, *engine.Live) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sources.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	fo.Contact, fo.Allow = "ops@gigs.example", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	fc := fetch.New(fo)
	t.Cleanup(fc.CloseIdleConnections)
	srcs, err := Sources(c, fc, func(string) string { return "test-credential" }, func() time.Time { return noon })
	if err != nil {
		t.Fatal(err)
	}
	live := &engine.Live{}
	o.Sources, o.Live, o.Now = srcs, live, func() time.Time { return noon }
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	return New(o), live
}

// TestRecurrenceBomb serves, in the second refresh, a 19 KB calendar of 200 events that
// each recur daily: tens of thousands of occurrences. The feed fails as a whole with the
// reason, keeps its last good events, and another venue's feed is not touched.
func TestRecurrenceBomb(t *testing.T) {
	up := newFeedServer(t)
	good := calendar(vevent("a", "Wet Leg", "20261205T200000Z", ""), vevent("b", "Idles", "20261206T200000Z", ""))
	up.set("/bomb.ics", good)
	up.set("/other.ics", calendar(vevent("c", "Fontaines D.C.", "20261207T200000Z", "")))
	l, live := hostileLoader(t, fmt.Sprintf(`{"venues": [
		{"name": "venue-bomb", "format": "ical", "url": %q, "venue": {"name": "The Garage", "city": "London", "country": "GB"}},
		{"name": "venue-other", "format": "ical", "url": %q, "venue": {"name": "The Lexington", "city": "London", "country": "GB"}}]}`,
		up.URL+"/bomb.ics", up.URL+"/other.ics"), Options{})
	if _, err := l.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	before := live.Load().Len()

	var bomb []string
	for i := range 200 {
		bomb = append(bomb, vevent(fmt.Sprint("r", i), fmt.Sprint("Residency ", i), "20261201T200000Z", "RRULE:FREQ=DAILY\r\n"))
	}
	doc := calendar(bomb...)
	if len(doc) > 25<<10 {
		t.Fatalf("the bomb is %d bytes", len(doc))
	}
	up.set("/bomb.ics", doc)
	rep, err := l.RunOnce(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sr := rep.Sources[0]
	if !errors.Is(sr.Err, source.ErrTooManyEvents) || !strings.Contains(sr.Err.Error(), "more than 2000 (max_events)") || !sr.Stale || sr.Events != 2 {
		t.Errorf("the bomb's source: %+v", sr)
	}
	if other := rep.Sources[1]; other.Err != nil || other.Events != 1 {
		t.Errorf("the other venue: %+v", other)
	}
	if got := live.Load().Len(); got != before {
		t.Errorf("%d gigs, want the %d of before", got, before)
	}

	// The cap is the operator's to raise, per source.
	l, live = hostileLoader(t, fmt.Sprintf(`{"venues": [{"name": "venue-bomb", "format": "ical", "url": %q, "max_events": 100000,
		"venue": {"name": "The Garage", "city": "London", "country": "GB"}}]}`, up.URL+"/bomb.ics"), Options{})
	rep, err = l.RunOnce(t.Context())
	if err != nil || rep.Sources[0].Err != nil {
		t.Fatalf("with max_events 100000: %v, %v", err, rep.Sources[0].Err)
	}
	// Each recurring event yields at most a year of days.
	if n := live.Load().Len(); n < 200*300 || n > 200*366 {
		t.Errorf("%d gigs from 200 daily residencies", n)
	}
}

// TestRefreshRecordCap refuses to build a refresh whose sources together pass
// Options.MaxRecords: the last snapshot keeps serving.
func TestRefreshRecordCap(t *testing.T) {
	up := newFeedServer(t)
	up.set("/a.ics", calendar(vevent("a", "Wet Leg", "20261205T200000Z", ""), vevent("b", "Idles", "20261206T200000Z", "")))
	up.set("/b.ics", calendar(vevent("c", "Fontaines D.C.", "20261207T200000Z", "")))
	cfg := fmt.Sprintf(`{"venues": [
		{"name": "venue-a", "format": "ical", "url": %q, "venue": {"name": "The Garage", "city": "London", "country": "GB"}},
		{"name": "venue-b", "format": "ical", "url": %q, "venue": {"name": "The Lexington", "city": "London", "country": "GB"}}]}`,
		up.URL+"/a.ics", up.URL+"/b.ics")
	l, live := hostileLoader(t, cfg, Options{MaxRecords: 3})
	if _, err := l.RunOnce(t.Context()); err != nil || live.Load().Len() != 3 {
		t.Fatalf("at the cap: %v", err)
	}
	up.set("/b.ics", calendar(vevent("c", "Fontaines D.C.", "20261207T200000Z", ""), vevent("d", "Shame", "20261208T200000Z", "")))
	_, err := l.RunOnce(t.Context())
	if err == nil || !strings.Contains(err.Error(), "4 events, over the cap of 3 a refresh") {
		t.Fatalf("over the cap: %v", err)
	}
	if live.Load().Len() != 3 {
		t.Errorf("the last snapshot was replaced")
	}
}
