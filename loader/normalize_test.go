package loader

import (
	"testing"
	"time"

	"github.com/gigs/gigs/loader/source"
)

func TestInstant(t *testing.T) {
	tests := []struct {
		in, zone string
		want     string // RFC 3339 in the venue's zone, or a date for date-only
		tba      bool
	}{
		{"2026-12-05T20:00:00+01:00", "Europe/Berlin", "2026-12-05T20:00:00+01:00", false},
		{"2026-12-05T19:00:00Z", "Europe/Berlin", "2026-12-05T20:00:00+01:00", false},
		{"2026-12-05T20:00", "Asia/Kolkata", "2026-12-05T20:00:00+05:30", false},
		{"2026-12-05T20:00", "Asia/Kathmandu", "2026-12-05T20:00:00+05:45", false},
		{"2026-12-05T20:00", "America/St_Johns", "2026-12-05T20:00:00-03:30", false},
		{"2027-03-28T20:00", "Europe/Berlin", "2027-03-28T20:00:00+02:00", false},    // spring forward day
		{"2027-03-28T02:30", "Europe/Berlin", "2027-03-28T03:30:00+02:00", false},    // in the gap: clocks moved on
		{"2027-03-14T21:00", "America/New_York", "2027-03-14T21:00:00-04:00", false}, // US spring forward
		{"2027-04-04T20:00", "Australia/Sydney", "2027-04-04T20:00:00+10:00", false}, // southern autumn
		{"2026-12-24", "Europe/Paris", "2026-12-24", true},
		{"2026-12-05T20:00:00+00:00", "America/Sao_Paulo", "2026-12-05T17:00:00-03:00", false},
	}
	for _, tt := range tests {
		w, err := source.ParseISO(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		loc, _ := time.LoadLocation(tt.zone)
		got, tba := instant(w, loc)
		s := got.Format("2006-01-02T15:04:05-07:00")
		if tt.tba {
			s = got.Format(time.DateOnly)
		}
		if s != tt.want || tba != tt.tba {
			t.Errorf("instant(%s in %s) = %s, tba %v; want %s, %v", tt.in, tt.zone, s, tba, tt.want, tt.tba)
		}
	}
}

func TestCanonicalGenre(t *testing.T) {
	for tag, want := range map[string]string{
		"Rock": "rock", "indie rock": "indie", "Hip-Hop": "hip-hop", "hip hop": "hip-hop", "R&B": "rnb",
		"TECHNO": "techno", "drum & bass": "electronic", "drum and bass": "electronic", "live music": "", "": "",
	} {
		if got := canonicalGenre(tag); got != want {
			t.Errorf("canonicalGenre(%q) = %q, want %q", tag, got, want)
		}
	}
}

func TestGigIDStable(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/Berlin")
	at := time.Date(2026, 12, 5, 20, 0, 0, 0, loc)
	a := gigID("venue", at, false, "artist")
	if a != gigID("venue", at.UTC().In(loc), false, "artist") || len(a) != 13 {
		t.Errorf("id %q is not stable", a)
	}
	for _, other := range []string{
		gigID("venue", at.Add(3*time.Hour), false, "artist"), // late show
		gigID("venue", at, false, "artist-tribute"),
		gigID("venue", at, true, "artist"),
		gigID("venue-2", at, false, "artist"),
	} {
		if other == a {
			t.Errorf("different gigs share id %q", a)
		}
	}
}
