package loader

import (
	"strings"
	"testing"
)

// TestSmallTownFarFromItsFeed reads LOCATION lines of a Los Angeles jazz listing
// (testdata/real/ical/downbeat-la-jazz-picks.ics, an America/Los_Angeles feed of venues in
// California): a bare name whose only gazetteer town is a small one outside the feed's
// regions and three hours ahead of its clock ("Bel Air", Maryland's) is made in the feed's
// clock (places.farFromFeed); a city of that size far away is still the city
// ("Charlotte"), and a name the feed's regions hold is theirs ("Pasadena").
func TestSmallTownFarFromItsFeed(t *testing.T) {
	lines := []string{
		"22 Mills Pl\\, Pasadena",
		"6010 W Pico Blvd\\, Los Angeles",
		"Smidt Welcome Plaza\\, LACMA\\, 5905 Wilshire Blvd\\, Los Angeles",
		"2930 Beverly Glen Circle\\, Bel Air",
		"2930 Beverly Glen Circle\\, Bel Air (Herb Alpert's club)",
		"The Jazz Room\\, Charlotte",
	}
	got, sr := readFeed(t, lines, "America/Los_Angeles", "US-CA")
	for i, want := range []string{"Pasadena, CA, America/Los_Angeles", "Los Angeles, CA, America/Los_Angeles", "Los Angeles, CA, America/Los_Angeles",
		"Bel Air, , America/Los_Angeles", "Bel Air, , America/Los_Angeles", "Charlotte, NC, America/New_York"} {
		if got[lines[i]] != want {
			t.Errorf("%q placed in %q; want %q (dropped %+v)", lines[i], got[lines[i]], want, sr.Dropped)
		}
	}
	for _, p := range sr.Places {
		if strings.HasPrefix(p.Place, "Bel Air") && !p.Made {
			t.Errorf("%q read as %s, not made", p.Place, p.City)
		}
	}
}

// readFeed reads LOCATION lines (backslashed as calendars write them) as one feed in zone,
// checks that the feed's regions are regions (space-separated), and returns where each
// line was placed (see placings).
func readFeed(t *testing.T, lines []string, zone, regions string) (map[string]string, SourceReport) {
	t.Helper()
	events := quartetFeed(lines, zone)
	n := newNormalizer(noon, len(events))
	if ctx := n.feedContext(events, Source{}); strings.Join(ctx.Regions, " ") != regions {
		t.Fatalf("the feed's regions are %q; want %s", ctx.Regions, regions)
	}
	return placings(n, events)
}
