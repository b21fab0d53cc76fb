package places

import (
	"bytes"
	"strings"

	"github.com/gigs/gigs/engine"
)

// A street is never a town. Addresses written by others name their street in many ways
// (libpostal's, OpenCage's and pelias' test addresses): by a word after its name ("Dock
// Road", "Bomb House Lane"), by a word before it ("Avenida Amilcar Cabral", "Kaya
// Libertador Simon Bolivar", "Rue des Remparts", "Via Roma"), or within one word ("Dezső
// utca", "Hauptstraße"); and US and Australian lines run the street and the town together
// in one part ("3577 Jackson St San Francisco, CA 94118", "2649 Logan Road Eight Mile
// Plains, QLD 4113"). A street's name left where the town would be is no town: the line
// names none there (lastPartTown), and the town after a street in one part is the words
// after the street's word (townAfterStreet).

// streetWords end the name of a street or a building, folded (engine.Fold).
var streetWords = map[string]bool{"road": true, "rd": true, "street": true, "st": true, "lane": true,
	"avenue": true, "ave": true, "square": true, "quay": true, "place": true, "way": true, "hall": true,
	"terrace": true, "row": true, "parade": true, "drive": true, "close": true, "boulevard": true,
	"blvd": true, "highway": true, "hwy": true, "utca": true, "ut": true, "caddesi": true, "sokak": true,
	"sokagi": true}

// streetFirstWords begin the name of a street, folded: Spanish, Portuguese, Catalan,
// Italian, French, Papiamento, Polish, Romanian, Albanian, Indonesian and Malay words.
var streetFirstWords = map[string]bool{"avenida": true, "av": true, "avda": true, "calle": true,
	"carrera": true, "paseo": true, "rua": true, "travessa": true, "praca": true, "carrer": true,
	"avinguda": true, "via": true, "viale": true, "piazza": true, "corso": true, "rue": true,
	"avenue": true, "boulevard": true, "bd": true, "chemin": true, "impasse": true, "allee": true, "route": true,
	"kaya": true, "ulica": true, "ul": true, "aleja": true, "strada": true, "calea": true,
	"bulevardul": true, "rruga": true, "jalan": true, "jl": true}

// streetSuffixes end a word that is a street's name in languages that write it as one
// word, folded: German, Dutch, Hungarian, Swedish, Danish; each ends in a letter of
// "etanj" (hasStreetSuffix).
var streetSuffixes = []string{"strasse", "gasse", "straat", "gracht", "utca", "gatan", "vagen", "gade", "vej"}

// maxStreetPart bounds the parts streetLike and townAfterStreet read, in bytes.
const maxStreetPart = 96

// streetLike reports whether part names a street or a building: its last word is a
// street's or a building's word ("Dock Road", "Town Hall"), or its first word a street's
// before more ("Avenida Amilcar Cabral"), or its last word ends in one ("Hauptstraße").
func streetLike(part string) bool {
	var buf [maxStreetPart]byte
	if len(part) > len(buf) {
		return false
	}
	f := engine.AppendFold(buf[:0], []byte(part))
	i := bytes.LastIndexByte(f, ' ')
	if i < 0 {
		return hasStreetSuffix(f)
	}
	last := f[i+1:]
	if streetWords[string(last)] || hasStreetSuffix(last) {
		return true
	}
	first, _, _ := bytes.Cut(f, []byte(" "))
	return streetFirstWords[string(first)]
}

// hasStreetSuffix reports whether a folded word ends in a street's word written as one
// with its name, and is longer than it.
func hasStreetSuffix(w []byte) bool {
	if len(w) < 4 || !bytes.ContainsRune([]byte("etanj"), rune(w[len(w)-1])) {
		return false // no suffix ends so: most words are looked at no further
	}
	for _, s := range streetSuffixes {
		if len(w) > len(s) && bytes.HasSuffix(w, []byte(s)) {
			return true
		}
	}
	return false
}

// townAfterStreet returns the words of part after a street's word that follows the
// street's name ("San Francisco" of "Jackson St San Francisco", "Eight Mile Plains" of
// "Logan Road Eight Mile Plains"): of those after each such word (or after a word with a
// digit, a house's number, unless streetsOnly), the first that names a gazetteer town,
// else, when numbered (the part started with its number), those after the last street's
// word; ok is false when part names a gazetteer town itself ("Bay St. Louis") or has no
// street's word before other words. A first word is no street's word ("St Kilda Road
// Melbourne" is Melbourne; "St Louis" is St Louis).
func (g *Gazetteer) townAfterStreet(part string, numbered, streetsOnly bool) (string, bool) {
	if len(part) > maxStreetPart || !strings.Contains(part, " ") || len(g.CitiesNamed(part)) > 0 {
		return "", false
	}
	var buf [maxWords]word
	f := wordsOf(buf[:0], part)
	var fold [maxStreetPart]byte
	after, cut := "", false
	for i := 1; i < len(f)-1; i++ {
		w := engine.AppendFold(fold[:0], []byte(f[i].of(part)))
		// "St" after no house's number is a saint's ("West St Paul", "Port St Mary").
		street := streetWords[string(w)] && (string(w) != "st" || numbered || f[0].hasDigit(part) || f[i-1].hasDigit(part))
		// A house's number inside the part cuts too, and every word after it
		// ("Valdemarsgade 42 4 t.v. København").
		if cut = cut || street || !streetsOnly && f[i].hasDigit(part); !cut {
			continue
		}
		tail := joinWords(part, f[i+1:])
		if len(g.CitiesNamed(tail)) > 0 {
			return tail, true
		}
		if street {
			after = tail
		}
	}
	return after, numbered && after != ""
}

// townOf returns the town a part of a line names, its postal codes dropped (stripPostal),
// and the street and the house's number before it in the same part too
// (townAfterStreet).
func (g *Gazetteer) townOf(part string) string {
	town := stripPostal(part)
	if strings.IndexByte(strings.TrimSpace(part), ' ') < 0 {
		return town // one word: no street before it
	}
	numbered := startsWithPostcode(part)
	if t, ok := g.townAfterStreet(town, numbered, false); ok {
		return t
	}
	// The part as written, cut at its street's words only: "3122 16th St San Francisco",
	// whose "16th St" lost its number with the postcodes.
	if t, ok := g.townAfterStreet(strings.TrimSpace(part), numbered, true); ok {
		return stripPostal(t)
	}
	return town
}

// noStreet returns the locality a street left where the town would be leaves, of the
// line's parts before it (before, the street's part last): the nearest that names a
// gazetteer town of the country (by its code, any when ""), else none ("": the line names
// no town); ok is false when the last part is no street, or a gazetteer town's name (see
// streetLike).
func (g *Gazetteer) noStreet(before []string, country string) (string, bool) {
	name := stripPostal(before[len(before)-1])
	if !streetLike(name) || len(g.CitiesNamed(name)) > 0 {
		return "", false
	}
	for i := len(before) - 2; i >= 0; i-- {
		b := stripPostal(before[i])
		for _, c := range g.CitiesNamed(b) {
			if country == "" || c.Country == country {
				return b, true
			}
		}
	}
	return "", true
}
