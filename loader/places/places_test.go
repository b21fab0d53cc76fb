package places

import "testing"

func TestCountry(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"DE", "DE", true}, {"de", "DE", true}, {"Deutschland", "DE", true}, {"germany", "DE", true},
		{"United Kingdom", "GB", true}, {"UK", "GB", true}, {"Éire", "IE", true}, {"Österreich", "AT", true},
		{"U.S.A.", "US", true}, {"Taiwan", "TW", true}, {"uruguay", "UY", true}, {"Thailand", "TH", true}, {"XX", "", false}, {"Atlantis", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		got, ok := Country(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Country(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLookupCity(t *testing.T) {
	tests := []struct {
		name, country, want, err string
	}{
		{"Kraków", "PL", "krakow", ""},
		{"KRAKOW", "", "krakow", ""},
		{"Bangalore", "IN", "bengaluru", ""},
		{"London", "GB", "london-gb", ""},
		{"London", "CA", "london-ca", ""},
		{"London", "", "", `city "London" is ambiguous without a country`},
		{"London", "FR", "", `no city "London" in country FR`},
		{"Gotham", "US", "", `unknown city "Gotham"`},
		{"St Johns", "CA", "st-johns", ""},
		{"Köln", "DE", "cologne", ""},
		{"İstanbul", "TR", "istanbul", ""},
		{"Göteborg", "", "gothenburg", ""},
		{"Delhi", "IN", "delhi", ""},
		{"Santiago de Chile", "CL", "santiago", ""},
		{"Bogota", "CO", "bogota", ""},
		{"Taipei", "TW", "taipei", ""},
		{"Montevideo", "UY", "montevideo", ""},
	}
	for _, tt := range tests {
		c, err := LookupCity(tt.name, tt.country)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("LookupCity(%q, %q) error = %v, want %q", tt.name, tt.country, err, tt.err)
			}
			continue
		}
		if err != nil || c.Slug != tt.want {
			t.Errorf("LookupCity(%q, %q) = %v, %v; want %s", tt.name, tt.country, c, err, tt.want)
		}
	}
}
