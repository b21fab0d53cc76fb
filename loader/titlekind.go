package loader

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/engine"
)

// A town's agenda lists its concerts among its films, plays, exhibitions, talks and book
// launches, and states no kinds (no CATEGORIES): its titles name the kind first, then the
// work, quoted or joined by a preposition: 'Cinema "Um Conto de Duas Cidades"', 'Teatro
// para bebés "Monstro de Companhia"', 'Exposição "O Império do Medo"', "Apresentação do
// livro…", "Conferência sobre…" (the municipal agenda of Póvoa de Varzim), "Charla sobre
// prevención de fraudes" (Monesterio's). An event whose source states no kind, and whose
// title so starts with a word of a kind that is not music (otherWord, titleKindWords), is
// not music; a title that names music anywhere ("Teatro musical", "Cine-concierto") keeps
// it, and so does a title whose first word stands alone or before a name ("Cinema Strange",
// a band; "Racing - Barça", a football club): only a quote or a colon, or in the Romance
// languages a preposition, after the word makes it the title's kind.

// titleKindWords are the words, folded, that start a title naming a kind that is not
// music, beyond otherWord's: Portuguese, Spanish and Italian words for an exhibition, a
// talk, a presentation or launch of a book, a workshop, a film, a trip and a visit.
var titleKindWords = wordSet("exposicao exposicion esposizione conferencia conferenza palestra charla coloquio " +
	"apresentacao presentacion presentazione lancamento oficina curso corso filme pelicula documental " +
	"documentario viaje viagem excursion excursao visita")

// kindPrepositions join a title's kind to its subject in Portuguese, Spanish, Italian and
// French ("Mostra de Pintura", "Teatro para bebés", "Conferência sobre…").
var kindPrepositions = wordSet("de do da dos das del della delle di sobre para per a al sul sur en con com")

// titleKind returns the word that starts a title naming a kind that is not music (see
// above), or "" when the title names none or names music.
func titleKind(title string) string {
	title = strings.TrimSpace(title)
	end := strings.IndexFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	if end <= 0 {
		return ""
	}
	first, rest := title[:end], strings.TrimLeftFunc(title[end:], unicode.IsSpace)
	w := engine.Fold(first)
	if !otherWord(w) && !titleKindWords[w] {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(rest)
	switch {
	case strings.ContainsRune("\"“”„«»'‘’:", r):
	case kindPrepositions[engine.Fold(strings.SplitN(rest, " ", 2)[0])]:
	default:
		return ""
	}
	for _, w := range strings.Fields(engine.Fold(title)) {
		if musicWord(w) || concertWords[w] || strings.HasPrefix(w, "music") || strings.HasPrefix(w, "musik") {
			return ""
		}
	}
	return first
}
