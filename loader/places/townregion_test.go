package places

import "testing"

// TestTownBeforeNoTown checks "Town, Region" with the region in a language the gazetteer
// does not know (townregion.go): the town, never a town made from the region's name.
func TestTownBeforeNoTown(t *testing.T) {
	g := Default()
	tests := []struct {
		name string
		p    Place
		slug string // "" when the reading fails
		by   string // what decided it, when slug is set
	}{
		{"a German state in German", Place{Locality: "Haßfurt, Bayern", Country: "Deutschland"}, "hassfurt", byTownBeforeNoTown},
		{"a Danish region in Danish", Place{Locality: "Ribe, Syddanmark", Country: "DK"}, "ribe", byTownBeforeNoTown},
		{"a postcode before the town", Place{Locality: "97437 Haßfurt, Bayern", Country: "DE"}, "hassfurt", byTownBeforeNoTown},
		// Not this rule's.
		{"the region the gazetteer knows", Place{Locality: "Haßfurt, Bavaria", Country: "DE"}, "hassfurt", byTownBeforePlace},
		{"a street before the town", Place{Locality: "Hauptstraße 5, Haßfurt", Country: "DE"}, "hassfurt", ""},
		{"a district before its city", Place{Locality: "Kreuzberg, Berlin", Country: "DE"}, "berlin", ""},
		{"no country stated", Place{Locality: "Haßfurt, Bayern"}, "", ""},
		{"a town of several, and a region not known", Place{Locality: "Springfield, Zzyzx County", Country: "US"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := g.Read(tt.p, Context{})
			if tt.slug == "" {
				if err == nil && r.By == byTownBeforeNoTown {
					t.Errorf("read as %s by %q", r.City.Slug, r.By)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v; want %s", err, tt.slug)
			}
			if r.City.Slug != tt.slug || r.Made || r.By != tt.by {
				t.Errorf("%s (made %v, by %q); want %s by %q", r.City.Slug, r.Made, r.By, tt.slug, tt.by)
			}
		})
	}
}
