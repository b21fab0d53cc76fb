// Package conns guards a public listener: the server behind it keeps serving when the
// machine runs out of file descriptors or buffers, and no client holds more than its
// share of connections.
//
// # Contract of Listener.Accept
//
// Accept returns the next connection that is within the caps. An accept that fails for
// any reason but the listener being closed (EMFILE, ENFILE, ENOBUFS, ENOMEM,
// ECONNABORTED, ...) is counted, reported at most once per second through
// Options.OnAcceptError, and retried after a backoff that grows from 5 ms to 1 s; Accept
// returns an error only once the listener is closed. A connection over a cap is answered
// at once with a short problem response (503 over the total cap, 429 over the per-client
// cap) and closed, without reading from it.
//
// Connections are counted from Accept until their first Close. Clients are told apart by
// the direct peer's address (an IPv4 address or an IPv6 /64), never by a header: behind a
// reverse proxy every connection comes from the proxy, so Options.Exempt names the peers
// the per-client cap does not apply to.
package conns

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gigs/gigs/server/limit"
)

// Options configure a Listener. Zero fields take the defaults shown.
type Options struct {
	// MaxConns caps the open connections; 10000.
	MaxConns int
	// MaxPerClient caps the open connections of one client (an IPv4 address or an IPv6
	// /64); 64. Negative: no per-client cap.
	MaxPerClient int
	// Exempt reports peers the per-client cap does not apply to (trusted reverse proxies);
	// nil exempts none.
	Exempt func(netip.Addr) bool
	// OnAcceptError is told of failed accepts, at most once per second, for a log line:
	// the last error and how many failed since the last call. Nil ignores them.
	// Listener.AcceptErrors counts every one.
	OnAcceptError func(err error, failed int)
	// OnReject is told of every connection refused over a cap; perClient says which cap.
	OnReject func(perClient bool)
}

// Backoff bounds of failed accepts.
const (
	minBackoff = 5 * time.Millisecond
	maxBackoff = time.Second
)

// Listener is a guarded net.Listener. Safe for concurrent use.
type Listener struct {
	net.Listener
	o Options

	open     atomic.Int64  // connections accepted and not yet closed
	failures atomic.Uint64 // accepts that failed
	closed   chan struct{}
	closeErr error
	once     sync.Once

	mu        sync.Mutex
	perClient map[limit.Key]int // open connections by client; protected by mu

	failed     int       // accepts failed since the last report; owned by Accept's caller
	reportedAt time.Time // when OnAcceptError was last called; likewise
}

// New wraps ln.
func New(ln net.Listener, o Options) *Listener {
	if o.MaxConns <= 0 {
		o.MaxConns = 10000
	}
	if o.MaxPerClient == 0 {
		o.MaxPerClient = 64
	}
	if o.Exempt == nil {
		o.Exempt = func(netip.Addr) bool { return false }
	}
	return &Listener{Listener: ln, o: o, closed: make(chan struct{}), perClient: map[limit.Key]int{}}
}

// AcceptErrors returns the number of accepts that failed so far.
func (l *Listener) AcceptErrors() uint64 { return l.failures.Load() }

// Open returns the number of open connections.
func (l *Listener) Open() int { return int(l.open.Load()) }

// Crowded reports whether open connections fill three quarters of MaxConns or more: a
// server should then close connections after answering, so idle keep-alive connections
// give their places to new clients.
func (l *Listener) Crowded() bool { return l.open.Load()*4 >= int64(l.o.MaxConns)*3 }

// Close closes the listener; a pending Accept returns.
func (l *Listener) Close() error {
	l.once.Do(func() {
		close(l.closed)
		l.closeErr = l.Listener.Close()
	})
	return l.closeErr
}

// Accept waits for the next connection within the caps; see the package comment.
func (l *Listener) Accept() (net.Conn, error) {
	backoff := time.Duration(0)
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || l.isClosed() {
				return nil, err
			}
			l.acceptFailed(err)
			backoff = min(max(2*backoff, minBackoff), maxBackoff)
			t := time.NewTimer(backoff)
			select {
			case <-t.C:
			case <-l.closed:
				t.Stop()
				return nil, net.ErrClosed
			}
			continue
		}
		backoff = 0
		if gc := l.admit(c); gc != nil {
			return gc, nil
		}
	}
}

func (l *Listener) isClosed() bool {
	select {
	case <-l.closed:
		return true
	default:
		return false
	}
}

// acceptFailed counts a failed accept and reports it when a second has passed since the
// last report.
func (l *Listener) acceptFailed(err error) {
	l.failures.Add(1)
	l.failed++
	if now := time.Now(); now.Sub(l.reportedAt) >= time.Second {
		if l.o.OnAcceptError != nil {
			l.o.OnAcceptError(err, l.failed)
		}
		l.failed, l.reportedAt = 0, now
	}
}

// admit counts c in and returns it wrapped, or answers and closes it when it is over a
// cap and returns nil.
func (l *Listener) admit(c net.Conn) net.Conn {
	peer := peerAddr(c)
	if l.open.Add(1) > int64(l.o.MaxConns) {
		l.open.Add(-1)
		l.reject(c, false)
		return nil
	}
	gc := &conn{Conn: c, l: l}
	if l.o.MaxPerClient > 0 && peer.IsValid() && !l.o.Exempt(peer) {
		k := limit.KeyOf(peer)
		l.mu.Lock()
		n := l.perClient[k] + 1
		if n <= l.o.MaxPerClient {
			l.perClient[k] = n
		}
		l.mu.Unlock()
		if n > l.o.MaxPerClient {
			l.open.Add(-1)
			l.reject(c, true)
			return nil
		}
		gc.key, gc.counted = k, true
	}
	return gc
}

// The answers to connections over a cap: complete HTTP/1.1 responses, sent before the
// request is read.
var (
	overTotal  = refusal(503, "Service Unavailable", "the server is at its connection limit; retry shortly")
	overClient = refusal(429, "Too Many Requests", "this client has too many open connections; reuse one")
)

// refusal renders the response to a connection over a cap: a problem body, and the
// connection closed. It carries the CORS headers of every answer, so that a page's script
// can read the problem and its Retry-After.
func refusal(status int, reason, detail string) []byte {
	body := fmt.Sprintf(`{"type":"/problems/too-many-connections","title":"Too many connections","status":%d,"detail":%q}`, status, detail)
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/problem+json\r\nX-Content-Type-Options: nosniff\r\n"+
		"Access-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: Retry-After\r\n"+
		"Cache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", status, reason, len(body), body)
}

// rejectWrite bounds the write of a refusal: it fits an empty socket buffer, so it only
// waits on a peer that is not there.
const rejectWrite = 100 * time.Millisecond

func (l *Listener) reject(c net.Conn, perClient bool) {
	if l.o.OnReject != nil {
		l.o.OnReject(perClient)
	}
	msg := overTotal
	if perClient {
		msg = overClient
	}
	_ = c.SetWriteDeadline(time.Now().Add(rejectWrite))
	_, _ = c.Write(msg)
	_ = c.Close()
}

// release counts a closed connection out.
func (l *Listener) release(c *conn) {
	l.open.Add(-1)
	if !c.counted {
		return
	}
	l.mu.Lock()
	if n := l.perClient[c.key] - 1; n > 0 {
		l.perClient[c.key] = n
	} else {
		delete(l.perClient, c.key)
	}
	l.mu.Unlock()
}

// conn is an admitted connection, counted until its first Close.
type conn struct {
	net.Conn
	l       *Listener
	key     limit.Key
	counted bool // counted in l.perClient under key
	done    atomic.Bool
}

func (c *conn) Close() error {
	if c.done.CompareAndSwap(false, true) {
		c.l.release(c)
	}
	return c.Conn.Close()
}

// peerAddr is the address of c's peer; invalid when it has none (a Unix socket).
func peerAddr(c net.Conn) netip.Addr {
	if ta, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return ta.AddrPort().Addr().Unmap()
	}
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}
