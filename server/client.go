package server

import (
	"bytes"
	"net/netip"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/server/limit"
)

// clientAddr returns the address a request is limited by: the peer's, or, when the peer
// is a trusted proxy, the rightmost X-Forwarded-For address that is not a trusted proxy
// (addresses further left are whatever the client chose to send, and are ignored).
func (s *Server) clientAddr(ctx *fasthttp.RequestCtx) netip.Addr {
	peer, _ := netip.AddrFromSlice(ctx.RemoteIP())
	peer = peer.Unmap()
	if !s.trusted(peer) {
		return peer
	}
	hops := ctx.Request.Header.PeekAll("X-Forwarded-For")
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		list := hops[i]
		for len(list) > 0 {
			var hop []byte
			if j := bytes.LastIndexByte(list, ','); j >= 0 {
				hop, list = list[j+1:], list[:j]
			} else {
				hop, list = list, nil
			}
			a, err := parseHop(bytes.TrimSpace(hop))
			if err != nil {
				return client // a malformed hop: trust nothing beyond it
			}
			client = a.Unmap()
			if !s.trusted(client) {
				return client
			}
		}
	}
	return client // every hop was a trusted proxy: the leftmost one
}

// parseHop reads one X-Forwarded-For entry: an address, or an address and port as some
// proxies write it (203.0.113.5:51234, [2001:db8::1]:443).
func parseHop(hop []byte) (netip.Addr, error) {
	a, err := netip.ParseAddr(string(hop))
	if err != nil {
		ap, perr := netip.ParseAddrPort(string(hop))
		if perr != nil {
			return a, err
		}
		a = ap.Addr()
	}
	return a, nil
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.o.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// charge spends one request of the client's read quota, whatever the request and its
// answer (a 304, an error, the docs), and sets the rate-limit headers. It reports false,
// having written a 429 problem and marked the connection to close, when the quota is spent.
func (s *Server) charge(ctx *fasthttp.RequestCtx) bool { return s.chargeAt(ctx, s.now(ctx)) }

// chargeAt is charge at time now.
func (s *Server) chargeAt(ctx *fasthttp.RequestCtx, now time.Time) bool {
	d := s.reads.Take(limit.KeyOf(s.clientAddr(ctx)), now)
	s.m.limitDecision(limitRead, d.Allowed)
	s.readHeaders.set(ctx, d)
	if d.Allowed {
		return true
	}
	writeProblem(ctx, tooMany(d, s.readPolicy+" per client"))
	ctx.SetConnectionClose() // a client over its quota gives its connection back
	return false
}

// rateHeaders writes a limit's headers: the IETF draft ones (RateLimit-Policy, RateLimit)
// and the common X-RateLimit-* ones, for a named policy. The parts that never change are
// written once.
type rateHeaders struct {
	name          string
	policy, limit []byte // RateLimit-Policy and X-RateLimit-Limit
}

func newRateHeaders(l limit.Limiter, name string) rateHeaders {
	policy := strconv.AppendInt([]byte(`"`+name+`";q=`), int64(l.Limit()), 10)
	policy = appendCeilSeconds(append(policy, ";w="...), l.Period())
	return rateHeaders{name: name, policy: policy, limit: strconv.AppendInt(nil, int64(l.Limit()), 10)}
}

// set writes the headers of decision d, replacing those of an earlier policy (the export's
// per-key limit replaces the read limit's headers); times are whole seconds, rounded up.
func (r *rateHeaders) set(ctx *fasthttp.RequestCtx, d limit.Decision) {
	h := &ctx.Response.Header
	var b [64]byte
	reset := appendCeilSeconds(b[40:40], d.Reset)
	setHeader(h, keyRatePolicy, r.policy)
	v := append(append(append(b[:0], '"'), r.name...), `";r=`...)
	v = strconv.AppendInt(v, int64(d.Remaining), 10)
	v = append(v, ";t="...)
	v = append(v, reset...)
	setHeader(h, keyRateLimit, v)
	setHeader(h, keyXRateLimit, r.limit)
	setHeader(h, keyXRateRemain, strconv.AppendInt(b[:0], int64(d.Remaining), 10))
	setHeader(h, keyXRateReset, reset)
}

// appendCeilSeconds appends d in whole seconds, rounded up.
func appendCeilSeconds(dst []byte, d time.Duration) []byte {
	return strconv.AppendInt(dst, int64((d+time.Second-1)/time.Second), 10)
}
