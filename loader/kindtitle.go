package loader

import (
	"strings"
	"unicode"

	"github.com/gigs/gigs/engine"
)

// A town's or a culture house's calendar files its concerts under the house's broad
// kinds: a district's calendar writes CATEGORIES "Theater / Kultur / Tanz / Kinderkultur"
// for its theatre's plays and for the concerts in the same hall ("Kammerkonzert: Zwischen
// Esprit und Leidenschaft", "Stadtteilkonzert: Sinfonieorchester Münster", "Jazziges
// Weihnachtskonzert"). The kind says theatre, the title says concert: a title that names
// a concert keeps the event whatever its kinds say (notMusic). Only the word for a
// concert counts, alone or ending a compound ("Weihnachtskonzert", "Julekonsert"): a
// title's other words ("Musik", a genre) are said of readings, films and tours as often.

// concertWords are the words for a concert, folded (engine.Fold), in the languages of
// musicWordsAbroad.
var concertWords = wordSet("concert concerts konzert konzerte konsert konserter koncert koncerty " +
	"konsertti concierto conciertos concerto concerti concertos концерт концерты")

// concertSuffixes end the compounds that name a concert in German, Dutch, the Nordic and
// the Slavic languages: "Kammerkonzert", "Jubileumskonsert", "Promenadeconcert".
var concertSuffixes = [...]string{"konzert", "konzerte", "konsert", "konserter", "koncert", "concert"}

// titleNamesConcert reports whether a title names a concert (see above).
func titleNamesConcert(title string) bool {
	for _, w := range strings.FieldsFunc(engine.Fold(title), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if concertWords[w] {
			return true
		}
		for _, s := range concertSuffixes {
			if len(w) > len(s)+2 && strings.HasSuffix(w, s) {
				return true
			}
		}
	}
	return false
}

// stageWords are the kinds a house files its concerts under with its plays: the stage, the
// family, culture at large. A film, a talk, a tour or a course whose title names a concert
// ("Concert Film", "Einführung zum Sinfoniekonzert") is none.
var stageWords = wordSet("theatre theater theaterevent play plays musical musicals ballet comedy cabaret kabarett " +
	"circus family children childrens kids kinder familie kultur kinderkultur tanz dance toneel teatro culture arts")

// stageKind reports whether a kind is one a house files its concerts under (stageWords).
func stageKind(k string) bool {
	for _, w := range kindWords(k) {
		if stageWords[w] {
			return true
		}
	}
	return false
}
