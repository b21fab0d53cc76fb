package places

import (
	"errors"
	"slices"
	"strings"
	"unicode"

	"github.com/gigs/gigs/engine"
)

// A town the gazetteer lacks is made under the name the place gives it (made), so that
// name must be a town's. Town calendars write their venues' squares and streets where a
// town would be ("Cine-Teatro Garrett, Rua Dr. Leonardo Coimbra"; "Praça do Almada, Praça
// da República, Largo Dr. David Alves e Largo do Passeio Alegre", a municipal agenda of
// Póvoa de Varzim), and listings a remark after the town ("2930 Beverly Glen Circle, Bel
// Air (Herb Alpert's club)", a Los Angeles jazz listing): neither is made a town under
// that name. A street or a square is never a town (ErrStreet: the operator's hint, when
// it names a city, then says where the venue is); a remark in brackets at the end of the
// name is left out of it.

// ErrStreet is the error, wrapped, of a place whose town is a street's or a square's name.
var ErrStreet = errors.New("names a street or a square, not a town")

// streetFirst are the words, folded (engine.Fold), that a street's or a square's name
// starts with in the languages that write them first: Portuguese, Spanish, Catalan,
// Italian, French, Polish, Czech and Slovak.
var streetFirst = []string{
	"rua", "avenida", "av", "avda", "praca", "largo", "travessa", "alameda", "calcada", "estrada", "rotunda",
	"calle", "plaza", "paseo", "carrer", "placa", "passeig", "ronda", "glorieta",
	"via", "viale", "piazza", "piazzale", "corso", "vicolo",
	"rue", "boulevard", "allee", "chemin", "quai", "impasse",
	"ulica", "ul", "aleja", "plac", "namesti", "ulice", "trida",
}

// streetNamed reports whether a name is a street's or a square's: a word of streetFirst,
// words after it, and evidence that it is no town's name, as many towns' names start with
// such a word ("Piazza al Serchio", "Alameda de la Sagra", "Calle Larga", "Ronda Alta"):
// a digit left once a postcode is taken off (a date: "Rua 25 de Abril"), places listed
// ("Praça da República, Largo Dr. David Alves e Largo do Passeio Alegre", "Plaza Mayor y
// Calle Real"), an abbreviation or a title (a person's: "Rua Dr. Leonardo Coimbra", "RUA
// DR LEONARDO COIMBRA"; the street's word: "ul. Piotrkowska"), or a person's given name
// and surname after the word ("Avenida Amilcar Cabral", "Rue Victor Hugo"). "Largo"
// alone, a town in Florida, is not a street.
func streetNamed(name string) bool {
	if len(name) > maxPlaces {
		name = name[:maxPlaces]
	}
	if !streetFirstWord(name) {
		return false
	}
	if strings.ContainsAny(name, "0123456789,;/") {
		return true
	}
	words := strings.Fields(name)
	capitalized := 0
	for _, w := range words[1:] {
		switch {
		case strings.HasSuffix(w, "."):
			return true // "Dr.", "Prof.", "Gen.", "ul."
		case slices.ContainsFunc(streetTitles, func(t string) bool { return strings.EqualFold(t, w) }):
			return true // "RUA DR LEONARDO COIMBRA"
		case slices.Contains(streetJoins, w):
			return true // "e", "y", "et", "i"
		case unicode.IsUpper(firstRune(w)):
			capitalized++
		default:
			capitalized = -len(words) // a particle: "Alameda de la Sagra" may be a town's
		}
	}
	// In a line in capitals every word looks like a name: only the other evidence tells.
	return strings.HasSuffix(words[0], ".") || capitalized >= 2 && !capitals(name)
}

// streetFirstWord reports whether a name starts with a word of streetFirst and has words
// after it.
func streetFirstWord(name string) bool {
	var buf [64]byte
	if len(name) > len(buf) {
		name = name[:len(buf)]
	}
	f := engine.AppendFold(buf[:0], []byte(name))
	first, rest, ok := strings.Cut(string(f), " ")
	return ok && rest != "" && slices.Contains(streetFirst, first)
}

// listedAfter reports whether a place's street ends in a word of streetJoins: a list of
// streets and squares runs on into the locality ("Praça do Almada, Praça da República,
// Largo Dr. David Alves e" before "Largo do Passeio Alegre").
func listedAfter(street string) bool {
	_, last := lastWord(street)
	return slices.Contains(streetJoins, last)
}

// streetJoins are the words that join places listed in the languages of streetFirst;
// streetTitles the titles of persons streets are named after, written without their dot.
var (
	streetJoins  = []string{"e", "y", "et", "i"}
	streetTitles = []string{"dr", "dra", "prof", "profa", "gen", "eng", "cel", "cap", "mal", "pe"}
)

// withoutRemark returns name without a remark in brackets at its end ("Bel Air (Herb
// Alpert's club)" is "Bel Air"), or name when it has none or is nothing else.
func withoutRemark(name string) string {
	name = strings.TrimSpace(name)
	if !strings.HasSuffix(name, ")") {
		return name
	}
	i := strings.LastIndexByte(name, '(')
	if i <= 0 {
		return name
	}
	return strings.TrimSpace(name[:i])
}
