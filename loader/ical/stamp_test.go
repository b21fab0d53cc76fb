package ical

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func wall(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, time.UTC)
}

// TestOffsets checks 20:00 in zones with odd offsets, in and out of daylight saving time.
func TestOffsets(t *testing.T) {
	tests := []struct {
		zone   string
		wall   time.Time
		offset int // seconds
	}{
		{"Asia/Kolkata", wall(2026, 3, 10, 20, 0), 5*3600 + 30*60},
		{"Asia/Kathmandu", wall(2026, 3, 10, 20, 0), 5*3600 + 45*60},
		{"America/St_Johns", wall(2026, 1, 10, 20, 0), -(3*3600 + 30*60)},
		{"America/St_Johns", wall(2026, 7, 10, 20, 0), -(2*3600 + 30*60)},
		{"Australia/Lord_Howe", wall(2026, 1, 10, 20, 0), 11 * 3600}, // a half-hour change
		{"Australia/Lord_Howe", wall(2026, 7, 10, 20, 0), 10*3600 + 30*60},
		{"Europe/Berlin", wall(2026, 3, 28, 20, 0), 3600},
		{"Europe/Berlin", wall(2026, 3, 29, 20, 0), 7200},
		{"America/New_York", wall(2026, 3, 7, 20, 0), -5 * 3600},
		{"America/New_York", wall(2026, 3, 8, 20, 0), -4 * 3600},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.wall.Format(time.DateOnly), func(t *testing.T) {
			w := stamp{wall: tt.wall, form: zoned, loc: mustZone(t, tt.zone)}.when()
			if !w.Wall.Equal(tt.wall) || !w.HasOffset || w.Offset != tt.offset {
				t.Errorf("got %s, want offset %d", fw(w), tt.offset)
			}
		})
	}
}

// TestDaylightSavingEdges checks the documented rule for wall times a change skips or
// repeats: the wall stays as stated and wall minus offset is the instant time.Date gives.
func TestDaylightSavingEdges(t *testing.T) {
	tests := []struct {
		zone string
		wall time.Time
	}{
		{"Europe/Berlin", wall(2026, 3, 29, 2, 30)},    // skipped
		{"America/New_York", wall(2026, 3, 8, 2, 30)},  // skipped
		{"Europe/Berlin", wall(2026, 10, 25, 2, 30)},   // repeated
		{"America/New_York", wall(2026, 11, 1, 1, 30)}, // repeated
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.wall.Format(time.DateTime), func(t *testing.T) {
			loc := mustZone(t, tt.zone)
			w := stamp{wall: tt.wall, form: zoned, loc: loc}.when()
			y, m, d := tt.wall.Date()
			want := time.Date(y, m, d, tt.wall.Hour(), tt.wall.Minute(), 0, 0, loc)
			if !w.Wall.Equal(tt.wall) || !w.HasOffset {
				t.Fatalf("got %s", fw(w))
			}
			if got := w.Wall.Unix() - int64(w.Offset); got != want.Unix() {
				t.Errorf("%s is the instant %s, want %s", fw(w), time.Unix(got, 0).UTC(), want.UTC())
			}
			_, std := want.Add(-12 * time.Hour).Zone()
			_, dst := want.Add(12 * time.Hour).Zone()
			if w.Offset != std && w.Offset != dst {
				t.Errorf("offset %d is neither %d nor %d", w.Offset, std, dst)
			}
		})
	}
}

func TestParseStamp(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	tests := []struct {
		v, valueType string
		loc          *time.Location
		want         string // fw of the stamp, or the error
	}{
		{"20261205T200000Z", "", nil, "2026-12-05T20:00+00:00"},
		{"20261205t200000z", "", nil, "2026-12-05T20:00+00:00"},
		{"20261205T200000Z", "", berlin, "2026-12-05T20:00+00:00"}, // Z wins over TZID
		{"20261205T200000", "", berlin, "2026-12-05T20:00+01:00"},
		{"20261205T200000", "DATE-TIME", nil, "2026-12-05T20:00"},
		{" 20261205T200000 ", "", nil, "2026-12-05T20:00"},
		{"20261205", "", nil, "2026-12-05"},
		{"20261205", "DATE", berlin, "2026-12-05"},
		{"20261205", "date", nil, "2026-12-05"},
		{"20261205T200000", "DATE", nil, "2026-12-05T20:00"}, // a VALUE=DATE that carries a time keeps it
		{"20261205T200000", "PERIOD", nil, "error: value=period is not a date"},
		{"2026-12-05T20:00:00", "", nil, "error: want yyyymmdd or yyyymmddThhmmss with an optional Z"},
		{"20261205T2000", "", nil, "error: want yyyymmdd or yyyymmddThhmmss with an optional Z"},
		{"20261205X200000", "", nil, "error: want yyyymmdd or yyyymmddThhmmss with an optional Z"},
		{"20261205T200000+0100", "", nil, "error: want yyyymmdd or yyyymmddThhmmss with an optional Z"},
		{"20260230", "", nil, "error: date or time out of range"},
		{"20261205T240000", "", nil, "error: date or time out of range"},
		{"20261205T235960", "", nil, "error: date or time out of range"},
		{"18991231", "", nil, "error: year out of range"},
		{"2026120x", "", nil, "error: not a number"},
		{"2026-1-5", "", nil, "error: not a number"},
		{"", "", nil, "error: want yyyymmdd or yyyymmddThhmmss with an optional Z"},
	}
	for _, tt := range tests {
		t.Run(tt.v+" "+tt.valueType, func(t *testing.T) {
			s, err := parseStamp(tt.v, tt.valueType, tt.loc)
			got := "error: " + errText(err)
			if err == nil {
				got = fw(s.when())
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestStampIn(t *testing.T) {
	berlin, tokyo := mustZone(t, "Europe/Berlin"), mustZone(t, "Asia/Tokyo")
	zb := func(w time.Time) stamp { return stamp{wall: w, form: zoned, loc: berlin} }
	tests := []struct {
		name   string
		s, ref stamp
		want   string
	}{
		{"utc to zone", stamp{wall: wall(2026, 4, 2, 18, 0), form: utc}, zb(wall(2026, 3, 5, 20, 0)), "2026-04-02T20:00+02:00"},
		{"zone to zone", stamp{wall: wall(2026, 4, 3, 3, 0), form: zoned, loc: tokyo}, zb(wall(2026, 3, 5, 20, 0)), "2026-04-02T20:00+02:00"},
		{"zone to utc", zb(wall(2026, 4, 2, 20, 0)), stamp{wall: wall(2026, 1, 1, 0, 0), form: utc}, "2026-04-02T18:00+00:00"},
		{"floating keeps its wall", stamp{wall: wall(2026, 4, 2, 20, 0)}, zb(wall(2026, 3, 5, 21, 0)), "2026-04-02T20:00+02:00"},
		{"zone to floating keeps the wall", zb(wall(2026, 4, 2, 20, 0)), stamp{wall: wall(2026, 1, 1, 0, 0)}, "2026-04-02T20:00"},
		{"date takes the clock", stamp{wall: wall(2026, 4, 2, 0, 0), form: dateOnly}, zb(wall(2026, 3, 5, 21, 30)), "2026-04-02T21:30+02:00"},
		{"to a date", zb(wall(2026, 4, 2, 20, 0)), stamp{wall: wall(2026, 1, 1, 0, 0), form: dateOnly}, "2026-04-02"},
		{"the same zone keeps a skipped wall", zb(wall(2026, 3, 29, 2, 30)), zb(wall(2026, 3, 1, 2, 30)), "2026-03-29T02:30+01:00"},
		{"another zone's skipped wall moves", stamp{wall: wall(2026, 3, 29, 2, 30), form: zoned, loc: mustZone(t, "Europe/Paris")}, zb(wall(2026, 3, 1, 2, 30)), "2026-03-29T03:30+02:00"},
	}
	for _, tt := range tests {
		if got := fw(tt.s.in(tt.ref).when()); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want string // days/seconds, or the error
	}{
		{"PT2H30M", "0/9000"},
		{"P1D", "1/0"},
		{"P1W", "7/0"},
		{"+P1DT1S", "1/1"},
		{"pt15m", "0/900"},
		{"PT", "0/0"},
		{"-PT1H", "error: negative duration"},
		{"P", "error: want P[n]W, P[n]D or PT[n]H[n]M[n]S"},
		{"1H", "error: want P[n]W, P[n]D or PT[n]H[n]M[n]S"},
		{"PT1", "error: want P[n]W, P[n]D or PT[n]H[n]M[n]S"},
		{"P1H", `error: unexpected "H"`},
		{"PT1D", `error: unexpected "D"`},
		{"PT99999999H", "error: number too large"},
	}
	for _, tt := range tests {
		d, err := parseDuration(tt.in)
		got := "error: " + errText(err)
		if err == nil {
			got = fmt.Sprintf("%d/%d", d.days, d.secs)
		}
		if got != tt.want {
			t.Errorf("parseDuration(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestDurationAfter(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	tests := []struct {
		name  string
		start stamp
		d     duration
		want  string // fw of the end, or "none"
	}{
		{"zoned hours across the change are exact", stamp{wall: wall(2026, 3, 29, 1, 30), form: zoned, loc: berlin}, duration{secs: 2 * 3600}, "2026-03-29T04:30+02:00"},
		{"zoned days are nominal", stamp{wall: wall(2026, 3, 28, 20, 0), form: zoned, loc: berlin}, duration{days: 1}, "2026-03-29T20:00+02:00"},
		{"utc", stamp{wall: wall(2026, 3, 28, 23, 0), form: utc}, duration{secs: 7200}, "2026-03-29T01:00+00:00"},
		{"floating", stamp{wall: wall(2026, 3, 28, 23, 0)}, duration{days: 1, secs: 60}, "2026-03-29T23:01"},
		{"date", stamp{wall: wall(2026, 3, 28, 0, 0), form: dateOnly}, duration{days: 2}, "2026-03-30"},
		{"date without days", stamp{wall: wall(2026, 3, 28, 0, 0), form: dateOnly}, duration{secs: 3600}, "none"},
	}
	for _, tt := range tests {
		got := "none"
		if end, ok := tt.d.after(tt.start); ok {
			got = fw(end.when())
		}
		if got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestResolveZone(t *testing.T) {
	tests := []struct{ tzid, want string }{
		{"Europe/Berlin", "Europe/Berlin"},
		{" Asia/Kolkata ", "Asia/Kolkata"},
		{"America/Argentina/Salta", "America/Argentina/Salta"},
		{"UTC", "UTC"},
		{"W. Europe Standard Time", "Europe/Berlin"},
		{"w. europe standard time", "Europe/Berlin"},
		{"Eastern Standard Time", "America/New_York"},
		{"India Standard Time", "Asia/Calcutta"},
		{"Nepal Standard Time", "Asia/Katmandu"},
		{"Newfoundland Standard Time", "America/St_Johns"},
		{"GMT Standard Time", "Europe/London"},
		{"AUS Eastern Standard Time", "Australia/Sydney"},
		{"Tokyo Standard Time", "Asia/Tokyo"},
		{"/mozilla.org/20050126_1/Europe/Berlin", "Europe/Berlin"},
		{"/softwarestudio.org/Olson_20011030_5/America/New_York", "America/New_York"},
		{"/citadel.org/20190914_1/America/Argentina/Salta", "America/Argentina/Salta"},
		{"Local", ""},
		{"", ""},
		{"/etc/passwd", ""},
		{"../../etc/passwd", ""},
		{"Mars/Olympus_Mons", ""},
		{"Customized Time Zone", ""},
		{"(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Amsterdam"},
		{"/Europe/Stockholm", "Europe/Stockholm"},
		{"Europe/Stockholm/", "Europe/Stockholm"},
		// A display name's list without its offset: the places must agree on a zone.
		{"Amsterdam, Belgrade, Berlin, Brussels, Budapest, Madrid, Paris, Prague, Stockholm", "Europe/Amsterdam"},
		{"Paris, Belgrade", "Europe/Paris"},   // not Paris, Texas
		{"Paris, Chicago", "America/Chicago"}, // Paris, Texas is in Chicago's zone
		{"Berlin, Tokyo", ""},
		{"Berlin, Atlantis", ""},
		{"Berlin", ""},
		{strings.Repeat("A/", 200) + "Europe/Berlin", ""},
	}
	for _, tt := range tests {
		got := ""
		if loc := resolveZone(tt.tzid); loc != nil {
			got = loc.String()
		}
		if got != tt.want {
			t.Errorf("resolveZone(%.40q) = %q, want %q", tt.tzid, got, tt.want)
		}
	}
}

// TestWindowsZones checks that every zone of the table loads and that the common names are
// there.
func TestWindowsZones(t *testing.T) {
	m := windowsZones()
	if len(m) < 130 {
		t.Errorf("only %d windows zones", len(m))
	}
	for name, zone := range m {
		if _, err := time.LoadLocation(zone); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range []string{
		"W. Europe Standard Time", "Romance Standard Time", "Central Europe Standard Time",
		"GMT Standard Time", "Eastern Standard Time", "Central Standard Time",
		"Mountain Standard Time", "Pacific Standard Time", "India Standard Time",
		"Nepal Standard Time", "Newfoundland Standard Time", "AUS Eastern Standard Time",
		"Tokyo Standard Time", "China Standard Time", "E. South America Standard Time", "UTC",
	} {
		if m[strings.ToLower(name)] == "" {
			t.Errorf("%q is missing", name)
		}
	}
}

func TestZonesLookup(t *testing.T) {
	z := zones{
		lic:   map[string]string{"Custom": "Europe/Paris", "Europe/Berlin": "Asia/Tokyo", "Bad": "Nowhere/Else"},
		cache: map[string]*time.Location{},
	}
	tests := []struct{ tzid, want string }{
		{"Custom", "Europe/Paris"},
		{"Europe/Berlin", "Europe/Berlin"}, // a name that resolves wins over X-LIC-LOCATION
		{"Bad", ""},
		{"Other", ""},
	}
	for _, tt := range tests {
		got := ""
		if loc := z.lookup(tt.tzid); loc != nil {
			got = loc.String()
		}
		if got != tt.want {
			t.Errorf("lookup(%q) = %q, want %q", tt.tzid, got, tt.want)
		}
	}
	for i := len(z.cache); i < maxZones; i++ {
		z.lookup(fmt.Sprint("Unknown/", i))
	}
	if loc := z.lookup("Asia/Tokyo"); loc != nil || len(z.cache) != maxZones {
		t.Errorf("after %d TZIDs a new one resolved to %v", len(z.cache), loc)
	}
	if loc := z.lookup("Custom"); loc == nil {
		t.Error("a TZID looked up before the limit no longer resolves")
	}
}
