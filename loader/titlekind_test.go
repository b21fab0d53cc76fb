package loader

import (
	"strings"
	"testing"
)

// TestTitleKind checks titles of town agendas that state no kinds (titlekind.go): the
// municipal agenda of Póvoa de Varzim and Monesterio's (testdata/real/ical), a makerspace's
// (ical/fablab-cottbus-ai1ec-events.ics); and titles that must stay music.
func TestTitleKind(t *testing.T) {
	for title, want := range map[string]string{
		`Cinema "Um Conto de Duas Cidades"`:                              "Cinema",
		`Teatro para bebés "Monstro de Companhia"`:                       "Teatro",
		`Exposição "O Império do Medo"`:                                  "Exposição",
		`Mostra de Pintura "ACERVO"`:                                     "Mostra",
		`Apresentação do livro “Submersas”`:                              "Apresentação",
		`Lançamento do Livro "Grande é o Homem que Morre no Mar"`:        "Lançamento",
		`Conferência sobre “O Bilhete Postal na História Local"`:         "Conferência",
		`Oficina "Do Plástico fiz Sardinha"`:                             "Oficina",
		`Charla sobre prevención de fraudes`:                             "Charla",
		`Viaje a la Feria Internacional Ganadera de Zafra`:               "Viaje",
		`Workshop: Einführung CNC-Fräsen`:                                "Workshop",
		`Concerto Juliana Linhares "Até Cansar o Cansaço"`:               "",
		`Opereta "A Morte do Diabo"`:                                     "",
		`Sons no Património: Inês Marques Lucas`:                         "",
		`Teatro musical "O Fantasma da Ópera"`:                           "", // music named
		`Cine-concierto: Star Wars`:                                      "", // a concert named
		`Cinema Strange`:                                                 "", // a band
		`Racing - Barça`:                                                 "", // a football club, no kind
		`Family`:                                                         "",
		`IX Festival de Jazz Itinerante «Di Jazz»: Javier Pérez Quartet`: "",
		`Presentación del nuevo disco de Zahara`:                         "", // a record's launch
		`Lançamento do álbum de Capicua`:                                 "",
		`Apresentação do álbum "Ilhas" – Mariza`:                         "",
		`Presentazione del disco di Brunori Sas`:                         "",
		`Presentación de "Ruido" (libro) de Ana Gil`:                     "Presentación",
		`Messe de Minuit pour Noël (Charpentier)`:                        "", // a Mass, no trade fair
		`Teatro: Paolo Conte`:                                            "", // a hall, then the show
		`Teatro de la Zarzuela: Ainhoa Arteta`:                           "",
		`Teatro "Hamlet": a estreia`:                                     "Teatro",
		`Kino: tributo a Viktor Tsoi`:                                    "", // a band
		`Workshop: Sun Ra Arkestra`:                                      "", // a name after the colon
		`Family: Live in Lisbon`:                                         "",
		`Play: The Tribute`:                                              "",
		`Charla: prevención de fraudes`:                                  "Charla",
		``:                                                               "",
		`"`:                                                              "",
	} {
		if got := titleKind(title); got != want {
			t.Errorf("titleKind(%q) = %q; want %q", title, got, want)
		}
	}
}

// TestTitleKindKeepsConcerts adds concerts whose titles start with a kind's word, from a
// source that states no kinds: each is a gig.
func TestTitleKindKeepsConcerts(t *testing.T) {
	for _, tt := range []struct{ title, venue, city, country string }{
		{"Presentación del nuevo disco de Zahara", "Sala But", "Madrid", "ES"},
		{"Lançamento do álbum de Capicua", "Musicbox", "Lisboa", "PT"},
		{"Apresentação do álbum \"Ilhas\" – Mariza", "Coliseu", "Porto", "PT"},
		{"Presentazione del disco di Brunori Sas", "Alcatraz", "Milano", "IT"},
		{"Messe de Minuit pour Noël (Charpentier)", "Église Saint-Eustache", "Paris", "FR"},
		{"Teatro de la Zarzuela: Ainhoa Arteta", "Teatro de la Zarzuela", "Madrid", "ES"},
		{"Kino: tributo a Viktor Tsoi", "Musicbox", "Lisboa", "PT"},
	} {
		ev := event(tt.title, tt.venue, tt.city, tt.country, "2026-07-01T21:00")
		if err := newNormalizer(noon, 1).add(&ev, 0, RoleVenue); err != nil {
			t.Errorf("%q dropped: %v", tt.title, err)
		}
	}
}

// FuzzTitleKind reads arbitrary titles: no panic, and a kind found is the title's first word.
func FuzzTitleKind(f *testing.F) {
	for _, s := range []string{`Cinema "X"`, "Teatro para bebés", "Workshop: X", "Racing - Barça", "é:", "-:", "\xff: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		if k := titleKind(title); k != "" && !strings.HasPrefix(strings.TrimSpace(title), k) {
			t.Fatalf("titleKind(%q) = %q: not its first word", title, k)
		}
	})
}
