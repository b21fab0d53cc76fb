package ical

import (
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
		{"a rule by day of the month", observances(standard, "DAYLIGHT|DTSTART:19700329T020000|TZOFFSETFROM:+0100|TZOFFSETTO:+0200|RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=22"), false},
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
