package server

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// limitedServer serves the test snapshot with the real read limit of 60 a minute.
func limitedServer(t *testing.T, trusted ...string) (string, *fakeClock) {
	var live engine.Live
	live.Publish(testSnapshot(t))
	live.SetNextRefresh(nextLoad)
	clock := &fakeClock{t: testNow}
	o := Options{Live: &live, Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, p := range trusted {
		o.TrustedProxies = append(o.TrustedProxies, netip.MustParsePrefix(p))
	}
	return listen(t, New(o)), clock
}

func TestReadRateLimit(t *testing.T) {
	base, clock := limitedServer(t)
	for i := range 60 {
		r := do(t, "GET", base+"/v1/genres", nil)
		want := strconv.Itoa(59 - i)
		if r.status != 200 || r.header.Get("X-RateLimit-Remaining") != want || r.header.Get("X-RateLimit-Limit") != "60" ||
			r.header.Get("RateLimit-Policy") != `"read";q=60;w=60` || r.header.Get("RateLimit") != fmt.Sprintf(`"read";r=%s;t=%d`, want, i+1) ||
			r.header.Get("X-RateLimit-Reset") != strconv.Itoa(i+1) {
			t.Fatalf("request %d: %d %v", i+1, r.status, r.header)
		}
	}
	r := do(t, "GET", base+"/v1/gigs", nil)
	if r.status != 429 || r.header.Get("Retry-After") != "1" || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("61st request: %d %v", r.status, r.header)
	}
	checkProblem(t, r, "/v1/gigs")
	for _, path := range []string{"/livez", "/readyz"} {
		if r := do(t, "GET", base+path, nil); r.status != 429 {
			t.Errorf("%s is not limited: %d %v", path, r.status, r.header)
		}
	}
	clock.Add(time.Second)
	if r := do(t, "GET", base+"/v1/genres", nil); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("after a second: %d %v", r.status, r.header)
	}
	if r := do(t, "GET", base+"/v1/genres", nil); r.status != 429 {
		t.Fatalf("second request after a second: %d", r.status)
	}
	clock.Add(time.Minute)
	if r := do(t, "GET", base+"/v1/genres", nil); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "59" {
		t.Fatalf("after a quiet minute: %d %v", r.status, r.header)
	}
}

// TestEveryRequestIsCharged spends a client's quota with each kind of request the public
// listener answers: conditional ones answered 304 (If-None-Match: * included), the docs,
// the OpenAPI document, errors, preflights and health checks. The 61st request of each
// kind, whatever it is, is a 429 that closes its connection.
func TestEveryRequestIsCharged(t *testing.T) {
	tests := []struct {
		name, method, path string
		header             map[string]string
		status             int
	}{
		{"not modified, any tag", "GET", "/v1/cities", map[string]string{"If-None-Match": "*"}, 304},
		{"not modified, static", "GET", "/v1/openapi.json", map[string]string{"If-None-Match": "*"}, 304},
		{"openapi", "GET", "/v1/openapi.json", nil, 200},
		{"docs", "GET", "/docs", nil, 200},
		{"docs asset", "HEAD", "/docs/redoc.standalone.js", nil, 200},
		{"not found", "GET", "/nowhere", nil, 404},
		{"bad parameter", "GET", "/v1/gigs?page=0", nil, 400},
		{"method not allowed", "DELETE", "/v1/gigs", nil, 405},
		{"preflight", "OPTIONS", "/v1/gigs", nil, 204},
		{"liveness", "GET", "/livez", nil, 200},
		{"readiness", "GET", "/readyz", nil, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, _ := limitedServer(t)
			for i := range 60 {
				r := do(t, tt.method, base+tt.path, tt.header)
				if r.status != tt.status || r.header.Get("X-RateLimit-Remaining") != fmt.Sprint(59-i) {
					t.Fatalf("request %d: %d, remaining %q; want %d, %d", i+1, r.status, r.header.Get("X-RateLimit-Remaining"), tt.status, 59-i)
				}
			}
			r := do(t, tt.method, base+tt.path, tt.header)
			if r.status != 429 || r.header.Get("Retry-After") == "" || !r.closed {
				t.Fatalf("request 61: %d, headers %v; want a 429 closing the connection", r.status, r.header)
			}
		})
	}
}
func TestForwardedFor(t *testing.T) {
	t.Run("untrusted peer: forged headers are ignored", func(t *testing.T) {
		base, _ := limitedServer(t)
		for i := range 61 {
			r := do(t, "GET", base+"/v1/genres", map[string]string{"X-Forwarded-For": fmt.Sprintf("203.0.113.%d", i)})
			if want := map[bool]int{true: 429, false: 200}[i == 60]; r.status != want {
				t.Fatalf("request %d: %d, want %d", i+1, r.status, want)
			}
		}
	})
	t.Run("trusted proxy: each forwarded client has its own quota", func(t *testing.T) {
		base, _ := limitedServer(t, "127.0.0.0/8")
		for i := range 100 {
			if r := do(t, "GET", base+"/v1/genres", map[string]string{"X-Forwarded-For": fmt.Sprintf("198.51.100.1, 203.0.113.%d", i)}); r.status != 200 {
				t.Fatalf("client %d: %d", i, r.status)
			}
		}
		for i := range 61 { // the same client, forging different addresses on the left
			r := do(t, "GET", base+"/v1/genres", map[string]string{"X-Forwarded-For": fmt.Sprintf("10.9.9.%d, 192.0.2.1", i)})
			if want := map[bool]int{true: 429, false: 200}[i == 60]; r.status != want {
				t.Fatalf("request %d: %d, want %d", i+1, r.status, want)
			}
		}
	})
}

func TestClientAddr(t *testing.T) {
	s := New(Options{Live: new(engine.Live), TrustedProxies: []netip.Prefix{
		netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}})
	tests := []struct {
		peer string
		xff  []string
		want string
	}{
		{"192.0.2.1", nil, "192.0.2.1"},
		{"192.0.2.1", []string{"203.0.113.5"}, "192.0.2.1"},                          // untrusted peer
		{"10.0.0.1", nil, "10.0.0.1"},                                                // trusted, nothing forwarded
		{"10.0.0.1", []string{"203.0.113.5"}, "203.0.113.5"},                         // one proxy
		{"10.0.0.1", []string{"198.51.100.9, 203.0.113.5, 10.0.0.2"}, "203.0.113.5"}, // two proxies
		{"10.0.0.1", []string{"198.51.100.9", "203.0.113.5"}, "203.0.113.5"},         // two headers
		{"10.0.0.1", []string{"10.0.0.3, 10.0.0.2"}, "10.0.0.3"},                     // all trusted
		{"10.0.0.1", []string{"203.0.113.5, bogus"}, "10.0.0.1"},                     // malformed last hop
		{"10.0.0.1", []string{"bogus, 203.0.113.5"}, "203.0.113.5"},                  // malformed, but left of the client
		{"10.0.0.1", []string{" 2001:db8::7 "}, "2001:db8::7"},                       // IPv6 client
		{"2001:db8:ffff::1", []string{"::ffff:203.0.113.5"}, "203.0.113.5"},          // IPv6 proxy, mapped client
		{"10.0.0.1", []string{"203.0.113.5:51234"}, "203.0.113.5"},                   // with a port
		{"10.0.0.1", []string{"[2001:db8::1]:443"}, "2001:db8::1"},                   // IPv6 with a port
		{"10.0.0.1", []string{"unknown"}, "10.0.0.1"},                                // what some proxies write
	}
	for _, tt := range tests {
		var req fasthttp.Request
		for _, v := range tt.xff {
			req.Header.Add("X-Forwarded-For", v)
		}
		var ctx fasthttp.RequestCtx
		ctx.Init(&req, &net.TCPAddr{IP: net.ParseIP(tt.peer), Port: 1234}, nil)
		if got := s.clientAddr(&ctx); got != netip.MustParseAddr(tt.want) {
			t.Errorf("peer %s, X-Forwarded-For %q: client %s, want %s", tt.peer, tt.xff, got, tt.want)
		}
	}
}
