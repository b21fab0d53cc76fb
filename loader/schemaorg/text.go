package schemaorg

import (
	"cmp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits the adapters keep, so that what a page yields stays bounded however large it is.
const (
	MaxText   = 500   // bytes kept of a name or other text
	MaxLink   = 2000  // bytes of a URL or an identity; longer ones are ignored
	MaxQuote  = 64    // bytes of a page value quoted in a drop reason
	MaxEvents = 10000 // events read from one page, dropped ones included
	MaxOffers = 50    // offers kept per event
	MaxGenres = 20    // genres kept per event or performer
	MaxKinds  = 16    // types kept per event
)

// Text returns s as human-readable text: control characters dropped, white space collapsed
// and trimmed, invalid UTF-8 replaced, at most MaxText bytes. HTML entities are left alone:
// decoding them is the adapter's business.
func Text(s string) string {
	var b TextBuilder
	b.WriteString(s)
	return b.String()
}

// A TextBuilder cleans text as Text does, from pieces written in turn: white space that ends
// one piece and starts the next collapses into one space. The zero value is ready to use.
type TextBuilder struct {
	// Limit is the most bytes kept; zero means MaxText.
	Limit int

	b     strings.Builder
	space bool // white space is pending
	full  bool
}

// WriteString appends s. It reports false once the builder is full, when further pieces would
// be ignored.
func (t *TextBuilder) WriteString(s string) bool {
	limit := cmp.Or(t.Limit, MaxText)
	for _, r := range s {
		if t.full {
			return false
		}
		switch {
		case unicode.IsSpace(r):
			t.space = t.b.Len() > 0
		case unicode.IsControl(r) || r == '\uFEFF':
		default:
			n := utf8.RuneLen(r) // a byte that is not UTF-8 comes as U+FFFD, of 3 bytes
			if t.space {
				n++
			}
			if t.b.Len()+n > limit {
				t.full = true
				return false
			}
			if t.space {
				t.b.WriteByte(' ')
				t.space = false
			}
			t.b.WriteRune(r)
		}
	}
	return !t.full
}

// String returns the text written so far.
func (t *TextBuilder) String() string { return t.b.String() }

// Token returns s as a machine-readable token: valid UTF-8, without control characters,
// trimmed, otherwise as written.
func Token(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\uFEFF' {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return strings.TrimSpace(s)
}

// Clip shortens s to about n bytes on a rune boundary, for quoting page text in a reason.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
