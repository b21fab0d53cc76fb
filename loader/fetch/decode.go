package fetch

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	xunicode "golang.org/x/text/encoding/unicode"
)

// decoded is a body as handed to the caller.
type decoded struct {
	body      []byte
	mediaType string // lower case, no parameters
	charset   string // the WHATWG name of the encoding read; "" when not text
	note      string // why charset is not what was declared
	fallback  bool   // read as windows-1252, in whole or in part, because it was not valid utf-8
}

// decodeBody converts a text body to UTF-8. The encoding is, in order: a byte order mark;
// the charset parameter of contentType; for HTML a <meta> declaration in the first 1024
// bytes; else UTF-8. When that is UTF-8 and the bytes are not valid UTF-8, they are read as
// windows-1252, the HTML standard's fallback (only the stray bytes, when most of the text
// is UTF-8: see utf8OrFallback), and the note says so. A UTF-8 byte order mark
// is dropped. JSON and other non-text media types are returned as they are. body may be
// returned as is, never modified.
func decodeBody(body []byte, contentType string) decoded {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
		params = nil
	}
	if mt == "" && len(body) > 0 {
		mt, _, _ = strings.Cut(http.DetectContentType(body), ";")
	}
	d := decoded{body: body, mediaType: mt}
	if !isText(mt) {
		return d
	}

	switch {
	case bytes.HasPrefix(body, []byte("\xef\xbb\xbf")):
		d.body = body[3:]
		return d.utf8OrFallback("", "utf-8 byte order mark")
	case bytes.HasPrefix(body, []byte("\xfe\xff")):
		return d.decodeWith(xunicode.UTF16(xunicode.BigEndian, xunicode.ExpectBOM), "utf-16be")
	case bytes.HasPrefix(body, []byte("\xff\xfe")):
		return d.decodeWith(xunicode.UTF16(xunicode.LittleEndian, xunicode.ExpectBOM), "utf-16le")
	}

	label, where := params["charset"], "declared"
	if label == "" && (mt == "text/html" || mt == "application/xhtml+xml") {
		label, where = metaCharset(body[:min(len(body), 1024)]), "declared in <meta>"
	}
	if label == "" {
		return d.utf8OrFallback("", "no charset declared")
	}
	enc, name := charset.Lookup(label)
	if enc == nil || name == "replacement" {
		return d.utf8OrFallback(fmt.Sprintf("unknown charset %q", label), fmt.Sprintf("unknown charset %q", label))
	}
	if where != "declared" && strings.HasPrefix(name, "utf-16") {
		name = "utf-8" // a <meta> cannot truly say utf-16: the bytes read as ASCII
	}
	if name == "utf-8" {
		return d.utf8OrFallback("", fmt.Sprintf("%s %q", where, label))
	}
	return d.decodeWith(enc, name)
}

// utf8OrFallback keeps a valid UTF-8 body (with note, possibly empty). Otherwise, when it
// holds more characters written as valid UTF-8 of three bytes or more (curly quotes,
// dashes, emoji, CJK) or letters of two (accented Latin, Greek, Cyrillic…) than bytes that
// are not UTF-8, it is UTF-8 with a few stray bytes (a corrupted byte, a line pasted from a
// windows-1252 source): it is kept as UTF-8 and each stray byte read as windows-1252.
// windows-1252 text has pairs that are valid UTF-8 by chance, but they decode to other
// things than letters ("É" before a no-break space is U+0260, an IPA sign). Else it is read as
// windows-1252 throughout. The note says which, in terms of what (the declaration that said
// or implied utf-8).
func (d decoded) utf8OrFallback(note, what string) decoded {
	if utf8.Valid(d.body) {
		d.charset, d.note = "utf-8", note
		if note != "" {
			d.note = note + "; read as utf-8"
		}
		return d
	}
	letters, stray := 0, 0
	for b := d.body; len(b) > 0; {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n == 1:
			stray++
		case n > 2 || n == 2 && utf8Letter(r):
			letters++
		}
		b = b[n:]
	}
	d.fallback = true
	if letters > stray {
		out := make([]byte, 0, len(d.body)+2*stray)
		for b := d.body; len(b) > 0; {
			r, n := utf8.DecodeRune(b)
			if r == utf8.RuneError && n == 1 {
				r = charmap.Windows1252.DecodeByte(b[0])
			}
			out = utf8.AppendRune(out, r)
			b = b[n:]
		}
		d.body, d.charset = out, "utf-8"
		d.note = fmt.Sprintf("%s but not valid utf-8: %d stray bytes read as windows-1252", what, stray)
		return d
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(d.body)
	if err != nil { // cannot happen: every octet is a windows-1252 character
		d.charset, d.note, d.fallback = "", what+" but not valid utf-8; left undecoded", false
		return d
	}
	d.body, d.charset = out, "windows-1252"
	d.note = what + " but not valid utf-8; read as windows-1252"
	return d
}

// utf8Letter reports whether r, written in two bytes, is a letter of a script whose text
// is written in them: Latin letters with accents (not the IPA signs after them), Greek,
// Cyrillic, Armenian, Hebrew, Arabic.
func utf8Letter(r rune) bool {
	return r >= 0xC0 && r <= 0x24F && r != 0xD7 && r != 0xF7 || r >= 0x370 && r <= 0x58F ||
		r >= 0x5D0 && r <= 0x5EA || r >= 0x620 && r <= 0x64A
}

func (d decoded) decodeWith(enc encoding.Encoding, name string) decoded {
	out, err := enc.NewDecoder().Bytes(d.body)
	if err != nil {
		d.note = fmt.Sprintf("cannot decode as %s: %v; left undecoded", name, err)
		return d
	}
	d.body, d.charset = bytes.TrimPrefix(out, []byte("\xef\xbb\xbf")), name
	return d
}

// isText reports the media types whose bodies are converted to UTF-8.
func isText(mt string) bool {
	switch {
	case strings.HasSuffix(mt, "/json") || strings.HasSuffix(mt, "+json"):
		return false
	case strings.HasPrefix(mt, "text/"), mt == "application/xhtml+xml", mt == "application/xml",
		strings.HasSuffix(mt, "+xml") && strings.HasPrefix(mt, "application/"):
		return true
	}
	return false
}

// metaCharset returns the charset label of the first <meta charset> or <meta
// http-equiv="content-type" content="...; charset=..."> in head, or "".
func metaCharset(head []byte) string {
	z := html.NewTokenizer(bytes.NewReader(head))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" {
				continue
			}
			var pragma bool
			var content string
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "charset":
					if s := strings.TrimSpace(string(v)); s != "" {
						return s
					}
				case "http-equiv":
					pragma = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
				case "content":
					content = string(v)
				}
			}
			if pragma && content != "" {
				if _, params, err := mime.ParseMediaType(content); err == nil && params["charset"] != "" {
					return params["charset"]
				}
				if i := strings.Index(strings.ToLower(content), "charset="); i >= 0 {
					s := strings.Trim(content[i+len("charset="):], `"' `)
					if j := strings.IndexAny(s, `;"' `); j >= 0 {
						s = s[:j]
					}
					return s
				}
			}
		}
	}
}
