package server

import (
	"testing"
	"time"
)

// Clients send header names in any case (HTTP/2 proxies lower-case them all); HTTP/1.0 too.
func TestRequestHeadersInAnyCase(t *testing.T) {
	addr := hostileServer(t, Options{})
	resps, _, _ := raw(t, addr, "GET /v1/cities HTTP/1.1\r\nHost: x\r\n\r\n", 300*time.Millisecond)
	if len(resps) != 1 {
		t.Fatal("no answer")
	}
	etag := resps[0].Header.Get("ETag")
	for _, req := range []string{
		"GET /v1/cities HTTP/1.1\r\nHost: x\r\nif-none-match: " + etag + "\r\n\r\n",
		"GET /v1/cities HTTP/1.1\r\nHost: x\r\nIF-NONE-MATCH: " + etag + "\r\n\r\n",
		"GET /v1/cities HTTP/1.0\r\nif-none-match: " + etag + "\r\n\r\n",
		"GET /v1/cities HTTP/1.1\r\nHost: x\r\nif-none-match: *\r\n\r\n",
	} {
		resps, _, _ := raw(t, addr, req, 300*time.Millisecond)
		if len(resps) != 1 || resps[0].StatusCode != 304 {
			t.Errorf("%q: %+v; want 304", req, resps)
		}
	}
	for _, req := range []string{
		"GET /v1/gigs HTTP/1.1\r\nHost: x\r\naccept-encoding: gzip\r\n\r\n",
		"GET /v1/gigs HTTP/1.0\r\nACCEPT-ENCODING: gzip\r\n\r\n",
	} {
		resps, _, _ := raw(t, addr, req, 300*time.Millisecond)
		if len(resps) != 1 {
			t.Errorf("%q: no answer", req)
			continue
		}
		if ce := resps[0].Header.Get("Content-Encoding"); resps[0].StatusCode != 200 || ce != "gzip" {
			t.Errorf("%q: %d, Content-Encoding %q; want 200 gzip", req, resps[0].StatusCode, ce)
		}
	}
}
