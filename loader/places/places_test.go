package places

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCountry(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"DE", "DE", true}, {"de", "DE", true}, {"DEU", "DE", true}, {"Deutschland", "DE", true}, {"germany", "DE", true},
		{"United Kingdom", "GB", true}, {"UK", "GB", true}, {"Great Britain", "GB", true}, {"England", "GB", true},
		{"Éire", "IE", true}, {"Österreich", "AT", true}, {"U.S.A.", "US", true}, {"USA", "US", true},
		{"United States of America", "US", true}, {"Czechia", "CZ", true}, {"Czech Republic", "CZ", true}, {"Türkiye", "TR", true},
		{"Turkey", "TR", true}, {"España", "ES", true}, {"Taiwan", "TW", true}, {"uruguay", "UY", true}, {"Thailand", "TH", true},
		{"Korea, Republic of", "KR", true}, {"XX", "", false}, {"Atlantis", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		got, ok := Country(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Country(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if n := CountryName("CZ"); n != "Czechia" {
		t.Errorf("CountryName(CZ) = %q", n)
	}
}

func TestLocate(t *testing.T) {
	tests := []struct {
		name string
		p    Place
		slug string // "" when it fails
		zone string
		err  string
	}{
		{"legacy slug", Place{Locality: "Kraków", Country: "PL"}, "krakow", "Europe/Warsaw", ""},
		{"legacy other name", Place{Locality: "Göteborg", Country: "Sweden"}, "gothenburg", "Europe/Stockholm", ""},
		{"country alias", Place{Locality: "London", Country: "UK"}, "london-gb", "Europe/London", ""},
		{"same name, other country", Place{Locality: "London", Country: "CA"}, "london-ca", "America/Toronto", ""},
		{"region tells Portland, OR", Place{Locality: "Portland", Region: "OR", Country: "US"}, "portland-or-us", "America/Los_Angeles", ""},
		{"region tells Portland, ME", Place{Locality: "Portland", Region: "Maine", Country: "US"}, "portland-me-us", "America/New_York", ""},
		{"no region: the most populous", Place{Locality: "Portland", Country: "US"}, "portland-or-us", "America/Los_Angeles", ""},
		{"coordinates tell Portland, ME", Place{Locality: "Portland", Country: "US", Lat: 43.66, Lon: -70.26, HasGeo: true}, "portland-me-us", "America/New_York", ""},
		{"a state without a country", Place{Locality: "Austin", Region: "TX"}, "austin", "America/Chicago", ""},
		{"a province without a country", Place{Locality: "Kingston", Region: "ON"}, "kingston-ca", "America/Toronto", ""},
		{"one line, US", Place{Locality: "Austin, TX, US"}, "austin", "America/Chicago", ""},
		{"one line with a postcode", Place{Locality: "Austin, TX 78701"}, "austin", "America/Chicago", ""},
		// schema.org's example #eg-0201: "address" : "Lynn, MA, 01901".
		{"one line ending in a postcode", Place{Locality: "Lynn, MA, 01901"}, "lynn", "America/New_York", ""},
		{"one line ending in a British postcode", Place{Locality: "Leeds, LS1 3AA"}, "leeds", "Europe/London", ""},
		{"one line, UK", Place{Locality: "Leeds, UK"}, "leeds", "Europe/London", ""},
		{"one line with the stated region and country again", Place{Locality: "Duluth, MN, US", Region: "MN", Country: "US"}, "duluth-mn-us", "America/Chicago", ""},
		{"one line and the country again", Place{Locality: "Glasgow, United Kingdom", Country: "United Kingdom"}, "glasgow", "Europe/London", ""},
		{"a postcode before the name", Place{Locality: "708 15 Gothenburg", Country: "SE"}, "gothenburg", "Europe/Stockholm", ""},
		{"a postcode after the name", Place{Locality: "Leeds LS6 1NY", Country: "GB"}, "leeds", "Europe/London", ""},
		{"one line, a whole address", Place{Locality: "The Brudenell, 33 Queen's Rd, Leeds LS6 1NY, United Kingdom"}, "leeds", "Europe/London", ""},
		{"CA the state, not Canada", Place{Locality: "Los Angeles, CA"}, "los-angeles", "America/Los_Angeles", ""},
		{"WA the Australian state", Place{Locality: "Perth, WA"}, "perth", "Australia/Perth", ""},
		// A calendar's "South San Francisco\, CA" with GEO: the venue's part is read as its name.
		{"a region's code alone, coordinates in it", Place{Locality: "CA", Lat: 37.654656, Lon: -122.40775, HasGeo: true}, "south-san-francisco", "America/Los_Angeles", ""},
		{"a country's code alone, coordinates in it", Place{Locality: "NL", Lat: 52.25, Lon: 6.16, HasGeo: true}, "deventer", "Europe/Amsterdam", ""},
		{"a town in Georgia, not Gabon", Place{Locality: "Athens, GA"}, "athens-ga-us", "America/New_York", ""},
		{"an ISO 3166-2 region", Place{Locality: "Portland", Region: "US-ME"}, "portland-me-us", "America/New_York", ""},
		{"an ISO 3166-2 region and its country", Place{Locality: "Portland", Region: "US-OR", Country: "United States"}, "portland-or-us", "America/Los_Angeles", ""},
		{"an ISO 3166-2 region, a town it lacks", Place{Locality: "Springfieldxyz", Region: "US-IL", Country: "US"}, "springfieldxyz-us", "America/Chicago", ""},
		{"a town the gazetteer lacks, coordinates tell the country", Place{Locality: "Kleinstadtxyz, DE", Lat: 51, Lon: 10, HasGeo: true}, "kleinstadtxyz-de", "Europe/Berlin", ""},
		{"a town the gazetteer lacks, no coordinates: the region first", Place{Locality: "Kleinstadtxyz, DE"}, "kleinstadtxyz-us", "America/New_York", ""},
		{"single-zone country, unknown town", Place{Locality: "Clun", Country: "GB"}, "clun-gb", "Europe/London", ""},
		{"a town of 2,000 people", Place{Locality: "Much Wenlock", Country: "GB"}, "much-wenlock", "Europe/London", ""},
		// Songkick and Bandsintown write Washington, DC as "Washington": two smaller
		// Washingtons (IL, UT) are in the gazetteer too.
		{"Washington, DC", Place{Locality: "Washington", Region: "DC", Country: "US"}, "washington-d-c", "America/New_York", ""},
		{"Washington, DC on one line", Place{Locality: "Washington, DC, US", Region: "DC", Country: "US"}, "washington-d-c", "America/New_York", ""},
		{"Washington alone", Place{Locality: "Washington", Country: "US"}, "washington-d-c", "America/New_York", ""},
		{"Washington, UT", Place{Locality: "Washington", Region: "UT", Country: "US"}, "washington-ut-us", "America/Denver", ""},
		// A stated region no namesake is in: a town the gazetteer lacks, not the largest namesake.
		{"a namesake in another region", Place{Locality: "Portland", Region: "TX", Country: "US"}, "portland-tx-us", "America/Chicago", ""},
		{"a namesake in another region, coordinates", Place{Locality: "Washington", Region: "Pennsylvania", Country: "US", Lat: 40.17, Lon: -80.25, HasGeo: true}, "washington-pa-us", "America/New_York", ""},
		{"a region unknown to the gazetteer does not count", Place{Locality: "London", Region: "Greater London", Country: "GB"}, "london-gb", "Europe/London", ""},
		// Songkick: the location's own state differs from its metro area's (Providence, RI).
		{"one line with another region than the stated one", Place{Locality: "Mansfield, MA, US", Region: "RI", Country: "US"}, "mansfield-ma-us", "America/New_York", ""},
		// From a review of these rules: a region's name after a street is the town; a
		// region outside the US, Canada and Australia may be another scheme's code; "Frankfurt"
		// is not Frankfurt (Oder).
		{"street, Washington + DC", Place{Locality: "815 V St NW, Washington, DC 20001", Region: "DC", Country: "US"}, "washington-d-c", "America/New_York", ""},
		{"street, New York + NY", Place{Locality: "1 Main St, New York, NY 10001", Region: "NY", Country: "US"}, "new-york", "America/New_York", ""},
		{"street, São Paulo + SP", Place{Locality: "Rua Augusta 1, São Paulo", Region: "SP", Country: "BR"}, "sao-paulo", "America/Sao_Paulo", ""},
		{"venue, Québec + QC", Place{Locality: "Le Grand Théâtre, Québec", Region: "QC", Country: "CA"}, "quebec", "America/Toronto", ""},
		{"street, Hamburg + HH", Place{Locality: "Reeperbahn 1, Hamburg", Region: "HH", Country: "DE"}, "hamburg", "Europe/Berlin", ""},
		{"Frankfurt", Place{Locality: "Frankfurt", Country: "DE", Lat: 50.1109, Lon: 8.6821, HasGeo: true}, "frankfurt-am-main", "Europe/Berlin", ""},
		{"Zürich, coordinates in Oerlikon", Place{Locality: "Zürich", Country: "CH", Lat: 47.4116, Lon: 8.5519, HasGeo: true}, "zurich", "Europe/Zurich", ""},
		{"Paris, département 75", Place{Locality: "Paris", Region: "75", Country: "FR"}, "paris", "Europe/Paris", ""},
		{"Tokyo, ISO 3166-2 JP-13", Place{Locality: "Tokyo", Region: "13", Country: "JP"}, "tokyo", "Asia/Tokyo", ""},
		{"Mexico City, México", Place{Locality: "Mexico City", Region: "México", Country: "MX"}, "mexico-city", "America/Mexico_City", ""},
		// A second review: a region's name after its town (a JSON-LD streetAddress holding the
		// whole address), and a line ending in another country than the stated one (Songkick's
		// venues across a border from their metro area).
		{"Toronto, Ontario", Place{Locality: "Toronto, Ontario", Region: "ON", Country: "CA"}, "toronto", "America/Toronto", ""},
		{"Montréal, Québec", Place{Locality: "Montréal, Québec", Region: "QC", Country: "CA"}, "montreal", "America/Toronto", ""},
		{"Seattle, Washington", Place{Locality: "Seattle, Washington", Region: "WA", Country: "US"}, "seattle", "America/Los_Angeles", ""},
		{"Portland, Oregon", Place{Locality: "Portland, Oregon", Region: "OR", Country: "US"}, "portland-or-us", "America/Los_Angeles", ""},
		{"street, Springfield, Massachusetts", Place{Locality: "1 Main St, Springfield, Massachusetts 01103", Region: "MA", Country: "US"}, "springfield-ma-us", "America/New_York", ""},
		{"Kansas City, Kansas", Place{Locality: "Kansas City, Kansas", Region: "KS", Country: "US"}, "kansas-city-ks-us", "America/Chicago", ""},
		{"Melbourne, Victoria", Place{Locality: "Melbourne, Victoria", Region: "VIC", Country: "AU"}, "melbourne", "Australia/Melbourne", ""},
		{"Washington, District of Columbia", Place{Locality: "Washington, District of Columbia", Region: "DC", Country: "US"}, "washington-d-c", "America/New_York", ""},
		{"Windsor, ON, Canada in Detroit's metro", Place{Locality: "Windsor, ON, Canada", Region: "MI", Country: "US"}, "windsor-ca", "America/Toronto", ""},
		{"Tijuana, Mexico in San Diego's metro", Place{Locality: "Tijuana, Mexico", Region: "CA", Country: "US"}, "tijuana", "America/Tijuana", ""},
		{"coordinates, unknown town", Place{Locality: "Red Rocks", Country: "US", Lat: 39.665, Lon: -105.205, HasGeo: true}, "red-rocks-us", "America/Denver", ""},
		{"stated zone, unknown town", Place{Locality: "Red Rocks", Country: "US", Zone: "America/Denver"}, "red-rocks-us", "America/Denver", ""},
		{"multi-zone country, nothing to tell", Place{Locality: "Red Rocks", Country: "US"}, "", "", `unknown city "Red Rocks" in US, and no time zone`},
		{"no country, namesakes in one country", Place{Locality: "Springfield"}, "", "", `ambiguous place: "Springfield" names 20 towns in US (Missouri, Massachusetts, Illinois, and 17 more)`},
		{"no country, a city far larger than its namesakes", Place{Locality: "Toronto"}, "toronto", "America/Toronto", ""},
		{"no country, namesakes of like size", Place{Locality: "Valencia"}, "", "", "has no country, and the city's name does not tell it"},
		{"no country, coordinates tell the namesake", Place{Locality: "Valencia", Lat: 39.47, Lon: -0.38, HasGeo: true}, "valencia", "Europe/Madrid", ""},
		{"a country's name as the locality, coordinates", Place{Locality: "Netherlands", Lat: 52.255, Lon: 6.16, HasGeo: true}, "deventer", "Europe/Amsterdam", ""},
		{"coordinates longitude first", Place{Country: "NL", Lat: 6.16, Lon: 52.255, HasGeo: true}, "deventer", "Europe/Amsterdam", ""},
		{"coordinates only", Place{Lat: 52.255, Lon: 6.16, HasGeo: true}, "deventer", "Europe/Amsterdam", ""},
		{"a single-zone state", Place{Locality: "Zumbro Falls", Region: "MN", Country: "US"}, "zumbro-falls-us", "America/Chicago", ""},
		{"a town of one state of several", Place{Locality: "Litchfield", Region: "MN", Country: "US"}, "litchfield-mn-us", "America/Chicago", ""},
		{"a state of two zones", Place{Locality: "Nowhere Springs", Region: "FL", Country: "US"}, "", "", "no time zone"},
		{"unknown country", Place{Locality: "Atlantis", Country: "Atlantis"}, "", "", `unknown country "Atlantis"`},
		{"no city", Place{Country: "GB"}, "", "", "venue has no city"},
		{"no city in a city state", Place{Locality: "Singapore"}, "singapore", "Asia/Singapore", ""},
		{"nothing", Place{}, "", "", "venue has no city and no country"},
	}
	for _, tt := range tests {
		c, err := Default().Locate(tt.p)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %+v, %v; want error %q", tt.name, c, err, tt.err)
			}
			continue
		}
		if err != nil || c.Slug != tt.slug || c.Timezone != tt.zone || c.Location.String() != tt.zone {
			t.Errorf("%s: %+v, %v; want %s in %s", tt.name, c, err, tt.slug, tt.zone)
		}
	}
}

func TestEveryCountryHasCities(t *testing.T) {
	g := Default()
	if n := len(g.bySlug); n < 24000 {
		t.Errorf("%d cities", n)
	}
	for _, code := range []string{"US", "GB", "DE", "JP", "BR", "NG", "IN", "AU", "CA", "KE", "IS", "NZ"} {
		if len(g.byCountry[code]) == 0 {
			t.Errorf("no city in %s", code)
		}
	}
	for _, c := range g.bySlug {
		if c.Location == nil || !c.HasGeo {
			t.Fatalf("%+v", c)
		}
	}
}

func TestWithFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "places.tsv")
	os.WriteFile(path, []byte("# ours\nred-rocks\tRed Rocks\tUS\tCO\tColorado\tAmerica/Denver\t39.665\t-105.205\t0\tRed Rocks Park\n"+
		"krakow\tCracow\tPL\t\t\tEurope/Warsaw\n"), 0o644)
	g, err := WithFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"Red Rocks Park": "red-rocks", "Cracow": "krakow", "Leeds": "leeds"} {
		country := map[string]string{"Red Rocks Park": "US", "Cracow": "PL", "Leeds": "GB"}[name]
		if c, err := g.Locate(Place{Locality: name, Country: country}); err != nil || c.Slug != want {
			t.Errorf("%s: %+v, %v; want %s", name, c, err, want)
		}
	}
	if c, _ := g.Locate(Place{Locality: "Cracow", Country: "PL"}); c.Name != "Cracow" {
		t.Errorf("the file does not replace krakow: %+v", c)
	}
	if c, _ := Default().Locate(Place{Locality: "Kraków", Country: "PL"}); c.Name != "Kraków" {
		t.Errorf("the default gazetteer changed: %+v", c)
	}
	for content, want := range map[string]string{
		"x\tX\tZZ\t\t\tUTC\n":             "unknown country",
		"x\tX\tGB\t\t\tMars/Olympus\n":    "unknown time zone",
		"x\tX\tGB\n":                      "want at least",
		"x\tX\tGB\t\t\tUTC\t99\t0\n":      "bad coordinates",
		"x\tX\tGB\t\t\tUTC\t1\t1\tmany\n": "bad population",
	} {
		os.WriteFile(path, []byte(content), 0o644)
		if _, err := WithFile(path); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "places.tsv:1") {
			t.Errorf("%q: %v, want %q at line 1", content, err, want)
		}
	}
}
