package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/loader"
)

// TestReloadEdits edits the sources file as gigsctl sources add and remove do, and
// reloads it as SIGHUP does: a bad edit is refused with its line and column and the running
// sources stay; a good one is read without a restart.
func TestReloadEdits(t *testing.T) {
	m := runDemo(t)
	metrics := func() string {
		resp, err := http.Get("http://" + m.AdminAddr().String() + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	path := m.Config.Sources
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := loader.ParseConfig(path, orig)
	if err != nil {
		t.Fatal(err)
	}
	gone := cfg.Venues[0].Name
	series := fmt.Sprintf("gigs_source_events{source=%q}", gone)
	waitFor(t, "the first refresh's source metrics", 3*time.Minute, func() bool { return strings.Contains(metrics(), series) })

	// A bad edit: a member without its comma. The error names the file, line and column.
	at := bytes.Index(orig, []byte(`"venues"`))
	bad := append(append(append([]byte{}, orig[:at]...), `"x": 1 `...), orig[at:]...)
	line := bytes.Count(orig[:at], []byte("\n")) + 1
	col := at - bytes.LastIndexByte(orig[:at], '\n') + len(`"x": 1 `)
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	err = m.Reload()
	if want := fmt.Sprintf("%s:%d:%d", path, line, col); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("bad edit: reload error %v, want one naming %s", err, want)
	}
	// A source with an unknown format: refused, naming the source.
	unknown, _ := loader.AddVenue(orig, loader.VenueConfig{Name: "venue-new", Format: "rss", URL: "https://new.example/feed"})
	if err := os.WriteFile(path, unknown, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Reload(); err == nil || !strings.Contains(err.Error(), `"venue-new"`) {
		t.Fatalf("unknown format: reload error %v", err)
	}
	if !strings.Contains(metrics(), series) {
		t.Fatal("a refused edit changed the running sources")
	}

	// A good edit, as gigsctl sources remove makes it: read at once.
	good, err := loader.RemoveSource(orig, gone)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Reload(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the removed source's metrics to go", 3*time.Minute, func() bool {
		s := metrics()
		return strings.Contains(s, "gigs_source_events{") && !strings.Contains(s, series)
	})
}
