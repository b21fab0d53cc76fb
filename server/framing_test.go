package server

import (
	"strings"
	"testing"
	"time"
)

// TestMalformedFieldNames refuses, on a real socket, every field line whose name is not a
// token, with a 400 and a closed connection: the request pipelined after it is not served.
func TestMalformedFieldNames(t *testing.T) {
	addr := hostileServer(t, Options{})
	pipelined := "GET /v1/genres HTTP/1.1\r\nHost: x\r\n\r\n"
	for _, tc := range []struct{ name, line string }{
		{"a space inside", "Bad Name: 1"},
		{"an empty name", ": 1"},
		{"a control byte", "X-\x01Bad: 1"},
		{"a DEL", "X-Bad\x7f: 1"},
		{"a tab inside", "X\tBad: 1"},
		{"a delimiter", "X(Bad): 1"},
		{"a slash", "X/Bad: 1"},
		{"no colon", "NoColonHere"},
		{"whitespace before the colon", "X-Bad : 1"},
		{"an obsolete line folding", "X-Ok: 1\r\n continued"},
		{"a non-ASCII byte", "X-Bäd: 1"},
		{"Content-Length and Transfer-Encoding", "Content-Length: 0\r\nTransfer-Encoding: chunked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := "GET /livez HTTP/1.1\r\nHost: x\r\n" + tc.line + "\r\n\r\n" + pipelined
			resps, _, closed := raw(t, addr, req, 2*time.Second)
			if len(resps) != 1 || resps[0].StatusCode != 400 || !closed {
				codes := []int{}
				for _, r := range resps {
					codes = append(codes, r.StatusCode)
				}
				t.Errorf("%q: answers %v, closed %v; want one 400 and the connection closed", tc.line, codes, closed)
			}
		})
	}
	// Every token character is a name; the request after it is served.
	resps, _, _ := raw(t, addr, "GET /livez HTTP/1.1\r\nHost: x\r\nX-a1!#$%&'*+-.^_`|~: ok\r\nEmpty:\r\n\r\n"+pipelined, 500*time.Millisecond)
	if len(resps) != 2 || resps[0].StatusCode != 200 || resps[1].StatusCode != 200 {
		t.Errorf("token names: %d answers, want two 200", len(resps))
	}
}

func TestFramingProblemAllocations(t *testing.T) {
	hdr := []byte("Host: example.org\r\nUser-Agent: curl/8.5\r\nAccept: */*\r\nAccept-Encoding: gzip, br\r\nIf-None-Match: W/\"x\"\r\n\r\n")
	if n := testing.AllocsPerRun(100, func() {
		if framingProblem(hdr) != "" {
			t.Fatal("a good header refused")
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// FuzzFramingProblem: raw header bytes never panic, and a header let through has a token
// before a colon on every line.
func FuzzFramingProblem(f *testing.F) {
	for _, s := range []string{"Host: x\r\n\r\n", "Bad Name: 1\r\n\r\n", ": 1\n\n", "A:1\nContent-Length:1\ntransfer-encoding:x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if framingProblem(raw) != "" {
			return
		}
		for _, line := range strings.Split(string(raw), "\n") {
			line = strings.TrimSuffix(line, "\r")
			if name, _, ok := strings.Cut(line, ":"); line != "" && (!ok || !isToken([]byte(name))) {
				t.Fatalf("let through %q", line)
			}
		}
	})
}
