package server

import (
	"bufio"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
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

// TestHeadersCostBoundedMemory sends, on 64 real connections at once, a megabyte of header
// that never ends, with the process's memory limit set: each is refused with a 431 and
// closed, and the heap grows by no more than the connections' read and write buffers
// (ReadBufferSize, WriteBufferSize) and their bookkeeping.
func TestHeadersCostBoundedMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	addr := hostileServer(t, Options{})
	const conns = 64
	req := []byte("GET /v1/gigs HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 1<<20)) // shared: the client's memory stays put
	runtime.GC()
	var before, peak runtime.MemStats
	runtime.ReadMemStats(&before)
	peak = before
	var wg sync.WaitGroup
	codes := make(chan int, conns)
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			go func() { _, _ = c.Write(req) }()
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.HeapInuse {
				peak = m
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-sampled
	close(codes)
	for code := range codes {
		if code != 431 {
			t.Errorf("a megabyte of header: %d, want 431", code)
		}
	}
	// The server's buffers, 8 KiB to read and WriteBufferSize (32 KiB) to write, and a
	// little more to keep track of a connection and its answer, and the test's goroutines.
	const perConn = 64 << 10
	if grew := int64(peak.HeapInuse) - int64(before.HeapInuse); grew > conns*perConn+(4<<20) {
		t.Errorf("the heap grew by %d KiB for %d connections", grew>>10, conns)
	}
}
