package loader

import (
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
)

// TestRefreshScenario runs refreshes of the demo corpus over HTTP while its sources change,
// answer 304, go down, shrink and come back, and checks that gig ids stay stable and that
// no good gig is lost on the way.
func TestRefreshScenario(t *testing.T) {
	c := serveCorpus(t, 0)
	rep := c.refresh(t)
	if rep.Fetch.NotModified != 0 || rep.Gigs < 4000 {
		t.Fatalf("first refresh: %d gigs, %d not modified", rep.Gigs, rep.Fetch.NotModified)
	}
	truth0 := c.concerts(t)
	ids0 := c.concertIDs(t, truth0)

	// An hour later the sources have changed: titles edited, shows rescheduled, cancelled
	// and added, platform listings moved. Unchanged files answer 304.
	c.generate(t, 1)
	c.clock.Add(time.Hour)
	rep = c.refresh(t)
	if rep.Fetch.NotModified < 200 {
		t.Errorf("second refresh: %d answers were 304, want most venue sites", rep.Fetch.NotModified)
	}
	truth1 := c.concerts(t)
	ids1 := c.concertIDs(t, truth1)
	moved, changed, added := 0, 0, 0
	was, now := byID(truth0), byID(truth1)
	for k, id := range ids1 {
		old, ok := ids0[k]
		switch {
		case !ok:
			added++
			if usedBefore(id, ids0) {
				t.Errorf("new concert %s got id %s, which another concert had", k, id)
			}
		case id != old:
			t.Errorf("concert %s: id %s became %s", k, old, id)
		case was[k].Start != now[k].Start:
			moved++
		case was[k].Status != now[k].Status:
			changed++
		}
	}
	if moved < 10 || changed < 5 || added < 5 {
		t.Errorf("%d rescheduled and %d otherwise changed concerts kept their ids, %d new ones got new ids; the corpus has more of each", moved, changed, added)
	}

	// Four sources go down (a JSON-LD, a microdata and an iCal site, and a platform) and
	// one iCal feed shrinks to a single event: their last good events are used, marked stale.
	before := c.live.Load()
	var down []string
	for _, format := range []string{"jsonld", "microdata"} {
		down = append(down, c.healthyVenue(t, rep, format, ""))
	}
	down = append(down, c.healthyVenue(t, rep, "ical", ""), "gigseek")
	shrunk := c.healthyVenue(t, rep, "ical", down[2])
	for _, name := range down {
		c.fx.SetDown(c.host(t, name), true)
	}
	c.truncateFeed(t, shrunk)
	c.clock.Add(time.Hour)
	rep = c.refresh(t)
	for _, name := range append(down, shrunk) {
		sr := reportOf(rep, name)
		if sr.Err == nil || !sr.Stale || sr.Events == 0 {
			t.Errorf("%s: error %v, stale %v, %d events; want a failure served stale", name, sr.Err, sr.Stale, sr.Events)
		}
	}
	if !errors.Is(reportOf(rep, shrunk).Err, errSourceShrank) {
		t.Errorf("%s: %v, want it to count as shrunk", shrunk, reportOf(rep, shrunk).Err)
	}
	c.sameGigs(t, before, "with sources down")

	// They come back: fresh again, and still the same gigs under the same ids.
	for _, name := range down {
		c.fx.SetDown(c.host(t, name), false)
	}
	c.generate(t, 1) // restores the shrunk feed
	c.clock.Add(time.Hour)
	rep = c.refresh(t)
	for _, name := range append(down, shrunk) {
		if sr := reportOf(rep, name); sr.Err != nil || sr.Stale {
			t.Errorf("%s back up: error %v, stale %v", name, sr.Err, sr.Stale)
		}
	}
	c.sameGigs(t, before, "with sources back")
	if got := c.concertIDs(t, truth1); len(got) != len(ids1) {
		t.Errorf("%d concerts have ids, before %d", len(got), len(ids1))
	} else {
		for k, id := range got {
			if ids1[k] != id {
				t.Errorf("concert %s: id %s became %s", k, ids1[k], id)
			}
		}
	}
}

// TestRestartWhileSourcesAreDown restarts the loader while sources are down: their last
// good events and every gig's id come back from the data directory.
func TestRestartWhileSourcesAreDown(t *testing.T) {
	c := serveCorpus(t, 0)
	rep := c.refresh(t)
	before := c.live.Load()
	ids := c.concertIDs(t, c.concerts(t))
	down := []string{c.healthyVenue(t, rep, "jsonld", ""), c.healthyVenue(t, rep, "ical", ""), "tixhub"}
	for _, name := range down {
		c.fx.SetDown(c.host(t, name), true)
	}
	c.restart(t)
	c.clock.Add(time.Hour)
	rep = c.refresh(t)
	for _, name := range down {
		if sr := reportOf(rep, name); !sr.Stale || sr.Events == 0 {
			t.Errorf("%s after a restart: stale %v, %d events; want its last good events", name, sr.Stale, sr.Events)
		}
	}
	c.sameGigs(t, before, "after a restart with sources down")
	for k, id := range c.concertIDs(t, c.concerts(t)) {
		if ids[k] != id {
			t.Errorf("concert %s: id %s became %s after a restart", k, ids[k], id)
		}
	}
}

// TestStaleEventsExpire checks that a failing source's last good events serve for at most
// MaxStale, and that a build losing more than half the gigs is refused twice, the last good
// snapshot serving meanwhile, before it is published.
func TestStaleEventsExpire(t *testing.T) {
	c := serveCorpus(t, 0)
	rep := c.refresh(t)
	site := c.healthyVenue(t, rep, "jsonld", "")
	c.fx.SetDown(c.host(t, site), true)
	c.clock.Add(c.loader.o.MaxStale - time.Minute)
	if sr := reportOf(c.refresh(t), site); !sr.Stale || sr.Events == 0 {
		t.Fatalf("%s within MaxStale: stale %v, %d events", site, sr.Stale, sr.Events)
	}
	c.clock.Add(2 * time.Minute)
	if sr := reportOf(c.refresh(t), site); sr.Stale || sr.Events != 0 || sr.Err == nil {
		t.Fatalf("%s past MaxStale: stale %v, %d events, error %v; want its events gone", site, sr.Stale, sr.Events, sr.Err)
	}

	// Most sources down past MaxStale: the build would lose more than half the gigs. It is
	// refused twice while the last snapshot serves, and published the third time, since a
	// drop seen that long is taken for real.
	for i, v := range c.cfg.Venues {
		if i%10 < 8 {
			c.fx.SetDown(c.host(t, v.Name), true)
		}
	}
	for _, p := range c.cfg.Platforms {
		c.fx.SetDown(c.host(t, p.Name), true)
	}
	c.clock.Add(c.loader.o.MaxStale + time.Hour)
	published := c.live.Load()
	for range maxRefusals - 1 {
		if _, err := c.loader.RunOnce(t.Context()); !errors.Is(err, ErrNotPublished) || !strings.Contains(err.Error(), "gigs fell from") {
			t.Fatalf("refresh with most sources down: %v, want it refused for the drop", err)
		}
		if c.live.Load() != published {
			t.Fatal("a refused build replaced the snapshot")
		}
	}
	if rep := c.refresh(t); rep.Gigs*2 > published.Len() {
		t.Errorf("the third build has %d gigs of %d: not the sharp drop this test needs", rep.Gigs, published.Len())
	}
}

// refresh runs one refresh that must publish.
func (c *servedCorpus) refresh(t *testing.T) Report {
	t.Helper()
	wall := time.Now()
	rep, err := c.loader.RunOnce(t.Context())
	t.Logf("refresh at %s: %d gigs, %d requests, %d not modified, in %s", c.clock.Now().Format(time.TimeOnly), rep.Gigs, rep.Fetch.Requests, rep.Fetch.NotModified, time.Since(wall))
	if err != nil {
		t.Fatalf("refresh at %s: %v", c.clock.Now().Format(time.DateTime), err)
	}
	return rep
}

// concertIDs returns the id of the gig of each concert, by concert id: the id the store
// keeps for the concert's first record with a kept ref (records named by their position in
// a page have none). A concert the merge split (TestMergePrecisionRecall counts those)
// has the id of the gig of that record. Every concert whose venue-local day has not ended
// must have its gig in the published snapshot under that id.
func (c *servedCorpus) concertIDs(t *testing.T, truth map[recordRef]*concert) map[string]string {
	t.Helper()
	snap := c.live.Load()
	out := map[string]string{}
	for _, k := range byID(truth) {
		for _, r := range k.Records {
			e, ok := c.loader.o.IDs.entries[refKey(r.Source, r.Ref)]
			if !ok {
				continue
			}
			id := e.id.String()
			out[k.ID] = id
			loc, err := time.LoadLocation(k.Zone)
			if err != nil {
				t.Fatal(err)
			}
			if _, served := snap.GigByID(id); !served && k.Start[:10] >= c.clock.Now().In(loc).Format(time.DateOnly) {
				t.Errorf("concert %s (%s) has id %s, which the snapshot does not serve", k.ID, k.Start, id)
			}
			break
		}
	}
	if len(out) < len(truth)/3 {
		t.Fatalf("only %d concerts have ids", len(out))
	}
	return out
}

// usedBefore reports whether id was a concert's id in ids.
func usedBefore(id string, ids map[string]string) bool {
	for _, old := range ids {
		if old == id {
			return true
		}
	}
	return false
}

// byID returns the concerts of truth by id.
func byID(truth map[recordRef]*concert) map[string]*concert {
	out := map[string]*concert{}
	for _, k := range truth {
		out[k.ID] = k
	}
	return out
}

// sameGigs checks that the published snapshot still has every gig of before whose
// venue-local day has not ended.
func (c *servedCorpus) sameGigs(t *testing.T, before *engine.Snapshot, when string) {
	t.Helper()
	now := c.live.Load()
	missing := 0
	for i := range before.Len() {
		var g struct{ ID, Date, Timezone string }
		if err := json.Unmarshal(before.GigJSON(i), &g); err != nil {
			t.Fatal(err)
		}
		loc, err := time.LoadLocation(g.Timezone)
		if err != nil {
			t.Fatal(err)
		}
		if g.Date < c.clock.Now().In(loc).Format(time.DateOnly) {
			continue // its day is over
		}
		if _, ok := now.GigByID(g.ID); !ok {
			if missing++; missing <= 5 {
				t.Errorf("%s: gig %s (%s in %s) is gone", when, g.ID, g.Date, g.Timezone)
			}
		}
	}
	if missing > 0 {
		t.Errorf("%s: %d of %d gigs are gone", when, missing, before.Len())
	}
}

// healthyVenue returns a venue source of format other than except that rep shows fetched
// with at least five events and no note.
func (c *servedCorpus) healthyVenue(t *testing.T, rep Report, format, except string) string {
	t.Helper()
	for _, v := range c.cfg.Venues {
		sr := reportOf(rep, v.Name)
		if v.Format == format && v.Name != except && sr.Err == nil && sr.Events >= 5 && len(sr.Notes) == 0 && len(sr.Dropped) == 0 {
			return v.Name
		}
	}
	t.Fatalf("no healthy %s venue", format)
	return ""
}

// host returns the host of a source.
func (c *servedCorpus) host(t *testing.T, name string) string {
	t.Helper()
	for _, v := range c.cfg.Venues {
		if v.Name == name {
			u, _ := url.Parse(v.URL)
			return u.Hostname()
		}
	}
	for _, p := range c.cfg.Platforms {
		if p.Name == name {
			u, _ := url.Parse(p.URL)
			return u.Hostname()
		}
	}
	t.Fatalf("no source %q", name)
	return ""
}

// truncateFeed cuts the iCalendar feed of a venue source down to its first event.
func (c *servedCorpus) truncateFeed(t *testing.T, name string) {
	t.Helper()
	var path string
	for _, v := range c.cfg.Venues {
		if v.Name == name {
			u, _ := url.Parse(v.URL)
			path = filepath.Join(c.dir, "sites", u.Hostname(), filepath.FromSlash(u.Path))
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	first := strings.Index(s, "BEGIN:VEVENT")
	end := strings.Index(s, "END:VEVENT")
	if first < 0 || end < first {
		t.Fatalf("%s: no event in %s", name, path)
	}
	cut := s[:end+len("END:VEVENT")] + "\r\nEND:VCALENDAR\r\n"
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
}

func reportOf(rep Report, name string) SourceReport {
	for _, sr := range rep.Sources {
		if sr.Name == name {
			return sr
		}
	}
	return SourceReport{}
}
