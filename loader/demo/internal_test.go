package demo

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestZoneChanges(t *testing.T) {
	from := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 0, horizon)
	tests := []struct {
		zone   string
		want   string // the changes as UTC instants, "" for none
		spring bool
	}{
		{"Europe/Berlin", "2027-03-28T01:00:00Z", true},
		{"America/St_Johns", "2027-03-14T05:30:00Z", true},
		{"Australia/Sydney", "2027-04-03T16:00:00Z", false},
		{"Asia/Kathmandu", "", false},
		{"America/Sao_Paulo", "", false},
	}
	for _, tt := range tests {
		loc, err := time.LoadLocation(tt.zone)
		if err != nil {
			t.Fatal(err)
		}
		changes := zoneChanges(loc, from, to)
		got := ""
		for _, c := range changes {
			got += c.UTC().Format(time.RFC3339)
		}
		if got != tt.want {
			t.Errorf("zoneChanges(%s) = %q, want %q", tt.zone, got, tt.want)
		}
		if len(changes) == 1 && springForward(changes[0]) != tt.spring {
			t.Errorf("springForward(%s change) = %v, want %v", tt.zone, !tt.spring, tt.spring)
		}
	}
}

func TestNewArtists(t *testing.T) {
	for seed := range uint64(5) {
		as := newArtists(rand.New(rand.NewPCG(seed, streamArtists)), artistCount)
		keys := map[string]bool{}
		for i, a := range as {
			if a.rank != i || len(a.genres) < 1 || len(a.genres) > 2 || keys[nameKey(a.name)] {
				t.Fatalf("seed %d: bad artist %+v", seed, a)
			}
			keys[nameKey(a.name)] = true
		}
	}
	for _, tt := range [][2]string{
		{"The Velvet Foxes", "velvet foxes"},
		{"Ada & Søren", "ada soren"},
		{"Ada and Søren", "ada soren"},
		{"Straßer Trio", "strasser trio"},
	} {
		if got := nameKey(tt[0]); got != tt[1] {
			t.Errorf("nameKey(%q) = %q, want %q", tt[0], got, tt[1])
		}
	}
}

func TestPickDays(t *testing.T) {
	vs, err := loadVenues()
	if err != nil {
		t.Fatal(err)
	}
	today := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	days := pickDays(rand.New(rand.NewPCG(1, 1)), vs[0], today, 100)
	if len(days) != 100 || days[0] < 0 || days[99] >= horizon {
		t.Fatalf("pickDays = %v", days)
	}
	for i := 1; i < len(days); i++ {
		if days[i] <= days[i-1] {
			t.Fatalf("pickDays not strictly ascending: %v", days)
		}
	}
}
