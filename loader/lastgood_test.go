package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/source"
)

func TestLastGoodStore(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenLastGood(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := noon.Truncate(time.Second)
	lkg := map[string]lastGood{
		"venue-a": {events: []source.Event{event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")}, at: at},
		"venue-b": {events: []source.Event{event("Idles", "The Garage", "London", "GB", "2026-12-06T20:00")}, at: at},
	}
	if err := s.save(lkg); err != nil {
		t.Fatal(err)
	}
	file := func(name string) string { return filepath.Join(dir, eventsFile(name)) }
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(file("venue-a"), old, old)

	// A new store reads both back. An hour later the same events, fetched again, are not
	// written again, but their new fetch time is kept.
	s2, _ := OpenLastGood(dir)
	got, errs := s2.load([]string{"venue-a", "venue-b", "venue-c"})
	if len(errs) > 0 || len(got) != 2 || got["venue-a"].events[0].Title != "Wet Leg" || !got["venue-b"].at.Equal(at) {
		t.Fatalf("load: %+v, errors %v", got, errs)
	}
	later := at.Add(time.Hour)
	if err := s2.save(map[string]lastGood{"venue-a": {events: got["venue-a"].events, at: later}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file("venue-a")); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("unchanged events were written again (%v)", err)
	}
	s3, _ := OpenLastGood(dir)
	if got, _ := s3.load([]string{"venue-a", "venue-b"}); !got["venue-a"].at.Equal(later) || !got["venue-b"].at.Equal(at) {
		t.Errorf("fetch times %v and %v, want %v and %v", got["venue-a"].at, got["venue-b"].at, later, at)
	}

	// A damaged events file and one that is another source's cost only their own source; a
	// damaged fetched.json costs all, with one error.
	os.WriteFile(file("venue-a"), []byte(`{"version":1,"source":"venue-a","events":[`), 0o600)
	data, _ := os.ReadFile(file("venue-b"))
	os.WriteFile(file("venue-c"), data, 0o600)
	// venue-c gets a fetch time in fetched.json, then its events file is replaced by a
	// copy of venue-b's, which names the wrong source.
	s3.save(map[string]lastGood{"venue-c": {at: at}})
	os.WriteFile(file("venue-c"), data, 0o600)
	got, errs = s3.load([]string{"venue-a", "venue-b", "venue-c"})
	if len(got) != 1 || len(errs) != 2 || !strings.Contains(errs[0].Error(), "venue-a.events.json") || !strings.Contains(errs[1].Error(), `want version 1 of "venue-c"`) {
		t.Errorf("load of damaged files: %d sources, errors %v", len(got), errs)
	}
	os.WriteFile(filepath.Join(dir, fetchedFile), []byte("{"), 0o600)
	if got, errs := s3.load([]string{"venue-b"}); len(got) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "fetched.json") {
		t.Errorf("load with a damaged fetched.json: %d sources, errors %v", len(got), errs)
	}
}
