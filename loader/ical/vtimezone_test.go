package ical

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// observances reads VTIMEZONE observances written one per string, their properties
// separated by "|": "DAYLIGHT|DTSTART:19670430T020000|TZOFFSETFROM:-0500|...".
func observances(specs ...string) rules {
	var r rules
	for _, spec := range specs {
		props := strings.Split(spec, "|")
		o := &observance{daylight: props[0] == "DAYLIGHT"}
		for _, p := range props[1:] {
			name, value, _ := strings.Cut(p, ":")
			o.add(name, value)
		}
		r = append(r, o)
	}
	return r
}

func TestRuleOffsets(t *testing.T) {
	usStandard := "STANDARD|DTSTART:19671029T020000|TZOFFSETFROM:-0400|TZOFFSETTO:-0500|RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"
	usDaylight := "DAYLIGHT|DTSTART:19870405T020000|TZOFFSETFROM:-0500|TZOFFSETTO:-0400|RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"
	tests := []struct {
		name string
		r    rules
		at   string // an instant, RFC 3339
		want string // the offset, "+hh:mm", or "" when the rules give none
	}{
		{"one observance since 1601, years later", observances("STANDARD|DTSTART:16010101T000000|TZOFFSETFROM:+0900|TZOFFSETTO:+0800"), "2026-06-01T00:00:00Z", "+08:00"},
		{"before the first onset", observances("STANDARD|DTSTART:20170101|TZOFFSETFROM:+1100|TZOFFSETTO:+1100"), "2016-06-01T00:00:00Z", ""},
		{"yearly rules, summer", observances(usStandard, usDaylight), "1990-07-01T00:00:00Z", "-04:00"},
		{"yearly rules, winter", observances(usStandard, usDaylight), "1990-12-01T00:00:00Z", "-05:00"},
		{"the rules ended by UNTIL: the last onset holds",
			observances(usStandard+";UNTIL=19991031T060000Z", usDaylight+";UNTIL=19990404T070000Z"), "2010-07-01T00:00:00Z", "-05:00"},
		{"no onset after UNTIL",
			observances(usStandard+";UNTIL=19991031T060000Z", usDaylight), "2010-11-30T00:00:00Z", "-04:00"},
		{"a later era of each kind replaces the earlier",
			observances(usStandard, usDaylight,
				"STANDARD|DTSTART:20071104T020000|TZOFFSETFROM:-0400|TZOFFSETTO:-0500|RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
				"DAYLIGHT|DTSTART:20070311T020000|TZOFFSETFROM:-0500|TZOFFSETTO:-0400|RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"),
			"2025-11-01T12:00:00Z", "-04:00"}, // the old rule would have it -05:00 since 10-26
		{"the last Sunday as the last seven days of the month",
			observances("STANDARD|DTSTART:19701025T030000|TZOFFSETFROM:+0200|TZOFFSETTO:+0100|RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=SU;BYMONTHDAY=25,26,27,28,29,30,31",
				"DAYLIGHT|DTSTART:19700329T020000|TZOFFSETFROM:+0100|TZOFFSETTO:+0200|RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=SU;BYMONTHDAY=25,26,27,28,29,30,31"),
			"2026-10-25T00:59:00Z", "+02:00"},
		{"the last Sunday as the last seven days, an hour later",
			observances("STANDARD|DTSTART:19701025T030000|TZOFFSETFROM:+0200|TZOFFSETTO:+0100|RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=SU;BYMONTHDAY=25,26,27,28,29,30,31",
				"DAYLIGHT|DTSTART:19700329T020000|TZOFFSETFROM:+0100|TZOFFSETTO:+0200|RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=SU;BYMONTHDAY=25,26,27,28,29,30,31"),
			"2026-10-25T01:00:00Z", "+01:00"},
		{"the second Sunday as days 8 to 14",
			observances(usStandard, "DAYLIGHT|DTSTART:20070311T020000|TZOFFSETFROM:-0500|TZOFFSETTO:-0400|RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=SU;BYMONTHDAY=8,9,10,11,12,13,14"),
			"2026-03-08T07:00:00Z", "-04:00"},
		{"the Sunday on or after the 2nd (Britain, October 1926), a minute after",
			observances("STANDARD|DTSTART:19261003T030000|TZOFFSETFROM:+0100|TZOFFSETTO:+0000|RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=SU;BYMONTHDAY=2,3,4,5,6,7,8",
				"DAYLIGHT|DTSTART:19260418T020000|TZOFFSETFROM:+0000|TZOFFSETTO:+0100|RRULE:FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=16,17,18,19,20,21,22;BYDAY=SU"),
			"1926-10-03T02:01:00Z", "+00:00"},
		{"the Sunday on or after the 16th (Britain, 1927: the 17th)",
			observances("STANDARD|DTSTART:19261003T030000|TZOFFSETFROM:+0100|TZOFFSETTO:+0000|RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=SU;BYMONTHDAY=2,3,4,5,6,7,8",
				"DAYLIGHT|DTSTART:19260418T020000|TZOFFSETFROM:+0000|TZOFFSETTO:+0100|RRULE:FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=16,17,18,19,20,21,22;BYDAY=SU"),
			"1927-04-17T02:01:00Z", "+01:00"},
		{"DTSTART's date every year",
			observances("STANDARD|DTSTART:19321001T000000|TZOFFSETFROM:-0200|TZOFFSETTO:-0300|RRULE:FREQ=YEARLY;UNTIL=19330401T020000Z",
				"DAYLIGHT|DTSTART:19321003T000000|TZOFFSETFROM:-0300|TZOFFSETTO:-0200|RRULE:FREQ=YEARLY;UNTIL=19330401T020000Z"),
			"1933-01-15T00:00:00Z", "-02:00"},
		{"one-offs with RDATEs: the last onset before",
			observances("STANDARD|DTSTART:18831118T120000|TZOFFSETFROM:-0700|TZOFFSETTO:-0700|RDATE:19190930T010000,19440101T000100,19671029T010000",
				"DAYLIGHT|DTSTART:19180331T020000|TZOFFSETFROM:-0700|TZOFFSETTO:-0600|RDATE:19190330T020000,19420209T020000,19440401T000100,19670430T020000"),
			"2026-07-01T00:00:00Z", "-07:00"},
		{"before the later era begins",
			observances(usStandard, usDaylight,
				"STANDARD|DTSTART:20071104T020000|TZOFFSETFROM:-0400|TZOFFSETTO:-0500|RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"),
			"2006-11-01T12:00:00Z", "-05:00"},
	}
	for _, tt := range tests {
		at, err := time.Parse(time.RFC3339, tt.at)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if off, ok := tt.r.offset(at); ok {
			got = time.Unix(0, 0).In(time.FixedZone("", off)).Format("-07:00")
		}
		if got != tt.want {
			t.Errorf("%s: offset at %s = %q, want %q", tt.name, tt.at, got, tt.want)
		}
	}
}

// TestRulesUsable checks that rules are matched to a zone only when every observance was
// read whole.
func TestRulesUsable(t *testing.T) {
	standard := "STANDARD|DTSTART:19701025T030000|TZOFFSETFROM:+0200|TZOFFSETTO:+0100|RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"
	daylight := "DAYLIGHT|DTSTART:19700329T020000|TZOFFSETFROM:+0100|TZOFFSETTO:+0200|RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"
	tests := []struct {
		name string
		r    rules
		want bool
	}{
		{"yearly rules", observances(standard, daylight), true},
		{"one-off observances", observances("STANDARD|DTSTART:16010101T000000|TZOFFSETFROM:+0100|TZOFFSETTO:+0100"), true},
		{"a day of the month", observances(standard, "DAYLIGHT|DTSTART:19700329T020000|TZOFFSETFROM:+0100|TZOFFSETTO:+0200|RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=22"), true},
		{"Lotus Notes' BYHOUR and BYMINUTE", observances(standard, daylight+";BYMINUTE=0;BYHOUR=2"), true},
		{"a part not read", observances(standard, daylight+";BYSETPOS=1"), false},
		{"a day of the year", observances(standard, "DAYLIGHT|DTSTART:19700329T020000|TZOFFSETFROM:+0100|TZOFFSETTO:+0200|RRULE:FREQ=YEARLY;BYYEARDAY=88"), false},
		{"an RDATE not read", observances("STANDARD|DTSTART:19700101T000000|TZOFFSETFROM:+0100|TZOFFSETTO:+0100|RDATE:soon"), false},
		{"a week of days not in a row", observances(standard, "DAYLIGHT|DTSTART:19700329T020000|TZOFFSETFROM:+0100|TZOFFSETTO:+0200|RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=SU;BYMONTHDAY=25,26,27,28,29,30,1"), false},
		{"every other year", observances(standard, daylight+";INTERVAL=2"), false},
		{"an UNTIL not read", observances(standard, daylight+";UNTIL=soon"), false},
		{"two rules in one observance", observances(standard, daylight+"|RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"), false},
		{"no offset to", observances("STANDARD|DTSTART:16010101T000000|TZOFFSETFROM:+0100"), false},
		{"none", nil, false},
	}
	for _, tt := range tests {
		if got := tt.r.usable(); got != tt.want {
			t.Errorf("%s: usable = %v, want %v", tt.name, got, tt.want)
		}
	}
	loc := observances(standard, daylight).zoneFor(2026)
	if loc == nil || seasons(loc) != (offsets{3600, 7200}) {
		t.Errorf("central European rules give zone %v", loc)
	}
	if loc := observances(standard, daylight+";BYMONTHDAY=29").zoneFor(2026); loc != nil {
		t.Errorf("rules with a part not read give zone %v", loc)
	}
}

// TestRealVtimezonesByRules reads real full-history VTIMEZONEs (testdata/zones, see its
// README) under a TZID no name resolves, as an Outlook custom zone would come, and checks
// that their rules give the zone the file is named after: its offsets at noon every day and
// a minute either side of each change, 2025 to 2027 (or no zone, never a wrong one).
func TestRealVtimezonesByRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "zones", "*.ics"))
	if err != nil || len(files) < 10 {
		t.Fatalf("%d zone files, %v", len(files), err)
	}
	for _, f := range files {
		name := strings.Replace(strings.TrimSuffix(filepath.Base(f), ".ics"), "-", "/", 1)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := strings.Replace(string(b), "TZID:"+name, "TZID:Customized Time Zone", 1)
		doc = strings.Replace(doc, "X-LIC-LOCATION:"+name, "X-LIC-LOCATION:nowhere", 1)
		doc = strings.Replace(doc, "END:VCALENDAR", "BEGIN:VEVENT\r\nUID:x\r\nSUMMARY:X\r\nDTSTART;TZID=\"Customized Time Zone\":20260611T200000\r\nEND:VEVENT\r\nEND:VCALENDAR", 1)
		want, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		events, drops := Parse([]byte(doc), f, Options{Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)})
		if len(events) != 1 {
			t.Errorf("%s: %d events, drops %+v", name, len(events), drops)
			continue
		}
		_, off := time.Date(2026, 6, 11, 20, 0, 0, 0, want).Zone()
		if got := events[0].Start; !got.HasOffset || got.Offset != off {
			t.Errorf("%s: the event is at offset %d, want %d", name, got.Offset, off)
		}
		p := newParser(f, Options{Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)})
		p.scan([]byte(doc))
		loc := p.zones.rules["Customized Time Zone"].zoneFor(2026)
		for d := time.Date(2025, 1, 1, 0, 30, 0, 0, time.UTC); loc != nil && d.Year() < 2028; d = d.Add(time.Hour) {
			_, a := d.In(loc).Zone()
			if _, b := d.In(want).Zone(); a != b {
				t.Errorf("%s: matched %s, whose offset differs at %s", name, loc, d)
				break
			}
		}
	}
}
