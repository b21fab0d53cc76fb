package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/icalcheck"
)

// TestCalendarAcrossRefreshes runs gigsd on a dataset file and refreshes it: in the venue's
// feed, a gig cancelled at its source reads STATUS:CANCELLED, a rescheduled one keeps its
// UID with a higher SEQUENCE and its new start, and one no source lists any more stays,
// cancelled, with a higher SEQUENCE; both parsers read each feed alike. (A merge needs
// the loader's sources: server's TestCalendarRefreshes drives one.)
func TestCalendarAcrossRefreshes(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	day := time.Now().In(paris).AddDate(0, 0, 10)
	at := func(days, hour int) time.Time {
		return time.Date(day.Year(), day.Month(), day.Day()+days, hour, 0, 0, 0, paris)
	}
	ds := &engine.Dataset{
		Cities:  []engine.City{{Slug: "paris", Name: "Paris", Country: "FR", Timezone: "Europe/Paris"}},
		Venues:  []engine.Venue{{Slug: "la-cigale", Name: "La Cigale", City: "paris", Address: "120 Boulevard de Rochechouart"}},
		Artists: []engine.Artist{{Slug: "air", Name: "Air"}},
	}
	for i, id := range []string{"a", "b", "c", "d"} {
		ds.Gigs = append(ds.Gigs, engine.Gig{ID: id, Title: "Air " + id, Venue: "la-cigale", Start: at(i, 20),
			Artists: []engine.Billing{{Artist: "air", Headliner: true}}})
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "dataset")
	write := func() {
		var buf bytes.Buffer
		if err := engine.WriteDataset(&buf, ds); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+".tmp", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			t.Fatal(err)
		}
	}
	write()
	m := NewMain()
	if err := m.ParseFlags([]string{"-dataset", path, "-addr", "127.0.0.1:0", "-admin-addr", "127.0.0.1:0", "-refresh", "200ms",
		"-data-dir", filepath.Join(dir, "data"), "-log-level", "error", "-public-url", "https://gigs.example"}, env(nil), io.Discard); err != nil {
		t.Fatal(err)
	}
	start(t, m)
	waitFor(t, "the dataset served", 30*time.Second, func() bool { return getStatus("http://"+m.AdminAddr().String()+"/readyz") == 200 })
	feed := func() map[icalcheck.Parser]map[string]icalcheck.Event {
		status, body := fetchChecked(t, "http://"+m.Addr().String()+"/v1/venues/la-cigale.ics", nil)
		if status != 200 {
			t.Fatalf("feed: %d %s", status, body)
		}
		out := map[icalcheck.Parser]map[string]icalcheck.Event{}
		for _, p := range icalcheck.Parsers {
			out[p] = map[string]icalcheck.Event{}
			for _, e := range icalcheck.Read(t, p, body).Events {
				out[p][e.UID] = e
			}
		}
		return out
	}
	before := feed()
	version := m.Live.Load().Version()

	ds.Gigs[0].Status = engine.StatusCancelled
	ds.Gigs[1].PreviousStart, ds.Gigs[1].Start, ds.Gigs[1].Status = ds.Gigs[1].Start, at(20, 21), engine.StatusRescheduled
	ds.Gigs = ds.Gigs[:3] // no source lists d any more
	write()
	waitFor(t, "the refresh of the changed dataset", 30*time.Second, func() bool { return m.Live.Load().Version() != version })
	after := feed()
	for _, p := range icalcheck.Parsers {
		for _, tt := range []struct {
			id, status string
			start      time.Time
			changed    bool
		}{
			{"a", "CANCELLED", at(0, 20), true},
			{"b", "CONFIRMED", at(20, 21), true},
			{"c", "CONFIRMED", at(2, 20), false},
			{"d", "CANCELLED", at(3, 20), true},
		} {
			uid := tt.id + "@gigs.example"
			e, was := after[p][uid], before[p][uid]
			if e.Status != tt.status || e.Start != tt.start.Format(time.RFC3339) || e.TZID != "Europe/Paris" {
				t.Errorf("%s: %s is %s at %s (%s), want %s at %s", p, uid, e.Status, e.Start, e.TZID, tt.status, tt.start.Format(time.RFC3339))
			}
			if tt.changed && e.Sequence <= was.Sequence || !tt.changed && e.Sequence != was.Sequence {
				t.Errorf("%s: %s SEQUENCE %d, was %d", p, uid, e.Sequence, was.Sequence)
			}
		}
	}
}
