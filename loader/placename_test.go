package loader

import (
	"strings"
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestTownInName checks a venue that states no town, named after its town, whose street or
// postal code gives a postcode (townInName): the name's town is read only when the
// postcode table confirms it, and never made. The first line is A-Trane's, Berlin, as its
// EventON page writes it (testdata/real/pages/atrane-berlin-eventon.html).
func TestTownInName(t *testing.T) {
	tests := []struct {
		name, venue, street, postcode string
		city                          string // "" when dropped
	}{
		{"the town after the venue's name", "A-Trane Berlin", "Bleibtreustrasse 1 10623 ", "", "berlin"},
		{"a postal code of its own", "Kulturhaus Eschweiler", "Dürener Straße 1", "52249", "eschweiler"},
		{"a comma before the code", "A-Trane Berlin", "Bleibtreustrasse 1, 10623", "", "berlin"},
		{"a code of another town", "Jazzkeller Berlin", "Hauptstraße 5 80331", "", ""},
		{"a French code of another town", "Café Paris", "Rue de la République 69002", "", ""},
		{"no town in the name", "The Hall", "Bleibtreustrasse 1 10623", "", ""},
		{"no postcode", "A-Trane Berlin", "Bleibtreustrasse 1", "", ""},
	}
	for _, tt := range tests {
		sr := readVenue(source.Place{Name: tt.venue, Street: tt.street, PostalCode: tt.postcode})
		switch {
		case tt.city == "" && sr.Events != 0:
			t.Errorf("%s: kept %+v", tt.name, sr.Places)
		case tt.city == "":
		case sr.Events != 1 || len(sr.Places) != 1 || sr.Places[0].City != tt.city || !strings.HasPrefix(sr.Places[0].By, "the postcode "):
			t.Errorf("%s: %d events, places %+v, dropped %+v; want %s by its postcode", tt.name, sr.Events, sr.Places, sr.Dropped, tt.city)
		}
	}
}
