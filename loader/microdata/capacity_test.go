package microdata

import "testing"

// TestSoldOutByCapacity reads a remainingAttendeeCapacity of 0 as sold out, as package
// jsonld does (see schemaorg.SoldOut): the event's offer without availability is sold out.
func TestSoldOutByCapacity(t *testing.T) {
	const page = `<div itemscope itemtype=https://schema.org/MusicEvent><b itemprop=name>Show</b><meta itemprop=startDate content=2026-10-08T20:00>` +
		`<meta itemprop=remainingAttendeeCapacity content=0><div itemprop=offers itemscope itemtype=https://schema.org/Offer><meta itemprop=price content=12></div></div>`
	events, drops := Parse([]byte(page), "https://venue.example/show")
	if len(events) != 1 || len(drops) > 0 {
		t.Fatalf("%d events, drops %+v", len(events), drops)
	}
	if o := events[0].Offers; len(o) != 1 || o[0].Availability != "sold_out" || !o[0].HasPrice {
		t.Errorf("offers %+v, want the priced offer sold out", o)
	}
}
