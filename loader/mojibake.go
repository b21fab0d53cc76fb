package loader

import (
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// demojibake repairs text that was UTF-8 but was read as windows-1252 (or Latin-1) on its
// way here: "CafÃ© Ã–land" is "Café Öland". Text is repaired only when all of it maps back
// to single bytes that form valid UTF-8 with at least one character of two bytes or more;
// anything else, including text that merely has an "Ã" in it, is returned as it is.
func demojibake(s string) string {
	if !suspect(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x80:
			b = append(b, byte(r))
		case r >= 0x80 && r <= 0x9f: // C1 controls: bytes windows-1252 leaves undefined
			b = append(b, byte(r))
		default:
			c, ok := charmap.Windows1252.EncodeRune(r)
			if !ok {
				return s
			}
			b = append(b, c)
		}
	}
	if !utf8.Valid(b) || len(b) == utf8.RuneCount(b) {
		return s
	}
	return string(b)
}

// suspect reports whether s has a character that starts a UTF-8 sequence when read as a
// windows-1252 byte (Â to ô) followed by one that continues it: the mark of mojibake.
func suspect(s string) bool {
	prev := false
	for _, r := range s {
		if prev && isContinuation(r) {
			return true
		}
		prev = r >= 0xC2 && r <= 0xF4
	}
	return false
}

// isContinuation reports whether r is read from a byte 0x80-0xBF by windows-1252.
func isContinuation(r rune) bool {
	if r >= 0x80 && r <= 0xBF {
		return true
	}
	c, ok := charmap.Windows1252.EncodeRune(r)
	return ok && c >= 0x80 && c <= 0xBF
}
