package server

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/icalcheck"
)

// goneFeedQueries are filtered feeds of calendarDataset, and whether each lists c1 (Sigur
// Rós and Ambre at La Cigale, Paris, 27 March 2027 20:00, post-rock): one per kind of
// filter, matching it and not.
var goneFeedQueries = []struct {
	query    string
	had, has bool // lists c1 before the refresh, and after
}{
	{"", true, true},
	{"city=paris", true, true},
	{"city=PARIS,kathmandu", true, true},
	{"city=kathmandu", false, false},
	{"country=fr", true, true},
	{"country=np", false, false},
	{"venue=La%20Cigale", true, true},
	{"artist=ambre", true, true}, // second on the bill
	{"artist=hiromi", false, false},
	{"genre=post-rock", true, true},
	{"genre=jazz", false, false},
	{"status=cancelled", false, true}, // a gone gig is listed, and matched, as cancelled
	{"status=scheduled", true, false},
	{"q=sigur%20cigale", true, true},
	{"q=sigur%20kathmandu", false, false},
	{"near=48.8566,2.3522&radius=5km", true, true},
	{"near=48.8566,2.3522&radius=5km&sort=distance", true, true},
	{"near=-31.55,159.08&radius=50km", false, false},
	{"from=2027-03-27&to=2027-03-27", true, true},
	{"from=2027-03-27T19:00:00Z", true, true},
	{"from=2027-03-27T19:00:01Z", false, false}, // c1 began at 19:00 UTC
	{"from=2027-03-28", false, false},
	{"to=2027-03-26", false, false},
	{"city=paris&artist=sigur-ros&q=sigur&near=48.88,2.34&radius=2km&from=2027-03-01&to=2027-03-31", true, true},
}

// TestGigsFeedGone drives two refreshes of a real listener: c1, listed in the first, is
// listed by no source in the second. Every filtered feed that selects it lists it as
// STATUS:CANCELLED with a higher SEQUENCE, in start order among its gigs (in distance
// order when sorted so), as both parsers read it; the others do not list it; the feeds of
// the snapshot read back from its file are the same.
func TestGigsFeedGone(t *testing.T) {
	base, live, snap, _ := serveCalendar(t)
	before := map[string]map[string]icalcheck.Event{} // as python3-icalendar reads the feeds
	for _, tt := range goneFeedQueries {
		before[tt.query] = events(icalcheck.Read(t, icalcheck.Python, do(t, "GET", base+"/v1/gigs.ics?"+tt.query, nil).body))
		if e, ok := before[tt.query]["c1@gigs.example"]; ok != tt.had || ok && e.Status != "CONFIRMED" {
			t.Fatalf("%s before the refresh: c1 listed %v (%s), want %v", tt.query, ok, e.Status, tt.had)
		}
	}
	next := withoutC1(t, snap)
	live.Publish(next)
	feeds := map[string][]byte{}
	for _, tt := range goneFeedQueries {
		t.Run(tt.query, func(t *testing.T) {
			r := do(t, "GET", base+"/v1/gigs.ics?"+tt.query, nil)
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			feeds[tt.query] = r.body
			checkFraming(t, r.body)
			unfolded := bytes.ReplaceAll(r.body, []byte("\r\n "), nil)
			if says := bytes.Contains(unfolded, []byte("; and 1 gig no source lists any more\\, shown cancelled\r\n")); says != tt.has {
				t.Errorf("the description tells of the gone gig: %v, want %v", says, tt.has)
			}
			query := ""
			if tt.query != "" {
				query = tt.query + "&"
			}
			gigs := listed(t, base, query)
			for _, p := range icalcheck.Parsers {
				c := icalcheck.Read(t, p, r.body)
				checkParsed(t, p, c, gigs)
				after := events(c)
				if tt.had == tt.has && len(after) != len(before[tt.query]) {
					t.Errorf("%s: %d events after the refresh, %d before", p, len(after), len(before[tt.query]))
				}
				e, ok := after["c1@gigs.example"]
				if ok != tt.has {
					t.Fatalf("%s lists c1: %v, want %v", p, ok, tt.has)
				}
				if !ok {
					continue
				}
				if was, ok := before[tt.query]["c1@gigs.example"]; !ok && tt.had || e.Status != "CANCELLED" || e.Sequence <= was.Sequence ||
					e.Start != "2027-03-27T20:00:00+01:00" || !strings.HasPrefix(e.Description, "No source lists this gig any more") {
					t.Errorf("%s: c1 after the refresh: %s SEQUENCE %d (was %d) at %s: %q", p, e.Status, e.Sequence, was.Sequence, e.Start, e.Description)
				}
			}
		})
	}
	// The order: c1 is first among Paris's gigs by start, and by distance from Paris.
	for _, q := range []string{"city=paris", "near=48.8566,2.3522&radius=5km&sort=distance"} {
		c := icalcheck.Read(t, icalcheck.Python, feeds[q])
		if len(c.Events) < 2 || c.Events[0].UID != "c1@gigs.example" {
			t.Errorf("%s: c1 is not the first event: %+v", q, c.Events)
		}
	}
	goldenFile(t, "gigs-feed-gone.ics", feeds["city=paris"])
	live.Publish(readBack(t, next))
	for _, tt := range goneFeedQueries {
		if r := do(t, "GET", base+"/v1/gigs.ics?"+tt.query, nil); !bytes.Equal(r.body, feeds[tt.query]) {
			t.Errorf("%s: the feed of the snapshot read back differs:\n%s", tt.query, r.body)
		}
	}
}

// withoutC1 is calendarDataset refreshed an hour after prev, which no source lists c1 in.
func withoutC1(t *testing.T, prev *engine.Snapshot) *engine.Snapshot {
	t.Helper()
	ds := calendarDataset()
	ds.Gigs = slices.DeleteFunc(ds.Gigs, func(g engine.Gig) bool { return g.ID == "c1" })
	next, err := engine.Build(ds, engine.Options{Now: calNow.Add(time.Hour), Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	return next
}
