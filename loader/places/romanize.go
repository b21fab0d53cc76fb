package places

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/engine"
)

// Names in Cyrillic and Greek letters. The gazetteer names every town as GeoNames writes
// it, in Latin letters ("Kol’chugino", "Náfplio"); names in other scripts come only for
// cities of 15,000 people or more (libgeonames' catalogues, see gen). A town written in
// Cyrillic or Greek that no city is named ("Кольчугино", "Ναύπλιο") is looked up by its
// name romanized the ways GeoNames' names are written (romanized): Russian, Belarusian,
// Ukrainian, Bulgarian and Macedonian by BGN/PCGN (х kh, ж zh, ц ts, ч ch, ш sh, щ shch,
// ы y, й y, ь and ъ dropped, е ye after a vowel), Ukrainian, Belarusian and Bulgarian also
// by their national systems (я ia, х h, ъ a; Belarusian's ш š, ч č, е ie), Kazakh's own
// letters as Kazakhstan writes them (қ q), Serbian and Macedonian by their Latin
// alphabets, Greek by ELOT 743 (αυ av or af, μπ mp, χ ch), by the older spellings (χ kh,
// υ i, μπ b) and by BGN/PCGN's of 1962 (δ dh, γ y before ε, ι, η, υ). A spelling
// names a town only when it names one town, and only one of all the spellings' towns, in
// the country the place or its feed states, or when it states none, in the countries
// that write the script (romanizedOne): a name that several towns could bear is
// ambiguous, never guessed.

// byRomanized is a Reading's By when the town was found by its name romanized.
const byRomanized = "its name in Latin letters (BGN/PCGN, ELOT 743)"

// maxRomanized is the longest name, in bytes, that is romanized; a town's name is shorter.
const maxRomanized = 100

// script is a script romanized names are written in.
type script uint8

const (
	latinScript script = iota // any other: nothing to romanize
	cyrillicScript
	greekScript
)

// scriptOf returns the script a name is written in: Cyrillic or Greek when it holds a
// letter of that script and none of the other.
func scriptOf(s string) script {
	sc := latinScript
	for i := 0; i < len(s); i++ {
		if s[i] < 0xcd || s[i] > 0xd4 { // the lead bytes of U+0340..U+053F
			continue
		}
		r, _ := utf8.DecodeRuneInString(s[i:])
		var this script
		switch {
		case 0x370 <= r && r <= 0x3ff:
			this = greekScript
		case 0x400 <= r && r <= 0x4ff:
			this = cyrillicScript
		default:
			continue
		}
		if sc != latinScript && sc != this {
			return latinScript
		}
		sc = this
	}
	return sc
}

// spelling is one way to write a script in Latin letters.
type spelling struct {
	name string
	base rune // the first letter of its script's block: cyrillicBase or greekBase
	// letters is the Latin of each lower-case letter of the script's block (Cyrillic's
	// U+0400..U+04FF, Greek's U+0370..U+03FF), by its offset; a letter of none is itself.
	letters [0x100]string
	// initial is a letter's Latin at a word's start, where it differs (Ukrainian's
	// national system: я ya, ia elsewhere).
	initial [0x100]string
	// afterVowel is a letter's Latin at a word's start and after a vowel, ь, ъ or й, where it
	// differs (BGN/PCGN Russian: е ye).
	afterVowel [0x100]string
	endIa      bool // ия ending a word is ia (Bulgarian's national system)
	zgh        bool // зг is zgh (Ukrainian's national system)
	// Greek: the clusters γκ, μπ and ντ are g, b and d at a word's start and ng, mb and
	// nd within it (the older spellings), rather than gk, mp and nt (ELOT 743).
	voicedClusters bool
	gammaY         bool // Greek: γ before ε, ι, η or υ is y (BGN/PCGN 1962: Ayia Napa)
}

// newSpelling makes a spelling of the script block at base from lists of "letter Latin"
// pairs separated by spaces ("-" for none): the letters, each list overriding the one
// before, then the initial and after-vowel forms.
func newSpelling(name string, base rune, letters []string, initial, afterVowel string) *spelling {
	sp := &spelling{name: name, base: base}
	for i := range sp.letters {
		sp.letters[i] = string(base + rune(i))
	}
	set := func(table *[0x100]string, pairs string) {
		f := strings.Fields(pairs)
		for i := 0; i+1 < len(f); i += 2 {
			r, _ := utf8.DecodeRuneInString(f[i])
			table[r-base] = strings.TrimPrefix(f[i+1], "-")
		}
	}
	for _, l := range letters {
		set(&sp.letters, l)
	}
	set(&sp.initial, initial)
	set(&sp.afterVowel, afterVowel)
	return sp
}

// The blocks of the scripts: Cyrillic's U+0400..U+04FF, Greek's U+0370..U+03FF.
const (
	cyrillicBase rune = 0x400
	greekBase    rune = 0x370
)

// cyrillic is BGN/PCGN's Russian, with the letters of the other languages written in
// Cyrillic as their own systems write them.
const cyrillic = "а a б b в v г g д d е e ё e ж zh з z и i й y к k л l м m н n о o п p р r с s т t у u " +
	"ф f х kh ц ts ч ch ш sh щ shch ъ - ы y ь - э e ю yu я ya і i ї yi є ye ґ g ў w ј j љ lj њ nj ћ c " +
	"ђ d ѓ g ќ k ѕ dz џ dzh ә a ғ g қ k ң n ө o ұ u ү u һ h ѐ e ѝ i"

// greek is ELOT 743's single letters; its pairs are written in appendGreek.
const greek = "α a β v γ g δ d ε e ζ z η i θ th ι i κ k λ l μ m ν n ξ x ο o π p ρ r σ s ς s τ t " +
	"υ y φ f χ ch ψ ps ω o"

var (
	russianBGN  = newSpelling("ru", cyrillicBase, []string{cyrillic}, "", "е ye ё ye")
	russianE    = newSpelling("ru-e", cyrillicBase, []string{cyrillic}, "", "")
	russianYo   = newSpelling("ru-yo", cyrillicBase, []string{cyrillic, "ё yo"}, "", "е ye")
	ukrainian   = newSpelling("uk", cyrillicBase, []string{cyrillic, "г h и y"}, "", "")
	ukrainian10 = func() *spelling {
		sp := newSpelling("uk-2010", cyrillicBase, []string{cyrillic, "г h и y ї i є ie й i ю iu я ia"}, "є ye ї yi й y ю yu я ya", "")
		sp.zgh = true
		return sp
	}()
	belarusian     = newSpelling("be", cyrillicBase, []string{cyrillic, "г h е ye ё yo"}, "", "")
	belarusian2007 = newSpelling("be-2007", cyrillicBase, []string{cyrillic, "г h ж z й j х ch ц c ч c ш s ў u е ie ё io ю iu я ia"}, "", "е je ё jo ю ju я ja")
	kazakh         = newSpelling("kk", cyrillicBase, []string{cyrillic, "қ q ғ gh ң ng"}, "", "")
	bulgarian      = func() *spelling {
		sp := newSpelling("bg", cyrillicBase, []string{cyrillic, "х h щ sht ъ a ь y"}, "", "")
		sp.endIa = true
		return sp
	}()
	bulgarianBGN  = newSpelling("bg-bgn", cyrillicBase, []string{cyrillic, "щ sht ъ u ь y"}, "", "")
	serbian       = newSpelling("sr", cyrillicBase, []string{cyrillic, "ж z х h ц c ч c ш s џ dz й j"}, "", "")
	macedonian    = newSpelling("mk", cyrillicBase, []string{cyrillic, "ж z х h ц c ч c ш s џ dz ѓ gj ќ kj"}, "", "")
	macedonianBGN = newSpelling("mk-bgn", cyrillicBase, []string{cyrillic, "х h ц c ѓ gj ќ kj ѕ dz ј j"}, "", "")
	greekELOT     = newSpelling("el", greekBase, []string{greek}, "", "")
	greekOld      = func() *spelling {
		sp := newSpelling("el-old", greekBase, []string{greek, "χ kh υ i"}, "", "")
		sp.voicedClusters = true
		return sp
	}()
	greekBGN = func() *spelling {
		sp := newSpelling("el-bgn", greekBase, []string{greek, "χ kh υ i δ dh"}, "", "")
		sp.voicedClusters, sp.gammaY = true, true
		return sp
	}()
)

// The spellings tried for a name, by its script and the country it is looked up in.
var (
	russianSpellings    = []*spelling{russianBGN, russianE, russianYo}
	kazakhSpellings     = []*spelling{russianBGN, russianE, kazakh}
	ukrainianSpellings  = []*spelling{ukrainian, ukrainian10, russianBGN, russianE}
	belarusianSpellings = []*spelling{belarusian, belarusian2007, russianBGN, russianE}
	bulgarianSpellings  = []*spelling{bulgarian, bulgarianBGN}
	serbianSpellings    = []*spelling{serbian}
	macedonianSpellings = []*spelling{macedonian, macedonianBGN, serbian}
	allCyrillic         = []*spelling{russianBGN, russianE, russianYo, kazakh, ukrainian, ukrainian10, belarusian,
		belarusian2007, bulgarian, bulgarianBGN, serbian, macedonian, macedonianBGN}
	greekSpellings = []*spelling{greekELOT, greekOld, greekBGN}
	// cyrillicCountries are the countries that write Cyrillic, and their spellings: a
	// name whose place states no country is looked up in these. Elsewhere a Cyrillic name
	// is read as Russian.
	cyrillicCountries = map[string][]*spelling{
		"RU": russianSpellings, "KZ": kazakhSpellings, "KG": russianSpellings, "TJ": russianSpellings,
		"MN": russianSpellings, "UZ": russianSpellings, "UA": ukrainianSpellings, "BY": belarusianSpellings,
		"BG": bulgarianSpellings, "RS": serbianSpellings, "ME": serbianSpellings, "BA": serbianSpellings,
		"MK": macedonianSpellings,
	}
	russianAbroad = []*spelling{russianBGN, russianE}
)

// spellings returns the spellings to try for a name of the script in the country ("":
// any country that writes the script).
func spellings(sc script, country string) []*spelling {
	switch {
	case sc == greekScript:
		return greekSpellings
	case country == "":
		return allCyrillic
	}
	if sps, ok := cyrillicCountries[country]; ok {
		return sps
	}
	return russianAbroad
}

// writes reports whether the country writes the script: where a name of it is looked up
// when the place states no country.
func writes(sc script, country string) bool {
	if sc == greekScript {
		return country == "GR" || country == "CY"
	}
	_, ok := cyrillicCountries[country]
	return ok
}

// romanized appends to out the gazetteer cities, each once, that a spelling of the name
// (written in Cyrillic or Greek) in Latin letters names, in the country, or when country
// is "" in the countries that write its script; none for a name of another script.
func (g *Gazetteer) romanized(out []*City, name, country string) []*City {
	sc := scriptOf(name)
	if sc == latinScript || len(name) > maxRomanized {
		return out
	}
	var runes [maxRomanized]rune
	var split [maxRomanized]bool // a vowel written with a diaeresis: no pair with the one before
	rs, sep := normalize(runes[:0], split[:0], name)
	var latin, key, last [4 * maxRomanized]byte
	prev := last[:0] // the spelling before's key: spellings often agree
	for _, sp := range spellings(sc, country) {
		k := engine.AppendFold(key[:0], sp.appendLatin(latin[:0], rs, sep))
		if string(k) == string(prev) {
			continue
		}
		prev = append(last[:0], k...)
		for _, c := range g.byName.lookup(k) {
			if (c.Country == country || country == "" && writes(sc, c.Country)) && !containsCity(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

func containsCity(cs []*City, c *City) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// romanizedOne returns the town a place written in Cyrillic or Greek names by its name
// romanized (romanized), in the country ("": in the countries that write its script):
// the only one, or of several the only one the context's zone keeps the clock of, and
// never one farther than nearCity from the place's coordinates; nil when none. It fails
// when several towns of the country could be the one named and nothing tells which.
func (g *Gazetteer) romanizedOne(p Place, name, country string, ctx Context) (*City, string, error) {
	var buf [8]*City
	found := g.romanized(buf[:0], name, country)
	if p.HasGeo {
		found = keepNear(found, p.Lat, p.Lon)
	}
	// Never a village: a romanized spelling is a guess, and villages, many with names
	// like towns' old ones, made more of them wrong (make romanized-hits: 186 wrong of
	// 6,461 with the country stated, 202 with villages).
	found = slices.DeleteFunc(found, (*City).village)
	switch {
	case len(found) == 0:
		return nil, "", nil
	case len(found) == 1:
		return found[0], byRomanized, nil
	}
	if ctx.Zone != "" {
		if c, by := standsOut(found, Context{Zone: ctx.Zone, ZoneBy: ctx.ZoneBy}); c != nil && by == ctx.ZoneBy {
			return c, byRomanized + "; " + by, nil
		}
	}
	return nil, "", ambiguous(name, cmpOr(country, found[0].Country), found)
}

// keepNear returns the cities of cs within nearCity of (lat, lon), in cs's memory.
func keepNear(cs []*City, lat, lon float64) []*City {
	out := cs[:0]
	for _, c := range cs {
		if c.HasGeo && Distance(lat, lon, c.Lat, c.Lon) <= nearCity {
			out = append(out, c)
		}
	}
	return out
}

// normalize appends to rs the letters of s in lower case, Greek ones without their
// accents, and to sep whether each is a vowel written with a diaeresis (ϊ, ϋ: not one
// sound with the vowel before); combining accents are dropped.
func normalize(rs []rune, sep []bool, s string) ([]rune, []bool) {
	for _, r := range s {
		if 0x300 <= r && r <= 0x36f { // a combining mark
			if r == 0x308 && len(sep) > 0 {
				sep[len(sep)-1] = true
			}
			continue
		}
		diaeresis := false
		switch {
		case 0x410 <= r && r <= 0x42f:
			r += 0x20
		case 0x400 <= r && r <= 0x40f:
			r += 0x50
		case 0x370 <= r && r <= 0x3ff || 0x460 <= r && r <= 0x4ff:
			r = unicode.ToLower(r)
			if base, ok := greekAccents[r]; ok {
				r, diaeresis = base.r, base.diaeresis
			}
		}
		rs, sep = append(rs, r), append(sep, diaeresis)
	}
	return rs, sep
}

// isLetter is unicode.IsLetter, without a look at Unicode's tables for a rune of the
// Greek and Cyrillic blocks (their letters, and a few signs of no matter here) or of ASCII.
func isLetter(r rune) bool {
	switch {
	case 0x370 <= r && r <= 0x4ff:
		return true
	case r < utf8.RuneSelf:
		return 'a' <= r|0x20 && r|0x20 <= 'z'
	}
	return unicode.IsLetter(r)
}

// greekAccents are the Greek vowels with a tonos or a diaeresis, in lower case: their
// letter, and whether it has a diaeresis.
var greekAccents = map[rune]struct {
	r         rune
	diaeresis bool
}{
	'ά': {'α', false}, 'έ': {'ε', false}, 'ή': {'η', false}, 'ί': {'ι', false}, 'ό': {'ο', false},
	'ύ': {'υ', false}, 'ώ': {'ω', false}, 'ϊ': {'ι', true}, 'ϋ': {'υ', true}, 'ΐ': {'ι', true},
	'ΰ': {'υ', true},
}

// appendLatin appends to dst the Latin letters of the normalized name rs (normalize); a
// character of neither script is kept as it is.
func (sp *spelling) appendLatin(dst []byte, rs []rune, sep []bool) []byte {
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r < sp.base || r >= sp.base+0x100 {
			dst = utf8.AppendRune(dst, r)
			continue
		}
		if sp.base == greekBase {
			var n int
			if dst, n = sp.appendGreekPair(dst, rs, sep, i); n > 0 {
				i += n - 1
				continue
			}
		}
		dst = append(dst, sp.letter(rs, i)...)
	}
	return dst
}

// letter returns the Latin of the letter rs[i] (a letter of sp's block) where it stands:
// at a word's start, after a vowel, ending a word.
func (sp *spelling) letter(rs []rune, i int) string {
	r := rs[i]
	at := r - sp.base
	start := i == 0 || !isLetter(rs[i-1])
	switch {
	case start && sp.initial[at] != "":
		return sp.initial[at]
	case sp.afterVowel[at] != "" && (start || strings.ContainsRune("аеёиоуыэюяіїєъьй", rs[i-1])):
		return sp.afterVowel[at]
	case sp.endIa && r == 'я' && i > 0 && rs[i-1] == 'и' && (i+1 == len(rs) || !isLetter(rs[i+1])):
		return "a"
	case sp.zgh && r == 'г' && i > 0 && rs[i-1] == 'з':
		return "gh"
	}
	return sp.letters[at]
}

// appendGreekPair appends the Latin of a pair of Greek letters at rs[i], and how many
// letters it wrote (0 when rs[i] starts no pair): αυ, ευ and ηυ are av, ev and iv, or af,
// ef and if before a voiceless consonant or ending a word; ου is ou; γγ is ng, γξ nx, γχ
// nch; γκ, μπ and ντ as the spelling writes them.
func (sp *spelling) appendGreekPair(dst []byte, rs []rune, sep []bool, i int) ([]byte, int) {
	if i+1 >= len(rs) || sep[i+1] {
		return dst, 0
	}
	r, next := rs[i], rs[i+1]
	switch {
	case next == 'υ' && (r == 'α' || r == 'ε' || r == 'η'):
		dst = append(dst, sp.letters[r-greekBase]...)
		if i+2 == len(rs) || !isLetter(rs[i+2]) || strings.ContainsRune("θκξπστφχψς", rs[i+2]) {
			return append(dst, 'f'), 2
		}
		return append(dst, 'v'), 2
	case r == 'ο' && next == 'υ':
		return append(dst, "ou"...), 2
	case r == 'γ' && next == 'γ':
		return append(dst, "ng"...), 2
	case r == 'γ' && (next == 'ξ' || next == 'χ'):
		return append(dst, 'n'), 1
	case sp.gammaY && r == 'γ' && (next == 'ε' || next == 'ι' || next == 'η' || next == 'υ'):
		return append(dst, 'y'), 1
	}
	var voiced, nasal byte // the cluster's sound at a word's start, and the nasal before it within a word
	switch {
	case r == 'γ' && next == 'κ':
		voiced, nasal = 'g', 'n'
	case r == 'μ' && next == 'π':
		voiced, nasal = 'b', 'm'
	case r == 'ν' && next == 'τ':
		voiced, nasal = 'd', 'n'
	default:
		return dst, 0
	}
	switch {
	case !sp.voicedClusters:
		return append(append(dst, sp.letters[r-greekBase]...), sp.letters[next-greekBase]...), 2
	case i == 0 || !isLetter(rs[i-1]):
		return append(dst, voiced), 2
	}
	return append(dst, nasal, voiced), 2
}
