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
	schemaorgtest.Fuzz(f, fixtureDir, Parse)
}
