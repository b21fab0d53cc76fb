package places

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gigs/gigs/engine"
)

// romanizeCases are names and how a spelling writes them, folded: the spellings' rules
// one by one, on names as GeoNames writes the towns (its "name" field, folded).
var romanizeCases = []struct {
	sp   *spelling
	name string
	want string
}{
	{russianBGN, "Кольчугино", "kolchugino"}, // ь dropped: GeoNames' Kol’chugino
	{russianBGN, "Новоалтайск", "novoaltaysk"},
	{russianBGN, "Елец", "yelets"},       // е at a word's start
	{russianBGN, "Заозерье", "zaozerye"}, // е after ь
	{russianBGN, "Железногорск-Илимский", "zheleznogorsk ilimskiy"},
	{russianBGN, "ЩЁЛКОВО", "shchelkovo"},          // capitals; ё after a consonant
	{russianBGN, "Красный Сулин", "krasnyy sulin"}, // ы, й
	{russianBGN, "Подъячево", "podyachevo"},        // ъ dropped
	{russianE, "Елец", "elets"},                    // е as e everywhere
	{russianYo, "Королёв", "korolyov"},             // ё as yo
	{russianBGN, "Королёв", "korolev"},             // ë, as GeoNames' Korolëv folds
	{ukrainian, "Біла Церква", "bila tserkva"},     // і, ц
	{ukrainian, "Вінниця", "vinnytsya"},            // BGN/PCGN: и y, я ya
	{ukrainian10, "Вінниця", "vinnytsia"},          // the national system: я ia within a word
	{ukrainian10, "Ялта", "yalta"},                 // and ya at its start
	{ukrainian10, "Згурівка", "zghurivka"},         // зг zgh
	{ukrainian, "Гадяч", "hadyach"},                // г h
	{belarusian, "Маладзечна", "maladzyechna"},     // е ye
	{belarusian, "Магілёў", "mahilyow"},            // ё yo, ў w
	{belarusian2007, "Асвея", "asvieja"},           // the 2007 system: е ie, я ja after a vowel
	{belarusian2007, "Радашковічы", "radaskovicy"}, // ш š, ч č: GeoNames' Radaškovičy
	{kazakh, "Қарқаралы", "qarqaraly"},             // қ q
	{macedonianBGN, "Пробиштип", "probishtip"},     // ш sh
	{greekBGN, "Αγία Νάπα", "ayia napa"},           // γ y before ι
	{greekBGN, "Δρομολαξιά", "dhromolaxia"},        // δ dh
	{greekBGN, "Γυμνό", "yimno"},                   // γ y before υ, υ i
	{bulgarian, "Търговище", "targovishte"},        // ъ a, щ sht
	{bulgarian, "Асеновград", "asenovgrad"},
	{bulgarian, "Ловеч", "lovech"},
	{bulgarian, "Шишманова България", "shishmanova balgaria"}, // ия ending a word
	{bulgarianBGN, "Хасково", "khaskovo"},
	{serbian, "Чачак", "cacak"},     // č
	{serbian, "Ћуприја", "cuprija"}, // ћ, ј
	{serbian, "Шабац", "sabac"},
	{macedonian, "Ѓорче Петров", "gjorce petrov"}, // ѓ gj
	{greekELOT, "Ναύπλιο", "nafplio"},             // αυ before π is af
	{greekELOT, "Καλαμάτα", "kalamata"},
	{greekELOT, "Εύοσμος", "evosmos"},                   // ευ before a vowel is ev
	{greekELOT, "Χαλκίδα", "chalkida"},                  // χ ch
	{greekELOT, "Κέρκυρα", "kerkyra"},                   // υ y
	{greekELOT, "Άγιος Νικόλαος", "agios nikolaos"},     // accents, final ς
	{greekELOT, "Αγγελόκαστρο", "angelokastro"},         // γγ ng
	{greekELOT, "Ταΰγετος", "taygetos"},                 // a diaeresis parts αυ
	{greekELOT, "Ταϋγετος", "taygetos"},                 // unaccented, too
	{greekELOT, "ΜΟΥΔΑΝΙΆ", "moudania"},                 // capitals, ου
	{greekELOT, "Ντράφι", "ntrafi"},                     // ντ nt
	{greekOld, "Ντράφι", "drafi"},                       // ντ d at a word's start
	{greekOld, "Χαλκίδα", "khalkida"},                   // χ kh
	{greekOld, "Κέρκυρα", "kerkira"},                    // υ i
	{greekOld, "Λαμπία", "lambia"},                      // μπ mb within a word
	{greekELOT, "Λαμπία", "lampia"},                     // μπ mp
	{greekELOT, "Ευκαρπία", "efkarpia"},                 // ευ before κ is ef
	{greekELOT, "Ναυ\u0301πλιο", "nafplio"},             // a combining accent
	{russianBGN, "Нью-Йорк, Berlin", "nyu york berlin"}, // other letters kept as they are
}

// TestRomanize checks each spelling on the names of romanizeCases.
func TestRomanize(t *testing.T) {
	for _, c := range romanizeCases {
		if got := romanizeKey(c.sp, c.name); got != c.want {
			t.Errorf("%s(%q) = %q, want %q", c.sp.name, c.name, got, c.want)
		}
	}
}

// romanizeKey returns the name written by the spelling, folded (engine.Fold).
func romanizeKey(sp *spelling, name string) string {
	rs, sep := normalize(nil, nil, name)
	return engine.Fold(string(sp.appendLatin(nil, rs, sep)))
}

// TestRomanizedRead reads places written in Cyrillic and Greek that the gazetteer knows
// only by their romanized names: the country stated, the feed's, or none (then the town
// must be the only one of the script's countries); a name several towns could bear is
// dropped as ambiguous, one farther than 50 km from the place's coordinates is not taken,
// and a Latin name is never romanized.
func TestRomanizedRead(t *testing.T) {
	g := Default()
	for _, c := range []struct {
		p    Place
		ctx  Context
		want string // the city's name and country, "made NAME CC" for a made one, or the error's start
	}{
		{Place{Locality: "Змеиногорск", Country: "RU"}, Context{}, "Zmeinogorsk RU"},
		{Place{Locality: "Змеиногорск"}, Context{}, "Zmeinogorsk RU"},
		{Place{Locality: "Змеиногорск", Region: "Алтайский край", Country: "RU"}, Context{}, "Zmeinogorsk RU"},
		{Place{Locality: "Сясьстрой"}, Context{Country: "RU", CountryBy: "hint"}, "Syas’stroy RU"}, // ь dropped
		{Place{Locality: "Рудозем", Country: "BG"}, Context{}, "Rudozem BG"},
		{Place{Locality: "Ναύπλιο", Country: "GR"}, Context{}, "Náfplio GR"},
		{Place{Locality: "Ναύπλιο"}, Context{}, "Náfplio GR"},
		{Place{Locality: "21100 Ναύπλιο"}, Context{}, "Náfplio GR"},
		{Place{Locality: "Μέτσοβο"}, Context{}, "Metsovo GR"},
		// Five towns of Russia are Sosnovka: dropped, never guessed.
		{Place{Locality: "Сосновка", Country: "RU"}, Context{}, `ambiguous place: "Сосновка" names 5 towns in RU`},
		{Place{Locality: "Сосновка"}, Context{}, `venue in "Сосновка" has no country`},
		// Coordinates 300 km away: another town, which the gazetteer lacks.
		{Place{Locality: "Ναύπλιο", Country: "GR", Lat: 40.64, Lon: 22.94, HasGeo: true}, Context{}, "made Ναύπλιο GR"},
		// A Greek name is no Russian town's.
		{Place{Locality: "Μέτσοβο", Country: "RU"}, Context{}, "unknown city"},
	} {
		r, err := g.Read(c.p, c.ctx)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case r.Made:
			got = "made " + r.City.Name + " " + r.City.Country
		default:
			got = r.City.Name + " " + r.City.Country
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("Read(%+v) = %q, want %q", c.p, got, c.want)
		}
		if err == nil && !r.Made && !strings.Contains(r.By, byRomanized) && scriptOf(c.p.Locality) != latinScript && len(g.CitiesNamed(c.p.Locality)) == 0 {
			t.Errorf("Read(%+v): decided by %q, want %q", c.p, r.By, byRomanized)
		}
	}
	// A Latin name is looked up as written only.
	if cs := g.romanized(nil, "Novoaltaysk", ""); len(cs) != 0 {
		t.Errorf("romanized(Novoaltaysk) = %d cities, want none", len(cs))
	}
}

// TestScriptOf checks which names are romanized.
func TestScriptOf(t *testing.T) {
	for s, want := range map[string]script{
		"": latinScript, "Berlin": latinScript, "Москва": cyrillicScript, "Αθήνα": greekScript,
		"Москва Αθήνα": latinScript, "12 Кольчугино": cyrillicScript, "ʼ": latinScript, "\xd0": latinScript,
	} {
		if got := scriptOf(s); got != want {
			t.Errorf("scriptOf(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzRomanize romanizes any text with every spelling: it never panics, writes at most
// four bytes for each of the name's bytes, and writes a Latin name as it is.
func FuzzRomanize(f *testing.F) {
	for _, c := range romanizeCases {
		f.Add(c.name)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxRomanized {
			return
		}
		rs, sep := normalize(nil, nil, s)
		for _, sp := range slices.Concat(allCyrillic, greekSpellings) {
			out := sp.appendLatin(nil, rs, sep)
			if len(out) > 4*len(s) {
				t.Fatalf("%s(%q) = %d bytes", sp.name, s, len(out))
			}
			if scriptOf(s) == latinScript && utf8.ValidString(s) && !hasMarksOrScript(s) && string(out) != s {
				t.Fatalf("%s(%q) = %q, want it as it is", sp.name, s, out)
			}
		}
		Default().romanized(nil, s, "")
	})
}

// hasMarksOrScript reports whether s holds a combining mark, which normalize drops, or a
// letter of the Greek or Cyrillic blocks (in a name of both, romanized as neither).
func hasMarksOrScript(s string) bool {
	for _, r := range s {
		if 0x300 <= r && r <= 0x4ff {
			return true
		}
	}
	return false
}
