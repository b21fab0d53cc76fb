package jsonld

import (
	"bytes"
	"strings"
)

// block is the content of one <script type="application/ld+json"> element.
type block struct {
	text []byte // a copy of the content with its wrappers blanked; newlines kept in place
	line int    // 1-based page line of the <script tag
	base int    // 1-based page line of text[0]
}

// scripts returns the JSON-LD blocks of page in document order. It follows the HTML
// tokenizer only as far as finding script elements needs: comments are skipped, and every
// script's content, whatever its type, runs to the "</script" that ends it (scriptEnd).
func scripts(page []byte) []block {
	var blocks []block
	lines := lineCounter{text: page, base: 1}
	for i := 0; i < len(page); {
		j := bytes.IndexByte(page[i:], '<')
		if j < 0 {
			break
		}
		i += j
		switch {
		case bytes.HasPrefix(page[i:], []byte("<!--")):
			// "<!-->" is a complete, empty comment, hence the search from i+2.
			end := bytes.Index(page[i+2:], []byte("-->"))
			if end < 0 {
				return blocks
			}
			i += 2 + end + len("-->")
		case isScriptTag(page[i:]):
			ld, n := scriptAttrs(page[i+len("<script"):])
			if n < 0 {
				return blocks
			}
			start := i + len("<script") + n
			end := scriptEnd(page[start:])
			if end < 0 {
				end = len(page) - start
			}
			end += start
			if ld {
				text := bytes.Clone(page[start:end])
				unwrap(text)
				blocks = append(blocks, block{text: text, line: lines.at(i), base: lines.at(start)})
			}
			i = end
		default:
			i++
		}
	}
	return blocks
}

// scriptEnd returns the offset in b, a script element's content, of the "</script" that
// ends the element, or -1, as the HTML tokenizer's script data states find it: an end tag
// ends it unless it closes a "<script" met between "<!--" and "-->", which browsers read
// as text. WordPress writes "<!--[if lt IE 9]><script>document.createElement('video');
// </script><![endif]-->" before every video of a post, and EventON copies the post into
// its JSON-LD's description (Harlem Jazz Club, Barcelona): the JSON runs on past that
// "</script".
func scriptEnd(b []byte) int {
	escaped, double := false, false // in "<!--": the escaped states; in "<script" there: double escaped
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '<' && hasPrefixFold(b[i:], "</script") && tagNameEnds(b[i+len("</script"):]):
			if !double {
				return i
			}
			double = false
		case c == '<' && escaped && !double && hasPrefixFold(b[i:], "<script") && tagNameEnds(b[i+len("<script"):]):
			double = true
		case c == '<' && !escaped && bytes.HasPrefix(b[i:], []byte("<!--")):
			escaped = true
			i++ // the "--" of "<!--" may already close it: "<!-->"
		case c == '-' && escaped && bytes.HasPrefix(b[i:], []byte("-->")):
			escaped, double = false, false
			i += 2
		}
	}
	return -1
}

// tagNameEnds reports whether b, which follows a tag name, ends it: white space, '/', '>'
// or the end of the page.
func tagNameEnds(b []byte) bool {
	return len(b) == 0 || isSpace(b[0]) || b[0] == '/' || b[0] == '>'
}

// isScriptTag reports whether b starts with a <script start tag.
func isScriptTag(b []byte) bool {
	const tag = "<script"
	if !hasPrefixFold(b, tag) || len(b) == len(tag) {
		return false
	}
	c := b[len(tag)]
	return isSpace(c) || c == '/' || c == '>'
}

// scriptAttrs reads the attributes of a script tag from b, which starts right after the tag
// name, up to and including the closing '>'. It reports whether the script's type is JSON-LD
// and how many bytes the attributes took, or -1 when the tag never ends.
func scriptAttrs(b []byte) (ld bool, n int) {
	seenType := false
	for i := 0; ; {
		for i < len(b) && (isSpace(b[i]) || b[i] == '/') {
			i++
		}
		if i == len(b) {
			return false, -1
		}
		if b[i] == '>' {
			return ld, i + 1
		}
		name := i
		i++ // a name may start with '='
		for i < len(b) && !isSpace(b[i]) && b[i] != '/' && b[i] != '>' && b[i] != '=' {
			i++
		}
		isType := !seenType && i-name == len("type") && hasPrefixFold(b[name:], "type")
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		var value []byte
		if i < len(b) && b[i] == '=' {
			i++
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			if i < len(b) && (b[i] == '"' || b[i] == '\'') {
				end := bytes.IndexByte(b[i+1:], b[i])
				if end < 0 {
					return false, -1
				}
				value = b[i+1 : i+1+end]
				i += end + 2
			} else {
				start := i
				for i < len(b) && !isSpace(b[i]) && b[i] != '>' {
					i++
				}
				value = b[start:i]
			}
		}
		if isType { // only the first type attribute counts, as in HTML
			seenType = true
			ld = isLDType(string(value))
		}
	}
}

// isLDType reports whether a type attribute names JSON-LD, ignoring case, white space and
// parameters such as "; charset=utf-8".
func isLDType(t string) bool {
	t, _, _ = strings.Cut(t, ";")
	return strings.EqualFold(strings.TrimSpace(t), "application/ld+json")
}

// unwrap blanks, in place, the comment and CDATA wrappers pages put around JSON-LD for old
// browsers: "<!--", "<![CDATA[", "//<![CDATA[", "/*<![CDATA[*/" and the like before the
// JSON, and their closing counterparts after it. Newlines stay where they are, so offsets
// keep their lines.
func unwrap(b []byte) {
	// Each step moves start or end past what it blanked, keeping the whole linear.
	start := 0
	for {
		start = len(b) - len(bytes.TrimLeft(b[start:], spaces))
		rest := b[start:]
		n := 0
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			n = len("<!--")
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			n = len("<![CDATA[")
		case bytes.HasPrefix(rest, []byte("//")):
			if n = bytes.IndexByte(rest, '\n'); n < 0 {
				n = len(rest)
			}
		case bytes.HasPrefix(rest, []byte("/*")):
			if n = bytes.Index(rest, []byte("*/")); n < 0 {
				n = len(rest)
			} else {
				n += len("*/")
			}
		}
		if n == 0 {
			break
		}
		blank(rest[:n])
		start += n
	}
	for end := len(b); ; {
		head := bytes.TrimRight(b[start:end], spaces)
		n := 0
		switch {
		case bytes.HasSuffix(head, []byte("-->")), bytes.HasSuffix(head, []byte("]]>")):
			n = 3
		case bytes.HasSuffix(head, []byte("*/")):
			if n = len(head) - bytes.LastIndex(head, []byte("/*")); n > len(head) {
				n = 0
			}
		default: // a last line that is a JavaScript comment and cannot end the JSON
			last := head[bytes.LastIndexByte(head, '\n')+1:]
			if bytes.HasPrefix(bytes.TrimLeft(last, spaces), []byte("//")) && !bytes.ContainsAny(last, "}]") {
				n = len(last)
			}
		}
		if n == 0 {
			return
		}
		blank(head[len(head)-n:])
		end = start + len(head) - n
	}
}

const spaces = " \t\r\n\f"

// blank overwrites b with spaces, keeping newlines.
func blank(b []byte) {
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
}

func isSpace(c byte) bool { return strings.IndexByte(spaces, c) >= 0 }

// hasPrefixFold reports whether b starts with the lower-case ASCII prefix, ignoring ASCII case.
func hasPrefixFold(b []byte, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// lineCounter maps byte offsets of text to 1-based page lines.
type lineCounter struct {
	text []byte
	base int // page line of text[0]
	off  int // offset counted so far
	n    int // newlines in text[:off]
}

// at returns the page line of text[off]. Offsets must not decrease from call to call, which
// keeps the counting linear in all.
func (c *lineCounter) at(off int) int {
	if off = min(off, len(c.text)); off > c.off {
		c.n += bytes.Count(c.text[c.off:off], []byte("\n"))
		c.off = off
	}
	return c.base + c.n
}
