package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestParseInstant(t *testing.T) {
	tests := []struct {
		in   string
		want string // RFC 3339 in UTC; "" when refused
	}{
		{"2026-12-05T20:00:00+01:00", "2026-12-05T19:00:00Z"},
		{"2026-12-05T20:00:00Z", "2026-12-05T20:00:00Z"},
		{"2026-12-05t20:00:00z", "2026-12-05T20:00:00Z"},
		{"2026-12-05T20:00:00.5-03:30", "2026-12-05T23:30:00.5Z"},
		{"2026-12-05T20:00:00.123456789Z", "2026-12-05T20:00:00.123456789Z"},
		{"2026-12-05T23:59:59+18:00", "2026-12-05T05:59:59Z"},
		{"2026-12-05T24:00:00Z", ""},
		{"2026-12-05T23:60:00Z", ""},
		{"2026-12-05T23:59:60Z", ""},
		{"2026-12-05T20:00:00+24:00", ""},
		{"2026-12-05T20:00:00+18:01", ""},
		{"2026-12-05T20:00:00+01:60", ""},
		{"2026-12-05T20:00:00.1234567890Z", ""},
		{"2026-12-05T20:00:00.Z", ""},
		{"2026-02-30T20:00:00Z", ""},
		{"0000-01-01T00:00:00Z", ""},
		{"2026-12-05T20:00:00", ""},
		{"2026-12-05 20:00:00Z", ""},
		{"2026-12-05T2:00:00Z", ""},
		{"2026-12-05T20:00:00+0100", ""},
		{"2026-12-05T-1:00:00Z", ""},
	}
	for _, tt := range tests {
		got, ok := parseInstant([]byte(tt.in))
		if tt.want == "" {
			if ok {
				t.Errorf("%s: accepted as %s", tt.in, got)
			}
			continue
		}
		if !ok || got.UTC().Format(time.RFC3339Nano) != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.in, got.UTC().Format(time.RFC3339Nano), ok, tt.want)
		}
	}
}

// FuzzParseInstant holds parseInstant to time.Parse: whatever it accepts, time.Parse
// reads as the same instant (with T and Z upper-cased). It refuses more (single-digit
// hours, hour 24, offsets past ±18:00), which the table above covers.
func FuzzParseInstant(f *testing.F) {
	for _, s := range []string{"2026-12-05T20:00:00+01:00", "2026-12-05T24:00:00Z", "2026-12-05T20:00:00.5-03:30", "2026-12-05t20:00:00z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseInstant([]byte(s))
		norm := s
		if len(s) > 10 {
			norm = s[:10] + strings.ToUpper(s[10:11]) + s[11:]
		}
		if strings.HasSuffix(norm, "z") {
			norm = norm[:len(norm)-1] + "Z"
		}
		ref, err := time.Parse(time.RFC3339Nano, norm)
		if ok && (err != nil || !ref.Equal(got)) {
			t.Fatalf("%q: %s, but time.Parse gives %s, %v", s, got, ref, err)
		}
	})
}

// TestCountryFilter takes the same country names as the loader, and refuses an unknown
// one with a 400 rather than answer an empty list.
func TestCountryFilter(t *testing.T) {
	base := "http://" + hostileServer(t, Options{})
	want := do(t, "GET", base+"/v1/gigs?country=GB&page_size=100", nil)
	if want.status != 200 || !strings.Contains(string(want.body), `"country":"GB"`) {
		t.Fatalf("country=GB: %d", want.status)
	}
	for _, v := range []string{"gb", "GBR", "UK", "United%20Kingdom", "Great%20Britain", "uk,Atlantis"} {
		r := do(t, "GET", base+"/v1/gigs?country="+v+"&page_size=100", nil)
		if v == "uk,Atlantis" {
			if r.status != 400 || !strings.Contains(string(r.body), `"name":"country"`) {
				t.Errorf("country=%s: %d %s", v, r.status, r.body)
			}
			continue
		}
		if r.status != 200 || !strings.Contains(string(r.body), `"total":`) || totalOf(r.body) != totalOf(want.body) {
			t.Errorf("country=%s: %d, total %d; want %d", v, r.status, totalOf(r.body), totalOf(want.body))
		}
	}
	if r := do(t, "GET", base+"/v1/venues?country=Deutschland", nil); r.status != 200 {
		t.Errorf("venues country=Deutschland: %d", r.status)
	}
}

func totalOf(body []byte) int {
	var p struct{ Meta struct{ Total int } }
	_ = json.Unmarshal(body, &p)
	return p.Meta.Total
}
