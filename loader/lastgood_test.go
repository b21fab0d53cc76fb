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
	stamp := func(name string) time.Time {
		fi, err := os.Stat(filepath.Join(dir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "venue-a.json"), old, old)

	// A new store reads both back; unchanged events are not written again.
	s2, _ := OpenLastGood(dir)
	got, errs := s2.load([]string{"venue-a", "venue-b", "venue-c"})
	if len(errs) > 0 || len(got) != 2 || got["venue-a"].events[0].Title != "Wet Leg" || !got["venue-b"].at.Equal(at) {
		t.Fatalf("load: %+v, errors %v", got, errs)
	}
	if err := s2.save(got); err != nil || !stamp("venue-a").Equal(old) {
		t.Errorf("unchanged events were written again (error %v)", err)
	}

	// A damaged file and a file that is another source's cost only their own source.
	os.WriteFile(filepath.Join(dir, "venue-a.json"), []byte(`{"version":1,"source":"venue-a","events":[`), 0o600)
	data, _ := os.ReadFile(filepath.Join(dir, "venue-b.json"))
	os.WriteFile(filepath.Join(dir, "venue-c.json"), data, 0o600)
	got, errs = s2.load([]string{"venue-a", "venue-b", "venue-c"})
	if len(got) != 1 || len(errs) != 2 || !strings.Contains(errs[0].Error(), "venue-a.json") || !strings.Contains(errs[1].Error(), `want version 1 of "venue-c"`) {
		t.Errorf("load of damaged files: %d sources, errors %v", len(got), errs)
	}
}
