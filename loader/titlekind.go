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
// title so starts with a word of titleKindWords, is not music. Only those words count, not
// every word of otherWord: a kind's word also starts concerts' titles as a band's, a
// series' or a church service's name ("Kino: tributo a Viktor Tsoi", "Family: Live in
// Lisbon", "Messe de Minuit").
//
// A title keeps its event when it names music or a record anywhere ("Teatro musical",
// "Cine-concierto", "Presentación del nuevo disco de Zahara"); when its first word stands
// alone or before a name ("Cinema Strange", a band; "Racing - Barça", a football club);
// when a presentation or launch presents no book ("Lançamento do álbum…"); when the word
// of a hall starts a venue's name before a colon ("Teatro: Paolo Conte", "Teatro de la
// Zarzuela: Ainhoa Arteta"); and when a colon puts a name after the kind ("Workshop: Sun Ra
// Arkestra") rather than a description or a lesson ("Workshop: Einführung CNC-Fräsen").
// Only a quote or a colon, or in the Romance languages a preposition, after the word makes
// it the title's kind.

// titleKindWords are the words, folded, that start a title naming a kind that is not
// music: a film, a play, an exhibition, a talk, a workshop or course, a trip or visit, and
// a presentation or launch (of a book: presentWords).
var titleKindWords = wordSet("cinema cine filme film pelicula documental documentario documentaire " +
	"teatro theatre theater " +
	"exposicao exposicion esposizione exposition exhibition ausstellung mostra " +
	"conferencia conferenza conference palestra charla coloquio lecture vortrag lesung " +
	"oficina taller workshop curso corso course kurs " +
	"viaje viagem excursion excursao visita " +
	"apresentacao presentacion presentazione presentation lancamento launch")

// hallWords are the kind words that also start a hall's name ("Teatro Rivoli", "Cinema
// São Jorge"): before a colon they name the venue, not the kind.
var hallWords = wordSet("cinema cine teatro theatre theater")

// presentWords present or launch a work: a book's presentation is a talk, a record's a
// concert, so they name the title's kind only when a word of bookWords follows.
var presentWords = wordSet("apresentacao presentacion presentazione presentation lancamento launch")

// bookWords name a book, folded.
var bookWords = wordSet("livro livros libro libros book books llibre llibres livre livres buch romanzo romance novela poemario")

// recordWords name a record, folded: a title naming one is a concert (an album's launch).
var recordWords = wordSet("disco discos disc album albums albuns ep single cd lp vinilo vinil vinyl maxi")

// lessonWords, folded, start what a class teaches ("Workshop: Einführung CNC-Fräsen").
var lessonWords = wordSet("einfuhrung grundlagen einsteiger anfanger introduction introduccion introducao " +
	"introduzione iniciacion iniciacao basics beginners")

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
	if !titleKindWords[w] {
		return ""
	}
	colon := strings.IndexByte(rest, ':')
	r, _ := utf8.DecodeRuneInString(rest)
	switch {
	case hallWords[w] && colon >= 0 && !strings.ContainsAny(rest[:colon], "\"“”„«»'‘’"):
		return "" // a hall's name, then the show
	case r == ':':
		if !describes(rest[1:]) {
			return ""
		}
	case strings.ContainsRune("\"“”„«»'‘’", r):
	case kindPrepositions[engine.Fold(strings.SplitN(rest, " ", 2)[0])]:
	default:
		return ""
	}
	words := strings.FieldsFunc(engine.Fold(title), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	book := false
	for _, w := range words {
		if musicWord(w) || concertWords[w] || recordWords[w] || strings.HasPrefix(w, "music") || strings.HasPrefix(w, "musik") {
			return ""
		}
		book = book || bookWords[w]
	}
	if presentWords[w] && !book {
		return ""
	}
	return first
}

// describes reports whether s, what follows a kind's colon, describes the event (a word
// in lower case, or a lesson) rather than names it ("Sun Ra Arkestra").
func describes(s string) bool {
	for _, f := range strings.Fields(s) {
		r, _ := utf8.DecodeRuneInString(f)
		if unicode.IsLower(r) || lessonWords[engine.Fold(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) }))] {
			return true
		}
	}
	return false
}

// kindPrepositions join a title's kind to its subject in Portuguese, Spanish, Italian and
// French ("Mostra de Pintura", "Teatro para bebés", "Conferência sobre…").
var kindPrepositions = wordSet("de do da dos das del della delle di sobre para per a al sul sur en con com")
