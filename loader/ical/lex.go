package ical

import (
	"bytes"
	"errors"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lexer splits a document into content lines. Lines end in CRLF or a bare LF; a line that
// begins with a space or a tab continues the one before it (RFC 5545 §3.1). Unfolding works
// on bytes, so a fold may split a UTF-8 sequence; a content line is made valid UTF-8 only
// once it is whole.
type lexer struct {
	data []byte
	pos  int    // offset of the next physical line
	line int    // physical lines read so far
	buf  []byte // the content line being unfolded, reused
}

// next returns the next content line and the 1-based number of its first physical line.
// long is set, and text left empty, when the unfolded line is longer than maxLine bytes.
// ok is false at the end of the data.
func (l *lexer) next() (line int, text string, long, ok bool) {
	if l.pos >= len(l.data) {
		return 0, "", false, false
	}
	first := l.physical()
	line = l.line
	long = len(first) > maxLine
	if !long {
		l.buf = append(l.buf[:0], first...)
	}
	for l.pos < len(l.data) && (l.data[l.pos] == ' ' || l.data[l.pos] == '\t') {
		more := l.physical()[1:]
		if long = long || len(l.buf)+len(more) > maxLine; !long {
			l.buf = append(l.buf, more...)
		}
	}
	if long {
		return line, "", true, true
	}
	return line, strings.ToValidUTF8(string(l.buf), "\uFFFD"), false, true
}

// physical consumes one physical line and returns it without its line ending.
func (l *lexer) physical() []byte {
	rest := l.data[l.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
		l.pos = len(l.data)
	} else {
		l.pos += i + 1
	}
	l.line++
	return bytes.TrimSuffix(rest[:i], []byte{'\r'})
}

// prop is one content line: a property, or a BEGIN or END of a component.
type prop struct {
	name   string // upper case
	params []param
	value  string // as written: TEXT values are still escaped
	line   int
	err    error // set when the line names a property but cannot be read further
}

// param is one property parameter with its values, quotes removed.
type param struct {
	name   string // upper case
	values []string
}

// param returns the first value of the named parameter, or "".
func (p *prop) param(name string) string {
	for _, pr := range p.params {
		if pr.name == name && len(pr.values) > 0 {
			return pr.values[0]
		}
	}
	return ""
}

// parseProp reads a content line: name *(";" param) ":" value. Parameter values may be
// quoted, and then hold ";", ":" and ","; RFC 6868 caret escapes in them are decoded. When
// the name is readable but the rest is not, the returned prop has the name and err is set.
func parseProp(s string) (prop, error) {
	i := strings.IndexAny(s, ";:")
	if i < 0 || !isName(s[:i]) {
		return prop{}, errors.New("not a content line")
	}
	p := prop{name: strings.ToUpper(s[:i])}
	for i < len(s) && s[i] == ';' {
		i++
		eq := strings.IndexAny(s[i:], "=;:")
		if eq < 0 || s[i+eq] != '=' || !isName(s[i:i+eq]) {
			return p, errors.New("malformed parameter")
		}
		pr := param{name: strings.ToUpper(s[i : i+eq])}
		i += eq + 1
		for {
			var v string
			if i < len(s) && s[i] == '"' {
				end := strings.IndexByte(s[i+1:], '"')
				if end < 0 {
					return p, errors.New("unterminated quoted parameter value")
				}
				v, i = s[i+1:i+1+end], i+end+2
			} else {
				end := strings.IndexAny(s[i:], ",;:\"")
				if end < 0 {
					end = len(s) - i
				}
				v, i = s[i:i+end], i+end
			}
			pr.values = append(pr.values, uncaret(v))
			if i < len(s) && s[i] == ',' {
				i++
				continue
			}
			break
		}
		p.params = append(p.params, pr)
	}
	if i >= len(s) || s[i] != ':' {
		return p, errors.New("no ':' before the value")
	}
	p.value = s[i+1:]
	return p, nil
}

// isName reports whether s is a property, parameter or component name: letters, digits
// and "-".
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// uncaret decodes the RFC 6868 escapes of a parameter value: ^n, ^' and ^^.
func uncaret(s string) string {
	if !strings.Contains(s, "^") {
		return s
	}
	return strings.NewReplacer("^n", "\n", "^N", "\n", "^'", `"`, "^^", "^").Replace(s)
}

// unescape decodes a TEXT value: \\ \; \, \n and \N. Any other backslash is kept.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch c := s[i+1]; c {
			case '\\', ';', ',':
				b.WriteByte(c)
				i++
				continue
			case 'n', 'N':
				b.WriteByte('\n')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// splitText splits a TEXT list at the commas that are not escaped and unescapes each item.
func splitText(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ',':
			out = append(out, unescape(s[start:i]))
			start = i + 1
		}
	}
	return append(out, unescape(s[start:]))
}

// text returns unescaped text cleaned for display: HTML entities decoded (CMS exports put
// them in summaries), control characters dropped, white space collapsed and trimmed, at
// most maxText bytes.
func text(s string) string {
	s = html.UnescapeString(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case unicode.IsControl(r) || r == '\uFEFF':
		default:
			n := utf8.RuneLen(r)
			if space {
				n++
			}
			if b.Len()+n > maxText {
				return b.String()
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// clip shortens s to about n bytes on a rune boundary, for quoting input in a reason.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
