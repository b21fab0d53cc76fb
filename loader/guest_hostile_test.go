package loader

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
)

// ldPage is an HTML page whose JSON-LD lists events, each given as a JSON object.
func ldPage(events ...string) string {
	return `<!doctype html><html><head><script type="application/ld+json">[` + strings.Join(events, ",") +
		`]</script></head><body></body></html>`
}

// ldEvent is a MusicEvent by the act name at venue in London, with the extra JSON members
// given (each after a comma).
func ldEvent(name, venue, start, extra string) string {
	return ldEventAt(name, venue, "", start, extra)
}

// ldEventAt is ldEvent at a street address.
func ldEventAt(name, venue, street, start, extra string) string {
	return fmt.Sprintf(`{"@context": "https://schema.org", "@type": "MusicEvent", "name": %q, "startDate": %q,
		"location": {"@type": "Place", "name": %q, "address": {"@type": "PostalAddress", "streetAddress": %q, "addressLocality": "London", "addressCountry": "GB"}},
		"performer": {"@type": "MusicGroup", "name": %q}%s}`, name, start, venue, street, name, extra)
}

// TestGuestNeverSpeaksForAnotherVenue serves, over HTTP through the whole loader, Alpha
// Hall's page listing its Wet Leg show and venue B's page listing three shows at Beta Club;
// in the second refresh B's page adds Alpha Hall's show, cancelled, half an hour later,
// with an end, doors, a picture, a support act, a genre, its own priced ticket link and a
// street for Alpha Hall. B's record may confirm the show, never change it: Alpha Hall's
// gig, its venue's detail body, the export and the change feed stay as before, and B is
// credited nowhere there (read first, B's street stayed on Alpha Hall, hinted or not). So without hints (every record a guest: a review's case, where B's link and
// credit were published beside Alpha's), with either hint or both, and with either page
// read, and so matched, first.
func TestGuestNeverSpeaksForAnotherVenue(t *testing.T) {
	alpha := ldPage(ldEvent("Wet Leg", "Alpha Hall", "2026-12-05T20:00",
		`, "offers": {"@type": "Offer", "url": "https://alpha.example/tickets/wet-leg"}`))
	own := []string{ldEvent("Own A", "Beta Club", "2026-12-10T21:00", ""), ldEvent("Own B", "Beta Club", "2026-12-11T21:00", ""),
		ldEvent("Own C", "Beta Club", "2026-12-12T21:00", "")}
	forged := ldEventAt("Wet Leg", "Alpha Hall", "1 Fake Street", "2026-12-05T20:30", `, "eventStatus": "https://schema.org/EventCancelled",
		"endDate": "2026-12-05T23:00", "doorTime": "2026-12-05T19:00", "image": "https://evil.example/wet-leg.jpg", "genre": "Polka",
		"performer": [{"@type": "MusicGroup", "name": "Wet Leg"}, {"@type": "MusicGroup", "name": "Spam Act"}],
		"offers": {"@type": "Offer", "url": "https://evil.example/steal", "price": "5.00", "priceCurrency": "GBP"}`)
	hints := map[string][2]string{
		"no hints":   {"", ""},
		"alpha hint": {`, "venue": {"name": "Alpha Hall", "city": "London", "country": "GB"}`, ""},
		"b hint":     {"", `, "venue": {"name": "Beta Club", "city": "London", "country": "GB"}`},
		"both hints": {`, "venue": {"name": "Alpha Hall", "city": "London", "country": "GB"}`, `, "venue": {"name": "Beta Club", "city": "London", "country": "GB"}`},
	}
	for hname, hint := range hints {
		for _, bFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/b first %v", hname, bFirst), func(t *testing.T) {
				up := newFeedServer(t)
				up.set("/alpha.html", alpha)
				up.set("/b.html", ldPage(own...))
				srcs := []string{
					fmt.Sprintf(`{"name": "venue-alpha", "format": "jsonld", "url": %q%s}`, up.URL+"/alpha.html", hint[0]),
					fmt.Sprintf(`{"name": "venue-b", "format": "jsonld", "url": %q%s}`, up.URL+"/b.html", hint[1]),
				}
				if bFirst {
					srcs[0], srcs[1] = srcs[1], srcs[0]
				}
				l, live := hostileLoader(t, `{"venues": [`+strings.Join(srcs, ",")+`]}`, Options{})
				if _, err := l.RunOnce(t.Context()); err != nil {
					t.Fatal(err)
				}
				before := live.Load()
				show := wetLeg(t, before)
				up.set("/b.html", ldPage(append(own, forged)...))
				rep, err := l.RunOnce(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				for _, sr := range rep.Sources {
					if sr.Err != nil || len(sr.Dropped) > 0 || sr.Events != map[string]int{"venue-alpha": 1, "venue-b": 4}[sr.Name] {
						t.Fatalf("%s: %+v", sr.Name, sr)
					}
				}
				after := live.Load()
				if got := wetLeg(t, after); !bytes.Equal(got, show) {
					t.Errorf("Alpha Hall's show changed:\n%s\nwas\n%s", got, show)
				}
				for what, body := range map[string][]byte{
					"the export":           readAll(t, after.Export().Body(after, false, 0, after.Export().Size)),
					"the venue's detail":   venueDetail(t, after, "alpha-hall-london-gb"),
					"the change feed":      changesSince(t, after, before.Cursor()),
					"the feed from before": changesSince(t, after, engine.Cursor{Epoch: after.Cursor().Epoch}),
				} {
					for _, bad := range []string{"evil.example", "Spam Act", "polka", "cancelled", "23:00", "Fake Street"} {
						if bytes.Contains(body, []byte(bad)) {
							t.Errorf("%s holds %q: %s", what, bad, body)
						}
					}
				}
				if n := after.Len(); n != 4 {
					t.Errorf("%d gigs, want Alpha's show and B's three", n)
				}
			})
		}
	}
}

// wetLeg returns the body of the one Wet Leg gig of s.
func wetLeg(t *testing.T, s *engine.Snapshot) []byte {
	t.Helper()
	var found []byte
	for _, g := range s.GigsJSON() {
		if bytes.Contains(g, []byte(`"title":"Wet Leg"`)) {
			if found != nil {
				t.Fatalf("two Wet Leg gigs:\n%s\n%s", found, g)
			}
			found = g
		}
	}
	if found == nil {
		t.Fatal("no Wet Leg gig")
	}
	return found
}

func readAll(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func venueDetail(t *testing.T, s *engine.Snapshot, slug string) []byte {
	t.Helper()
	d, ok := s.Venue(slug)
	if !ok {
		t.Fatalf("no venue %s", slug)
	}
	r, _ := d.Reader(false)
	defer r.Close()
	return readAll(t, r)
}

func changesSince(t *testing.T, s *engine.Snapshot, c engine.Cursor) []byte {
	t.Helper()
	entries, more, next, err := s.ChangesSince(c, 1000)
	if err != nil {
		t.Fatalf("changes since %s: %v", c, err)
	}
	return s.AppendChanges(nil, entries, c, next, more, nil)
}
