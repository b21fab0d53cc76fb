package places

import "testing"

// TestSubdivisionAfterAStreet checks that a subdivision named like a town the gazetteer
// lacks (Limerick is "Luimneach" there; Greenwich, Hackney are London districts) is not
// dropped after a street: the street is never made the town.
func TestSubdivisionAfterAStreet(t *testing.T) {
	g := Default()
	for _, line := range []string{
		"Dolans, Dock Road, Limerick, Ireland",
		"Venue, O'Connell Street, Limerick, Ireland",
		"Venue, Trafalgar Road, Greenwich, UK",
		"Venue, Mare Street, Hackney, UK",
		"Venue, Main Street, Rutland, UK",
	} {
		a := Split(line)
		r, err := g.Read(Place{Locality: a.Locality, Country: a.Country, Postcode: a.Postcode}, Context{})
		if err == nil && r.Made && isStreetish(r.City.Name) {
			t.Errorf("%q: a street made the town %q (%s)", line, r.City.Name, r.By)
		}
	}
}

func isStreetish(name string) bool {
	for _, w := range []string{"Road", "Street", "Hall"} {
		if len(name) > len(w) && name[len(name)-len(w):] == w {
			return true
		}
	}
	return false
}

// TestSubdivisionCodeInCapitals checks that in a line written in capitals, a town's last
// word that is a subdivision's code (GB-HAM is Hampshire) stays: "EAST HAM" is not "EAST".
func TestSubdivisionCodeInCapitals(t *testing.T) {
	g := Default()
	for _, c := range []struct{ line, want string }{
		{"VENUE, EAST HAM, UK", "EAST HAM"},
		{"VENUE, WEST HAM, UK", "WEST HAM"},
	} {
		a := Split(c.line)
		r, err := g.Read(Place{Locality: a.Locality, Country: a.Country}, Context{})
		if err != nil || r.City.Name != c.want {
			t.Errorf("%q: %v %v, want %q", c.line, r.City, err, c.want)
		}
	}
}

// TestStreetLastCountyPostcode checks that a county and its postcode after a town of
// namesakes ("Halifax, West Yorkshire HX1 1AA") never let the most populous abroad be taken.
func TestStreetLastCountyPostcode(t *testing.T) {
	g := Default()
	for _, c := range []struct{ line, notCountry string }{
		{"Venue, Perth, Perth and Kinross PH1 5AA", "AU"},
		{"Venue, Windsor, Berkshire SL4 1AA", "CA"},
		{"Venue, Halifax, West Yorkshire HX1 1AA", "CA"},
		{"Venue, Newport, Isle of Wight PO30 1AB", "GB"}, // not Newport, Wales: nothing tells which
	} {
		a := Split(c.line)
		r, err := g.Read(Place{Locality: a.Locality, Country: a.Country, Postcode: a.Postcode}, Context{})
		if err == nil && (r.City.Country == c.notCountry || r.ByPopulation()) {
			t.Errorf("%q: read as %s (%s), by %q", c.line, r.City.Slug, r.City.Country, r.By)
		}
	}
}
