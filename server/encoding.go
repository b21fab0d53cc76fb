package server

import "bytes"

// acceptsGzip reports whether an Accept-Encoding header value allows gzip: "gzip" (or
// "x-gzip") with a q-value above zero, or else "*" with a q-value above zero. An empty header
// allows only identity. Malformed elements are ignored. It does not allocate.
func acceptsGzip(header []byte) bool {
	gzipQ, starQ := -1, -1 // -1: not mentioned; 0: refused; 1: accepted
	for len(header) > 0 {
		var elem []byte
		if i := bytes.IndexByte(header, ','); i >= 0 {
			elem, header = header[:i], header[i+1:]
		} else {
			elem, header = header, nil
		}
		coding, params, _ := bytes.Cut(elem, []byte{';'})
		coding = bytes.TrimSpace(coding)
		q := qValue(params)
		switch {
		case bytes.EqualFold(coding, []byte("gzip")), bytes.EqualFold(coding, []byte("x-gzip")):
			gzipQ = max(gzipQ, q)
		case bytes.Equal(coding, []byte("*")):
			starQ = max(starQ, q)
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

// qValue returns 0 when params hold a q-value of zero as RFC 9110 writes it ("q=0",
// "q=0.", "q=0.000"), else 1. Only the first q parameter counts.
func qValue(params []byte) int {
	for len(params) > 0 {
		var p []byte
		p, params, _ = bytes.Cut(params, []byte{';'})
		name, val, ok := bytes.Cut(bytes.TrimSpace(p), []byte{'='})
		if !ok || !bytes.EqualFold(bytes.TrimSpace(name), []byte("q")) {
			continue
		}
		val = bytes.TrimSpace(val)
		if len(val) == 0 || val[0] != '0' {
			return 1
		}
		if len(val) == 1 {
			return 0
		}
		if val[1] != '.' || len(val) > 5 || len(bytes.Trim(val[2:], "0")) > 0 {
			return 1
		}
		return 0
	}
	return 1
}
