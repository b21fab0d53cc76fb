package mcp

import (
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseWhen(t *testing.T) {
	lisbon, err := time.LoadLocation("Europe/Lisbon")
	if err != nil {
		t.Fatal(err)
	}
	// Wednesday 2 December 2026, 14:30 in Lisbon; Friday 4 December at 20:00.
	wed := time.Date(2026, 12, 2, 14, 30, 0, 0, lisbon)
	fri := time.Date(2026, 12, 4, 20, 0, 0, 0, lisbon)
	sun := time.Date(2026, 12, 6, 11, 0, 0, 0, lisbon)
	tests := []struct {
		when     string
		now      time.Time
		from, to string // from: "" for now, a date, or an instant
	}{
		{"", wed, "", "2026-12-02"},
		{"today", wed, "", "2026-12-02"},
		{"  ToNight ", wed, "2026-12-02T18:00:00Z", "2026-12-02"},
		{"tonight", fri, "", "2026-12-04"},
		{"tomorrow", wed, "2026-12-03", "2026-12-03"},
		{"this weekend", wed, "2026-12-04T18:00:00Z", "2026-12-06"},
		{"this weekend", fri, "", "2026-12-06"},
		{"weekend", sun, "", "2026-12-06"},
		{"next weekend", wed, "2026-12-11T18:00:00Z", "2026-12-13"},
		{"next weekend", sun, "2026-12-11T18:00:00Z", "2026-12-13"},
		{"this week", wed, "", "2026-12-06"},
		{"next week", wed, "2026-12-07", "2026-12-13"},
		{"next week", sun, "2026-12-07", "2026-12-13"},
		{"this month", wed, "", "2026-12-31"},
		{"next month", wed, "2027-01-01", "2027-01-31"},
		{"friday", wed, "2026-12-04", "2026-12-04"},
		{"on Friday", fri, "", "2026-12-04"},
		{"next friday", fri, "2026-12-11", "2026-12-11"},
		{"mon", wed, "2026-12-07", "2026-12-07"},
		{"2026-12-24", wed, "2026-12-24", "2026-12-24"},
		{"2026-12-24..2027-01-02", wed, "2026-12-24", "2027-01-02"},
		{"2026-12-24 .. 2026-12-26", wed, "2026-12-24", "2026-12-26"},
	}
	for _, tc := range tests {
		sp, err := parseWhen(tc.when, tc.now)
		if err != nil {
			t.Errorf("%q on %s: %v", tc.when, tc.now, err)
			continue
		}
		from := ""
		switch {
		case !sp.from.IsZero():
			from = sp.from.UTC().Format(time.RFC3339)
		case !sp.fromDate.IsZero():
			from = sp.fromDate.Format(time.DateOnly)
		}
		if from != tc.from || sp.to.Format(time.DateOnly) != tc.to {
			t.Errorf("%q on %s: from %q to %s, want from %q to %s", tc.when, tc.now.Format("Mon 15:04"), from, sp.to.Format(time.DateOnly), tc.from, tc.to)
		}
	}
	for _, bad := range []string{"someday", "2026-02-30", "2026-12-24..2026-12-01", "2026-01-01..2028-01-01", "next", "fridays", "2026-12-24..", "..2026-12-24"} {
		if _, err := parseWhen(bad, wed); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzParseWhen: any text is a span whose last day is not before its first, or an error.
func FuzzParseWhen(f *testing.F) {
	for _, s := range []string{"today", "this weekend", "next friday", "2026-12-24..2027-01-02", "on mon", ".."} {
		f.Add(s)
	}
	now := time.Date(2026, 12, 2, 14, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		sp, err := parseWhen(s, now)
		if err != nil {
			return
		}
		first := sp.fromDate
		if !sp.from.IsZero() {
			first = midnight(sp.from)
		}
		if sp.to.IsZero() || !first.IsZero() && sp.to.Before(first) {
			t.Errorf("%q: from %v %v to %v", s, sp.from, sp.fromDate, sp.to)
		}
	})
}
