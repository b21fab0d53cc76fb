package places

import (
	"strings"
	"testing"
)

// TestDistrict checks cities named with one of their districts (district.go): read as the
// city, never made as a town of their own; and names of the same shapes that are other
// towns, or that leave the city in doubt, not read so. The Danish postal districts are
// those of heavymetal.dk's concert calendar (testdata/real/pages).
func TestDistrict(t *testing.T) {
	checkReadings(t, byDistrict, []readingCase{
		{"Copenhagen's postal district", Place{Locality: "København S", Country: "DK"}, "copenhagen", "", ""},
		{"two letters", Place{Locality: "København NV", Country: "DK"}, "copenhagen", "", ""},
		{"no country: the district's city tells it", Place{Locality: "København K"}, "copenhagen", "", ""},
		{"postcode and district", Place{Locality: "2200 København N"}, "copenhagen", "", ""},
		{"Frederiksberg C", Place{Locality: "Frederiksberg C", Country: "Denmark"}, "frederiksberg", "", ""},
		{"Aarhus C", Place{Locality: "Aarhus C", Country: "DK"}, "aarhus", "", ""},
		{"Aalborg Ø", Place{Locality: "Aalborg Ø", Country: "DK"}, "aalborg", "", ""},
		{"a Roman numeral", Place{Locality: "Budapest XIII.", Country: "HU"}, "budapest", "", ""},
		{"a Roman numeral and the word for district", Place{Locality: "Budapest XIII. ker.", Country: "HU"}, "budapest", "", ""},
		{"a district GeoNames lists", Place{Locality: "Budapest XIII. kerület", Country: "HU"}, "", "", ""},
		{"an arrondissement spelled out", Place{Locality: "Paris 11e Arrondissement", Country: "FR"}, "paris", "", ""},
		{"a hyphenated district", Place{Locality: "Berlin-Kreuzberg", Country: "DE"}, "berlin", "", ""},
		{"a hyphenated district, no country", Place{Locality: "Hamburg-Altona"}, "hamburg", "", ""},
		{"a hyphenated district in Polish", Place{Locality: "Warszawa-Mokotów", Country: "PL"}, "warsaw", "", ""},
		// A city's centre named with it, as Downtown, an LA jazz listing, writes it
		// ("Los Angeles Athletic Club, 431 W 7th St, Downtown Los Angeles": testdata/real/ical).
		{"downtown before a city", Place{Locality: "Downtown Los Angeles", Country: "US"}, "los-angeles", byDistrict, ""},
		{"midtown before a borough", Place{Locality: "Midtown Manhattan", Country: "US"}, "manhattan-ny-us", byDistrict, ""},
		{"central before a city", Place{Locality: "Central London", Country: "GB"}, "london-gb", byDistrict, ""},
		{"sentrum after a city", Place{Locality: "Oslo Sentrum", Country: "NO"}, "oslo", byDistrict, ""},
		{"city centre after a city", Place{Locality: "Leeds City Centre", Country: "GB"}, "leeds", byDistrict, ""},
		{"centro after a city", Place{Locality: "Madrid Centro", Country: "ES"}, "madrid", byDistrict, ""},
		{"downtown before a city in its stated region", Place{Locality: "Downtown Los Angeles", Region: "CA", Country: "US"}, "los-angeles", byDistrict, ""},
		{"city center after a city", Place{Locality: "Houston City Center", Country: "US"}, "houston", byDistrict, ""},
		// Not districts, or districts the name leaves in doubt.
		{"a building named Center", Place{Locality: "Houston Center", Country: "US"}, "", "", ""},
		{"a centre outside the stated region", Place{Locality: "Downtown Los Angeles", Region: "NY", Country: "US"}, "", "", ""},
		{"a town the gazetteer knows whole", Place{Locality: "East London", Country: "ZA"}, "", "", ""},
		{"a city of that name in two countries", Place{Locality: "Downtown Los Angeles"}, "", "", ""},
		{"the centre's word alone", Place{Locality: "Downtown", Country: "US"}, "", "", ""},
		{"the centre of a village", Place{Locality: "Downtown Zzyzxville", Country: "US"}, "", "", ""},
		{"letters after a town outside Denmark", Place{Locality: "Zzyzxville S", Country: "US", Region: "CA"}, "", "", ""},
		{"a town of two names", Place{Locality: "Garmisch-Partenkirchen", Country: "DE"}, "", "", ""},
		{"a city with a namesake in its country", Place{Locality: "Frankfurt-Oder", Country: "DE"}, "", "", ""},
		{"a town joined to a smaller city's name", Place{Locality: "Mülheim-Kärlich", Country: "DE"}, "", "", ""},
		{"a numeral after a small town", Place{Locality: "Zzyzxdorf III", Country: "DE"}, "", "", ""},
	})
}

// TestDistrictKeepsStatedRegion checks that a district's reading never crosses the region
// the place states: "Lincoln Center, NY" is a place in New York (made in its clock), not
// the centre of Lincoln, Nebraska, an hour behind.
func TestDistrictKeepsStatedRegion(t *testing.T) {
	for _, tt := range []struct {
		p            Place
		region, zone string
	}{
		{Place{Locality: "Lincoln Center", Region: "NY", Country: "US"}, "NY", "America/New_York"},
		{Place{Locality: "Downtown Lincoln", Region: "NY", Country: "US"}, "NY", "America/New_York"},
		{Place{Locality: "Downtown Lincoln", Region: "NE", Country: "US"}, "NE", "America/Chicago"},
	} {
		r, err := Default().Read(tt.p, Context{})
		if err != nil {
			t.Errorf("%+v: %v", tt.p, err)
			continue
		}
		if r.City.Region != tt.region || r.City.Timezone != tt.zone {
			t.Errorf("%+v read as %s (%s, %s) by %q; want %s, %s", tt.p, r.City.Slug, r.City.Region, r.City.Timezone, r.By, tt.region, tt.zone)
		}
	}
}

func TestRomanNumeral(t *testing.T) {
	for s, want := range map[string]bool{"I": true, "IV": true, "XIII": true, "XXIII": true, "XXXIX": true,
		"": false, "XL": false, "IIII": false, "xiii": false, "C": false, "M": false, "XXXX": false, "VX": false} {
		if got := romanNumeral(s); got != want {
			t.Errorf("romanNumeral(%q) = %v", s, got)
		}
	}
}

// readingCase is a place and the reading it must give: the city's slug, decided by by when
// by is set; or, when slug is "", an error holding err, or (err "") any outcome but a
// reading the rule under test decided.
type readingCase struct {
	name     string
	p        Place
	slug, by string
	err      string
}

// checkReadings reads each case's place with no context; rule is the By of the rule under
// test.
func checkReadings(t *testing.T, rule string, tests []readingCase) {
	t.Helper()
	g := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := g.Read(tt.p, Context{})
			switch {
			case tt.slug == "" && tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("read %v, error %v; want an error with %q", r.City, err, tt.err)
				}
			case tt.slug == "":
				if err == nil && strings.Contains(r.By, rule) {
					t.Errorf("read as %s by %q", r.City.Slug, r.By)
				}
			case err != nil:
				t.Errorf("error %v; want %s", err, tt.slug)
			case r.City.Slug != tt.slug || r.Made || tt.by != "" && r.By != tt.by:
				t.Errorf("%s (made %v, by %q); want %s by %q", r.City.Slug, r.Made, r.By, tt.slug, tt.by)
			}
		})
	}
}
