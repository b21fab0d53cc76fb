package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
)

// Requests an attacker sends, against a real listener: each must be answered cheaply and
// clearly, or the connection closed, and never hold the server's connections.

// hostileServer serves the test snapshot with o's connection options and returns its
// address (host:port).
func hostileServer(t *testing.T, o Options) string {
	t.Helper()
	var live engine.Live
	live.Publish(testSnapshot(t))
	live.SetNextRefresh(nextLoad)
	o.Live, o.Now = &live, func() time.Time { return testNow }
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if o.ReadLimit == 0 {
		o.ReadLimit = 1 << 30
	}
	return strings.TrimPrefix(listen(t, New(o)), "http://")
}

// raw sends request bytes on a new connection and returns every response read until the
// server closes it or stops answering for wait, and whether it closed it.
func raw(t *testing.T, addr, request string, wait time.Duration) (resps []*http.Response, bodies []string, closed bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, request); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	for {
		_ = c.SetReadDeadline(time.Now().Add(wait))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			var ne net.Error
			timeout := err != io.EOF && (errorAs(err, &ne) && ne.Timeout())
			return resps, bodies, !timeout
		}
		b, _ := io.ReadAll(resp.Body)
		resps, bodies = append(resps, resp), append(bodies, string(b))
	}
}

func errorAs(err error, ne *net.Error) bool {
	e, ok := err.(net.Error)
	if ok {
		*ne = e
	}
	return ok
}

func TestNoSniffOnEveryAnswer(t *testing.T) {
	addr := hostileServer(t, Options{})
	requests := []string{
		"GET /v1/gigs HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /v1/cities HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\n\r\n",
		"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /v1/gigs?page=x HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /v1/gigs HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
		"OPTIONS /v1/gigs HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /docs HTTP/1.1\r\nHost: x\r\n\r\n",
		"GARBAGE\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", 9000) + "\r\n\r\n",
	}
	for _, req := range requests {
		resps, _, _ := raw(t, addr, req, 300*time.Millisecond)
		if len(resps) != 1 || resps[0].Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%.40q: %d responses, first %+v", req, len(resps), resps)
		}
	}
}

func TestInvalidParamsCapped(t *testing.T) {
	base := "http://" + hostileServer(t, Options{})
	var q []string
	for i := range 500 {
		q = append(q, fmt.Sprintf("x%d=1", i))
	}
	for _, path := range []string{"/v1/gigs?", "/v1/cities?", "/v1/venues?"} {
		r := do(t, "GET", base+path+strings.Join(q, "&"), nil)
		var p struct {
			Detail        string
			InvalidParams []InvalidParam `json:"invalid_params"`
			More          int            `json:"more_invalid_params"`
		}
		if err := json.Unmarshal(r.body, &p); err != nil || r.status != 400 {
			t.Fatalf("%s: %d %v", path, r.status, err)
		}
		if len(p.InvalidParams) != 20 || p.More != 480 || p.InvalidParams[0].Name != "x0" || !strings.HasSuffix(p.Detail, "x19 and 480 more") {
			t.Errorf("%s: %d listed, %d more, detail %q", path, len(p.InvalidParams), p.More, p.Detail)
		}
		if len(r.body) > 4096 {
			t.Errorf("%s: a %d-byte problem", path, len(r.body))
		}
	}
}

// TestAmbiguousLength refuses Content-Length with Transfer-Encoding, whichever comes
// first and however spelled, and closes the connection: what follows it is not to be
// read as a request.
func TestAmbiguousLength(t *testing.T) {
	addr := hostileServer(t, Options{})
	smuggled := "GET /v1/genres HTTP/1.1\r\nHost: x\r\n\r\n"
	for _, head := range []string{
		"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
		"transfer-encoding: chunked\r\ncontent-length: 5\r\n",
		"CONTENT-LENGTH: 5\r\nTransfer-Encoding:chunked\r\n",
	} {
		req := "GET /livez HTTP/1.1\r\nHost: x\r\n" + head + "\r\n0\r\n\r\n" + smuggled
		resps, bodies, closed := raw(t, addr, req, 2*time.Second)
		if len(resps) == 0 {
			t.Errorf("%q: no answer", head)
			continue
		}
		if len(resps) != 1 || resps[0].StatusCode != 400 || !closed || !strings.Contains(bodies[0], "Content-Length and Transfer-Encoding") {
			t.Errorf("%q: %d responses, first %d %q, closed %v", head, len(resps), resps[0].StatusCode, bodies[0], closed)
		}
	}
	// Either one alone is fine.
	resps, _, _ := raw(t, addr, "GET /livez HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", time.Second)
	if len(resps) != 1 || resps[0].StatusCode != 200 {
		t.Errorf("Content-Length alone: %+v", resps)
	}
}

// TestRequestIDsUnique gives every request its own id, malformed ones included (whose
// fasthttp context id is 0 each time).
func TestRequestIDsUnique(t *testing.T) {
	addr := hostileServer(t, Options{})
	seen := map[string]string{}
	for i := range 20 {
		req := "GARBAGE\r\n\r\n"
		if i%2 == 1 {
			req = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
		}
		resps, _, _ := raw(t, addr, req, 150*time.Millisecond)
		for _, r := range resps {
			id := r.Header.Get("X-Request-Id")
			if prev, dup := seen[id]; dup || id == "" {
				t.Fatalf("request id %q of %.20q was given to %.20q", id, req, prev)
			}
			seen[id] = req
		}
	}
}

func TestTimesOutOfRange(t *testing.T) {
	base := "http://" + hostileServer(t, Options{})
	for _, v := range []string{"2026-12-01T24:00:00Z", "2026-12-01T10:00:00%2B24:00", "2026-12-01T23:59:60Z", "2026-13-01", "2026-02-29", "0000-01-01"} {
		r := do(t, "GET", base+"/v1/gigs?from="+v, nil)
		if r.status != 400 || !bytes.Contains(r.body, []byte(`"name":"from"`)) {
			t.Errorf("from=%s: %d %s", v, r.status, r.body)
		}
	}
}

// TestSlowAndIdleClients closes connections that dribble their headers (slowloris), send
// nothing, or park between requests, each on its own timeout.
func TestSlowAndIdleClients(t *testing.T) {
	const header, idle = 300 * time.Millisecond, 1500 * time.Millisecond
	addr := hostileServer(t, Options{HeaderTimeout: header, IdleTimeout: idle})
	tests := []struct {
		name     string
		send     func(c net.Conn)
		min, max time.Duration // when the server closes the connection
	}{
		{"silent", func(net.Conn) {}, header, idle},
		{"slowloris", func(c net.Conn) {
			for _, part := range []string{"GET /livez HTTP/1.1\r\n", "Host: x\r\n", "X-A: 1\r\n", "X-B: 2\r\n", "X-C: 3\r\n", "X-D: 4\r\n"} {
				if _, err := io.WriteString(c, part); err != nil {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		}, header, idle},
		{"parked after a request", func(c net.Conn) { _, _ = io.WriteString(c, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n") }, idle, idle + time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			start := time.Now()
			go tt.send(c)
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, err = io.Copy(io.Discard, c) // nil at the server's close; a reset when it had unread bytes
			if took := time.Since(start); err != nil && !errors.Is(err, syscall.ECONNRESET) || took < tt.min*9/10 || took > tt.max {
				t.Fatalf("closed after %s (read error %v); want between %s and %s", took, err, tt.min, tt.max)
			}
		})
	}
}

// TestConnectionCaps refuses a client's connections over its cap, and closes every
// connection after its response while the server is crowded (three quarters of its cap
// open), so parked keep-alive connections give their places back.
func TestConnectionCaps(t *testing.T) {
	hold := func(addr string, n int) func() {
		var held []net.Conn
		for range n {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
		}
		time.Sleep(100 * time.Millisecond) // the server has counted them
		return func() {
			for _, c := range held {
				c.Close()
			}
		}
	}
	const livez = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n"

	addr := hostileServer(t, Options{MaxConns: 100, MaxConnsPerClient: 4})
	release := hold(addr, 4)
	resps, bodies, closed := raw(t, addr, livez, time.Second)
	if len(resps) != 1 || resps[0].StatusCode != 429 || !closed || !strings.Contains(bodies[0], "too-many-connections") {
		t.Fatalf("fifth connection of one client: %+v %q, closed %v", resps, bodies, closed)
	}
	release()

	addr = hostileServer(t, Options{MaxConns: 4, MaxConnsPerClient: -1})
	for _, tt := range []struct {
		held    int
		closing bool
	}{{1, false}, {2, true}} {
		release := hold(addr, tt.held)
		resps, _, closed := raw(t, addr, livez+livez, 300*time.Millisecond)
		release()
		want := map[bool]int{true: 1, false: 2}[tt.closing]
		if len(resps) != want || resps[0].StatusCode != 200 || resps[0].Close != tt.closing || closed != tt.closing {
			t.Errorf("%d of 4 held: %d responses, closing %v; want %d", tt.held, len(resps), closed, want)
		}
	}
}

// TestMalformedChargedNow sends requests fasthttp cannot parse to a server on the real
// clock, each on a new connection (where fasthttp has set no request time) and on a kept
// one: each is charged like a good request, its rate-limit headers are sane, the limit
// refuses the 61st, and a burst of them locks the address out no longer than a minute.
func TestMalformedChargedNow(t *testing.T) {
	var live engine.Live
	live.Publish(testSnapshot(t))
	s := New(Options{Live: &live, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	addr := strings.TrimPrefix(listen(t, s), "http://")
	const bad = "GET /v1/gigs HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"
	good := "GET /v1/genres HTTP/1.1\r\nHost: x\r\n\r\n"
	resps, _, _ := raw(t, addr, good+bad, time.Second) // a kept connection: a good request's time, then none
	for i := range 200 {
		if i > 0 {
			resps, _, _ = raw(t, addr, bad, time.Second)
		}
		for _, r := range resps {
			remaining, err := strconv.Atoi(r.Header.Get("X-RateLimit-Remaining"))
			reset, err2 := strconv.Atoi(r.Header.Get("X-RateLimit-Reset"))
			if err != nil || err2 != nil || remaining < 0 || remaining > 60 || reset < 0 || reset > 60 {
				t.Fatalf("request %d: %d with X-RateLimit-Remaining %q, X-RateLimit-Reset %q", i, r.StatusCode,
					r.Header.Get("X-RateLimit-Remaining"), r.Header.Get("X-RateLimit-Reset"))
			}
			if i >= 60 && r.StatusCode != 429 {
				t.Fatalf("request %d: %d, want 429 once 60 are spent", i, r.StatusCode)
			}
			if after, _ := strconv.Atoi(r.Header.Get("Retry-After")); after > 60 {
				t.Fatalf("request %d: Retry-After %d s after a burst", i, after)
			}
		}
	}
}

// TestTimeoutCostsNoRequest: a connection that sends no whole request within the header
// timeout (a browser's preconnect, a slow client) is answered 408 and closed, and costs
// none of the client's requests (a review's 30 silent connections spent half a minute's
// quota as 400s "could not be parsed").
func TestTimeoutCostsNoRequest(t *testing.T) {
	addr := hostileServer(t, Options{HeaderTimeout: 200 * time.Millisecond, ReadLimit: 2})
	for i, send := range []string{"", "", "GET /livez HTTP/1.1\r\nHost: x\r\n"} {
		resps, bodies, closed := raw(t, addr, send, 3*time.Second)
		if len(resps) != 1 || resps[0].StatusCode != 408 || !closed || !strings.Contains(bodies[0], "/problems/request-timeout") {
			t.Fatalf("connection %d: %d responses %v, closed %v", i, len(resps), bodies, closed)
		}
	}
	for i := range 2 {
		if resps, _, _ := raw(t, addr, "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 3*time.Second); len(resps) != 1 || resps[0].StatusCode != 200 {
			t.Fatalf("request %d of a quota of 2 after three timeouts: %v", i+1, resps)
		}
	}
}

// TestProblemInstanceIsAURIReference: a problem's instance is the path as sent, written
// as a URI reference (a review's "/v1/<script>\"{|}\\^`x" and raw bytes of no character
// came out as they were, and those as U+FFFD).
func TestProblemInstanceIsAURIReference(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/v1/gigs/abc", "/v1/gigs/abc"},
		{"/v1/<script>\"{|}\\^`x", "/v1/%3Cscript%3E%22%7B%7C%7D%5C%5E%60x"},
		{"/v1/gigs/\xff\xfe", "/v1/gigs/%FF%FE"},
		{"/v1/a%2fb/%zz/100%", "/v1/a%2fb/%25zz/100%25"},
		{"/v1/caf\u00e9 x", "/v1/caf%C3%A9%20x"},
		{"//v1/gigs", "/%2Fv1/gigs"},
	}
	for _, tt := range tests {
		if got := string(appendURIPath(nil, []byte(tt.path))); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.path, got, tt.want)
		}
	}
}

func FuzzAppendURIPath(f *testing.F) {
	for _, s := range []string{"/v1/gigs", "/v1/<x>", "%", "%4", "%41", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		got := appendURIPath(nil, []byte(path))
		u, err := url.Parse(string(got))
		if err != nil || u.Scheme != "" && u.Opaque != "" {
			t.Fatalf("%q → %q: not a URI reference: %v", path, got, err)
		}
		if !strings.Contains(path, "%") && !strings.HasPrefix(path, "//") {
			if back, err := url.PathUnescape(string(got)); err != nil || back != path {
				t.Fatalf("%q → %q → %q, %v", path, got, back, err)
			}
		}
	})
}
