package loader

import "strings"

// Small venues', towns' and listings sites' calendars classify their events in their own
// language (CATEGORIES "Konzerte", "Partys & Nachtleben", "Lesungen & Literatur",
// "Familie & Kinder"; "Conciertos", "Teatro"; "Muziek & Theater"). These words join
// musicWords and otherWords (see kinds.go): a music word in any language keeps an event
// that another of its kinds calls theatre ("Musik & Theater" is no play), and an event
// whose kinds say only, in another language, that it is a reading, an exhibition, a
// market, a sport, a film or for children is not music. Every word is written folded
// (engine.Fold), as kindWords gives them, and a kind is compared by whole words: German
// compounds ("Spitzensport") name no kind here.

// musicWordsAbroad mark a music event in other languages than English.
var musicWordsAbroad = wordSet(
	"musik konzert konzerte livemusik kammermusik kirchenmusik blasmusik volksmusik chor nachtleben " + // German
		"muziek concerten optreden " + // Dutch
		"musique chanson " + // French
		"musica concierto conciertos flamenco " + // Spanish
		"concerto concerti " + // Italian
		"koncert koncerty hudba muzyka " + // Polish, Czech
		"konsert konserter musikk konsertti musiikki " + // Scandinavian, Finnish
		"концерт концерты музыка") // Russian

// otherWordsAbroad mark an event that is not music in other languages than English.
var otherWordsAbroad = wordSet(
	"lesung lesungen literatur vortrag ausstellung ausstellungen fuhrung fuhrungen kinder " + // German
		"familie markt markte messe messen flohmarkt kurs kurse kabarett kino " +
		"lezing tentoonstelling kinderen toneel " + // Dutch
		"exposition conference enfants marche atelier " + // French
		"teatro cine exposicion infantil mercado deporte deportes conferencia taller " + // Spanish, Italian
		"mostra")

// musicWord and otherWord report whether a folded word marks a music event, or one that is
// not music, in any language.
func musicWord(w string) bool { return musicWords[w] || musicWordsAbroad[w] }
func otherWord(w string) bool { return otherWords[w] || otherWords[singular(w)] || otherWordsAbroad[w] }

// singular returns an English plural's singular ("families" family, "talks" talk), else w.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}
