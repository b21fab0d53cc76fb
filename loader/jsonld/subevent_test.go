package jsonld

import (
	"testing"

	"github.com/gigs/gigs/engine"
)

// TestSubEventOfItsOwn reads the Gulbenkian's concert pages (Lisbon), which list each
// concert's session again as its only sub-event, "scheduled" also on a cancelled concert:
// one event each, with the concert's status. A festival's days stay events of their own.
func TestSubEventOfItsOwn(t *testing.T) {
	const cancelled = `{"@context":"https:\/\/schema.org","@graph":[{"@context":"https:\/\/schema.org","@type":"MusicEvent","@id":"https:\/\/gulbenkian.pt\/musica\/MusicEvent\/106821","name":"Beatrice Rana","url":"https:\/\/gulbenkian.pt\/musica\/agenda\/beatrice-rana-4\/","startDate":"2026-10-11 18:00:00","endDate":"2026-10-11 20:00:00","eventStatus":"https:\/\/schema.org\/EventCancelled","location":[{"@type":"Place","name":"Grande Audit\u00f3rio"}],"subEvent":[{"@type":"MusicEvent","name":"Beatrice Rana","location":[{"@type":"Place","name":"Grande Audit\u00f3rio"}],"startDate":"2026-10-11 18:00:00","endDate":"2026-10-11 20:00:00","eventStatus":"https:\/\/schema.org\/EventScheduled"}]}]}`
	const festival = `{"@type":"Festival","name":"Fest","startDate":"2026-07-01","eventStatus":"EventPostponed","subEvent":[` +
		`{"@type":"MusicEvent","name":"Fest","startDate":"2026-07-01"},{"@type":"MusicEvent","name":"Day 2","startDate":"2026-07-02"}]}`
	for _, c := range []struct {
		name, json string
		titles     []string
		statuses   []engine.Status
	}{
		{"a cancelled concert and its session", cancelled, []string{"Beatrice Rana"}, []engine.Status{engine.StatusCancelled}},
		{"a postponed festival and its days", festival, []string{"Fest", "Day 2"}, []engine.Status{engine.StatusPostponed, engine.StatusPostponed}},
	} {
		events, drops := Parse([]byte(`<script type="application/ld+json">`+c.json+`</script>`), "https://gulbenkian.pt/musica/agenda/")
		if len(drops) > 0 || len(events) != len(c.titles) {
			t.Fatalf("%s: %d events, drops %+v; want %q", c.name, len(events), drops, c.titles)
		}
		for i, e := range events {
			if e.Title != c.titles[i] || e.Status != c.statuses[i] {
				t.Errorf("%s: event %d is %q, %q; want %q, %q", c.name, i, e.Title, e.Status, c.titles[i], c.statuses[i])
			}
		}
	}
}
