package loader

import (
	"fmt"
	"strings"
	"testing"
)

// TestFarTownOfAFeed reads LOCATION lines of feeds whose regions are read from their
// first events: a bare name whose only gazetteer town lies outside those regions, in
// another clock, is still that town. A Los Angeles jazz listing
// (testdata/real/ical/downbeat-la-jazz-picks.ics, venues in California) names "Charlotte"
// (North Carolina's) and "Bel Air": written bare it is Maryland's Bel Air, as main read it
// (no rule tells a part of Los Angeles from a far village; see Eumundi below), written as
// the listing writes it, with a remark in brackets, it is made in the feed's clock. A
// Sydney listing names Eumundi after 66 Sydney lines, more than the regions are read
// from: Queensland's only Eumundi, an hour behind Sydney in summer.
func TestFarTownOfAFeed(t *testing.T) {
	var sydney []string
	for i := 0; i < 66; i++ {
		sydney = append(sydney, fmt.Sprintf("Venue %d\\, Sydney", i))
	}
	for _, tt := range []struct {
		name, zone, regions string
		lines               []string
		want                map[string]string // a line and where it is placed
		made                string            // the prefix of the places that must be made
	}{
		{"a Los Angeles listing", "America/Los_Angeles", "US-CA", []string{
			"22 Mills Pl\\, Pasadena",
			"6010 W Pico Blvd\\, Los Angeles",
			"Smidt Welcome Plaza\\, LACMA\\, 5905 Wilshire Blvd\\, Los Angeles",
			"2930 Beverly Glen Circle\\, Bel Air",
			"2930 Beverly Glen Circle\\, Bel Air (Herb Alpert's club)",
			"The Jazz Room\\, Charlotte",
		}, map[string]string{
			"22 Mills Pl\\, Pasadena":                                           "Pasadena, CA, America/Los_Angeles",
			"6010 W Pico Blvd\\, Los Angeles":                                   "Los Angeles, CA, America/Los_Angeles",
			"Smidt Welcome Plaza\\, LACMA\\, 5905 Wilshire Blvd\\, Los Angeles": "Los Angeles, CA, America/Los_Angeles",
			"2930 Beverly Glen Circle\\, Bel Air":                               "Bel Air, MD, America/New_York",
			"2930 Beverly Glen Circle\\, Bel Air (Herb Alpert's club)":          "Bel Air, , America/Los_Angeles",
			"The Jazz Room\\, Charlotte":                                        "Charlotte, NC, America/New_York",
		}, "Bel Air ("},
		{"a Sydney listing", "Australia/Sydney", "AU-NSW", append(sydney[:66:66], "Imperial Hotel\\, Eumundi"), map[string]string{
			"Venue 0\\, Sydney":         "Sydney, NSW, Australia/Sydney",
			"Imperial Hotel\\, Eumundi": "Eumundi, QLD, Australia/Brisbane",
		}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, sr := readFeed(t, tt.lines, tt.zone, tt.regions)
			for line, want := range tt.want {
				if got[line] != want {
					t.Errorf("%q placed in %q; want %q (dropped %+v)", line, got[line], want, sr.Dropped)
				}
			}
			for _, p := range sr.Places {
				if tt.made != "" && strings.HasPrefix(p.Place, tt.made) && !p.Made {
					t.Errorf("%q read as %s, not made", p.Place, p.City)
				}
			}
		})
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
