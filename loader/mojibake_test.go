package loader

import (
	"testing"

	"github.com/gigs/gigs/loader/source"
)

func TestDemojibake(t *testing.T) {
	for in, want := range map[string]string{
		"CafÃ© Ã–land":       "Café Öland",
		"BjÃ¶rk":             "Björk",
		"Sigur RÃ³s":         "Sigur Rós",
		"MÃ¶tley CrÃ¼e":      "Mötley Crüe",
		"Beyonc\u00c3\u00a9": "Beyoncé",
		"â€œQuotedâ€\u009d":  "\u201cQuoted\u201d", // curly quotes: three bytes each, one undefined in windows-1252
		"Ã":                  "Ã",                  // an Ã alone is a letter
		"São Paulo":          "São Paulo",
		"Ångström Ãœber":     "Ångström Ãœber", // "Ãœ" would be Ü, but Å and ö cannot be bytes of UTF-8 here
		"Café":               "Café",
		"plain":              "plain",
		"Motörhead":          "Motörhead",
		"ÂÂ":                 "ÂÂ",
	} {
		if got := demojibake(in); got != want {
			t.Errorf("demojibake(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMangledNameMakesNoSecondVenue(t *testing.T) {
	n := newNormalizer(noon, 2)
	a := event("A", "Café Oto", "London", "GB", "2026-12-05T20:00")
	b := event("B", "CafÃ© Oto", "London", "GB", "2026-12-06T20:00")
	for _, ev := range []*source.Event{&a, &b} {
		if err := n.add(ev, 0, RoleVenue); err != nil {
			t.Fatal(err)
		}
	}
	if len(n.venues) != 1 || n.venues[0].name != "Café Oto" {
		t.Errorf("venues %+v, want one, Café Oto", n.venues)
	}
}
