package microdata

import (
	"testing"

	"github.com/gigs/gigs/loader/schemaorg/schemaorgtest"
)

// FuzzParse checks that Parse never panics, is deterministic and that what it returns keeps
// its promises, and that the tree builder keeps its indexes right. It is seeded with the
// fixtures; crashers found are kept in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`<div itemscope itemtype=https://schema.org/Event id=e itemref="e o"><b itemprop=name>N</b>` +
		`<time itemprop=startDate>2026-01-01</time><i itemprop=doorTime content=19:00></i>` +
		`<p itemprop=offers itemscope itemtype=https://schema.org/AggregateOffer id=o itemref=e>` +
		`<span itemprop=offers itemscope><meta itemprop=price content="1,5"></span></p></div>`))
	f.Add([]byte("<table><tr itemscope itemtype=http://schema.org/MusicEvent><td itemprop=name>a<td><meta itemprop=startDate content=2026-01-01><tr><td>"))
	f.Add([]byte("<svg><title itemprop=name><![CDATA[<b>]]></title></svg><template><p itemscope></template>"))
	// ISO 8601's basic format and an event's session as its sub-event, cancelled with it.
	f.Add([]byte(`<div itemscope itemtype=https://schema.org/MusicEvent><b itemprop=name>Show</b><meta itemprop=startDate content=20260303T190000Z>` +
		`<link itemprop=eventStatus href=https://schema.org/EventCancelled><meta itemprop=remainingAttendeeCapacity content=0><div itemprop=subEvent itemscope itemtype=https://schema.org/Event>` +
		`<b itemprop=name>Show</b><meta itemprop=startDate content=20260303T19:00:00Z></div></div>`))
	schemaorgtest.Fuzz(f, fixtureDir, Parse, func(t *testing.T, page []byte) {
		if len(page) < 1<<13 { // the check looks at every open element after every token
			build(page, checkBuilder(t))
		}
	})
}

func BenchmarkParse(b *testing.B) {
	schemaorgtest.Benchmark(b, fixtureDir, Parse)
}
