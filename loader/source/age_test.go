package source

import "testing"

func TestParseAge(t *testing.T) {
	for _, c := range []struct {
		in    string
		age   int
		known bool
	}{
		{"18+", 18, true},
		{"21 and over", 21, true},
		{"Over 18s only", 18, true},
		{"16 years and older", 16, true},
		{"18-", 18, true},
		{"18-99", 18, true},
		{"All Ages", 0, true},
		{"all-ages", 0, true},
		{"", 0, false},
		{"adults", 0, false},
		{"2026", 0, false},
		{"150+", 0, false},
	} {
		age, known := ParseAge(c.in)
		if age != c.age || known != c.known {
			t.Errorf("ParseAge(%q) = %d, %v; want %d, %v", c.in, age, known, c.age, c.known)
		}
	}
}
