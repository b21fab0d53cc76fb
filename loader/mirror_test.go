package loader

import (
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/gigs/gigs/server"
	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/testkit/mirror"
)

// TestMirrorTheDemo keeps a mirror of the demo sources as the API serves them, refresh by
// refresh: the export, then the change feed, as the sources change an hour later (titles
// edited, shows rescheduled, cancelled and added), stay as they are, and a day goes by (the
// day's gigs removed as past). After each refresh the mirror equals a fresh export, byte
// for byte. (Merges and removals from the sources are followed in server's TestMirror.)
func TestMirrorTheDemo(t *testing.T) {
	c := serveCorpus(t, 0)
	c.refresh(t)
	store, err := keys.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := store.Create("mirror@example.org", "test", c.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	checker, err := keys.NewFileChecker(store, c.clock.Now, logger)
	if err != nil {
		t.Fatal(err)
	}
	api := server.New(server.Options{Live: c.live, Now: c.clock.Now, Logger: logger, ReadLimit: 1 << 30, ExportLimit: 1 << 30, Keys: checker})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := api.HTTPServer()
	go func() { _ = srv.Serve(api.Listen(ln)) }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	m := &mirror.Mirror{Key: key, Get: mirror.Over("http://" + ln.Addr().String())}
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name   string
		change func()
		check  func(applied map[string]int) bool
	}{
		{"an hour later", func() { c.generate(t, 1); c.clock.Add(time.Hour) },
			func(a map[string]int) bool { return a["updated"] >= 20 && a["cancelled"] >= 5 && a["created"] >= 5 }},
		// A minute on (no venue's day ends in it): the same sources, so no change.
		{"nothing new", func() { c.clock.Add(time.Minute) }, func(a map[string]int) bool { return len(a) == 0 }},
		{"a day later", func() { c.clock.Add(24 * time.Hour) }, func(a map[string]int) bool { return a["removed"] >= 5 }},
	} {
		step.change()
		c.refresh(t)
		applied, err := m.Follow(500)
		if err != nil {
			t.Fatal(err)
		}
		if !step.check(applied) {
			t.Errorf("%s: changes %v", step.name, applied)
		}
		if stale, err := m.Check(); err != nil || stale {
			t.Fatalf("%s: the mirror is stale (%v) or differs: %v", step.name, stale, err)
		}
	}
}
