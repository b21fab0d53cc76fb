package places

import (
	"slices"
	"testing"
)

// TestVillages checks how the gazetteer's villages (places of 500 to 999 people, minTown)
// are read: by their name where no town bears it, alone or with their country or region;
// never against a town of their name, in their country or abroad, nor in another region
// than the stated one; and as a town the gazetteer lacks when several of the country bear
// the name and nothing tells which. (Populations are GeoNames'.)
func TestVillages(t *testing.T) {
	guessedAT := Context{Country: "AT", CountryBy: "the feed's towns", Guessed: true}
	statedAT := Context{Country: "AT", CountryBy: "the source's country"}
	tests := []struct {
		name    string
		p       Place
		ctx     Context
		country string
		region  string // the city's region code
		village bool   // a village of the gazetteer
		made    bool
		by      string // Reading.By
	}{
		{"a village no town's name bears", Place{Locality: "Yoxford"}, Context{}, "GB", "ENG", true, false, ""},
		{"a village with its country", Place{Locality: "Yoxford, UK"}, Context{}, "GB", "ENG", true, false, ""},
		{"a village before its county, on one line", Place{Locality: "Yoxford, Suffolk, UK"}, Context{}, "GB", "ENG", true, false, byTownBeforeNoTown},
		{"a village with its county, a region the gazetteer does not know", Place{Locality: "Yoxford", Region: "Suffolk", Country: "GB"}, Context{}, "GB", "ENG", true, false, ""},
		{"a village with a postcode of no dataset", Place{Locality: "Yoxford IP17 3EX", Country: "GB"}, Context{}, "GB", "ENG", true, false, ""},
		// Fischbach: a town of 1,672 and villages of 916 and 880 in Germany.
		{"a town of the country before its villages", Place{Locality: "Fischbach", Country: "Germany"}, Context{}, "DE", "", false, false, ""},
		// Weibern: a town of 1,585 in Germany, a village of 711 in Austria.
		{"a bare name: the town, not a village abroad", Place{Locality: "Weibern"}, Context{}, "DE", "08", false, false, ""},
		{"the village with its country", Place{Locality: "Weibern, Austria"}, Context{}, "AT", "04", true, false, ""},
		{"the village in a feed stated in its country", Place{Locality: "Weibern"}, statedAT, "AT", "04", true, false, "the source's country"},
		{"a guessed country's village never beats a town abroad", Place{Locality: "Weibern"}, guessedAT, "DE", "08", false, false, ""},
		// Neuendorf: villages of 899 in Schleswig-Holstein and 917 in Bavaria.
		{"villages nothing tells apart: the town is made", Place{Locality: "Neuendorf", Country: "DE"}, Context{}, "DE", "", false, true, ""},
		{"the village of the stated region", Place{Locality: "Neuendorf", Region: "Schleswig-Holstein", Country: "DE"}, Context{}, "DE", "10", true, false, ""},
		// Mustin: villages in Mecklenburg-Vorpommern and Schleswig-Holstein only.
		{"no village of the stated region: made there", Place{Locality: "Mustin", Region: "Bavaria", Country: "DE"}, Context{}, "DE", "Bavaria", false, true, ""},
	}
	for _, tt := range tests {
		r, err := Default().Read(tt.p, tt.ctx)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		c := r.City
		if c.Country != tt.country || tt.region != "" && c.Region != tt.region || c.village() != tt.village || r.Made != tt.made || r.By != tt.by {
			t.Errorf("%s: %s (%s, %s, %d people) made %v by %q; want %s, %q, village %v, made %v by %q",
				tt.name, c.Slug, c.Country, c.Region, c.Population, r.Made, r.By, tt.country, tt.region, tt.village, tt.made, tt.by)
		}
		if !r.Made && c.Location == nil {
			t.Errorf("%s: %s has no zone", tt.name, c.Slug)
		}
	}
}

// TestVillagesKeepTownReadings checks the class: every town of the gazetteer (every
// seventh, for time), read by its name with its country and by its name alone, is read as
// the gazetteer without its villages reads it, with the same reason or error.
func TestVillagesKeepTownReadings(t *testing.T) {
	full := Default()
	es := slices.DeleteFunc(full.entries(), func(e entry) bool { return e.city.village() })
	if len(es) == len(full.cities) {
		t.Fatal("the gazetteer has no villages")
	}
	towns, err := build(es)
	if err != nil {
		t.Fatal(err)
	}
	describe := func(r Reading, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return r.City.Slug + " by " + r.By
	}
	differ := 0
	for i, c := range towns.cities {
		if i%7 != 0 {
			continue
		}
		for _, p := range []Place{{Locality: c.Name, Country: c.Country}, {Locality: c.Name}} {
			want, got := describe(towns.Read(p, Context{})), describe(full.Read(p, Context{}))
			if got != want {
				if differ++; differ <= 20 {
					t.Errorf("%+v: %s with villages; %s without", p, got, want)
				}
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d readings of towns changed by the villages", differ)
	}
}

// TestStandsOutTownOverVillages checks that a village never stands against a town of its
// name, and that villages alone stand out by population as towns do.
func TestStandsOutTownOverVillages(t *testing.T) {
	town := &City{Slug: "town", Population: 1200}
	bigVillage := &City{Slug: "big-village", Population: 900}
	smallVillage := &City{Slug: "small-village", Population: 200}
	tests := []struct {
		name string
		cs   []*City
		want *City
		by   string
	}{
		{"a town among villages", []*City{bigVillage, town}, town, byTown},
		{"villages, none four times the other", []*City{bigVillage, &City{Slug: "other", Population: 600}}, nil, ""},
		{"villages, one four times the other", []*City{bigVillage, smallVillage}, bigVillage, byPopulation},
	}
	for _, tt := range tests {
		if c, by := standsOut(tt.cs, Context{}); c != tt.want || by != tt.by {
			t.Errorf("%s: %v by %q; want %v by %q", tt.name, c, by, tt.want, tt.by)
		}
	}
	list := []*City{town, {Slug: "unknown"}, bigVillage, smallVillage} // as allNamed lists them
	if got := towns(list); len(got) != 2 {
		t.Errorf("towns of a list with two towns: %d", len(got))
	}
	if got := towns(list[2:]); len(got) != 2 {
		t.Errorf("towns of a list of villages: %d; want the villages", len(got))
	}
}
