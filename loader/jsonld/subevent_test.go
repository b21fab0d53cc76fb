package jsonld

import (
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
)

// TestSubEventOfItsOwn reads the Gulbenkian's concert pages (Lisbon), which list each
// concert's session again as its only sub-event, "scheduled" also on a cancelled concert:
// one event each, with the concert's status. A festival's days stay events of their own,
// and a first day named after the festival, starting with it, gives the festival its acts.
func TestSubEventOfItsOwn(t *testing.T) {
	const cancelled = `{"@context":"https:\/\/schema.org","@graph":[{"@context":"https:\/\/schema.org","@type":"MusicEvent","@id":"https:\/\/gulbenkian.pt\/musica\/MusicEvent\/106821","name":"Beatrice Rana","url":"https:\/\/gulbenkian.pt\/musica\/agenda\/beatrice-rana-4\/","startDate":"2026-10-11 18:00:00","endDate":"2026-10-11 20:00:00","eventStatus":"https:\/\/schema.org\/EventCancelled","location":[{"@type":"Place","name":"Grande Audit\u00f3rio"}],"subEvent":[{"@type":"MusicEvent","name":"Beatrice Rana","location":[{"@type":"Place","name":"Grande Audit\u00f3rio"}],"startDate":"2026-10-11 18:00:00","endDate":"2026-10-11 20:00:00","eventStatus":"https:\/\/schema.org\/EventScheduled"}]}]}`
	const festival = `{"@type":"Festival","name":"Fest","startDate":"2026-07-01","eventStatus":"EventPostponed","subEvent":[` +
		`{"@type":"MusicEvent","name":"Fest","startDate":"2026-07-01"},{"@type":"MusicEvent","name":"Day 2","startDate":"2026-07-02"}]}`
	const days = `{"@context":"https://schema.org","@type":"Festival","name":"Jazz no Parque",` +
		`"startDate":"2026-07-03T18:00","endDate":"2026-07-05T23:00","location":{"@type":"Place","name":"Parque de Serralves","address":"Porto"},` +
		`"subEvent":[` +
		`{"@type":"MusicEvent","name":"Jazz no Parque","startDate":"2026-07-03T18:00","location":{"@type":"Place","name":"Parque de Serralves","address":"Porto"},"performer":[{"@type":"MusicGroup","name":"Kris Davis Trio"}]},` +
		`{"@type":"MusicEvent","name":"Jazz no Parque","startDate":"2026-07-04T18:00","location":{"@type":"Place","name":"Parque de Serralves","address":"Porto"},"performer":[{"@type":"MusicGroup","name":"Mary Halvorson"}]}]}`
	for _, c := range []struct {
		name, json string
		titles     []string
		statuses   []engine.Status
		acts       []string // each event's performers, joined by ", "
	}{
		{"a cancelled concert and its session", cancelled, []string{"Beatrice Rana"}, []engine.Status{engine.StatusCancelled}, []string{""}},
		{"a postponed festival and its days", festival, []string{"Fest", "Day 2"}, []engine.Status{engine.StatusPostponed, engine.StatusPostponed}, []string{"", ""}},
		{"a festival whose days are named after it", days, []string{"Jazz no Parque", "Jazz no Parque"}, []engine.Status{"", ""},
			[]string{"Kris Davis Trio", "Mary Halvorson"}},
	} {
		events, drops := Parse([]byte(`<script type="application/ld+json">`+c.json+`</script>`), "https://gulbenkian.pt/musica/agenda/")
		if len(drops) > 0 || len(events) != len(c.titles) {
			t.Fatalf("%s: %d events, drops %+v; want %q", c.name, len(events), drops, c.titles)
		}
		for i, e := range events {
			var acts []string
			for _, p := range e.Performers {
				acts = append(acts, p.Name)
			}
			if e.Title != c.titles[i] || e.Status != c.statuses[i] || strings.Join(acts, ", ") != c.acts[i] {
				t.Errorf("%s: event %d is %q, %q, acts %q; want %q, %q, %q",
					c.name, i, e.Title, e.Status, acts, c.titles[i], c.statuses[i], c.acts[i])
			}
		}
	}
}
