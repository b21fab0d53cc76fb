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
	now := at.Add(2 * time.Hour) // the loads' clock
	lkg := map[string]lastGood{
		"venue-a": {events: []source.Event{event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")}, at: at},
		"venue-b": {events: []source.Event{event("Idles", "The Garage", "London", "GB", "2026-12-06T20:00")}, at: at},
	}
	if err := s.save(lkg); err != nil {
		t.Fatal(err)
	}
	file := func(name string) string { return filepath.Join(dir, eventsFile(name)) }
	written, err := os.Stat(file("venue-a"))
	if err != nil || !written.ModTime().Equal(at) {
		t.Fatalf("events file not stamped with its fetch time %s: %v, %v", at, written.ModTime(), err)
	}

	// A new store reads both back. An hour later the same events, fetched again, are not
	// written again, but their new fetch time is kept.
	s2, _ := OpenLastGood(dir)
	got, errs := s2.load([]string{"venue-a", "venue-b", "venue-c"}, now)
	if len(errs) > 0 || len(got) != 2 || got["venue-a"].events[0].Title != "Wet Leg" || !got["venue-b"].at.Equal(at) {
		t.Fatalf("load: %+v, errors %v", got, errs)
	}
	later := at.Add(time.Hour)
	if err := s2.save(map[string]lastGood{"venue-a": {events: got["venue-a"].events, at: later}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file("venue-a")); err != nil || !os.SameFile(fi, written) || !fi.ModTime().Equal(later) {
		t.Errorf("unchanged events were written again, or not stamped with their new fetch time (%v)", err)
	}
	s3, _ := OpenLastGood(dir)
	if got, _ := s3.load([]string{"venue-a", "venue-b"}, now); !got["venue-a"].at.Equal(later) || !got["venue-b"].at.Equal(at) {
		t.Errorf("fetch times %v and %v, want %v and %v", got["venue-a"].at, got["venue-b"].at, later, at)
	}

	// A damaged events file and one that is another source's cost only their own source; a
	// damaged or missing fetched.json costs none: the events files' times stand for it.
	os.WriteFile(file("venue-a"), []byte(`{"version":1,"source":"venue-a","events":[`), 0o600)
	data, _ := os.ReadFile(file("venue-b"))
	os.WriteFile(file("venue-c"), data, 0o600)
	// venue-c gets a fetch time in fetched.json, then its events file is replaced by a
	// copy of venue-b's, which names the wrong source.
	s3.save(map[string]lastGood{"venue-c": {at: at}})
	os.WriteFile(file("venue-c"), data, 0o600)
	got, errs = s3.load([]string{"venue-a", "venue-b", "venue-c"}, now)
	if len(got) != 1 || len(errs) != 2 || !strings.Contains(errs[0].Error(), "venue-a.events.json") || !strings.Contains(errs[1].Error(), `want version 1 of "venue-c"`) {
		t.Errorf("load of damaged files: %d sources, errors %v", len(got), errs)
	}
	for _, damage := range []string{"{", "", "null", `{"version": 2}`} {
		os.WriteFile(filepath.Join(dir, fetchedFile), []byte(damage), 0o600)
		s4, _ := OpenLastGood(dir)
		got, errs := s4.load([]string{"venue-b"}, now)
		if len(got) != 1 || !got["venue-b"].at.Equal(at) || len(errs) != 1 || !strings.Contains(errs[0].Error(), "fetched.json") {
			t.Errorf("load with fetched.json %q: %+v, errors %v", damage, got, errs)
		}
	}
	os.Remove(filepath.Join(dir, fetchedFile))
	if got, errs := s3.load([]string{"venue-b"}, now); len(got) != 1 || !got["venue-b"].at.Equal(at) || len(errs) != 0 {
		t.Errorf("load without fetched.json: %+v, errors %v", got, errs)
	}
	// A fetch time after now (a review's 2030 in fetched.json) would keep its events
	// served for ever: that source starts without them.
	s3.save(map[string]lastGood{"venue-b": {events: got["venue-b"].events, at: now.Add(time.Hour)}})
	if got, errs := s3.load([]string{"venue-b"}, now); len(got) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "after now") {
		t.Errorf("load of a fetch time after now: %+v, errors %v", got, errs)
	}
	// Temporary files of writes cut short are removed when the store opens.
	os.WriteFile(filepath.Join(dir, ".venue-b.events.json.tmp-42"), []byte("half"), 0o600)
	OpenLastGood(dir)
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}
