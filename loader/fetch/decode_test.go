package fetch

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeBody holds decodeBody to its contract on any body and Content-Type: it never
// panics, never modifies the body, and hands every text body over as valid UTF-8.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []struct{ body, ctype string }{
		{"<html><head><meta charset=iso-8859-2></head>\xb1</html>", "text/html"},
		{"caf\xe9", "text/html; charset=utf-8"},
		{"\xef\xbb\xbfBEGIN:VCALENDAR", "text/calendar"},
		{"\xff\xfe<\x00h\x00>\x00", "text/html"},
		{"<meta http-equiv=Content-Type content='text/html; charset=utf-16'>", "text/html"},
		{`{"a":"\xe9"}`, "application/json"},
		{"plain", "text/plain; charset=x-unknown"},
		{"\x00\x01binary", ""},
		{"<html>", "text/html; charset=\"unterminated"},
	} {
		f.Add([]byte(seed.body), seed.ctype)
	}
	f.Fuzz(func(t *testing.T, body []byte, ctype string) {
		orig := bytes.Clone(body)
		d := decodeBody(body, ctype)
		if !bytes.Equal(body, orig) {
			t.Fatal("the body was modified")
		}
		if isText(d.mediaType) && !utf8.Valid(d.body) {
			t.Fatalf("text body (%s, read as %q) is not valid UTF-8: %q", d.mediaType, d.charset, d.body)
		}
	})
}
