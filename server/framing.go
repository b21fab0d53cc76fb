package server

import "bytes"

// framingProblem reports what makes a request's field lines unsafe to answer, given its
// raw header bytes (RequestHeader.RawHeaders: every field line as received, through the
// blank line that ends them), or "" when nothing does:
//   - a field line whose name is not a token (RFC 9110 section 5.1, RFC 9112 section 5):
//     empty, with a space, a control byte or any other delimiter in it, a line without a
//     colon, or one starting with whitespace (an obsolete line folding);
//   - Content-Length and Transfer-Encoding together (RFC 9112 section 6.1).
//
// fasthttp normalizes or drops some such lines; a proxy in front may read them otherwise,
// and frame the connection's next request differently, so the request is refused and its
// connection closed. It does not allocate: it runs on every request.
func framingProblem(raw []byte) string {
	var cl, te bool
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) == 0 {
			continue // the blank line that ends the header
		}
		name, _, ok := bytes.Cut(line, []byte{':'})
		if !ok || !isToken(name) {
			return "a header field name must be a token (RFC 9110 section 5.1): no spaces, controls or delimiters, and a colon after it"
		}
		cl = cl || bytes.EqualFold(name, []byte("Content-Length"))
		te = te || bytes.EqualFold(name, []byte("Transfer-Encoding"))
	}
	if cl && te {
		return "Content-Length and Transfer-Encoding together are refused"
	}
	return ""
}

// isToken reports whether b is a token of RFC 9110 section 5.6.2: one or more tchar.
func isToken(b []byte) bool {
	for _, c := range b {
		if !tchar[c] {
			return false
		}
	}
	return len(b) > 0
}

// tchar holds the bytes of a token: letters, digits and !#$%&'*+-.^_`|~.
var tchar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range []byte("!#$%&'*+-.^_`|~") {
		t[c] = true
	}
	return t
}()
