package ical

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// Fixtures are named by outcome: *.good.ics must yield events and no drops, *.bad.ics must
// show their problems as drops.
const fixtureDir = "testdata"

// now is the moment the fixtures are read at.
var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// wantDrop is an expected drop; every drop's Ref must be the document's.
type wantDrop struct {
	line   int
	reason string
}

// fw formats a When compactly: "2026-03-05T20:00+01:00", "2026-03-05T20:00" (floating),
// "2026-03-05" (date only), or "-" when zero.
func fw(w source.When) string {
	switch {
	case w.IsZero():
		return "-"
	case w.DateOnly:
		return w.Wall.Format(time.DateOnly)
	case !w.HasOffset:
		return w.Wall.Format("2006-01-02T15:04")
	}
	sign, off := '+', w.Offset
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%s%c%02d:%02d", w.Wall.Format("2006-01-02T15:04"), sign, off/3600, off%3600/60)
}

// brief sums up an event in one line: ref, line, start, end, status and title.
func brief(e source.Event) string {
	return fmt.Sprintf("%s L%d %s %s %s %q", e.Ref, e.Line, fw(e.Start), fw(e.End), cmp.Or(string(e.Status), "unstated"), e.Title)
}

var fixtures = []struct {
	file   string
	events []string // brief of each event, in order
	drops  []wantDrop
}{
	{
		file: "basic.good.ics", // BOM, CRLF, a fold inside "ö", a VALARM, quoted parameters
		events: []string{
			`night-owls-2026@lantern.example L5 2026-12-05T19:00+00:00 2026-12-05T22:00+00:00 unstated "Night Owls ; Friends, live"`,
			`mitternacht@lantern.example L27 2026-12-06T20:30+00:00 2026-12-06T23:00+00:00 cancelled "Mitternachtsblues mit Jörg & Zoë"`,
			`festival@lantern.example L36 2026-12-12 2026-12-14 unstated "Winter Festival"`,
		},
	},
	{
		file: "lf-only.good.ics", // LF, lower-case names, a fold inside a value, a tab fold, Latin-1
		events: []string{
			`lf-1@club.example L3 2026-03-20T21:00 - unstated "Caf` + "\uFFFD" + ` Session"`,
			`lf-2@club.example L9 2026-03-21T21:00 - unstated "Folded with a tab"`,
		},
	},
	{
		file: "zones.good.ics",
		events: []string{
			`utc L36 2026-03-10T19:00+00:00 - unstated "UTC"`,
			`kolkata L41 2026-03-10T20:00+05:30 - unstated "Kolkata"`,
			`kathmandu L46 2026-03-10T20:00+05:45 - unstated "Kathmandu"`,
			`st-johns-winter L51 2026-02-10T20:00-03:30 - unstated "St. John's in winter"`,
			`st-johns-summer L56 2026-07-10T20:00-02:30 - unstated "St. John's in summer"`,
			`win-berlin L61 2026-03-10T20:00+01:00 - unstated "W. Europe"`,
			`win-new-york L66 2026-03-10T20:00-04:00 - unstated "Eastern"`,
			`win-india L71 2026-03-10T20:00+05:30 - unstated "India"`,
			`win-nepal L76 2026-03-10T20:00+05:45 - unstated "Nepal"`,
			`win-newfoundland L81 2026-03-10T20:00-02:30 - unstated "Newfoundland"`,
			`win-london L86 2026-07-10T20:00+01:00 - unstated "GMT"`,
			`win-sydney L91 2026-03-10T20:00+11:00 - unstated "AUS Eastern"`,
			`win-tokyo L96 2026-03-10T20:00+09:00 - unstated "Tokyo"`,
			`quoted L101 2026-07-10T20:00+02:00 - unstated "Quoted"`,
			`mozilla L106 2026-03-10T20:00+01:00 - unstated "Mozilla"`,
			`lic-location L111 2026-03-10T20:00+01:00 - unstated "X-LIC-LOCATION"`,
			`floating L116 2026-03-10T20:00 - unstated "Floating"`,
			// 02:30 does not exist in Berlin that night; time.Date puts it at 01:30 UTC.
			`gap L121 2026-03-29T02:30+01:00 - unstated "In the gap"`,
			`zoned-utc L126 2026-03-10T19:00+00:00 - unstated "Z wins"`,
			`date L131 2026-03-10 - unstated "Date"`,
		},
	},
	{
		file: "unknown-zone.bad.ics",
		events: []string{
			`outlook-undefined L9 2026-03-10T20:00+01:00 - unstated "Outlook without its vtimezone"`, // by its display name
			`known L14 2026-03-10T20:00+01:00 - unstated "Known"`,
		},
		drops: []wantDrop{
			{6, `vevent "Unknown zone": cannot read dtstart "20260310T200000": time zone "Mars/Olympus_Mons" is unknown, and no vtimezone of the document defines it`},
		},
	},
	{
		file: "vtimezone-rules.good.ics",
		events: []string{
			`outlook-winter L35 2026-03-10T20:00+01:00 - unstated "Outlook in winter"`,
			`outlook-summer L40 2026-07-10T20:00+02:00 - unstated "Outlook in summer"`,
			`customized L45 2026-03-10T20:00-04:00 - unstated "Customized"`,
			`weekly/2026-03-26 L50 2026-03-26T20:00+01:00 - unstated "Weekly across the change"`,
			`weekly/2026-03-27 L50 2026-03-27T20:00+01:00 - unstated "Weekly across the change"`,
			`weekly/2026-04-02 L50 2026-04-02T20:00+02:00 - unstated "Weekly across the change"`,
			`weekly/2026-04-03 L50 2026-04-03T20:00+02:00 - unstated "Weekly across the change"`,
			`floating L56 2026-03-10T20:00-04:00 - unstated "Floating in the calendar zone"`,
			`date-with-time L61 2026-03-11T19:30-04:00 - unstated "A date that carries a time"`,
			`rdate-utc/2026-03-12 L66 2026-03-12T20:00+01:00 - unstated "An RDATE in UTC"`,
			`rdate-utc/2026-03-14 L66 2026-03-14T20:00+01:00 - unstated "An RDATE in UTC"`,
		},
	},
	{
		file: "residency.good.ics",
		events: []string{
			// Weekly in Berlin across the change to summer time, an EXDATE (03-19), a moved
			// show, a cancelled one given in UTC, an RDATE matinee with the series' length.
			`jazz-thursdays@kulturhaus.example/2026-03-05 L22 2026-03-05T20:00+01:00 2026-03-05T23:00+01:00 unstated "Jazz Thursdays"`,
			`jazz-thursdays@kulturhaus.example/2026-03-12 L22 2026-03-12T20:00+01:00 2026-03-12T23:00+01:00 unstated "Jazz Thursdays"`,
			`jazz-thursdays@kulturhaus.example/2026-03-26 L33 2026-03-26T21:00+01:00 2026-03-27T00:00+01:00 unstated "Jazz Thursdays: Record Release"`,
			`jazz-thursdays@kulturhaus.example/2026-04-02 L42 2026-04-02T20:00+02:00 - cancelled "Jazz Thursdays"`,
			`jazz-thursdays@kulturhaus.example/2026-04-09 L22 2026-04-09T20:00+02:00 2026-04-09T23:00+02:00 unstated "Jazz Thursdays"`,
			`jazz-thursdays@kulturhaus.example/2026-04-11T15:00 L22 2026-04-11T15:00+02:00 2026-04-11T18:00+02:00 unstated "Jazz Thursdays"`,
			// Weekly in New York across its change; UNTIL is the last show's instant.
			`open-mic@bowery.example/2026-03-01 L47 2026-03-01T20:00-05:00 - unstated "Open Mic"`,
			`open-mic@bowery.example/2026-03-08 L47 2026-03-08T20:00-04:00 - unstated "Open Mic"`,
			`open-mic@bowery.example/2026-03-15 L47 2026-03-15T20:00-04:00 - unstated "Open Mic"`,
			// COUNT=20 from January 2025: the 15th to the 20th lie in the window.
			`first-fridays@cellar.example/2026-03-06 L54 2026-03-06T21:30 - unstated "First Fridays"`,
			`first-fridays@cellar.example/2026-04-03 L54 2026-04-03T21:30 - unstated "First Fridays"`,
			`first-fridays@cellar.example/2026-05-01 L54 2026-05-01T21:30 - unstated "First Fridays"`,
			`first-fridays@cellar.example/2026-06-05 L54 2026-06-05T21:30 - unstated "First Fridays"`,
			`first-fridays@cellar.example/2026-07-03 L54 2026-07-03T21:30 - unstated "First Fridays"`,
			`first-fridays@cellar.example/2026-08-07 L54 2026-08-07T21:30 - unstated "First Fridays"`,
			// Last Saturdays to a date UNTIL, 02-28 before the window, 04-25 an EXDATE.
			`last-saturday@park.example/2026-03-28 L60 2026-03-28 - unstated "Last Saturday Flea & Folk"`,
			`last-saturday@park.example/2026-05-30 L60 2026-05-30 - unstated "Last Saturday Flea & Folk"`,
			`last-saturday@park.example/2026-06-27 L60 2026-06-27 - unstated "Last Saturday Flea & Folk"`,
			// DTSTART and RDATEs: an early and a late show on one day keep refs of their own.
			`double-bill@roundhouse.example/2026-03-20 L67 2026-03-20T19:00+00:00 2026-03-20T21:00+00:00 unstated "Double Bill"`,
			`double-bill@roundhouse.example/2026-03-20T22:30 L67 2026-03-20T22:30+00:00 2026-03-21T00:30+00:00 unstated "Double Bill"`,
			`double-bill@roundhouse.example/2026-03-21 L67 2026-03-21T19:00+00:00 2026-03-21T21:00+00:00 unstated "Double Bill"`,
			// old@cellar.example ended in 2024. A yearly rule from 1999:
			`fete@square.example/2026-06-21 L80 2026-06-21T20:00+00:00 - unstated "Fête de la Musique"`,
			// An override without its series: on its own, under the date it replaces.
			`orphan@kulturhaus.example/2026-05-01 L86 2026-05-02T20:00+02:00 - unstated "Moved Show"`,
		},
	},
	{
		file: "broken.bad.ics",
		events: []string{
			`good@bar.example L22 2026-03-11T20:00+00:00 - unstated "Good One"`,
			`after@bar.example L31 2026-03-13T20:00+00:00 - unstated "After"`,
		},
		drops: []wantDrop{
			{3, "end:vevent without begin:vevent"},
			{4, `vevent "No Start": no dtstart`},
			{10, `vevent "Bad Date": cannot read dtstart "20261345T200000": date or time out of range`},
			{15, `vevent "Bad Quote": cannot read dtstart: unterminated quoted parameter value`},
			{18, `vevent "no-summary@bar.example": no summary`},
			{27, `vevent "Unclosed": begin:vevent without end:vevent`},
		},
	},
	{
		file:   "truncated.bad.ics",
		events: []string{`first@bar.example L3 2026-03-10T20:00+00:00 - unstated "First"`},
		drops: []wantDrop{
			{1, "begin:vcalendar without end:vcalendar: the document may be truncated"},
			{8, `vevent "Cut Off Mid-Li": begin:vevent without end:vevent`},
		},
	},
	{
		file: "unsupported-rrule.bad.ics",
		events: []string{
			`bad-rdate@bar.example/2026-03-03 L47 2026-03-03T20:00+00:00 - unstated "Bad Rdate"`,
			`bad-rdate@bar.example/2026-03-17 L47 2026-03-17T20:00+00:00 - unstated "Bad Rdate"`,
			`ok@bar.example L53 2026-03-10T20:00+00:00 - unstated "Still Here"`,
		},
		drops: []wantDrop{
			{6, `vevent "Last Weekday Jam": rrule part BYSETPOS is not supported; the series is dropped`},
			{12, `vevent "Hourly": rrule freq: hourly is not supported; the series is dropped`},
			{18, `vevent "Two Sets": rrule part BYHOUR is not supported; the series is dropped`},
			{25, `vevent "Weekly But Not First": exrule is not supported; the series is dropped`},
			{31, `vevent "Never": rrule interval: want a number from 1 to 100000, not "0"; the series is dropped`},
			{37, `vevent "First Friday Weekly": rrule byday with an ordinal needs freq=monthly or freq=yearly; the series is dropped`},
			{44, `vevent "Bad Exdate": cannot read exdate "2026-03-17": want yyyymmdd or yyyymmddThhmmss with an optional Z; the series is dropped`},
			{50, `vevent "Bad Rdate": cannot read rdate "tomorrow": not a number; the date is left out`},
		},
	},
	{
		file:  "not-ical.bad.ics",
		drops: []wantDrop{{0, "no begin:vcalendar: not an icalendar document"}},
	},
}

func TestFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.ics"))
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	for _, fx := range fixtures {
		tested[fx.file] = true
		t.Run(fx.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(fixtureDir, fx.file))
			if err != nil {
				t.Fatal(err)
			}
			ref := "https://venue.example/" + fx.file
			events, drops := Parse(data, ref, Options{Now: now})
			var got []string
			for _, e := range events {
				got = append(got, brief(e))
			}
			if !reflect.DeepEqual(got, fx.events) {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(fx.events, "\n"))
			}
			if strings.HasSuffix(fx.file, ".good.ics") && len(drops) > 0 {
				t.Errorf("a good fixture has drops: %+v", drops)
			}
			var gotDrops []wantDrop
			for _, d := range drops {
				if d.Ref != ref {
					t.Errorf("drop ref %q, want %q", d.Ref, ref)
				}
				gotDrops = append(gotDrops, wantDrop{d.Line, d.Reason})
			}
			if !reflect.DeepEqual(gotDrops, fx.drops) {
				t.Errorf("drops:\n%+v\nwant:\n%+v", gotDrops, fx.drops)
			}
		})
	}
	for _, f := range files {
		if !tested[filepath.Base(f)] {
			t.Errorf("fixture %s has no test", f)
		}
	}
}

// TestFixtureBytes checks that the fixtures still hold what they exist to test, in case a
// checkout rewrote their line endings.
func TestFixtureBytes(t *testing.T) {
	tests := []struct {
		file      string
		bom, crlf bool
		bytes     string // a byte sequence the file must hold
	}{
		{"basic.good.ics", true, true, "J\xc3\r\n \xb6rg"},
		{"lf-only.good.ics", false, false, "Caf\xe9"},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(filepath.Join(fixtureDir, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(data, bom) != tt.bom || bytes.Contains(data, []byte("\r\n")) != tt.crlf ||
			!bytes.Contains(data, []byte(tt.bytes)) {
			t.Errorf("%s has lost its byte order mark, line ends or bytes", tt.file)
		}
	}
}

// TestFields checks every field of the events of the basic fixture.
func TestFields(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "basic.good.ics"))
	if err != nil {
		t.Fatal(err)
	}
	lantern := source.Place{Name: "The Lantern", Street: "Kastanienallee 12", Locality: "Berlin", Lat: 52.5386, Lon: 13.41, HasGeo: true}
	at := func(y int, m time.Month, d, hh, mm int) source.When {
		return source.When{Wall: time.Date(y, m, d, hh, mm, 0, 0, time.UTC), HasOffset: true}
	}
	want := []source.Event{
		{
			Ref:    "night-owls-2026@lantern.example",
			URL:    "https://lantern.example/events/night-owls",
			Line:   5,
			Title:  "Night Owls ; Friends, live",
			Start:  at(2026, 12, 5, 19, 0),
			End:    at(2026, 12, 5, 22, 0),
			Venue:  lantern,
			Genres: []string{"Indie", "Shoegaze", "Live, loud"},
			Kinds:  []string{"Indie", "Shoegaze", "Live, loud"},
		},
		{
			Ref:    "mitternacht@lantern.example",
			Line:   27,
			Title:  "Mitternachtsblues mit Jörg & Zoë",
			Status: engine.StatusCancelled,
			Start:  at(2026, 12, 6, 20, 30),
			End:    at(2026, 12, 6, 23, 0),
			Venue:  source.Place{Name: "The Lantern"},
		},
		{
			Ref:   "festival@lantern.example",
			Line:  36,
			Title: "Winter Festival",
			Start: source.When{Wall: time.Date(2026, 12, 12, 0, 0, 0, 0, time.UTC), DateOnly: true},
			End:   source.When{Wall: time.Date(2026, 12, 14, 0, 0, 0, 0, time.UTC), DateOnly: true},
			Venue: source.Place{Name: "Hof", Street: "Kastanienallee 12", Locality: "Berlin"},
		},
	}
	got, drops := Parse(data, "feed", Options{Now: now})
	if len(drops) > 0 {
		t.Errorf("drops: %+v", drops)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

// TestOverrideInherits checks that an override that only cancels takes the series' facts.
func TestOverrideInherits(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "residency.good.ics"))
	if err != nil {
		t.Fatal(err)
	}
	events, _ := Parse(data, "feed", Options{Now: now})
	for _, e := range events {
		if e.Ref != "jazz-thursdays@kulturhaus.example/2026-04-02" {
			continue
		}
		want := source.Place{Name: "Kulturhaus Mitte", Street: "Auguststraße 10", Locality: "Berlin", FeedZone: "Europe/Berlin"}
		if e.Venue != want || !reflect.DeepEqual(e.Genres, []string{"Jazz"}) || e.Status != engine.StatusCancelled {
			t.Errorf("cancelled override: %+v", e)
		}
		return
	}
	t.Error("the cancelled override is missing")
}

// TestDoesNotShareSlices checks that the occurrences of a series do not share a genre
// array, so that a caller may change one.
func TestDoesNotShareSlices(t *testing.T) {
	doc := "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:u\nDTSTART:20260302T200000Z\nRRULE:FREQ=DAILY;COUNT=2\n" +
		"SUMMARY:S\nCATEGORIES:a,b\nEND:VEVENT\nEND:VCALENDAR\n"
	events, _ := Parse([]byte(doc), "feed", Options{Now: now})
	if len(events) != 2 {
		t.Fatalf("%d events", len(events))
	}
	events[0].Genres[0] = "changed"
	if events[1].Genres[0] != "a" {
		t.Error("occurrences share their genres")
	}
}

// TestRealCalendars reads calendars of the real corpus (testdata/real/ical, see its
// provenance.json) whose zones are named or defined the ways Outlook, Exchange and other
// clients write them, or whose overrides move a series, each as of a day before its
// events, and checks events' times and that nothing is dropped.
func TestRealCalendars(t *testing.T) {
	tests := []struct {
		file, now string
		skip      int      // events before those checked
		events    []string // brief of the events checked, in order
		count     int      // events in all
	}{
		{ // a VTIMEZONE of one observance without RRULE since 1601; its TZID escaped
			file: "outlook-kuala-lumpur-fixed-offset.ics", now: "2008-10-30", count: 52,
			events: []string{"L16 2008-10-31T09:30+08:00 2008-10-31T09:40+08:00", "L16 2008-11-07T09:30+08:00 2008-11-07T09:40+08:00"},
		},
		{ // TZID:Pacific Time (US & Canada)\, Tijuana, yearly rules since 1601
			file: "exchange-cdo-escaped-tzid.ics", now: "2004-10-10", count: 1,
			events: []string{"L21 2004-10-11T22:30-07:00 2004-10-12T00:00-07:00"},
		},
		{ // rules of 1671 and of 2007, the old ones without UNTIL
			file: "exchange-multi-era-vtimezone.ics", now: "2025-06-01", count: 2,
			events: []string{"L35 2025-06-10T14:00-04:00 2025-06-10T15:00-04:00", "L42 1985-10-15T14:00-04:00 1985-10-15T15:00-04:00"},
		},
		{ // New York's history since 1967: UNTIL, a one-off observance with an RDATE
			file: "full-history-new-york-vtimezone.ics", now: "2014-08-01", count: 1,
			events: []string{"L55 2014-08-29T08:00-04:00 2014-08-29T10:00-04:00"},
		},
		{ // an all-day series; the override of 02-26 names it in zone "UTC+01" and moves it
			file: "exchange-allday-override-offset-tzid.ics", now: "2026-02-18", count: 51,
			events: []string{"L6 2026-02-19 2026-02-20", "L6 2026-02-24 2026-02-25", "L19 2026-02-27 2026-02-28", "L6 2026-03-03 2026-03-04"},
		},
		{ // TZID=/Europe/Stockholm
			file: "tzid-leading-slash.ics", now: "2022-10-20", count: 52,
			events: []string{"L2 2022-10-21T20:00+02:00 2022-10-21T21:00+02:00", "L2 2022-10-28T20:00+02:00 2022-10-28T21:00+02:00", "L2 2022-11-04T20:00+01:00 2022-11-04T21:00+01:00"},
		},
		{ // a display name's cities without the offset; its one occurrence is an EXDATE
			file: "tzid-city-list.ics", now: "2024-04-14", count: 0,
		},
		{ // a VTIMEZONE of one observance from 2017, read nine years later
			file: "custom-fixed-utc11.ics", now: "2026-02-27", count: 1,
			events: []string{"L13 2017-02-28T23:00+11:00 2017-02-28T23:30+11:00"},
		},
		{ // Lotus Notes: TZID "Eastern", its rules with BYHOUR and BYMINUTE
			file: "lotus-notes-vtimezone-byhour.ics", now: "2005-04-10", count: 5,
			events: []string{"L21 2005-04-11T09:00-04:00 2005-04-11T10:00-04:00"},
		},
		{ // an RDATE PERIOD of three hours in a series of two-hour events
			file: "rdate-period-end.ics", now: "2023-09-19", count: 9, skip: 2,
			events: []string{"L21 2023-11-15T12:00-08:00 2023-11-15T14:00-08:00", "L21 2023-12-13T12:00-08:00 2023-12-13T15:00-08:00",
				"L21 2024-01-17T12:00-08:00 2024-01-17T14:00-08:00"},
		},
		{ // two RANGE=THISANDFUTURE overrides (-3h and 7h long, then +1 day +2h22m), an
			// override of one occurrence between them, an RDATE after the first
			file: "range-thisandfuture-overrides.ics", now: "2024-09-01", count: 184, skip: 5,
			events: []string{
				"L4 2024-09-11T12:00+00:00 2024-09-11T14:00+00:00", "L14 2024-09-13T09:00+00:00 2024-09-13T16:00+00:00",
				"L14 2024-09-14T06:00+00:00 2024-09-14T13:00+00:00", "L23 2024-09-15T17:00+00:00 2024-09-15T19:00+00:00",
				"L14 2024-09-17T09:00+00:00 2024-09-17T16:00+00:00", "L14 2024-09-19T09:00+00:00 2024-09-19T16:00+00:00",
				"L32 2024-09-22T14:22+00:00 2024-09-22T16:13+00:00", "L32 2024-09-24T14:22+00:00 2024-09-24T16:13+00:00",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "ical", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			at, err := time.Parse(time.DateOnly, tt.now)
			if err != nil {
				t.Fatal(err)
			}
			events, drops := Parse(data, tt.file, Options{Now: at})
			var got []string
			for _, e := range events[min(len(events), tt.skip):min(len(events), tt.skip+len(tt.events))] {
				got = append(got, fmt.Sprintf("L%d %s %s", e.Line, fw(e.Start), fw(e.End)))
			}
			if len(events) != tt.count || !reflect.DeepEqual(got, tt.events) {
				t.Errorf("%d events, first:\n%s\nwant %d:\n%s", len(events), strings.Join(got, "\n"), tt.count, strings.Join(tt.events, "\n"))
			}
			for _, d := range drops {
				t.Errorf("drop at line %d: %s", d.Line, d.Reason)
			}
		})
	}
}

// TestPlace reads LOCATION as calendars write it; the loader then reads Locality as an
// address on one line (places.Locate).
func TestPlace(t *testing.T) {
	tests := []struct {
		location string
		want     source.Place
	}{
		{`The Lantern\, Kastanienallee 12\, Berlin`, source.Place{Name: "The Lantern", Street: "Kastanienallee 12", Locality: "Berlin"}},
		{`Burgerweeshuis\, Netherlands`, source.Place{Name: "Burgerweeshuis", Country: "Netherlands"}},
		{`Hof\, Kastanienallee 12`, source.Place{Name: "Hof", Street: "Kastanienallee 12"}},
		{`Club\, Berlin`, source.Place{Name: "Club", Locality: "Berlin"}},
		// The parts after the name are an address on one line for the loader, which reads
		// "Athens, GA" as Georgia's, not Gabon's (places.Locate); a country's code alone
		// after the name is the country, so that a venue hint gives the city.
		{`Georgia Theatre\, Athens\, GA`, source.Place{Name: "Georgia Theatre", Locality: "Athens, GA"}},
		{`South San Francisco\, CA`, source.Place{Name: "South San Francisco", Country: "CA"}},
		{`Burgerweeshuis\, NL`, source.Place{Name: "Burgerweeshuis", Country: "NL"}},
		{`Paradiso\, Weteringschans 6-8\, 1017 SG Amsterdam\, NL`, source.Place{Name: "Paradiso", Street: "Weteringschans 6-8", Locality: "1017 SG Amsterdam, NL"}},
		// "venue, town, ST" is not "venue, street, city".
		{`Wonder Ballroom\, Portland\, OR`, source.Place{Name: "Wonder Ballroom", Locality: "Portland, OR"}},
		{`Wonder Ballroom\, 128 NE Russell St\, Portland\, OR 97212`, source.Place{Name: "Wonder Ballroom", Street: "128 NE Russell St", Locality: "Portland, OR 97212"}},
		{`Venue\, Berlin\, BE\, DE`, source.Place{Name: "Venue", Locality: "Berlin, BE, DE"}},
		{`Songbyrd\, Adams Morgan\, Washington`, source.Place{Name: "Songbyrd", Locality: "Adams Morgan, Washington"}},
		{`O2 Academy Brixton\, London\, SW9 9SL`, source.Place{Name: "O2 Academy Brixton", Locality: "London"}},
		// node-ical's tripit-location-escaping.ics and meetup-timed-tz.ics.
		{`250 GATEWAY BLVD\, South San Francisco\, CA\, 94080`, source.Place{Name: "250 GATEWAY BLVD", Locality: "South San Francisco, CA"}},
		{`Open Source Project Tempe (1415 E University Dr. #103A\, Tempe\,  AZ 85281)`,
			source.Place{Name: "Open Source Project Tempe", Street: "1415 E University Dr. #103A", Locality: "Tempe, AZ 85281"}},
		{`Venue (Room 2)`, source.Place{Name: "Venue (Room 2)"}},
		{`Venue\, 5 Main St\, Springfield\, IL 62701\, USA`, source.Place{Name: "Venue", Street: "5 Main St", Locality: "Springfield, IL 62701", Country: "USA"}},
		// Line breaks and semicolons part an address as commas do (collective/icalendar's
		// x_location.ics, ical4j's apple-iphone-os-26-structured-location.ics): the loader
		// reads a street that is a postcode and a town as the town.
		{`Roadstar 16\n12764 Happyville\nDenmark`, source.Place{Name: "Roadstar 16", Street: "12764 Happyville", Country: "Denmark"}},
		{`Hauptstraße 1-5\; 4041 Linz`, source.Place{Name: "Hauptstraße 1-5", Street: "4041 Linz"}},
	}
	for _, tt := range tests {
		if got := place(&prop{value: tt.location}, nil); got != tt.want {
			t.Errorf("LOCATION:%s\ngot  %+v\nwant %+v", tt.location, got, tt.want)
		}
	}
}

// TestPlaceGeo reads GEO as calendars write it, and the geo URI of Apple's
// X-APPLE-STRUCTURED-LOCATION, which stands in for a missing GEO.
func TestPlaceGeo(t *testing.T) {
	tests := []struct {
		geo      string
		lat, lon float64
		ok       bool
	}{
		{"52.25;6.16", 52.25, 6.16, true},
		{"52.25,6.16", 52.25, 6.16, true},
		{"geo:48.309978,14.283197", 48.309978, 14.283197, true},
		{"GEO:48.31,14.28;u=70.5", 48.31, 14.28, true},
		{"geo:0,0", 0, 0, false},
		{"geo:", 0, 0, false},
		{"geo:91,14", 0, 0, false},
	}
	for _, tt := range tests {
		got := place(nil, &prop{value: tt.geo})
		if got.HasGeo != tt.ok || got.Lat != tt.lat || got.Lon != tt.lon {
			t.Errorf("%q: %v %v %v; want %v %v %v", tt.geo, got.Lat, got.Lon, got.HasGeo, tt.lat, tt.lon, tt.ok)
		}
	}
}
