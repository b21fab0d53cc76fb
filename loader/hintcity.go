package loader

import (
	"errors"
	"strings"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// A town's calendar names its venues, and where a town would follow, a street or a square
// of the town ("Cine-Teatro Garrett, Rua Dr. Leonardo Coimbra"; "Praça do Almada, Praça da
// República, Largo Dr. David Alves e Largo do Passeio Alegre", the municipal agenda of
// Póvoa de Varzim): the line states no town, and a street is never made one
// (places.ErrStreet). The operator's hint fills what the event leaves empty: when it names
// a city, the venue is there, and the reading says so.

// inHintCity reads the city of the source's hint for a place whose town part names a
// street or a square (err wraps places.ErrStreet); false when it does not, or the hint
// names no city the gazetteer can place.
func (n *normalizer) inHintCity(p source.Place, err error) (places.Reading, bool) {
	h := n.hint
	if h == nil || strings.TrimSpace(h.City) == "" || !errors.Is(err, places.ErrStreet) {
		return places.Reading{}, false
	}
	r, herr := n.places.Read(places.Place{Locality: h.City, Country: h.Country, Zone: h.Zone}, n.placeContext(p))
	if herr != nil {
		return places.Reading{}, false
	}
	by := "the source's configured city (" + h.City + "): the line names a street, not a town"
	if r.By != "" {
		by += "; " + r.By
	}
	r.By = by
	return r, true
}
