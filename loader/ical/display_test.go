package ical

import "testing"

func TestDisplayZone(t *testing.T) {
	for in, want := range map[string]string{
		"(GMT+10:00) Canberra, Melbourne, Sydney":           "Australia/Sydney",
		"(UTC-05:00) Eastern Time (US & Canada)":            "America/New_York",
		"(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Vienna": "Europe/Amsterdam",
		"(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi":   "Asia/Kolkata",
		"(UTC) Coordinated Universal Time":                  "UTC",
		"(UTC-08:00) Pacific Time (US & Canada)":            "America/Los_Angeles",
		"(UTC+03:00) Moscow, St. Petersburg":                "Europe/Moscow",
		"(UTC+02:00) Sydney":                                "", // no Sydney on that offset
		"Eastern Time":                                      "",
		"(UTC+99:00) Nowhere":                               "",
	} {
		got := ""
		if loc := displayZone(in); loc != nil {
			got = loc.String()
		}
		if got != want {
			t.Errorf("displayZone(%q) = %q, want %q", in, got, want)
		}
	}
}
