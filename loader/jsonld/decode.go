package jsonld

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// maxDepth bounds the nesting read from a block; deeper values are skipped.
const maxDepth = 32

// A decoded block is a tree of string, json.Number, bool, nil, []any and *object values.

// object is a JSON object with its members in document order.
type object struct {
	line int // page line of its "{"
	keys []string
	vals []any
}

// get returns the value of key, the last one when the key is repeated, or nil.
func (o *object) get(key string) any {
	for i := len(o.keys) - 1; i >= 0; i-- {
		if o.keys[i] == key {
			return o.vals[i]
		}
	}
	return nil
}

// unalias names "type" and "id" "@type" and "@id" in an object that has neither keyword:
// schema.org's context makes them aliases (its examples and Artsdata write them so), and
// no schema.org property has either name. It also names a property written with an "@"
// that is no JSON-LD keyword by its name ("@addressLocality" is "addressLocality"), when
// the object has no member of that name: a Drupal site writes its venues' addresses so,
// and JSON-LD processors would drop those members, not read them as something else.
func (o *object) unalias() {
	for _, k := range [...]string{"type", "id"} {
		if o.get("@"+k) != nil {
			continue
		}
		for i := range o.keys {
			if o.keys[i] == k {
				o.keys[i] = "@" + k
			}
		}
	}
	for i, k := range o.keys {
		if len(k) > 1 && k[0] == '@' && !keywords[k] && o.get(k[1:]) == nil {
			o.keys[i] = k[1:]
		}
	}
}

// keywords are the JSON-LD 1.1 keywords: members that are not properties.
var keywords = map[string]bool{
	"@base": true, "@container": true, "@context": true, "@direction": true, "@graph": true,
	"@id": true, "@import": true, "@included": true, "@index": true, "@json": true,
	"@language": true, "@list": true, "@nest": true, "@none": true, "@prefix": true,
	"@propagate": true, "@protected": true, "@reverse": true, "@set": true, "@type": true,
	"@value": true, "@version": true, "@vocab": true,
}

// decoded is what one block yielded.
type decoded struct {
	vals    []any // the top-level values read completely
	deep    bool  // values nested deeper than maxDepth were skipped
	err     error // why the rest of the block could not be read
	errLine int   // page line of the error
}

// decode reads the JSON values of b. When the text is not valid JSON, it is repaired and
// read again.
func decode(b block) decoded {
	d := decodeText(b.text, b)
	if d.err == nil {
		return d
	}
	fixed := bytes.Clone(b.text)
	if !repair(fixed) {
		return d
	}
	return decodeText(fixed, b)
}

// decodeText reads the values of text, which has the length and newlines of b.text.
func decodeText(text []byte, b block) decoded {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	t := tree{dec: dec, lines: lineCounter{text: b.text, base: b.base}}
	var d decoded
	for {
		v, err := t.value(0)
		if err == io.EOF {
			break
		}
		if err != nil {
			d.err, d.errLine = err, t.lines.at(int(dec.InputOffset()))
			break
		}
		d.vals = append(d.vals, v)
	}
	d.deep = t.deep
	return d
}

// tree builds values from the tokens of a json.Decoder.
type tree struct {
	dec   *json.Decoder
	lines lineCounter
	deep  bool
}

// value reads the next value at the given depth. It returns io.EOF only when the input
// ends before the value starts.
func (t *tree) value(depth int) (any, error) {
	tok, err := t.dec.Token()
	if err != nil {
		return nil, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth == maxDepth {
		t.deep = true
		return nil, t.skip()
	}
	// At a value position, Token yields only an opening delimiter.
	if delim == '{' {
		o := &object{line: t.lines.at(int(t.dec.InputOffset()) - 1)}
		for t.dec.More() {
			key, err := t.dec.Token()
			if err != nil {
				return nil, noEOF(err)
			}
			v, err := t.value(depth + 1)
			if err != nil {
				return nil, noEOF(err)
			}
			o.keys = append(o.keys, key.(string)) // Token fails on keys that are not strings
			o.vals = append(o.vals, v)
		}
		o.unalias()
		return o, t.end()
	}
	arr := []any{}
	for t.dec.More() {
		v, err := t.value(depth + 1)
		if err != nil {
			return nil, noEOF(err)
		}
		arr = append(arr, v)
	}
	return arr, t.end()
}

// end reads the closing delimiter of an object or array.
func (t *tree) end() error {
	_, err := t.dec.Token()
	return noEOF(err)
}

// skip reads past the rest of the object or array whose opening delimiter was just read.
func (t *tree) skip() error {
	for n := 1; n > 0; {
		tok, err := t.dec.Token()
		if err != nil {
			return noEOF(err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			n++
		case json.Delim('}'), json.Delim(']'):
			n--
		}
	}
	return nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// repair fixes, in place and byte for byte, the breakage JSON-LD on real pages often has:
// raw control characters (newlines, tabs) inside strings become spaces, as does a backslash
// that escapes nothing JSON knows ("Pixies\<BS>"); trailing commas before '}' or ']', byte
// order marks outside strings, and a stray quote after a comma at the end of a line
// ("42.24","<newline> "priceCurrency") are blanked. Keeping the length keeps every offset on
// its page line. It reports whether anything changed.
func repair(b []byte) bool {
	const bom = "\uFEFF"
	changed := false
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && escaped && (c < 0x20 || !strings.ContainsRune(`"\\/bfnrtu`, rune(c))):
			b[i-1], escaped, changed = ' ', false, true
			if c < 0x20 {
				b[i] = ' '
			}
			inString = c != '"'
		case inString && c < 0x20:
			b[i], escaped, changed = ' ', false, true
		case inString && escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"' && strayQuote(b, i):
			b[i], changed = ' ', true
		case c == '"':
			inString = true
		case c == ',':
			if j := len(b) - len(bytes.TrimLeft(b[i+1:], spaces)); j < len(b) && (b[j] == '}' || b[j] == ']') {
				b[i], changed = ' ', true
			}
		case bytes.HasPrefix(b[i:], []byte(bom)):
			blank(b[i : i+len(bom)])
			i += len(bom) - 1
			changed = true
		}
	}
	return changed
}

// strayQuote reports whether the quote at b[i] opens no string: it follows a comma, and
// what it would open is white space across a line break followed by another quote.
func strayQuote(b []byte, i int) bool {
	before := bytes.TrimRight(b[:i], spaces)
	if len(before) == 0 || before[len(before)-1] != ',' {
		return false
	}
	rest := b[i+1:]
	j := bytes.IndexByte(rest, '"')
	return j > 0 && len(bytes.TrimLeft(rest[:j], spaces)) == 0 && bytes.ContainsAny(rest[:j], "\r\n")
}

// reason describes why the rest of the block could not be read.
func (d decoded) reason() string {
	return fmt.Sprintf("invalid json-ld: line %d: %v", d.errLine, d.err)
}
