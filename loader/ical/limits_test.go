package ical

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/source"
)

// TestStructure covers how components nest, end and fail to end.
func TestStructure(t *testing.T) {
	ev := func(uid string) string {
		return "BEGIN:VEVENT\nUID:" + uid + "\nDTSTART:20260310T200000Z\nSUMMARY:" + uid + "\nEND:VEVENT\n"
	}
	tests := []struct {
		name  string
		doc   string
		refs  string // refs of the events, space-separated
		drops []wantDrop
	}{
		{name: "empty", doc: "", drops: []wantDrop{{0, "no begin:vcalendar: not an icalendar document"}}},
		{name: "vevent without vcalendar", doc: ev("a"), refs: "a"},
		{
			name: "valarm left open", refs: "a",
			doc: "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20260310T200000Z\nSUMMARY:a\nBEGIN:VALARM\nSUMMARY:alarm\nEND:VEVENT\nEND:VCALENDAR\n",
		},
		{
			name: "vevent closed by end:vcalendar",
			doc:  "BEGIN:VCALENDAR\n" + strings.TrimSuffix(ev("a"), "END:VEVENT\n") + "END:VCALENDAR\n" + ev("b"),
			refs: "b", drops: []wantDrop{{2, `vevent "a": begin:vevent without end:vevent`}},
		},
		{
			name: "end of another component",
			doc:  "BEGIN:VCALENDAR\nEND:VTODO\n" + ev("a") + "END:VCALENDAR\n",
			refs: "a", drops: []wantDrop{{2, "end:vtodo without begin:vtodo"}},
		},
		{
			name: "malformed begin and end are skipped",
			doc:  "BEGIN:VCALENDAR\nBEGIN:\nBEGIN;X=\"y:VEVENT\nEND:not a name\n" + ev("a") + "END:VCALENDAR\n",
			refs: "a",
		},
		{
			name: "vtodo and vjournal are not events",
			doc:  "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:t\nDTSTART:20260310T200000Z\nSUMMARY:t\nEND:VTODO\n" + ev("a") + "END:VCALENDAR\n",
			refs: "a",
		},
		{
			name: "nested too deep",
			doc: "BEGIN:VCALENDAR\n" + ev("a") + strings.Repeat("BEGIN:X-A\n", 7) + ev("deep") +
				strings.Repeat("END:X-A\n", 7) + ev("b") + "END:VCALENDAR\n",
			refs: "a b", drops: []wantDrop{{14, "components nested deeper than 8: begin:vevent and what it holds are ignored"}},
		},
		{
			name: "a long line",
			doc: "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20260310T200000Z\nSUMMARY:" + strings.Repeat("x", maxLine) +
				"\nEND:VEVENT\nEND:VCALENDAR\n",
			drops: []wantDrop{{2, `vevent "a": no summary`}, {5, "content line longer than 262144 bytes: ignored"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, drops := Parse([]byte(tt.doc), "feed", Options{Now: now})
			var refs []string
			for _, e := range events {
				refs = append(refs, e.Ref)
			}
			if g := strings.Join(refs, " "); g != tt.refs {
				t.Errorf("refs %q, want %q", g, tt.refs)
			}
			var got []wantDrop
			for _, d := range drops {
				got = append(got, wantDrop{d.Line, d.Reason})
			}
			if !reflect.DeepEqual(got, tt.drops) {
				t.Errorf("drops %+v, want %+v", got, tt.drops)
			}
		})
	}
}

// TestTooManyEvents checks both caps on events: on the VEVENTs read and on the events
// returned, which occurrences reach sooner.
func TestTooManyEvents(t *testing.T) {
	var lone, series strings.Builder
	for i := range 5 {
		fmt.Fprintf(&lone, "BEGIN:VEVENT\nUID:%d\nDTSTART:20260310T200000Z\nSUMMARY:S\nEND:VEVENT\n", i)
	}
	for i := range 2 {
		fmt.Fprintf(&series, "BEGIN:VEVENT\nUID:%d\nDTSTART:20260301T200000Z\nRRULE:FREQ=DAILY;COUNT=3\nSUMMARY:S\nEND:VEVENT\n", i)
	}
	tests := []struct {
		name   string
		doc    string
		events int
		drop   source.Drop
	}{
		{"vevents", lone.String(), 4, wantDropOf(22, "more than 4 vevents: the rest are ignored")},
		{"occurrences", series.String(), 4, wantDropOf(8, "more than 4 events: the rest are left out")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newParser("feed", Options{Now: now})
			p.maxEvents = 4
			events, drops := p.parse([]byte("BEGIN:VCALENDAR\n" + tt.doc + "END:VCALENDAR\n"))
			if len(events) != tt.events || len(drops) != 1 || drops[0] != tt.drop {
				t.Errorf("%d events, drops %+v", len(events), drops)
			}
		})
	}
}

func wantDropOf(line int, reason string) source.Drop {
	return source.Drop{Ref: "feed", Line: line, Reason: reason}
}

// TestBudget checks that a document whose rules need too much work loses those series
// with a drop each, and nothing else.
func TestBudget(t *testing.T) {
	doc := "BEGIN:VCALENDAR\n" +
		"BEGIN:VEVENT\nUID:a\nDTSTART:20000101T200000Z\nRRULE:FREQ=DAILY;COUNT=100000\nSUMMARY:A\nEND:VEVENT\n" +
		"BEGIN:VEVENT\nUID:b\nDTSTART:20260301T200000Z\nRRULE:FREQ=DAILY;COUNT=2\nSUMMARY:B\nEND:VEVENT\n" +
		"BEGIN:VEVENT\nUID:c\nDTSTART:20260301T200000Z\nSUMMARY:C\nEND:VEVENT\n" +
		"END:VCALENDAR\n"
	p := newParser("feed", Options{Now: now})
	p.budget = 1000
	events, drops := p.parse([]byte(doc))
	if len(events) != 1 || events[0].Ref != "c" {
		t.Errorf("events %+v", events)
	}
	want := []source.Drop{
		wantDropOf(5, `vevent "A": recurrence not expanded: the document needs more than 10000000 expansion steps`),
		wantDropOf(8, `vevent "B": recurrence not expanded: the document needs more than 10000000 expansion steps`),
	}
	if !reflect.DeepEqual(drops, want) {
		t.Errorf("drops %+v, want %+v", drops, want)
	}
}

// TestDefaults checks the defaults of Options: from now, a year ahead, 366 occurrences per
// recurring event.
func TestDefaults(t *testing.T) {
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format("20060102T150405Z")
	doc := []byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nSUMMARY:A\nDTSTART:" + tomorrow +
		"\nRRULE:FREQ=DAILY\nEND:VEVENT\nEND:VCALENDAR\n")
	events, drops := Parse(doc, "feed", Options{})
	if len(events) < 364 || len(events) > 366 || len(drops) != 0 {
		t.Errorf("a year of days: %d occurrences, drops %+v", len(events), drops)
	}
	events, drops = Parse(doc, "feed", Options{Horizon: 3 * 365 * 24 * time.Hour})
	want := []source.Drop{wantDropOf(2, `vevent "A": recurs more than 366 times in the window; the later occurrences are left out`)}
	if len(events) != 366 || !reflect.DeepEqual(drops, want) {
		t.Errorf("three years of days: %d occurrences, drops %+v", len(events), drops)
	}
}

// TestConcurrent parses the fixtures from several goroutines at once.
func TestConcurrent(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.ics"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, wantDrops := Parse(data, f, Options{Now: now})
			wg.Go(func() {
				got, gotDrops := Parse(data, f, Options{Now: now})
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotDrops, wantDrops) {
					t.Errorf("%s: results differ", f)
				}
			})
		}
	}
	wg.Wait()
}
