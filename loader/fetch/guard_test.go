package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestLiteral(t *testing.T) {
	tests := []struct{ host, want string }{
		{"127.0.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"169.254.43518", "169.254.169.254"},
		{"::1", "::1"},
		{"venue.example", ""},
		{"256.1.1.1", ""},
		{"1.2.3.4.5", ""},
		{"4294967296", ""},
		{"1.2.65536", ""},
		{"1..2", ""},
		{"0x", ""},
		{"12e3", ""},
	}
	for _, tt := range tests {
		a, ok := literal(tt.host)
		if got := map[bool]string{true: a.String(), false: ""}[ok]; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestForbidden(t *testing.T) {
	tests := []struct {
		addr string
		what string // a word of the reason; "" for a public address
	}{
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"::1", "loopback"},
		{"::1%lo", "loopback"},
		{"fe80::1%eth0", "link-local"},
		{"fd00:ec2::254%2", "private"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fd00::1", "private"},
		{"169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"100.64.0.1", "CGNAT"},
		{"100.127.255.254", "CGNAT"},
		{"255.255.255.255", "broadcast"},
		{"198.18.0.1", "benchmarking"},
		{"64:ff9b::a9fe:a9fe", "NAT64 of link-local"},
		{"64:ff9b:1::a9fe:a9fe", "local-use NAT64"},
		{"64:ff9b:1:ffff::1", "local-use NAT64"},
		{"2002:7f00:1::1", "6to4 of loopback"},
		{"::127.0.0.1", "IPv4-compatible"},
		{"8.8.8.8", ""},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"2606:4700::1111", ""},
		{"64:ff9b::808:808", ""},
	}
	for _, tt := range tests {
		got := Forbidden(netip.MustParseAddr(tt.addr))
		if tt.what == "" && got != "" || tt.what != "" && !strings.Contains(got, tt.what) {
			t.Errorf("%s: %q, want %q", tt.addr, got, tt.what)
		}
	}
}

// hostile is an upstream on its own loopback address (127.0.0.2), the only network the
// clients of these tests allow, and a secret on 127.0.0.1 that no fetch may reach.
type hostile struct {
	url     string // the upstream's base URL
	secret  string // base URL of the secret server
	reached atomic.Int32
}

func newHostile(t *testing.T, handler func(h *hostile) http.HandlerFunc) *hostile {
	t.Helper()
	h := &hostile{}
	secret := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h.reached.Add(1)
		fmt.Fprint(w, "gigs_http_requests_total 42\n")
	}))
	h.secret = "http://" + secret
	h.url = "http://" + serveOn(t, "127.0.0.2:0", handler(h))
	return h
}

func serveOn(t *testing.T, addr string, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, target, http.StatusFound)
	}
}

// TestFetcherNeverReachesInside sends fetches from an allowed upstream to the machine's
// own and private addresses: by redirect, by a name that resolves there, by address
// literals in every spelling, through a proxy; each fails with ErrForbiddenAddress without
// a connection to the secret, and is not retried.
func TestFetcherNeverReachesInside(t *testing.T) {
	allowed := []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}
	port := func(h *hostile) string { u, _ := url.Parse(h.secret); return u.Port() }
	tests := []struct {
		name    string
		handler func(h *hostile) http.HandlerFunc
		path    func(h *hostile) string // fetched; relative to the upstream unless absolute
		proxied bool
	}{
		{"redirect to loopback metrics", func(h *hostile) http.HandlerFunc { return redirectTo(h.secret + "/metrics") },
			func(*hostile) string { return "/events" }, false},
		{"redirect to cloud metadata", func(*hostile) http.HandlerFunc {
			return redirectTo("http://169.254.169.254/latest/meta-data/")
		}, func(*hostile) string { return "/events" }, false},
		{"redirect to a name of loopback", func(h *hostile) http.HandlerFunc {
			return redirectTo("http://localhost:" + port(h) + "/metrics")
		}, func(*hostile) string { return "/events" }, false},
		{"redirect to a zoned IPv6 loopback", func(h *hostile) http.HandlerFunc {
			return redirectTo("http://[::1%25lo]:" + port(h) + "/metrics")
		}, func(*hostile) string { return "/events" }, false},
		{"redirect to IPv4-mapped IPv6", func(h *hostile) http.HandlerFunc {
			return redirectTo("http://[::ffff:127.0.0.1]:" + port(h) + "/metrics")
		}, func(*hostile) string { return "/events" }, false},
		{"decimal loopback through a proxy", nil, func(h *hostile) string { return "http://2130706433:" + port(h) + "/metrics" }, true},
		{"octal loopback through a proxy", nil, func(h *hostile) string { return "http://0177.0.0.1:" + port(h) + "/metrics" }, true},
		{"short hex metadata through a proxy", nil, func(*hostile) string { return "http://0xa9.254.43518/latest/" }, true},
		{"private literal", nil, func(*hostile) string { return "http://10.0.0.1/" }, false},
		{"private literal through a proxy", nil, func(*hostile) string { return "http://192.168.0.1/" }, true},
		{"loopback literal through a proxy", nil, func(h *hostile) string { return h.secret + "/metrics" }, true},
		{"trailing-dot literal through a proxy", nil, func(h *hostile) string { return "http://127.0.0.1.:" + port(h) + "/metrics" }, true},
		{"localhost through a proxy", nil, func(h *hostile) string { return "http://localhost:" + port(h) + "/metrics" }, true},
		{"a .localhost name through a proxy", nil, func(h *hostile) string { return "http://admin.LocalHost./metrics" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			handler := tt.handler
			if handler == nil {
				handler = func(*hostile) http.HandlerFunc { return http.NotFound }
			}
			h := newHostile(t, handler)
			o := Options{Contact: "ops@gigs.example", Allow: allowed, Retries: 3, RetryBase: time.Millisecond, MinGap: -1,
				ConnectTimeout: time.Second}
			var proxied atomic.Int32
			if tt.proxied {
				proxy := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					proxied.Add(1)
					fmt.Fprint(w, "via the proxy")
				}))
				pu, _ := url.Parse("http://" + proxy)
				o.Proxy = http.ProxyURL(pu)
			}
			c := New(o)
			defer c.CloseIdleConnections()
			target := tt.path(h)
			if strings.HasPrefix(target, "/") {
				target = h.url + target
			}
			before := c.Stats()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			resp, err := c.Get(ctx, target, nil)
			if !errors.Is(err, ErrForbiddenAddress) || resp != nil {
				t.Fatalf("Get %s: %v, %v; want ErrForbiddenAddress", target, resp, err)
			}
			if !strings.Contains(err.Error(), "allow_networks") {
				t.Errorf("the error does not say how to allow the network: %v", err)
			}
			if h.reached.Load() != 0 || proxied.Load() != 0 {
				t.Errorf("the secret was reached %d times, the proxy %d times", h.reached.Load(), proxied.Load())
			}
			if st := c.Stats().Sub(before); st.Retries != 0 {
				t.Errorf("%d retries of a forbidden address", st.Retries)
			}
		})
	}
}

// TestAllowNetworks reaches what the operator allows, and stops reaching it once the
// allowance is taken back.
func TestAllowNetworks(t *testing.T) {
	srv := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "listings")
	}))
	c := New(Options{Contact: "ops@gigs.example", MinGap: -1, Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	defer c.CloseIdleConnections()
	if resp, err := c.Get(t.Context(), "http://"+srv+"/", nil); err != nil || string(resp.Body) != "listings" {
		t.Fatalf("allowed: %v", err)
	}
	c.Allow(nil)
	c.CloseIdleConnections() // a kept connection was dialed while it was allowed
	if _, err := c.Get(t.Context(), "http://"+srv+"/other", nil); !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("after Allow(nil): %v", err)
	}
}

// FuzzLiteral reads any host without panicking; what it takes for an address is what
// standard notation gives, or an IPv4 address.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "2130706433", "0x7f.1", "::1", "venue.example", "1.2.65536", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		a, ok := literal(host)
		if !ok {
			return
		}
		if std, err := netip.ParseAddr(host); err == nil && std != a || err != nil && !a.Is4() {
			t.Fatalf("%q read as %s", host, a)
		}
	})
}

// TestProxyNotAnOrigin never fetches from the proxy itself: a chooser that sends loopback
// direct (as HTTP_PROXY's does) would otherwise dial the proxy's address unchecked.
func TestProxyNotAnOrigin(t *testing.T) {
	var reached atomic.Int32
	proxy := serveOn(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		fmt.Fprint(w, "proxied")
	}))
	pu, _ := url.Parse("http://" + proxy)
	c := New(Options{Contact: "ops@gigs.example", MinGap: -1, Proxy: func(r *http.Request) (*url.URL, error) {
		if strings.HasPrefix(r.URL.Host, "127.") {
			return nil, nil
		}
		return pu, nil
	}})
	defer c.CloseIdleConnections()
	if _, err := c.Get(t.Context(), "http://venue.example/", nil); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	before := reached.Load()
	if _, err := c.Get(t.Context(), "http://"+proxy+"/cachemgr", nil); !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("the proxy as an origin: %v", err)
	}
	if reached.Load() != before {
		t.Error("the proxy was reached as an origin")
	}
}
