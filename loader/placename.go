package loader

import (
	"strings"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// townInName reads the town of a venue that states neither a locality nor a country but a
// postcode (its own, or the last word of its street) and is named after its town: "A-Trane
// Berlin" at "Bleibtreustrasse 1 10623", an EventON venue whose address line lacks the
// town. The last one to three words of the name are that town only when the postcode table
// confirms them, the code serving a place of that name (places.Reading.By names the code):
// a name's last words alone are no town ("Café Paris" is in Lyon), and a postcode alone
// names none. ok is false when no reading is so confirmed, or the town would be made.
func (n *normalizer) townInName(p source.Place) (r places.Reading, ok bool) {
	if strings.TrimSpace(p.Locality) != "" || strings.TrimSpace(p.Country) != "" {
		return r, false
	}
	code := strings.TrimSpace(p.PostalCode)
	if f := strings.Fields(p.Street); code == "" && len(f) > 1 {
		code = strings.Trim(f[len(f)-1], ",;.")
	}
	if len(code) < 4 || len(code) > 5 || strings.Trim(code, "0123456789") != "" {
		return r, false
	}
	words := strings.Fields(p.Name)
	for k := 1; k <= 3 && k < len(words); k++ {
		q := statedPlace(p)
		q.Locality, q.Postcode = strings.Join(words[len(words)-k:], " "), code
		r, err := n.places.Read(q, n.placeContext(p))
		if err == nil && !r.Made && strings.HasPrefix(r.By, "the postcode "+code+" ") {
			return r, true
		}
	}
	return r, false
}
