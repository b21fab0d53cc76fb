package places

import (
	"errors"
	"slices"
	"strings"

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

// streetNamed reports whether a name is a street's or a square's: a word of streetFirst
// and at least one word after it ("Rua Dr. Leonardo Coimbra", "Plaza Mayor"; "Largo"
// alone, a town in Florida, is not).
func streetNamed(name string) bool {
	var buf [64]byte
	if len(name) > len(buf) {
		name = name[:len(buf)]
	}
	f := engine.AppendFold(buf[:0], []byte(name))
	first, rest, ok := strings.Cut(string(f), " ")
	return ok && rest != "" && slices.Contains(streetFirst, first)
}

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
