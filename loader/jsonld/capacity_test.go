package jsonld

import (
	"testing"
)

// TestSoldOutByCapacity reads Marché Gare's concert (Lyon), sold out as its page says only
// by "remainingAttendeeCapacity":0, with no offer: one offer, sold out, at the event's page.
func TestSoldOutByCapacity(t *testing.T) {
	const page = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Event","name":"Lucio Bukowski + Anton Serra + OSter Lapwass (nouvelle date)","url":"https://marchegare.fr/agenda/lucio-bukowski-anton-serra-oster-lapwass-nouvelle-date","startDate":"2026-10-08T20:00:00+02:00","eventStatus":"https://schema.org/EventScheduled","remainingAttendeeCapacity":0,"eventAttendanceMode":"https://schema.org/OfflineEventAttendanceMode","location":{"@type":"Place","name":"Marché Gare","address":{"@type":"PostalAddress","streetAddress":"4 Place Hubert Mounier","addressLocality":"Lyon","postalCode":"69002","addressCountry":"FR"}}}</script>`
	events, drops := Parse([]byte(page), "https://marchegare.fr/agenda/")
	if len(events) != 1 || len(drops) > 0 {
		t.Fatalf("%d events, drops %+v", len(events), drops)
	}
	if o := events[0].Offers; len(o) != 1 || o[0].Availability != "sold_out" || o[0].URL != events[0].URL {
		t.Errorf("offers %+v, want one sold out at %s", o, events[0].URL)
	}
}
