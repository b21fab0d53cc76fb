package jsonld

import (
	"testing"

	"github.com/gigs/gigs/loader/schemaorg/schemaorgtest"
)

// FuzzParse checks that Parse never panics, is deterministic and that what it returns keeps
// its promises. It is seeded with the fixtures; crashers found are kept in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`<script type=application/ld+json>{"@type":"Event","name":"&#0;x","startDate":"2026-01-01T19:00",` +
		`"doorTime":"18:00","offers":{"offers":{"offers":{"price":"1,5"}}},"location":[{"@id":"#p"}],` +
		`"performer":{"@id":"#p"}},{"@id":"#p","name":"P","geo":{"latitude":"1","longitude":"2"}}</script>`))
	f.Add([]byte("<script type=application/ld+json>\uFEFF[{\"@type\":\"Event\",\"name\":\"a\nb\",},]</script>"))
	// EventON's dates and location (a-trane.de): the site's offset, the address in the street.
	f.Add([]byte(`<script type="application/ld+json">{"@type": "Event","name": "x","startDate": "2026-8-26T20:30+2:00",` +
		`"endDate": "2026-8-26T23:50+5.5:00","location":[{"@type":"Place","name":"A-Trane Berlin","address":{"@type": "PostalAddress","streetAddress":"Bleibtreustrasse 1 10623 "}}]}</script>`))
	// ISO 8601's basic format (theloft.at) and a concert's session as its sub-event (gulbenkian.pt).
	f.Add([]byte(`<script type="application/ld+json">{"@type":"MusicEvent","name":"Solidragity","startDate":"20260303T19:00:00",` +
		`"eventStatus":"EventCancelled","remainingAttendeeCapacity":0,"subEvent":[{"@type":"MusicEvent","name":"Solidragity","startDate":"20260303T190000",` +
		`"eventStatus":"EventScheduled","subEvent":{"@type":"MusicEvent","startDate":"20260303T1900+0100"}}]}</script>`))
	schemaorgtest.Fuzz(f, fixtureDir, Parse)
}
