package schemaorg

import (
	"reflect"
	"testing"

	"github.com/gigs/gigs/loader/source"
)

func TestSoldOut(t *testing.T) {
	const page = "https://marchegare.fr/agenda/lucio-bukowski-anton-serra-oster-lapwass-nouvelle-date"
	priced := []source.Offer{{URL: "https://tickets.example/1", PriceMin: 12, HasPrice: true, Currency: "EUR"}}
	for _, c := range []struct {
		name, capacity string
		offers, want   []source.Offer
	}{
		{"Marché Gare: no place left, no offer", "0", nil, []source.Offer{{URL: page, Availability: "sold_out"}}},
		{"no place left, an offer", " 0 ", priced, []source.Offer{{URL: "https://tickets.example/1", PriceMin: 12, HasPrice: true, Currency: "EUR", Availability: "sold_out"}}},
		{"an offer that says otherwise", "0.0", []source.Offer{{Availability: "in_stock"}}, []source.Offer{{Availability: "in_stock"}}},
		{"places left", "12", priced, priced},
		{"not stated", "", nil, nil},
		{"not a number", "none", nil, nil},
	} {
		offers := append([]source.Offer(nil), c.offers...)
		if got := SoldOut(c.capacity, offers, page); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
