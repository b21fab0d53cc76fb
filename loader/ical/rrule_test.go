package ical

import (
	"cmp"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestExpand runs the examples of RFC 5545 §3.8.5.3 that the adapter supports, and more.
// DTSTART is in America/New_York unless a test says otherwise; the window starts a day
// before DTSTART and lasts ten years; want lists the dates of the occurrences, all at
// DTSTART's clock.
func TestExpand(t *testing.T) {
	tests := []struct {
		name    string
		dtstart string
		rule    string
		limit   int    // 0: 1000
		want    string // dates, space-separated
		capped  bool
	}{
		{
			name: "daily for 10 occurrences", dtstart: "19970902T090000", rule: "FREQ=DAILY;COUNT=10",
			want: "1997-09-02 1997-09-03 1997-09-04 1997-09-05 1997-09-06 1997-09-07 1997-09-08 1997-09-09 1997-09-10 1997-09-11",
		},
		{
			name: "every other day", dtstart: "19970902T090000", rule: "FREQ=DAILY;INTERVAL=2", limit: 4, capped: true,
			want: "1997-09-02 1997-09-04 1997-09-06 1997-09-08",
		},
		{
			name: "every 10 days, 5 occurrences", dtstart: "19970902T090000", rule: "FREQ=DAILY;INTERVAL=10;COUNT=5",
			want: "1997-09-02 1997-09-12 1997-09-22 1997-10-02 1997-10-12",
		},
		{
			name: "weekdays only", dtstart: "19970902T090000", rule: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=6",
			want: "1997-09-02 1997-09-03 1997-09-04 1997-09-05 1997-09-08 1997-09-09",
		},
		{
			name: "daily in a month, until", dtstart: "19980130T090000", rule: "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1",
			want: "1998-01-30 1998-01-31 1999-01-01 1999-01-02 1999-01-03 1999-01-04 1999-01-05 1999-01-06 1999-01-07 1999-01-08 1999-01-09 " +
				"1999-01-10 1999-01-11 1999-01-12 1999-01-13 1999-01-14 1999-01-15 1999-01-16 1999-01-17 1999-01-18 1999-01-19 1999-01-20 " +
				"1999-01-21 1999-01-22 1999-01-23 1999-01-24 1999-01-25 1999-01-26 1999-01-27 1999-01-28 1999-01-29 1999-01-30 1999-01-31 " +
				"2000-01-01 2000-01-02 2000-01-03 2000-01-04 2000-01-05 2000-01-06 2000-01-07 2000-01-08 2000-01-09 2000-01-10 2000-01-11 " +
				"2000-01-12 2000-01-13 2000-01-14 2000-01-15 2000-01-16 2000-01-17 2000-01-18 2000-01-19 2000-01-20 2000-01-21 2000-01-22 " +
				"2000-01-23 2000-01-24 2000-01-25 2000-01-26 2000-01-27 2000-01-28 2000-01-29 2000-01-30 2000-01-31",
		},
		{
			name: "weekly for 10 occurrences, across the change", dtstart: "19970902T090000", rule: "FREQ=WEEKLY;COUNT=10",
			want: "1997-09-02 1997-09-09 1997-09-16 1997-09-23 1997-09-30 1997-10-07 1997-10-14 1997-10-21 1997-10-28 1997-11-04",
		},
		{
			name: "tuesdays and thursdays for five weeks", dtstart: "19970902T090000",
			rule: "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH",
			want: "1997-09-02 1997-09-04 1997-09-09 1997-09-11 1997-09-16 1997-09-18 1997-09-23 1997-09-25 1997-09-30 1997-10-02",
		},
		{
			name: "every other week on monday, wednesday and friday", dtstart: "19970901T090000",
			rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR",
			want: "1997-09-01 1997-09-03 1997-09-05 1997-09-15 1997-09-17 1997-09-19 1997-09-29 1997-10-01 1997-10-03 " +
				"1997-10-13 1997-10-15 1997-10-17 1997-10-27 1997-10-29 1997-10-31 1997-11-10 1997-11-12 1997-11-14 " +
				"1997-11-24 1997-11-26 1997-11-28 1997-12-08 1997-12-10 1997-12-12 1997-12-22",
		},
		{
			name: "every other week on tuesday and thursday, 8 occurrences", dtstart: "19970902T090000",
			rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH",
			want: "1997-09-02 1997-09-04 1997-09-16 1997-09-18 1997-09-30 1997-10-02 1997-10-14 1997-10-16",
		},
		{
			name: "wkst=mo", dtstart: "19970805T090000", rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
			want: "1997-08-05 1997-08-10 1997-08-19 1997-08-24",
		},
		{
			name: "wkst=su", dtstart: "19970805T090000", rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
			want: "1997-08-05 1997-08-17 1997-08-19 1997-08-31",
		},
		{
			name: "monthly on the first friday", dtstart: "19970905T090000", rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
			want: "1997-09-05 1997-10-03 1997-11-07 1997-12-05 1998-01-02 1998-02-06 1998-03-06 1998-04-03 1998-05-01 1998-06-05",
		},
		{
			name: "every other month, first and last sunday", dtstart: "19970907T090000",
			rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
			want: "1997-09-07 1997-09-28 1997-11-02 1997-11-30 1998-01-04 1998-01-25 1998-03-01 1998-03-29 1998-05-03 1998-05-31",
		},
		{
			name: "second-to-last monday", dtstart: "19970922T090000", rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
			want: "1997-09-22 1997-10-20 1997-11-17 1997-12-22 1998-01-19 1998-02-16",
		},
		{
			name: "third-to-last day", dtstart: "19970928T090000", rule: "FREQ=MONTHLY;BYMONTHDAY=-3", limit: 6, capped: true,
			want: "1997-09-28 1997-10-29 1997-11-28 1997-12-29 1998-01-29 1998-02-26",
		},
		{
			name: "2nd and 15th", dtstart: "19970902T090000", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15",
			want: "1997-09-02 1997-09-15 1997-10-02 1997-10-15 1997-11-02 1997-11-15 1997-12-02 1997-12-15 1998-01-02 1998-01-15",
		},
		{
			name: "first and last day", dtstart: "19970930T090000", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1",
			want: "1997-09-30 1997-10-01 1997-10-31 1997-11-01 1997-11-30 1997-12-01 1997-12-31 1998-01-01 1998-01-31 1998-02-01",
		},
		{
			name: "every 18 months, 10th to 15th", dtstart: "19970910T090000",
			rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15",
			want: "1997-09-10 1997-09-11 1997-09-12 1997-09-13 1997-09-14 1997-09-15 1999-03-10 1999-03-11 1999-03-12 1999-03-13",
		},
		{
			name: "every tuesday, every other month", dtstart: "19970902T090000", rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU",
			limit: 10, capped: true,
			want: "1997-09-02 1997-09-09 1997-09-16 1997-09-23 1997-09-30 1997-11-04 1997-11-11 1997-11-18 1997-11-25 1998-01-06",
		},
		{
			name: "invalid dates are skipped", dtstart: "20070115T090000", rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
			want: "2007-01-15 2007-01-30 2007-02-15 2007-03-15 2007-03-30",
		},
		{
			name: "monthly on the 31st", dtstart: "20260131T200000", rule: "FREQ=MONTHLY;COUNT=4",
			want: "2026-01-31 2026-03-31 2026-05-31 2026-07-31",
		},
		{
			name: "yearly in june and july", dtstart: "19970610T090000", rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
			want: "1997-06-10 1997-07-10 1998-06-10 1998-07-10 1999-06-10 1999-07-10 2000-06-10 2000-07-10 2001-06-10 2001-07-10",
		},
		{
			name: "every 20th monday of the year", dtstart: "19970519T090000", rule: "FREQ=YEARLY;BYDAY=20MO", limit: 3, capped: true,
			want: "1997-05-19 1998-05-18 1999-05-17",
		},
		{
			name: "last sunday of the year", dtstart: "19971228T090000", rule: "FREQ=YEARLY;BYDAY=-1SU;COUNT=3",
			want: "1997-12-28 1998-12-27 1999-12-26",
		},
		{
			name: "every thursday in march", dtstart: "19970313T090000", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", limit: 11, capped: true,
			want: "1997-03-13 1997-03-20 1997-03-27 1998-03-05 1998-03-12 1998-03-19 1998-03-26 1999-03-04 1999-03-11 1999-03-18 1999-03-25",
		},
		{
			name: "thursdays in summer", dtstart: "19970605T090000", rule: "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", limit: 14, capped: true,
			want: "1997-06-05 1997-06-12 1997-06-19 1997-06-26 1997-07-03 1997-07-10 1997-07-17 1997-07-24 1997-07-31 " +
				"1997-08-07 1997-08-14 1997-08-21 1997-08-28 1998-06-04",
		},
		{
			// RFC 5545 excludes DTSTART with an EXDATE; here DTSTART stays the first.
			name: "friday the 13th", dtstart: "19970902T090000", rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", limit: 6, capped: true,
			want: "1997-09-02 1998-02-13 1998-03-13 1998-11-13 1999-08-13 2000-10-13",
		},
		{
			name: "first saturday after the first sunday", dtstart: "19970913T090000",
			rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", limit: 10, capped: true,
			want: "1997-09-13 1997-10-11 1997-11-08 1997-12-13 1998-01-10 1998-02-07 1998-03-07 1998-04-11 1998-05-09 1998-06-13",
		},
		{
			name: "us presidential election day", dtstart: "19961105T090000",
			rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
			want: "1996-11-05 2000-11-07 2004-11-02",
		},
		{
			name: "leap day", dtstart: "20000229T090000", rule: "FREQ=YEARLY;COUNT=3",
			want: "2000-02-29 2004-02-29 2008-02-29",
		},
		{
			name: "dtstart off the rule is the first occurrence", dtstart: "20260305T200000", rule: "FREQ=WEEKLY;BYDAY=FR;COUNT=3",
			want: "2026-03-05 2026-03-06 2026-03-13",
		},
		{
			name: "until a date", dtstart: "20260305T200000", rule: "FREQ=WEEKLY;UNTIL=20260319",
			want: "2026-03-05 2026-03-12 2026-03-19",
		},
		{
			name: "until just before the last show's instant", dtstart: "20260305T200000", rule: "FREQ=WEEKLY;UNTIL=20260319T235959Z",
			want: "2026-03-05 2026-03-12",
		},
		{
			name: "count=1", dtstart: "20260305T200000", rule: "FREQ=DAILY;COUNT=1",
			want: "2026-03-05",
		},
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseRule(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			dt, err := parseStamp(tt.dtstart, "", ny)
			if err != nil {
				t.Fatal(err)
			}
			w := window{from: dt.instant().Add(-24 * time.Hour), to: dt.instant().AddDate(10, 0, 0)}
			budget := maxSteps
			x := r.expand(dt, w, cmp.Or(tt.limit, 1000), none, &budget)
			var got []string
			for _, wall := range x.walls {
				got = append(got, wall.Format(time.DateOnly))
				if wall.Hour() != dt.wall.Hour() || wall.Minute() != dt.wall.Minute() {
					t.Errorf("%s is not at %s", wall, dt.wall.Format("15:04"))
				}
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("got  %s\nwant %s", g, tt.want)
			}
			if x.capped != tt.capped || x.exhausted {
				t.Errorf("capped %v, exhausted %v", x.capped, x.exhausted)
			}
		})
	}
}

// none excludes no occurrence.
func none(time.Time) bool { return false }

// TestExpandWindow checks that only occurrences in the window come back, that COUNT
// still counts from DTSTART, and that a long-running rule is not walked from its start.
func TestExpandWindow(t *testing.T) {
	tests := []struct {
		name, dtstart, rule string
		from, to            time.Time
		want                string
		maxSteps            int // the budget the expansion may use
	}{
		{
			name: "count from dtstart", dtstart: "20260101T200000Z", rule: "FREQ=WEEKLY;COUNT=6",
			from: wall(2026, 1, 20, 0, 0), to: wall(2026, 12, 31, 0, 0),
			want: "2026-01-22 2026-01-29 2026-02-05", maxSteps: 50,
		},
		{
			name: "daily since 1900", dtstart: "19000101T200000Z", rule: "FREQ=DAILY",
			from: wall(2026, 3, 1, 0, 0), to: wall(2026, 3, 4, 0, 0),
			want: "2026-03-01 2026-03-02 2026-03-03", maxSteps: 10,
		},
		{
			name: "weekly since 1990, every third week", dtstart: "19900102T200000Z", rule: "FREQ=WEEKLY;INTERVAL=3",
			from: wall(2026, 3, 1, 0, 0), to: wall(2026, 4, 30, 0, 0),
			want: "2026-03-03 2026-03-24 2026-04-14", maxSteps: 100,
		},
		{
			name: "monthly since 1950", dtstart: "19500115T200000Z", rule: "FREQ=MONTHLY",
			from: wall(2026, 3, 1, 0, 0), to: wall(2026, 5, 30, 0, 0),
			want: "2026-03-15 2026-04-15 2026-05-15", maxSteps: 200,
		},
		{
			name: "a rule that never matches ends at the window", dtstart: "20260101T200000Z", rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
			from: wall(2026, 3, 1, 0, 0), to: wall(2036, 3, 1, 0, 0),
			want: "", maxSteps: 11 * 30,
		},
		{
			name: "window ends at an occurrence", dtstart: "20260301T200000Z", rule: "FREQ=DAILY",
			from: wall(2026, 3, 1, 0, 0), to: wall(2026, 3, 3, 20, 0),
			want: "2026-03-01 2026-03-02 2026-03-03", maxSteps: 10,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseRule(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			dt, err := parseStamp(tt.dtstart, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			budget := maxSteps
			x := r.expand(dt, window{from: tt.from, to: tt.to}, 1000, none, &budget)
			var got []string
			for _, w := range x.walls {
				got = append(got, w.Format(time.DateOnly))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("got  %s\nwant %s", g, tt.want)
			}
			if used := maxSteps - budget; used > tt.maxSteps {
				t.Errorf("used %d steps, want at most %d", used, tt.maxSteps)
			}
		})
	}
}

func TestExpandBudget(t *testing.T) {
	r, err := parseRule("FREQ=DAILY;COUNT=100000")
	if err != nil {
		t.Fatal(err)
	}
	dt := stamp{wall: wall(1990, 1, 1, 20, 0), form: utc}
	budget := 1000
	x := r.expand(dt, window{from: wall(2026, 1, 1, 0, 0), to: wall(2027, 1, 1, 0, 0)}, 500, none, &budget)
	if !x.exhausted || len(x.walls) != 0 {
		t.Errorf("exhausted %v with %d walls", x.exhausted, len(x.walls))
	}
}

func TestParseRule(t *testing.T) {
	tests := []struct{ in, err string }{
		{"FREQ=WEEKLY", ""},
		{"freq=monthly;interval=2;byday=mo,+2tu,-1we;wkst=su;", ""},
		{"FREQ=MONTHLY;BYDAY=1FR,-1SA;BYMONTH=1,12;BYMONTHDAY=-31,31;COUNT=3", ""},
		{"FREQ=YEARLY;BYDAY=53MO;UNTIL=20261231", ""},
		{"FREQ=DAILY;UNTIL=20261231T235959Z", ""},
		{"", "no freq"},
		{"INTERVAL=2", "no freq"},
		{"FREQ=WEEKLY;FREQ=DAILY", `part "FREQ" is given twice`},
		{"FREQ=WEEKLY;COUNT", `part "COUNT" has no value`},
		{"FREQ=FORTNIGHTLY", `freq: unknown frequency "FORTNIGHTLY"`},
		{"FREQ=MINUTELY", "freq: minutely is not supported"},
		{"FREQ=SECONDLY", "freq: secondly is not supported"},
		{"FREQ=MONTHLY;BYSETPOS=-1;BYDAY=FR", "part BYSETPOS is not supported"},
		{"FREQ=YEARLY;BYYEARDAY=100", "part BYYEARDAY is not supported"},
		{"FREQ=YEARLY;BYWEEKNO=20", "part BYWEEKNO is not supported"},
		{"FREQ=DAILY;BYMINUTE=30", "part BYMINUTE is not supported"},
		{"FREQ=DAILY;BYSECOND=30", "part BYSECOND is not supported"},
		{"RSCALE=HEBREW;FREQ=YEARLY", "part RSCALE is not supported"},
		{"FREQ=WEEKLY;X-NAME=1", `unknown part "X-NAME"`},
		{"FREQ=WEEKLY;COUNT=0", `count: want a number from 1 to 1073741824, not "0"`},
		{"FREQ=WEEKLY;COUNT=-3", `count: want a number from 1 to 1073741824, not "-3"`},
		{"FREQ=WEEKLY;INTERVAL=x", `interval: want a number from 1 to 100000, not "X"`},
		{"FREQ=WEEKLY;UNTIL=2026-12-31", "until: want yyyymmdd or yyyymmddThhmmss with an optional Z"},
		{"FREQ=YEARLY;BYMONTH=13", `bymonth: want numbers from 1 to 12, not "13"`},
		{"FREQ=MONTHLY;BYMONTHDAY=0", `bymonthday: want numbers from -31 to 31, not "0"`},
		{"FREQ=MONTHLY;BYMONTHDAY=1,,2", `bymonthday: want numbers from -31 to 31, not ""`},
		{"FREQ=MONTHLY;BYDAY=XX", `byday: bad weekday "XX"`},
		{"FREQ=MONTHLY;BYDAY=0MO", `byday: bad weekday "0MO"`},
		{"FREQ=MONTHLY;BYDAY=54MO", `byday: bad weekday "54MO"`},
		{"FREQ=MONTHLY;BYDAY=+-1MO", `byday: bad weekday "+-1MO"`},
		{"FREQ=MONTHLY;BYDAY=M", `byday: bad weekday "M"`},
		{"FREQ=WEEKLY;WKST=XX", `wkst: unknown weekday "XX"`},
		{"FREQ=DAILY;BYDAY=1MO", "byday with an ordinal needs freq=monthly or freq=yearly"},
		{"FREQ=WEEKLY;BYMONTHDAY=1", "bymonthday cannot go with freq=weekly"},
	}
	for _, tt := range tests {
		_, err := parseRule(tt.in)
		if got := errText(err); got != tt.err {
			t.Errorf("parseRule(%q): error %q, want %q", tt.in, got, tt.err)
		}
	}
}

// TestSeriesKeepWallClock checks weekly shows at 20:00 across the daylight saving changes
// of Berlin and New York in spring and autumn.
func TestSeriesKeepWallClock(t *testing.T) {
	tests := []struct {
		zone, dtstart string
		want          string
	}{
		{"Europe/Berlin", "20260319T200000", "2026-03-19T20:00+01:00 2026-03-26T20:00+01:00 2026-04-02T20:00+02:00 2026-04-09T20:00+02:00"},
		{"Europe/Berlin", "20261015T200000", "2026-10-15T20:00+02:00 2026-10-22T20:00+02:00 2026-10-29T20:00+01:00 2026-11-05T20:00+01:00"},
		{"America/New_York", "20260301T200000", "2026-03-01T20:00-05:00 2026-03-08T20:00-04:00 2026-03-15T20:00-04:00 2026-03-22T20:00-04:00"},
		{"America/New_York", "20261025T200000", "2026-10-25T20:00-04:00 2026-11-01T20:00-05:00 2026-11-08T20:00-05:00 2026-11-15T20:00-05:00"},
		{"America/St_Johns", "20260301T200000", "2026-03-01T20:00-03:30 2026-03-08T20:00-02:30 2026-03-15T20:00-02:30 2026-03-22T20:00-02:30"},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.dtstart, func(t *testing.T) {
			doc := fmt.Sprintf("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:u\r\nSUMMARY:S\r\nDTSTART;TZID=%s:%s\r\n"+
				"RRULE:FREQ=WEEKLY;COUNT=4\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", tt.zone, tt.dtstart)
			events, drops := Parse([]byte(doc), "feed", Options{Now: wall(2026, 3, 1, 0, 0)})
			var got []string
			for _, e := range events {
				got = append(got, fw(e.Start))
			}
			if g := strings.Join(got, " "); g != tt.want || len(drops) > 0 {
				t.Errorf("got  %s\nwant %s\ndrops %+v", g, tt.want, drops)
			}
		})
	}
}

// TestRecurrence covers RDATE, EXDATE and RECURRENCE-ID in their various forms.
func TestRecurrence(t *testing.T) {
	tests := []struct {
		name  string
		props string // lines of the series' VEVENT after UID and SUMMARY
		extra string // further VEVENTs
		want  string // ref and start of each event, "; "-separated
		drops []string
	}{
		{
			name:  "exdate in utc, a comma list and repeated",
			props: "DTSTART;TZID=Europe/Berlin:20260305T200000\nRRULE:FREQ=WEEKLY;COUNT=5\nEXDATE:20260312T190000Z,20260319T190000Z\nEXDATE;TZID=Europe/Berlin:20260402T200000",
			want:  "u/2026-03-05 2026-03-05T20:00+01:00; u/2026-03-26 2026-03-26T20:00+01:00",
		},
		{
			name:  "exdate and override of walls a change skips",
			props: "DTSTART;TZID=Europe/Berlin:20260322T023000\nRRULE:FREQ=WEEKLY;COUNT=3\nEXDATE;TZID=Europe/Berlin:20260329T023000",
			extra: "BEGIN:VEVENT\nUID:u\nRECURRENCE-ID;TZID=Europe/Berlin:20260405T023000\nSTATUS:CANCELLED\nEND:VEVENT\n",
			want:  "u/2026-03-22 2026-03-22T02:30+01:00; u/2026-04-05 2026-04-05T02:30+02:00",
		},
		{
			name:  "exdate as a date on a date-time series",
			props: "DTSTART;TZID=Europe/Berlin:20260305T200000\nRRULE:FREQ=DAILY;COUNT=3\nEXDATE;VALUE=DATE:20260306",
			want:  "u/2026-03-05 2026-03-05T20:00+01:00; u/2026-03-07 2026-03-07T20:00+01:00",
		},
		{
			name:  "exdate of another time leaves the occurrence",
			props: "DTSTART:20260305T200000\nRRULE:FREQ=DAILY;COUNT=2\nEXDATE:20260306T210000",
			want:  "u/2026-03-05 2026-03-05T20:00; u/2026-03-06 2026-03-06T20:00",
		},
		{
			name:  "rdate as dates, a period and a repeat of an occurrence",
			props: "DTSTART:20260305T200000Z\nRDATE;VALUE=DATE:20260310\nRDATE;VALUE=PERIOD:20260311T180000Z/PT2H\nRDATE:20260305T200000Z",
			want:  "u/2026-03-05 2026-03-05T20:00+00:00; u/2026-03-10 2026-03-10T20:00+00:00; u/2026-03-11T18:00 2026-03-11T18:00+00:00",
		},
		{
			name:  "rdate outside the window",
			props: "DTSTART:20260305T200000Z\nRDATE:20200101T200000Z,20300101T200000Z",
			want:  "u/2026-03-05 2026-03-05T20:00+00:00",
		},
		{
			name:  "an rdate series whose dtstart is past",
			props: "DTSTART:20250305T200000Z\nRDATE:20260310T200000Z",
			want:  "u/2026-03-10 2026-03-10T20:00+00:00",
		},
		{
			name:  "exdate on a lone event is ignored",
			props: "DTSTART:20260305T200000Z\nEXDATE:20260305T200000Z",
			want:  "u 2026-03-05T20:00+00:00",
		},
		{
			name:  "override of a lone event keeps the ref",
			props: "DTSTART:20260305T200000Z",
			extra: "BEGIN:VEVENT\nUID:u\nRECURRENCE-ID:20260305T200000Z\nDTSTART:20260306T200000Z\nSUMMARY:Moved\nEND:VEVENT\n",
			want:  "u 2026-03-06T20:00+00:00",
		},
		{
			name:  "override by date, before its series in the document",
			props: "DTSTART;VALUE=DATE:20260305\nRRULE:FREQ=DAILY;COUNT=3",
			extra: "BEGIN:VEVENT\nUID:u\nRECURRENCE-ID;VALUE=DATE:20260306\nSTATUS:CANCELLED\nEND:VEVENT\n",
			want:  "u/2026-03-05 2026-03-05; u/2026-03-06 2026-03-06; u/2026-03-07 2026-03-07",
		},
		{
			name:  "the higher sequence wins",
			props: "DTSTART:20260305T200000Z\nRRULE:FREQ=DAILY;COUNT=2",
			extra: "BEGIN:VEVENT\nUID:u\nRECURRENCE-ID:20260306T200000Z\nSEQUENCE:2\nDTSTART:20260306T210000Z\nSUMMARY:B\nEND:VEVENT\n" +
				"BEGIN:VEVENT\nUID:u\nRECURRENCE-ID:20260306T200000Z\nSEQUENCE:1\nDTSTART:20260306T220000Z\nSUMMARY:C\nEND:VEVENT\n",
			want: "u/2026-03-05 2026-03-05T20:00+00:00; u/2026-03-06 2026-03-06T21:00+00:00",
		},
		{
			name:  "an override moved into the window",
			props: "DTSTART:20260101T200000Z\nRRULE:FREQ=WEEKLY;COUNT=3",
			extra: "BEGIN:VEVENT\nUID:u\nRECURRENCE-ID:20260108T200000Z\nDTSTART:20260310T200000Z\nSUMMARY:Late\nEND:VEVENT\n",
			want:  "u/2026-01-08 2026-03-10T20:00+00:00",
		},
		{
			name:  "an override moved out of the window is still returned",
			props: "DTSTART:20260305T200000Z\nRRULE:FREQ=WEEKLY;COUNT=2",
			extra: "BEGIN:VEVENT\nUID:u\nRECURRENCE-ID:20260312T200000Z\nDTSTART:20280101T200000Z\nSUMMARY:Much later\nEND:VEVENT\n",
			want:  "u/2026-03-05 2026-03-05T20:00+00:00; u/2026-03-12 2028-01-01T20:00+00:00",
		},
		{
			name:  "an override of an occurrence long past is not",
			props: "DTSTART:20250305T200000Z\nRRULE:FREQ=WEEKLY;UNTIL=20250320",
			extra: "BEGIN:VEVENT\nUID:u\nRECURRENCE-ID:20250312T200000Z\nDTSTART:20250313T200000Z\nSUMMARY:Old\nEND:VEVENT\n",
			want:  "",
		},
		{
			name:  "a uid shared by lone events gives dated refs",
			props: "DTSTART:20260305T200000Z",
			extra: "BEGIN:VEVENT\nUID:u\nDTSTART:20260306T200000Z\nSUMMARY:Another\nEND:VEVENT\n",
			want:  "u/2026-03-06 2026-03-06T20:00+00:00; u/2026-03-05 2026-03-05T20:00+00:00", // document order
		},
		{
			name:  "a series without a uid",
			props: "DTSTART:20260305T200000Z\nRRULE:FREQ=DAILY;COUNT=2",
			want:  "feed#1/2026-03-05 2026-03-05T20:00+00:00; feed#1/2026-03-06 2026-03-06T20:00+00:00",
		},
		{
			name:  "the cap on occurrences",
			props: "DTSTART:20260305T200000Z\nRRULE:FREQ=DAILY",
			want:  "u/2026-03-05 2026-03-05T20:00+00:00; u/2026-03-06 2026-03-06T20:00+00:00; u/2026-03-07 2026-03-07T20:00+00:00",
			drops: []string{`vevent "S": recurs more than 3 times in the window; the later occurrences are left out`},
		},
		{
			name:  "two rrules",
			props: "DTSTART:20260302T200000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2\nRRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=2",
			want:  "u/2026-03-02 2026-03-02T20:00+00:00; u/2026-03-05 2026-03-05T20:00+00:00; u/2026-03-09 2026-03-09T20:00+00:00",
		},
		{
			name:  "the cap holds for rules together",
			props: "DTSTART:20260302T200000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3\nRRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=3",
			want:  "u/2026-03-02 2026-03-02T20:00+00:00; u/2026-03-05 2026-03-05T20:00+00:00; u/2026-03-09 2026-03-09T20:00+00:00",
			drops: []string{`vevent "S": recurs more than 3 times in the window; the later occurrences are left out`},
		},
		{
			name:  "the cap holds for rdates",
			props: "DTSTART:20260302T200000Z\nRDATE:20260303T200000Z,20260304T200000Z,20260305T200000Z",
			want:  "u/2026-03-02 2026-03-02T20:00+00:00; u/2026-03-03 2026-03-03T20:00+00:00; u/2026-03-04 2026-03-04T20:00+00:00",
			drops: []string{`vevent "S": recurs more than 3 times in the window; the later occurrences are left out`},
		},
		{
			name:  "more than 2000 dates",
			props: "DTSTART:20260302T200000Z\nRRULE:FREQ=WEEKLY\nEXDATE:" + strings.Repeat("20260309T200000Z,", 2000) + "20260309T200000Z",
			drops: []string{`vevent "S": more than 2000 rdate and exdate values; the series is dropped`},
		},
		{
			name:  "more than 8 rrules",
			props: "DTSTART:20260302T200000Z" + strings.Repeat("\nRRULE:FREQ=WEEKLY", 9),
			drops: []string{`vevent "S": more than 8 rrules; the series is dropped`},
		},
		{
			name:  "an unreadable rrule line",
			props: "DTSTART:20260302T200000Z\nRRULE;X=\":FREQ=WEEKLY",
			drops: []string{`vevent "S": cannot read rrule: unterminated quoted parameter value; the series is dropped`},
		},
		{
			name:  "an unreadable recurrence-id",
			props: "DTSTART:20260302T200000Z\nRECURRENCE-ID:soon",
			drops: []string{`vevent "S": cannot read recurrence-id "soon": want yyyymmdd or yyyymmddThhmmss with an optional Z`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "BEGIN:VCALENDAR\n" + tt.extra + "BEGIN:VEVENT\nSUMMARY:S\n" + tt.props + "\n"
			if !strings.HasPrefix(tt.name, "a series without a uid") {
				doc += "UID:u\n"
			}
			doc += "END:VEVENT\nEND:VCALENDAR\n"
			events, drops := Parse([]byte(doc), "feed", Options{Now: wall(2026, 3, 1, 0, 0), MaxOccurrences: 3})
			var got []string
			for _, e := range events {
				got = append(got, e.Ref+" "+fw(e.Start))
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("got  %s\nwant %s", g, tt.want)
			}
			var reasons []string
			for _, d := range drops {
				reasons = append(reasons, d.Reason)
			}
			if strings.Join(reasons, "\n") != strings.Join(tt.drops, "\n") {
				t.Errorf("drops %q, want %q", reasons, tt.drops)
			}
		})
	}
}

// TestEnds checks DTEND and DURATION on lone events and occurrences.
func TestEnds(t *testing.T) {
	tests := []struct {
		name, props string
		want        string // start and end of each event, "; "-separated
	}{
		{"dtend", "DTSTART:20260305T200000Z\nDTEND:20260305T230000Z", "2026-03-05T20:00+00:00-2026-03-05T23:00+00:00"},
		{"dtend in another zone", "DTSTART;TZID=Europe/Berlin:20260305T200000\nDTEND:20260305T220000Z", "2026-03-05T20:00+01:00-2026-03-05T22:00+00:00"},
		{"dtend before dtstart", "DTSTART:20260305T200000Z\nDTEND:20260305T190000Z", "2026-03-05T20:00+00:00--"},
		{"unreadable dtend", "DTSTART:20260305T200000Z\nDTEND:tonight", "2026-03-05T20:00+00:00--"},
		{"dtend wins over duration", "DTSTART:20260305T200000Z\nDURATION:PT1H\nDTEND:20260305T230000Z", "2026-03-05T20:00+00:00-2026-03-05T23:00+00:00"},
		{"duration", "DTSTART:20260305T200000\nDURATION:PT3H30M", "2026-03-05T20:00-2026-03-05T23:30"},
		{"negative duration", "DTSTART:20260305T200000\nDURATION:-PT3H", "2026-03-05T20:00--"},
		{
			"occurrences across a change",
			"DTSTART;TZID=Europe/Berlin:20260328T220000\nDTEND;TZID=Europe/Berlin:20260329T040000\nRRULE:FREQ=DAILY;COUNT=2",
			"2026-03-28T22:00+01:00-2026-03-29T04:00+02:00; 2026-03-29T22:00+02:00-2026-03-30T04:00+02:00",
		},
		{
			"all-day occurrences",
			"DTSTART;VALUE=DATE:20260305\nDTEND;VALUE=DATE:20260306\nRRULE:FREQ=WEEKLY;COUNT=2",
			"2026-03-05-2026-03-06; 2026-03-12-2026-03-13",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:u\nSUMMARY:S\n" + tt.props + "\nEND:VEVENT\nEND:VCALENDAR\n"
			events, drops := Parse([]byte(doc), "feed", Options{Now: wall(2026, 3, 1, 0, 0)})
			var got []string
			for _, e := range events {
				got = append(got, fw(e.Start)+"-"+fw(e.End))
			}
			if g := strings.Join(got, "; "); g != tt.want || len(drops) > 0 {
				t.Errorf("got  %s\nwant %s\ndrops %+v", g, tt.want, drops)
			}
		})
	}
}
