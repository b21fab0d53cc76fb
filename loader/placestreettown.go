package loader

import (
	"errors"
	"strings"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// errStreetInTown is the drop of a venue whose one-line address runs its street into its
// town with no comma between them, when no town of the gazetteer ends the run.
var errStreetInTown = errors.New("venue has no city: its address runs the street and town together, and no town the gazetteer knows ends it")

// townAfterStreet reads the town of a venue that states no locality and whose one-line
// address runs its name, street and town together before the first comma: The Events
// Calendar's venue "House of Blues Boston 15 Landsdowne Street Boston, MA 02215" with no
// city field. Read whole, that part is made a town; a made town with a house number
// (a word of digits) before its last words is none. Its last one to three words after the
// number are the town, the longest first ("West Hartford" before "Hartford"), when the gazetteer has a town of that name where the rest of the line
// (region, postcode, country) places it, and is not made: "Boston, MA 02215". Otherwise
// the venue is dropped (errStreetInTown): a street is never a town, and the words that end
// it are no town the gazetteer confirms. ok is false, and r as read, when r is no such made
// town.
func (n *normalizer) townAfterStreet(p source.Place, q places.Place, r places.Reading) (places.Reading, bool, error) {
	if !r.Made || strings.TrimSpace(p.Locality) != "" || r.City == nil {
		return r, false, nil
	}
	line := q.Locality
	head, rest, _ := strings.Cut(line, ",")
	words := strings.Fields(head)
	number := -1
	for i, w := range words {
		if strings.Trim(w, "0123456789") == "" {
			number = i
		}
	}
	if number < 0 || number >= len(words)-1 || !strings.EqualFold(strings.Join(words, " "), r.City.Name) {
		return r, false, nil
	}
	for k := min(3, len(words)-number-1); k >= 1; k-- {
		q.Locality = strings.Join(words[len(words)-k:], " ")
		if rest != "" {
			q.Locality += "," + rest
		}
		if rs, err := n.places.Read(q, n.placeContext(p)); err == nil && !rs.Made {
			return rs, true, nil
		}
	}
	return r, true, errStreetInTown
}
