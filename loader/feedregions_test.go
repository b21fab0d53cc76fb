package loader

import (
	"strings"
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestFeedRegionsChooseNamesakes reads the LOCATION lines of a Boston jazz listing
// (testdata/real/ical/jazzweekly-boston-cambridge.ics, an America/New_York feed of venues
// in Massachusetts and New Hampshire): a bare town's namesakes in the regions of the
// feed's other events come first, and a name both regions hold stays ambiguous.
func TestFeedRegionsChooseNamesakes(t *testing.T) {
	lines := []string{
		"400 Soldiers Field Rd\\, Boston\\, MA 02134",
		"1 Bennett St\\, Cambridge\\, MA 02138",
		"135 Congress St\\, Portsmouth\\, NH 03801",
		"135 Congress St\\, Portsmouth\\, NH 03801",
		"Arlington Visitor Center\\, Arlington",
		"Spire Center for the Performing Arts\\, Plymouth",
		"Concord Conservatory of Music\\, Concord",
	}
	got, sr := readFeed(t, lines, "America/New_York", "US-MA US-NH")
	if want := "Arlington, MA, America/New_York"; got[lines[4]] != want {
		t.Errorf("%q placed in %q; want %q", lines[4], got[lines[4]], want)
	}
	// Plymouth: Massachusetts' (7,494 people in GeoNames) and New Hampshire's (4,456), none
	// standing out: dropped, never Minnesota's, the most populous, in another zone, nor a
	// Plymouth made in the feed's zone; Concord likewise.
	for _, l := range lines[5:] {
		if g := got[l]; g != "" {
			t.Errorf("%q placed in %q; want it dropped", l, g)
		}
	}
	if len(sr.Dropped) != 2 || !strings.HasPrefix(sr.Dropped[0].Reason, `ambiguous place: "Plymouth"`) ||
		!strings.HasPrefix(sr.Dropped[1].Reason, `ambiguous place: "Concord"`) {
		t.Errorf("dropped %+v; want Plymouth and Concord, ambiguous", sr.Dropped)
	}
	for _, p := range sr.Places {
		if strings.HasPrefix(p.Place, "Arlington") && !strings.Contains(p.By, "the regions of the feed's other events (MA, NH)") {
			t.Errorf("Arlington decided by %q; want the feed's regions named", p.By)
		}
	}
}

// TestFeedRegionsOfATouringBand checks that a feed in more regions than maxFeedRegions
// lists none: a touring band's calendar tells no region.
func TestFeedRegionsOfATouringBand(t *testing.T) {
	var events []source.Event
	for _, town := range []string{"Birmingham, AL", "Las Vegas, NV", "Missoula, MT", "Bend, OR", "Oakland, CA"} {
		events = append(events, event("Widespread Panic", "Amphitheater", town, "", "2026-07-10T19:00"))
	}
	n := newNormalizer(noon, len(events))
	if ctx := n.feedContext(events, Source{}); ctx.Country != "US" || ctx.Regions != nil {
		t.Errorf("context %+v; want US and no regions", ctx)
	}
}

// TestEventZoneOverFeedRegions checks that the event's own zone stands over the regions of
// the feed's other events: in the Boston listing, an "Arlington" whose TZID says Central
// time is never Massachusetts' (the twelve Arlingtons leave it ambiguous: dropped).
func TestEventZoneOverFeedRegions(t *testing.T) {
	lines := []string{
		"400 Soldiers Field Rd, Boston, MA 02134",
		"1 Bennett St, Cambridge, MA 02138",
		"135 Congress St, Portsmouth, NH 03801",
		"135 Congress St, Portsmouth, NH 03801",
		"Arlington Music Hall, Arlington",
	}
	events := quartetFeed(lines, "America/New_York")
	events[4].Venue.FeedZone = "America/Chicago" // the event's own TZID
	got, sr := placings(newNormalizer(noon, len(events)), events)
	if g := got[lines[4]]; g != "" && !strings.HasSuffix(g, "America/Chicago") || g == "" && len(sr.Dropped) != 1 {
		t.Errorf("%q with TZID America/Chicago placed in %q (dropped %+v); want a town of its own zone, or dropped with a reason",
			lines[4], g, sr.Dropped)
	}
}

// quartetFeed makes a feed's events of one quartet at the LOCATION lines given (backslashed
// commas as a calendar writes them), each in zone, their refs the lines.
func quartetFeed(lines []string, zone string) []source.Event {
	events := make([]source.Event, len(lines))
	for i, l := range lines {
		events[i] = event("Quartet", "", "", "", "2026-06-21T19:00")
		events[i].Ref = l
		events[i].Venue = orderPlace(strings.ReplaceAll(l, "\\,", ","), zone, "", 0, 0)
	}
	return events
}

// placings reads events as one feed with n and returns where each ref was placed ("Town,
// Region, Zone") and the report.
func placings(n *normalizer, events []source.Event) (map[string]string, SourceReport) {
	var sr SourceReport
	n.addAll(events, 0, Source{}, &sr)
	got := map[string]string{}
	for _, r := range n.recs {
		got[r.ev.Ref] = r.city.Name + ", " + r.city.Region + ", " + r.city.Timezone
	}
	return got, sr
}
