package engine

import (
	"sync/atomic"
	"unicode/utf8"
)

// foldPage is what AppendFold makes of each rune of a page of 256 of the Basic Multilingual
// Plane: the runes each one emits, with ' ' where it ends a word. AppendFold's general path
// looks a rune up in two tables and Unicode's normalization data; a page answers at once.
type foldPage struct {
	ends [256]uint16 // where each rune's fold ends in text
	text string
}

// foldPages are the pages made so far, by the rune's high byte.
var foldPages [256]atomic.Pointer[foldPage]

// pagedFold returns what AppendFold makes of rune r, decoded from size bytes, and true; it
// makes the rune's page on first use. Invalid bytes and runes beyond the plane have none.
func pagedFold(r rune, size int) (string, bool) {
	if r >= 0x10000 || r == utf8.RuneError && size == 1 {
		return "", false
	}
	p := foldPages[r>>8].Load()
	if p == nil {
		p = newFoldPage(r >> 8)
		foldPages[r>>8].Store(p) // pages two goroutines make at once are alike
	}
	lo := uint16(0)
	if k := r & 0xff; k > 0 {
		lo = p.ends[k-1]
	}
	return p.text[lo:p.ends[r&0xff]], true
}

// newFoldPage makes the page of runes whose high byte is page by AppendFold's general
// path: each rune between two letters, so that where it ends a word shows.
func newFoldPage(page rune) *foldPage {
	p := &foldPage{}
	var text []byte
	for k := range 256 {
		if r := page<<8 | rune(k); r >= utf8.RuneSelf && utf8.ValidRune(r) {
			f := appendFold(nil, []byte("a"+string(r)+"a"), false, false)
			text = append(text, f[1:len(f)-1]...)
		}
		p.ends[k] = uint16(len(text))
	}
	p.text = string(text)
	return p
}
