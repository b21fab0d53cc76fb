package loader

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// titleCase is a line of testdata/titles.txt; see its header for the format.
type titleCase struct {
	at                 string // file:line
	title, venue, city string
	want               string // the headliner, as written
}

func readTitleCases(t *testing.T) []titleCase {
	t.Helper()
	const path = "testdata/titles.txt"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []titleCase
	venue, city := "", ""
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		at := fmt.Sprintf("%s:%d", path, i+1)
		if place, ok := strings.CutPrefix(l, "at: "); ok {
			venue, city, _ = strings.Cut(place, " | ")
			continue
		}
		if l == "" || l[0] == '#' {
			continue
		}
		title, want, ok := strings.Cut(l, " => ")
		if !ok {
			t.Fatalf("%s: want TITLE => HEADLINER, got %q", at, l)
		}
		cases = append(cases, titleCase{at, title, venue, city, want})
	}
	return cases
}

// TestTitles reads the titles of testdata/titles.txt for their headliner, and its key.
func TestTitles(t *testing.T) {
	for _, c := range readTitleCases(t) {
		if got := titleHeadliner(c.title, c.venue, c.city); got != c.want {
			t.Errorf("%s: titleHeadliner(%q) at %s, %s = %q, want %q", c.at, c.title, c.venue, c.city, got, c.want)
		}
		if got := titleKey(c.title, c.venue, c.city); got != key(c.want) {
			t.Errorf("%s: titleKey(%q) = %q, want %q", c.at, c.title, got, key(c.want))
		}
	}
}

// TestHeadlinerRulesNeeded checks that every step of headlinerRules has a title in
// testdata/titles.txt whose headliner changes without it.
func TestHeadlinerRulesNeeded(t *testing.T) {
	cases := readTitleCases(t)
	rules := headlinerRules
	defer func() { headlinerRules = rules }()
	for i, r := range rules {
		headlinerRules = slices.Delete(slices.Clone(rules), i, i+1)
		if !slices.ContainsFunc(cases, func(c titleCase) bool { return titleHeadliner(c.title, c.venue, c.city) != c.want }) {
			t.Errorf("headliner rule %q: no title needs it", r.name)
		}
	}
}
