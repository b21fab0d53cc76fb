package loader

import (
	"testing"

	"github.com/gigs/gigs/engine"
)

// TestKindsAbroad checks kinds in other languages, as small venues', towns' and listings
// sites' calendars write CATEGORIES (the German ones are a Leverkusen listing's and a
// Münster district's, public repositories' feeds: CNobach23/Leverkusen-kalender
// veranstaltungen.ics, Coerdeevents/coerde-events data/events.ics).
func TestKindsAbroad(t *testing.T) {
	for _, c := range []struct {
		kinds []string
		want  string
	}{
		{[]string{"Konzerte"}, ""},
		{[]string{"Highlights", "Konzerte"}, ""},
		{[]string{"Partys & Nachtleben"}, ""},
		{[]string{"Kultur / Musik / Stadtteil"}, ""},
		{[]string{"Musik & Theater"}, ""},
		{[]string{"Muziek & Theater"}, ""},
		{[]string{"Theater"}, "Theater"},
		{[]string{"Familie & Kinder"}, "Familie & Kinder"},
		{[]string{"Lesungen & Literatur"}, "Lesungen & Literatur"},
		{[]string{"Märkte & Messen"}, "Märkte & Messen"},
		{[]string{"Führungen & Touren"}, "Führungen & Touren"},
		{[]string{"Bildung / Familie / Stadtteil"}, "Bildung / Familie / Stadtteil"},
		{[]string{"Spitzensport"}, ""}, // a compound: no kind named here
		{[]string{"Conciertos"}, ""},
		{[]string{"Teatro"}, "Teatro"},
		{[]string{"Концерты"}, ""},
	} {
		if got := notMusic(c.kinds); got != c.want {
			t.Errorf("notMusic(%q) = %q, want %q", c.kinds, got, c.want)
		}
	}
	for _, set := range []map[string]bool{musicWordsAbroad, otherWordsAbroad} {
		for w := range set {
			if engine.Fold(w) != w {
				t.Errorf("%q is not written folded (%q): kindWords never gives it", w, engine.Fold(w))
			}
			if musicWordsAbroad[w] && (otherWordsAbroad[w] || otherWords[w]) || otherWordsAbroad[w] && musicWords[w] {
				t.Errorf("%q marks music and other events both", w)
			}
		}
	}
}
