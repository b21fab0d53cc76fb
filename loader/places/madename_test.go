package places

import (
	"errors"
	"testing"
)

// TestMadeName checks the names a town the gazetteer lacks is made under (madename.go):
// a street or a square where the town would be is never made a town, and a remark in
// brackets after the town is left out of its name. The lines are a municipal agenda's
// (Póvoa de Varzim) and a Los Angeles jazz listing's (testdata/real/ical).
func TestMadeName(t *testing.T) {
	g := Default()
	for _, tt := range []struct {
		name      string
		p         Place
		ctx       Context
		slug      string // "" when the place must fail with ErrStreet
		wantTZ    string
		wantMade  bool
		wantLabel string
	}{
		{"a square and a list of squares", Place{Locality: "Praça da República, Largo Dr. David Alves e Largo do Passeio Alegre", Country: "PT"}, Context{Zone: "Europe/Lisbon"}, "", "", false, ""},
		{"a street", Place{Locality: "Rua Dr. Leonardo Coimbra", Country: "PT"}, Context{}, "", "", false, ""},
		{"a Spanish square and street", Place{Locality: "Plaza Mayor y Calle Real", Country: "ES"}, Context{}, "", "", false, ""},
		{"a street in capitals", Place{Locality: "RUA DR LEONARDO COIMBRA", Country: "PT"}, Context{}, "", "", false, ""},
		{"an Italian square named after a person", Place{Locality: "Piazza Giuseppe Garibaldi", Country: "IT"}, Context{}, "", "", false, ""},
		{"a French street named after a person", Place{Locality: "Rue Victor Hugo", Country: "FR"}, Context{}, "", "", false, ""},
		{"a street of a date", Place{Locality: "Avenida 5 de Outubro", Country: "PT"}, Context{}, "", "", false, ""},
		{"a square ending a list of squares", Place{Locality: "Largo do Passeio Alegre", Street: "Praça da República, Largo Dr. David Alves e", Country: "PT"}, Context{Zone: "Europe/Lisbon"}, "", "", false, ""},
		{"a Polish street", Place{Locality: "ul. Piotrkowska", Country: "PL"}, Context{}, "", "", false, ""},
		{"a remark after a town the gazetteer lacks", Place{Locality: "Zzyzxville (Herb Alpert's club)", Country: "US", Region: "CA"}, Context{}, "zzyzxville-us", "America/Los_Angeles", true, "Zzyzxville"},
		{"a remark after the town in the feed's zone", Place{Locality: "Bel Air (Herb Alpert's club)", Country: "US"}, Context{Zone: "America/Los_Angeles"}, "bel-air-us", "America/Los_Angeles", true, "Bel Air"},
		// Towns of those words, which the gazetteer has or which are not streets. Towns the
		// gazetteer lacks whose names start with a street's word, with no street's evidence,
		// are made in the feed's zone: so is a square of that shape ("Piazza del Popolo",
		// "Rue de la Paix"), which no rule tells from them.
		{"a comune", Place{Locality: "Piazza al Serchio", Country: "IT"}, Context{Zone: "Europe/Rome"}, "piazza-al-serchio-it", "Europe/Rome", true, "Piazza al Serchio"},
		{"a municipio", Place{Locality: "Alameda de la Sagra", Country: "ES"}, Context{Zone: "Europe/Madrid"}, "alameda-de-la-sagra-es", "Europe/Madrid", true, "Alameda de la Sagra"},
		{"a comuna", Place{Locality: "Calle Larga", Country: "CL"}, Context{Zone: "America/Santiago"}, "calle-larga-cl", "America/Santiago", true, "Calle Larga"},
		{"a municipio", Place{Locality: "Ronda Alta", Country: "BR"}, Context{Zone: "America/Sao_Paulo"}, "ronda-alta-br", "America/Sao_Paulo", true, "Ronda Alta"},
		{"a comune in capitals", Place{Locality: "PIAZZA AL SERCHIO", Country: "IT"}, Context{Zone: "Europe/Rome"}, "piazza-al-serchio-it", "Europe/Rome", true, "PIAZZA AL SERCHIO"},
		{"a comune after a street", Place{Locality: "Piazza al Serchio", Street: "Via Roma", Country: "IT"}, Context{Zone: "Europe/Rome"}, "piazza-al-serchio-it", "Europe/Rome", true, "Piazza al Serchio"},
		{"a square of a comune's shape", Place{Locality: "Piazza del Popolo", Country: "IT"}, Context{Zone: "Europe/Rome"}, "piazza-del-popolo-it", "Europe/Rome", true, "Piazza del Popolo"},
		{"a town named Largo", Place{Locality: "Largo", Country: "US", Region: "FL"}, Context{}, "largo", "America/New_York", false, "Largo"},
		{"a town whose name holds a street's word later", Place{Locality: "Monte Plaza", Country: "PT"}, Context{Zone: "Europe/Lisbon"}, "monte-plaza-pt", "Europe/Lisbon", true, "Monte Plaza"},
		{"an Arabic article", Place{Locality: "Al Thakira", Country: "QA"}, Context{}, "al-thakira-qa", "Asia/Qatar", true, "Al Thakira"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := g.Read(tt.p, tt.ctx)
			if tt.slug == "" {
				if !errors.Is(err, ErrStreet) {
					t.Fatalf("read %v, error %v; want ErrStreet", r.City, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v; want %s", err, tt.slug)
			}
			if r.City.Slug != tt.slug || r.City.Timezone != tt.wantTZ || r.Made != tt.wantMade || r.City.Name != tt.wantLabel {
				t.Errorf("%s %q in %s (made %v); want %s %q in %s (made %v)", r.City.Slug, r.City.Name, r.City.Timezone, r.Made,
					tt.slug, tt.wantLabel, tt.wantTZ, tt.wantMade)
			}
		})
	}
}

// TestMadeTownNames checks the names of towns made from one-line places: a "St" (Saint)
// inside a town's name after no house number is no street's word ("West St Paul" is not
// made "Paul"), and a qualifier in brackets that tells a town from a namesake the
// gazetteer has is kept ("Linz (Donau)" is not a second Linz).
func TestMadeTownNames(t *testing.T) {
	g := Default()
	for _, c := range []struct{ loc, country, want string }{
		{"West St Paul, MN", "US", "West St Paul"},
		{"North St Paul, MN", "US", "North St Paul"},
		{"Mount St Joseph, OH", "US", "Mount St Joseph"},
		{"Lake St Croix Beach, MN", "US", "Lake St Croix Beach"},
		{"Port St Mary, Isle of Man", "", "Port St Mary"},
		{"Halle (Westf.)", "DE", "Halle (Westf.)"},
		{"Frankfurt (Main)", "DE", "Frankfurt (Main)"},
		{"Linz (Donau)", "AT", "Linz (Donau)"},
	} {
		r, err := g.Read(Place{Locality: c.loc}, Context{Country: c.country})
		if err != nil {
			t.Errorf("%q: %v", c.loc, err)
			continue
		}
		if r.City.Name != c.want {
			t.Errorf("%q: town %q (slug %s, made %v), want %q", c.loc, r.City.Name, r.City.Slug, r.Made, c.want)
		}
	}
}
