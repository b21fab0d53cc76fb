package loader

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestStreetInHintCity reads LOCATION lines of a municipal agenda (testdata/real/ical/
// povoa-de-varzim-municipal.ics) whose town part is a street or a square (hintcity.go):
// in the city of the operator's hint when it names one, and dropped with the reason
// without; a line that names a town keeps it whatever the hint says.
func TestStreetInHintCity(t *testing.T) {
	povoa := &VenueHint{City: "Póvoa de Varzim", Country: "PT"}
	tests := []struct {
		name string
		hint *VenueHint
		line string
		want string // the city's slug; "" when dropped
		by   string // the start of what decided it
	}{
		{"squares", povoa, "Praça do Almada\\, Praça da República\\, Largo Dr. David Alves e\\n Largo do Passeio Alegre", "povoa-de-varzim", "the source's configured city (Póvoa de Varzim)"},
		{"a street", povoa, "Cine-Teatro Garrett\\, Rua Dr. Leonardo Coimbra", "povoa-de-varzim", "the source's configured city (Póvoa de Varzim)"},
		{"no hint", nil, "Cine-Teatro Garrett\\, Rua Dr. Leonardo Coimbra\\, Portugal", "", ""},
		{"a hint of a country alone", &VenueHint{Country: "PT"}, "Cine-Teatro Garrett\\, Rua Dr. Leonardo Coimbra", "", ""},
		{"a town stated", povoa, "Teatro Municipal\\, Fuente de Cantos\\, Spain", "fuente-de-cantos", ""},
		{"the hint's city, filled", povoa, "Cine-Teatro Garrett", "povoa-de-varzim", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := event("Concerto Pedro Abrunhosa", "", "", "", "2026-11-14T21:30")
			ev.Ref = "a"
			line := strings.NewReplacer("\\,", ",", "\\n", ",").Replace(tt.line)
			ev.Venue = orderPlace(line, "Europe/Lisbon", "", 0, 0)
			if h := tt.hint; h != nil { // as the source fills what the line leaves empty
				fill(&ev.Venue.Locality, h.City)
				fill(&ev.Venue.Country, h.Country)
			}
			n := newNormalizer(noon, 1)
			var sr SourceReport
			n.addAll([]source.Event{ev}, 0, Source{Home: tt.hint}, &sr)
			got, by := "", ""
			for _, r := range n.recs {
				got = r.city.Slug
			}
			for _, p := range sr.Places {
				by = p.By
			}
			if got != tt.want || !strings.HasPrefix(by, tt.by) {
				t.Errorf("placed in %q by %q; want %q by %q… (dropped %+v)", got, by, tt.want, tt.by, sr.Dropped)
			}
			if tt.want == "" && (len(sr.Dropped) != 1 || !strings.Contains(sr.Dropped[0].Reason, "names a street")) {
				t.Errorf("dropped %s; want the street's reason", fmt.Sprint(sr.Dropped))
			}
		})
	}
}
