// Package ics writes iCalendar (RFC 5545) content: content lines folded at 75 octets
// without splitting a UTF-8 character and ended by CRLF, TEXT values escaped, and
// VTIMEZONE components made from Go's time zone database. It knows nothing of gigs.
package ics

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// MaxLine is the longest a content line's physical line may be, in octets, CRLF aside.
const MaxLine = 75

// Writer appends content lines to B. A line is begun with Prop, given its value with
// Raw, Text and the others, and ended with End, which folds it into B. The zero Writer is
// ready; Reset empties it for reuse, keeping its buffers.
type Writer struct {
	B    []byte // the content written so far
	line []byte // the line being written
}

// Reset empties B and the line being written.
func (w *Writer) Reset() { w.B, w.line = w.B[:0], w.line[:0] }

// Prop begins a content line with name and params (already written, such as
// ";TZID=Europe/Paris") and the colon that ends them.
func (w *Writer) Prop(name string) *Writer {
	w.line = append(append(w.line[:0], name...), ':')
	return w
}

// PropParam begins a content line with name, one parameter param=value (value written as
// it is: a zone name or a keyword) and the colon.
func (w *Writer) PropParam(name, param, value string) *Writer {
	w.line = append(append(append(append(append(w.line[:0], name...), ';'), param...), '='), value...)
	w.line = append(w.line, ':')
	return w
}

// Raw appends s to the line as it is: a value that needs no escaping.
func (w *Writer) Raw(s string) *Writer { w.line = append(w.line, s...); return w }

// Text appends s to the line as a TEXT value (AppendText).
func (w *Writer) Text(s string) *Writer { w.line = AppendText(w.line, s); return w }

// Int appends n to the line.
func (w *Writer) Int(n int64) *Writer { w.line = strconv.AppendInt(w.line, n, 10); return w }

// UTC appends t as a UTC DATE-TIME ("20261205T190000Z").
func (w *Writer) UTC(t time.Time) *Writer {
	w.line = t.UTC().AppendFormat(w.line, "20060102T150405Z")
	return w
}

// Local appends t's clock in its own location as a local DATE-TIME ("20261205T200000"),
// to follow a TZID parameter.
func (w *Writer) Local(t time.Time) *Writer {
	w.line = t.AppendFormat(w.line, "20060102T150405")
	return w
}

// Date appends t's date in its own location as a DATE ("20261205").
func (w *Writer) Date(t time.Time) *Writer {
	w.line = t.AppendFormat(w.line, "20060102")
	return w
}

// End ends the line: folded into B with CRLF.
func (w *Writer) End() { w.B = AppendFolded(w.B, w.line) }

// Line writes a whole content line "name:value", value written as it is.
func (w *Writer) Line(name, value string) { w.Prop(name).Raw(value).End() }

// AppendText appends s escaped as an RFC 5545 TEXT value: backslash, semicolon and comma
// take a backslash, a line break (CRLF, CR or LF) becomes "\n", other control characters
// (which TEXT may not hold) are dropped, and bytes that are not UTF-8 become U+FFFD.
func AppendText(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '\\' || c == ';' || c == ',':
			dst = append(dst, '\\', c)
		case c == '\r':
			dst = append(dst, '\\', 'n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c < 0x20 && c != '\t' || c == 0x7f:
		default:
			dst = append(dst, c)
		}
		i++
	}
	return dst
}

// AppendFolded appends the content line line with CRLF, folded (RFC 5545 3.1): no
// physical line longer than MaxLine octets, each continuation begun by a space, and no
// fold inside a UTF-8 sequence. line must hold no CR or LF.
func AppendFolded(dst, line []byte) []byte {
	limit := MaxLine
	for len(line) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		dst = append(append(dst, line[:cut]...), "\r\n "...)
		line = line[cut:]
		limit = MaxLine - 1 // the space counts
	}
	return append(append(dst, line...), "\r\n"...)
}
