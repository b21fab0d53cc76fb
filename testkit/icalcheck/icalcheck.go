// Package icalcheck reads iCalendar feeds with two independent, widely used parsers,
// Debian's python3-icalendar and npm's ical.js (pinned by package-lock.json here; make
// tools installs both), so that tests compare what they read with what was published.
package icalcheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gigs/gigs/testkit/tools"
)

// Event is one VEVENT as a parser read it. Start is RFC 3339 with the UTC offset the
// parser worked out for the event's TZID ("2026-12-05T20:00:00+01:00"), or the date of an
// all-day event; TZID is the DTSTART's parameter and Zone the zone the parser used.
type Event struct {
	UID         string `json:"uid"`
	Summary     string `json:"summary"`
	Start       string `json:"start"`
	End         string `json:"end"`
	TZID        string `json:"tzid"`
	Zone        string `json:"zone"`
	Status      string `json:"status"`
	Sequence    int    `json:"sequence"`
	Location    string `json:"location"`
	Description string `json:"description"`
}

// Calendar is a feed as a parser read it: some of its calendar properties, its events.
type Calendar struct {
	Props  map[string]string `json:"calendar"`
	Events []Event           `json:"events"`
}

// Parser names a parser.
type Parser string

// The parsers.
const (
	Python Parser = "python3-icalendar"
	ICALJS Parser = "ical.js"
)

// Parsers lists both.
var Parsers = []Parser{Python, ICALJS}

// here is this package's folder, where the scripts are.
func here() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Read parses feed with p and returns what it read; a parse error fails the test. A
// parser that is not installed skips the test, or fails it under GIGS_REQUIRE_TOOLS.
func Read(t testing.TB, p Parser, feed []byte) Calendar {
	t.Helper()
	path := filepath.Join(t.TempDir(), "feed.ics")
	if err := os.WriteFile(path, feed, 0o644); err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	switch p {
	case Python:
		tools.Need(t, "icalendar") // the command python3-icalendar installs
		// Debian's own python, whose packages python3-icalendar is installed among (a python3
		// earlier on the PATH, such as pyenv's, does not see them).
		cmd = exec.Command(tools.Need(t, "/usr/bin/python3"), filepath.Join(here(), "parse.py"), path)
	case ICALJS:
		lib := filepath.Join(here(), "..", "..", "var", "tools", "icaljs", "node_modules", "ical.js", "dist", "ical.js")
		if _, err := os.Stat(lib); err != nil {
			if os.Getenv("GIGS_REQUIRE_TOOLS") != "" {
				t.Fatalf("ical.js is not installed (make tools installs it): %v", err)
			}
			t.Skipf("ical.js is not installed; make tools installs it")
		}
		cmd = exec.Command(tools.Need(t, "node"), filepath.Join(here(), "parse.mjs"), lib, path)
	}
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s cannot read the feed: %v\n%s", p, err, stderr)
	}
	var c Calendar
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("%s's output: %v", p, err)
	}
	return c
}
