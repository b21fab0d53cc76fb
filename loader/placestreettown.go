package loader

import (
	"errors"
	"slices"
	"strings"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// errStreetInTown is the drop of a venue whose one-line address runs its street into its
// town with no comma between them, when no town of the gazetteer ends the run.
var errStreetInTown = errors.New("venue has no city: its address runs the street and town together, and no town the gazetteer knows ends it")

// byStreetTown is the decided_by of a town read after the street run into it.
const byStreetTown = "the town that ends the street run into it"

// townAfterStreet reads the town of a venue that states no locality and whose one-line
// address runs its name, street and town together before the first comma: The Events
// Calendar's venue "House of Blues Boston 15 Landsdowne Street Boston, MA 02215" with no
// city field. Read whole, that part is made a town; a made town with a house number
// (a word of digits) before its last words is none. Its last one to three words after the
// number are the town, the longest first ("West Hartford" before "Hartford"), when the gazetteer has a town of that name where the rest of the line
// (region, postcode, country) places it, and is not made: "Boston, MA 02215". Otherwise
// the venue is dropped (errStreetInTown): a street is never a town, and the words that end
// it are no town the gazetteer confirms. A town the gazetteer read itself at the end of
// such a run (places reads a street as no town) is kept, its By said so. ok is false, and
// r as read, when r is no such town. The reading's By starts with byStreetTown (see
// streetOutOfName).
func (n *normalizer) townAfterStreet(p source.Place, q places.Place, r places.Reading) (places.Reading, bool, error) {
	if strings.TrimSpace(p.Locality) != "" || r.City == nil {
		return r, false, nil
	}
	line := q.Locality
	head, rest, _ := strings.Cut(line, ",")
	words := strings.Fields(head)
	number := -1
	for i, w := range words {
		if numberWord(w) {
			number = i
		}
	}
	if number < 0 || number >= len(words)-1 {
		return r, false, nil
	}
	if !r.Made {
		// The gazetteer read the town that ends the run itself (a street is no town): the
		// same reading, said so, so that the venue's name loses its street. A street's
		// words must lie between the first number and the town: "Studio 54 New York" is a
		// name and its town.
		first := slices.IndexFunc(words, numberWord)
		if t := strings.Fields(r.City.Name); first+1 < len(words)-len(t) &&
			strings.EqualFold(strings.Join(words[len(words)-len(t):], " "), r.City.Name) {
			r.By = strings.TrimSuffix(byStreetTown+"; "+r.By, "; ")
			return r, true, nil
		}
		return r, false, nil
	}
	if !strings.EqualFold(strings.Join(words, " "), r.City.Name) {
		return r, false, nil
	}
	for k := min(3, len(words)-number-1); k >= 1; k-- {
		q.Locality = strings.Join(words[len(words)-k:], " ")
		if rest != "" {
			q.Locality += "," + rest
		}
		if rs, err := n.places.Read(q, n.placeContext(p)); err == nil && !rs.Made {
			rs.By = strings.TrimSuffix(byStreetTown+"; "+rs.By, "; ")
			return rs, true, nil
		}
	}
	return r, true, errStreetInTown
}

// streetOutOfName leaves in a venue's name, placed by townAfterStreet, the words before
// its house number (the first word of digits: a suite's number comes later): "House of Blues Boston 15 Landsdowne Street Boston, MA 02215" is
// "House of Blues Boston", and its street, when it states none, "15 Landsdowne Street"
// (the words up to the town's name, when the line ends in the town's name as the
// gazetteer writes it). A name that starts with its number is left whole.
func streetOutOfName(p *source.Place, town string) {
	head, _, _ := strings.Cut(p.Name, ",")
	words := strings.Fields(head)
	number := slices.IndexFunc(words, numberWord)
	if number < 1 {
		return
	}
	if t := len(strings.Fields(town)); strings.TrimSpace(p.Street) == "" && number < len(words)-t &&
		strings.EqualFold(strings.Join(words[len(words)-t:], " "), town) {
		p.Street = strings.Join(words[number:len(words)-t], " ")
	}
	p.Name = strings.Join(words[:number], " ")
}

// numberWord reports whether w is a word of digits alone: a house's or a suite's number.
func numberWord(w string) bool { return w != "" && strings.Trim(w, "0123456789") == "" }
