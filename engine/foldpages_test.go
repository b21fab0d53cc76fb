package engine

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestPagedFold checks that AppendFold folds every rune of the Basic Multilingual Plane
// beyond ASCII from its page as its general path does, alone, between letters, after and
// before a separator, beside another such rune, and invalid bytes and runes beyond the plane
// too.
func TestPagedFold(t *testing.T) {
	same := func(s string) {
		t.Helper()
		if got, want := appendFold(nil, []byte(s), false, true), appendFold(nil, []byte(s), false, false); string(got) != string(want) {
			t.Fatalf("%q: paged %q, general %q", s, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for r := rune(utf8.RuneSelf); r < 0x10000; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		c := string(r)
		for _, s := range []string{c, "a" + c, c + "b", "a " + c + " b", "a-" + c + c + "b", c + string(rune(0x80+rng.IntN(0x10000-0x80)))} {
			same(s)
		}
	}
	for _, s := range []string{"\xff\xfeabc", "a\xc3", "\xed\xa0\x80x", "𝔘𝔫𝔦 ok", "😀 band", "東京 Москва"} {
		same(s)
	}
}
