package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrForbiddenAddress is returned (wrapped) for a fetch that would connect to an address
// of the machine's own or a private network, unless Options.Allow names its network.
var ErrForbiddenAddress = errors.New("address not allowed")

// special lists the networks no upstream lives on, each with what it is: the machine
// itself, private and internal networks, and addresses that are not unicast hosts.
var special = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this network (unspecified)"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private (RFC 1918)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (CGNAT, RFC 6598)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (cloud metadata lives here)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private (RFC 1918)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private (RFC 1918)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking (RFC 2544)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved (and broadcast)"},
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible (deprecated)"},
	{netip.MustParsePrefix("100::/64"), "discard-only (RFC 6666)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use NAT64 (RFC 8215)"},
	{netip.MustParsePrefix("fc00::/7"), "private (unique local, RFC 4193)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "site-local (deprecated)"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// Prefixes that carry an IPv4 address inside an IPv6 one; the IPv4 address is checked.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: the last 32 bits
	sixToFour = netip.MustParsePrefix("2002::/16")    // RFC 3056: bits 16 to 47
)

// Forbidden says what kind of address a is when no upstream can live there (loopback,
// private, link-local, multicast, unspecified, CGNAT, reserved, or an IPv6 address
// carrying one of those IPv4 ones), and "" when a is an ordinary public address.
func Forbidden(a netip.Addr) string {
	a = a.Unmap().WithZone("") // a zone (fe80::1%eth0) names an interface, not another address
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			if w := Forbidden(netip.AddrFrom4([4]byte(b[12:16]))); w != "" {
				return "NAT64 of " + w
			}
		case sixToFour.Contains(a):
			if w := Forbidden(netip.AddrFrom4([4]byte(b[2:6]))); w != "" {
				return "6to4 of " + w
			}
		}
	}
	for _, s := range special {
		if s.prefix.Contains(a) {
			return s.what
		}
	}
	return ""
}

// ParseNetwork reads a network (10.0.0.0/8, fd00::/8) or a single address (192.0.2.7),
// as operators write them in -fetch-allow, allow_networks and -trusted-proxies.
func ParseNetwork(s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		a, aerr := netip.ParseAddr(s)
		if aerr != nil {
			return netip.Prefix{}, fmt.Errorf("%q is neither a network (10.0.0.0/8) nor an address", s)
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	return p.Masked(), nil
}

// guard refuses connections to forbidden addresses outside the allowed networks. Safe for
// concurrent use.
type guard struct {
	allow   atomic.Pointer[[]netip.Prefix] // replaced whole, never modified
	proxies sync.Map                       // host:port of proxies in use → struct{}: the operator's, dialed freely
}

func newGuard(allow []netip.Prefix) *guard {
	g := &guard{}
	g.setAllow(allow)
	return g
}

func (g *guard) setAllow(allow []netip.Prefix) {
	list := make([]netip.Prefix, len(allow))
	for i, p := range allow {
		list[i] = p.Masked()
	}
	g.allow.Store(&list)
}

// check returns an error wrapping ErrForbiddenAddress when a is forbidden and not allowed.
func (g *guard) check(a netip.Addr) error {
	a = a.Unmap().WithZone("")
	what := Forbidden(a)
	if what == "" {
		return nil
	}
	for _, p := range *g.allow.Load() {
		if p.Contains(a) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s is %s; an operator may allow its network (allow_networks in the sources file, or -fetch-allow)", ErrForbiddenAddress, a, what)
}

// control is the dialer's check of each address it is about to connect to: after DNS
// resolution, for every connection, redirects and re-resolved names included.
func (g *guard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot read the address %q", ErrForbiddenAddress, address)
	}
	return g.check(ap.Addr())
}

// dialer returns the transport's DialContext: connections to the proxies in use go
// straight to them (the operator named them); every other connection is checked by
// control on each address tried.
func (g *guard) dialer(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	plain := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	guarded := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: g.control}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if _, ok := g.proxies.Load(addr); ok {
			return plain.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
}

// proxy wraps a proxy chooser. A request sent through a proxy is not dialed here and its
// name is not resolved here (the proxy resolves it, perhaps where this machine's DNS does
// not reach): a host that is an address literal, in any spelling a proxy's resolver may
// read as one, is checked, a name that means this machine (localhost, RFC 6761) is
// refused, and any other name is the proxy's to guard. The proxy's address is remembered
// for dialer, and a request the chooser sends direct may not go to it.
func (g *guard) proxy(choose func(*http.Request) (*url.URL, error)) func(*http.Request) (*url.URL, error) {
	return func(req *http.Request) (*url.URL, error) {
		p, err := choose(req)
		if err != nil {
			return nil, err
		}
		if p == nil {
			if _, ok := g.proxies.Load(hostPort(req.URL)); ok {
				return nil, fmt.Errorf("%w: %s is the fetch proxy itself", ErrForbiddenAddress, req.URL.Host)
			}
			return nil, nil
		}
		host := strings.TrimSuffix(req.URL.Hostname(), ".")
		if a, ok := literal(host); ok {
			if err := g.check(a); err != nil {
				return nil, err
			}
		} else if host = strings.ToLower(host); host == "localhost" || strings.HasSuffix(host, ".localhost") {
			if err := g.check(netip.AddrFrom4([4]byte{127, 0, 0, 1})); err != nil {
				return nil, fmt.Errorf("%s names this machine: %w", req.URL.Hostname(), err)
			}
		}
		g.proxies.Store(hostPort(p), struct{}{})
		return p, nil
	}
}

// hostPort is u's host and port as the transport dials it: the scheme's port when u has
// none.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "socks5": "1080", "socks5h": "1080"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// literal reads host as an IP address: standard notation, or the legacy IPv4 forms that
// inet_aton, and so many proxies' resolvers, accept ("2130706433", "0177.0.0.1",
// "0x7f.1", "127.1": one to four parts, decimal, octal or hex).
func literal(host string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(host); err == nil {
		return a, true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32) // base 0: 0x hex, leading-0 octal, else decimal
		if err != nil || p == "" || strings.ContainsAny(p, "_+-") {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	// The last part fills the bytes the earlier ones leave.
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (24 - 8*i)
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
