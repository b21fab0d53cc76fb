package ical

import (
	"bytes"
	"github.com/gigs/gigs/loader/schemaorg/schemaorgtest"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/engine"
)

// FuzzParse checks that Parse never panics and that what it returns keeps its promises,
// the same on every call. It is seeded with the fixtures; crashers found are kept in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.ics"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:u\nSUMMARY:S\nDTSTART;TZID=Europe/Berlin:20260329T023000\n" +
		"RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;UNTIL=20300101\nEXDATE;VALUE=DATE:20270328\nRDATE:20260401T000000Z\n" +
		"DURATION:P1DT2H\nEND:VEVENT\nBEGIN:VEVENT\nUID:u\nRECURRENCE-ID:20280326T003000Z\nSTATUS:CANCELLED\nEND:VEVENT\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const ref = "https://venue.example/feed.ics"
		o := Options{Now: now}
		orig := bytes.Clone(data)
		events, drops := Parse(data, ref, o)
		if !bytes.Equal(data, orig) {
			t.Fatal("Parse modified its input")
		}
		for i, e := range events {
			if e.Ref == "" || e.Line < 1 || e.Start.IsZero() || e.Title == "" || e.Source != "" {
				t.Errorf("event %d breaks the contract: %+v", i, e)
			}
			if e.Status != "" && e.Status != engine.StatusCancelled {
				t.Errorf("event %d: status %q, want cancelled or none", i, e.Status)
			}
			if e.Venue.HasGeo && (math.Abs(e.Venue.Lat) > 90 || math.Abs(e.Venue.Lon) > 180) {
				t.Errorf("event %d: geo out of range: %+v", i, e.Venue)
			}
			if len(e.Title) > maxText || len(e.Genres) > maxGenres {
				t.Errorf("event %d: title of %d bytes, %d genres", i, len(e.Title), len(e.Genres))
			}
			schemaorgtest.CheckStrings(t, reflect.ValueOf(e))
		}
		for _, d := range drops {
			if d.Ref != ref || d.Line < 0 || d.Reason == "" {
				t.Errorf("bad drop %+v", d)
			}
			if r, _ := utf8.DecodeRuneInString(d.Reason); unicode.IsUpper(r) {
				t.Errorf("drop reason is not lowercase: %q", d.Reason)
			}
			schemaorgtest.CheckStrings(t, reflect.ValueOf(d))
		}
		again, againDrops := Parse(data, ref, o)
		if !reflect.DeepEqual(events, again) || !reflect.DeepEqual(drops, againDrops) {
			t.Error("a second parse gives another result")
		}
	})
}
