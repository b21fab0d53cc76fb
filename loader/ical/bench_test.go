package ical

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse reads a feed of 1,000 lone events and 20 weekly series.
func BenchmarkParse(b *testing.B) {
	var doc bytes.Buffer
	doc.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
	for i := range 1000 {
		fmt.Fprintf(&doc, "BEGIN:VEVENT\r\nUID:%d@venue.example\r\nDTSTART;TZID=Europe/Berlin:202604%02dT200000\r\n"+
			"DTEND;TZID=Europe/Berlin:202604%02dT230000\r\nSUMMARY:Band %d\\, live\r\nLOCATION:The Lantern\\, Kastanienallee 12\\, Berlin\r\n"+
			"CATEGORIES:Indie,Rock\r\nURL:https://venue.example/%d\r\nEND:VEVENT\r\n", i, i%28+1, i%28+1, i, i)
	}
	for i := range 20 {
		fmt.Fprintf(&doc, "BEGIN:VEVENT\r\nUID:series-%d\r\nDTSTART;TZID=America/New_York:20260305T200000\r\n"+
			"RRULE:FREQ=WEEKLY;BYDAY=TH\r\nEXDATE;TZID=America/New_York:20260312T200000\r\nSUMMARY:Residency %d\r\nEND:VEVENT\r\n", i, i)
	}
	doc.WriteString("END:VCALENDAR\r\n")
	b.SetBytes(int64(doc.Len()))
	b.ReportAllocs()
	for b.Loop() {
		events, _ := Parse(doc.Bytes(), "feed", Options{Now: now})
		if len(events) != 1000+20*51 {
			b.Fatalf("%d events", len(events))
		}
	}
}

// BenchmarkFixtures reads every fixture.
func BenchmarkFixtures(b *testing.B) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.ics"))
	if err != nil {
		b.Fatal(err)
	}
	var docs [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, data)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			Parse(d, "feed", Options{Now: now})
		}
	}
}

// BenchmarkWorstCase reads a small document whose rules use up the expansion budget:
// what a hostile feed can cost.
func BenchmarkWorstCase(b *testing.B) {
	ev := "BEGIN:VEVENT\nUID:u\nSUMMARY:S\nDTSTART:19000101T200000Z\n" +
		strings.Repeat("RRULE:FREQ=YEARLY;BYDAY=MO;COUNT=1000000000\n", maxRules) + "END:VEVENT\n"
	doc := []byte("BEGIN:VCALENDAR\n" + strings.Repeat(ev, 100) + "END:VCALENDAR\n")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, drops := Parse(doc, "feed", Options{Now: now}); len(drops) == 0 {
			b.Fatal("the budget was not reached")
		}
	}
}
