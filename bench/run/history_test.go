package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAppendHistory: a missing file gets the title and a table; a run with the last
// table's goals adds a row only; a run with other goals starts a table; nothing before
// is rewritten.
func TestAppendHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.md")
	r := &report{Mode: modes["quick"], Started: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), Commit: "abc1234"}
	steps := []struct {
		name string
		prep func()
		want string
	}{
		{"a missing file", func() {},
			historyTitle + "\n| date | commit | mode | note | goals met |\n|---|---|---|---|---|\n| 2026-11-29 | abc1234 | quick | first | 0 of 0 |\n"},
		{"the same goals", func() {},
			"| 2026-11-29 | abc1234 | quick | second | 0 of 0 |\n"},
		{"other goals", func() {
			// Goals of another size: a table of their own.
			r.Sizes = []sizeResult{{Gigs: 10_000}}
		}, "\n| date | commit | mode | note | filtered"},
	}
	var before []byte
	for i, s := range steps {
		s.prep()
		note := []string{"first", "second", "third"}[i]
		if err := appendHistory(path, r, note); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		added, ok := strings.CutPrefix(string(after), string(before))
		if !ok {
			t.Fatalf("%s: the file's earlier content changed:\n%s", s.name, after)
		}
		if !strings.HasPrefix(added, s.want) {
			t.Errorf("%s: added\n%q\nwant it to start with\n%q", s.name, added, s.want)
		}
		before = after
	}
	if got, err := lastHeader(path); err != nil || !strings.HasPrefix(got, "| date | commit | mode | note | filtered") {
		t.Errorf("lastHeader = %q, %v", got, err)
	}
}
