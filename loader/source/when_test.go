package source

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseISO(t *testing.T) {
	tests := []struct {
		in        string
		wall      string // 2006-01-02T15:04:05
		dateOnly  bool
		hasOffset bool
		offset    int
		err       string
	}{
		{"2026-12-05", "2026-12-05T00:00:00", true, false, 0, ""},
		{" 2026-12-05T20:00 ", "2026-12-05T20:00:00", false, false, 0, ""},
		{"2026-12-05T20:00:30", "2026-12-05T20:00:30", false, false, 0, ""},
		{"2026-12-05 20:00:00", "2026-12-05T20:00:00", false, false, 0, ""},
		{"2026-12-05T20:00:00.123Z", "2026-12-05T20:00:00", false, true, 0, ""},
		{"2026-12-05T20:00:00+01:00", "2026-12-05T20:00:00", false, true, 3600, ""},
		{"2026-12-05T20:00+0530", "2026-12-05T20:00:00", false, true, 19800, ""},
		{"2026-12-05T20:00:00-03:30", "2026-12-05T20:00:00", false, true, -12600, ""},
		{"2026-12-05T20:00:00+05", "2026-12-05T20:00:00", false, true, 18000, ""},
		{"2026-12", "", false, false, 0, "too short"},
		{"0001-01-01", "", false, false, 0, "year out of range"},
		{"2026-13-05", "", false, false, 0, "want YYYY-MM-DD"},
		{"2026-02-30T20:00", "", false, false, 0, "want YYYY-MM-DD"},
		{"2026-12-05X20:00", "", false, false, 0, "unexpected"},
		{"2026-12-05T25:00", "", false, false, 0, "bad clock"},
		{"2026-12-05T8pm", "", false, false, 0, "bad clock"},
		{"2026-12-05T20:00:00.Z", "", false, false, 0, "fractional"},
		{"2026-12-05T20:00+15:00", "", false, false, 0, "out of range"},
		{"2026-12-05T20:00+1:00", "", false, false, 0, "bad offset"},
	}
	for _, tt := range tests {
		w, err := ParseISO(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseISO(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || w.Wall.Format("2006-01-02T15:04:05") != tt.wall || w.DateOnly != tt.dateOnly || w.HasOffset != tt.hasOffset || w.Offset != tt.offset {
			t.Errorf("ParseISO(%q) = %+v, %v", tt.in, w, err)
		}
	}
}

func FuzzParseISO(f *testing.F) {
	for _, s := range []string{"2026-12-05", "2026-12-05T20:00:00+01:00", "2026-12-05T20:00:00.5Z", "2026-12-05 20:00-0330", "x", "2026-12-05T"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseISO(s)
		if err != nil {
			if !utf8.ValidString(err.Error()) && utf8.ValidString(s) {
				t.Fatalf("error text is not valid UTF-8: %q", err)
			}
			return
		}
		if w.Wall.IsZero() || w.Wall.Location() != time.UTC || w.Offset < -14*3600 || w.Offset > 14*3600 || w.DateOnly && w.HasOffset {
			t.Fatalf("ParseISO(%q) = %+v", s, w)
		}
	})
}
