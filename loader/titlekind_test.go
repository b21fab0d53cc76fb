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
		``:  "",
		`"`: "",
	} {
		if got := titleKind(title); got != want {
			t.Errorf("titleKind(%q) = %q; want %q", title, got, want)
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
