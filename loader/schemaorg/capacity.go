package schemaorg

import (
	"strconv"

	"github.com/gigs/gigs/loader/source"
)

// SoldOut applies an event's remainingAttendeeCapacity to its offers: when it says no place
// is left ("0"), every offer that states no availability is sold out, and an event with no
// offer gets one, sold out, at the event's own page url. Pages that sell through another
// system say sold out no other way: Marché Gare's (Lyon) writes
// "remainingAttendeeCapacity":0 and no offer. Any other capacity changes nothing.
func SoldOut(capacity string, offers []source.Offer, url string) []source.Offer {
	if n, err := strconv.ParseFloat(Token(capacity), 64); err != nil || n != 0 {
		return offers
	}
	if len(offers) == 0 {
		return []source.Offer{{URL: url, Availability: "sold_out"}}
	}
	for i := range offers {
		if offers[i].Availability == "" {
			offers[i].Availability = "sold_out"
		}
	}
	return offers
}
