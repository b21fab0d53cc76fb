package redis

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
)

// The bounds on what a Redis server's replies may cost. The client library sizes a
// reply's slices and maps from the counts it declares and reads bulk strings whole, so a
// server that answers "*4294967296" or "$9223372036854775807" (a wrong -redis address, a
// compromised store, anyone on the path) would have it allocate without limit. Every
// connection Dial makes checks the bytes it reads against these bounds before the library
// sees them, and fails (the call falls back, the connection is dropped) at the first
// byte past one:
//
//   - MaxReplyLine: bytes of a line (a status, an error, a number), and of a header;
//   - MaxBulk: bytes of one bulk string (a key record's field, the key secret);
//   - MaxDepth: aggregates (arrays, maps, sets) nested in one another;
//   - ReplyBudget: what the replies being read on all of a client's connections at once
//     may cost, counting each byte read and replyElementCost for each element an
//     aggregate declares, as soon as it is declared. So replies in flight cost at most
//     about ReplyBudget, whatever the server sends, and one reply at most that too: a
//     key set of about 300,000 keys (the largest reply gigs asks for, HGETALL of every key
//     id) fits.
const (
	MaxReplyLine     = 64 << 10
	MaxBulk          = 1 << 20
	MaxDepth         = 8
	ReplyBudget      = 64 << 20
	replyElementCost = 48 // a slot of the []any or map the library makes, and the header of what it holds
)

// ErrReplyTooLarge is the error of a call whose reply broke the protocol or a bound above.
var ErrReplyTooLarge = errors.New("redis reply refused")

// budget is what replies being read may still cost, shared by a client's connections.
type budget struct{ left atomic.Int64 }

func newBudget() *budget {
	b := &budget{}
	b.left.Store(ReplyBudget)
	return b
}

// boundedDialer wraps dial so that each connection it makes checks its replies, drawing
// on one budget.
func boundedDialer(dial func(context.Context, string, string) (net.Conn, error)) func(context.Context, string, string) (net.Conn, error) {
	b := newBudget()
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		bc := &boundedConn{Conn: c, v: respValidator{budget: b}}
		if _, ok := c.(syscall.Conn); ok {
			return &boundedSysConn{bc}, nil
		}
		return bc, nil
	}
}

// boundedSysConn is a boundedConn over a connection with a file descriptor (TCP, not
// TLS), which it shows, so that the client's pool checks an idle connection as it does a
// bare one: with a peek, which reads nothing.
type boundedSysConn struct{ *boundedConn }

func (c *boundedSysConn) SyscallConn() (syscall.RawConn, error) {
	return c.Conn.(syscall.Conn).SyscallConn()
}

// boundedConn is a connection to Redis whose reads are checked by a respValidator: a
// read that breaks a bound returns no bytes and an error, and closes the connection.
type boundedConn struct {
	net.Conn
	mu sync.Mutex // protects v against a Close during a Read
	v  respValidator
}

func (c *boundedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		verr := c.v.feed(p[:n])
		c.mu.Unlock()
		if verr != nil {
			_ = c.Close()
			return 0, fmt.Errorf("%w: %w", ErrReplyTooLarge, verr)
		}
	}
	return n, err
}

func (c *boundedConn) Close() error {
	c.mu.Lock()
	c.v.release()
	c.v.broken = errors.New("connection closed")
	c.mu.Unlock()
	return c.Conn.Close()
}

// respValidator follows a stream of RESP2 and RESP3 replies byte by byte, across reads,
// and reports the first byte that is not the protocol or breaks a bound. It allocates
// nothing.
type respValidator struct {
	budget   *budget
	reserved int64 // drawn from budget by the reply being read
	broken   error

	state    respState
	kind     byte  // the type byte of the line being read
	lineLen  int   // bytes of the line so far
	neg      bool  // the header's number is negative
	digits   int   // digits of the header's number so far
	num      int64 // the header's number so far
	bulkLeft int64 // bytes of a bulk string still to come
	depth    int
	stack    [MaxDepth]frame
	whole    bool // a reply ended at the byte just checked
}

// frame is an open aggregate: how many elements it still awaits, and whether it is an
// attribute (which precedes the value it annotates and so is not an element itself).
type frame struct {
	left int64
	attr bool
}

type respState uint8

const (
	stType   respState = iota // the type byte of an element
	stLine                    // a line: a header's number, or a simple value
	stLineLF                  // the \n after a line's \r
	stBulk                    // a bulk string's bytes
	stBulkCR                  // the \r after them
	stBulkLF                  // and the \n
)

// feed checks the next bytes read.
func (v *respValidator) feed(p []byte) error {
	if v.broken != nil {
		return v.broken
	}
	if err := v.draw(int64(len(p))); err != nil {
		return v.fail(err)
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch v.state {
		case stType:
			switch c {
			case '+', '-', ':', ',', '#', '_', '(', '$', '!', '=', '*', '%', '~', '>', '|':
			default:
				return v.fail(fmt.Errorf("type byte %q", c))
			}
			v.kind, v.state, v.lineLen, v.neg, v.digits, v.num = c, stLine, 0, false, 0, 0
		case stLine:
			if c == '\r' {
				v.state = stLineLF
				continue
			}
			if v.lineLen++; v.lineLen > MaxReplyLine {
				return v.fail(fmt.Errorf("a line over %d bytes", MaxReplyLine))
			}
			if isHeader(v.kind) {
				if err := v.headerByte(c); err != nil {
					return v.fail(err)
				}
			} else if c == '\n' {
				return v.fail(errors.New("a line feed inside a line"))
			}
		case stLineLF:
			if c != '\n' {
				return v.fail(errors.New("a carriage return without a line feed"))
			}
			if err := v.lineDone(); err != nil {
				return v.fail(err)
			}
		case stBulk:
			n := min(v.bulkLeft, int64(len(p)-i))
			v.bulkLeft -= n
			i += int(n) - 1
			if v.bulkLeft == 0 {
				v.state = stBulkCR
			}
		case stBulkCR:
			if c != '\r' {
				return v.fail(errors.New("a bulk string longer than its length"))
			}
			v.state = stBulkLF
		case stBulkLF:
			if c != '\n' {
				return v.fail(errors.New("a bulk string longer than its length"))
			}
			v.state = stType
			v.elementDone()
		}
		if v.whole { // what it drew goes back, but for the bytes after it in p
			v.whole = false
			rest := int64(len(p) - i - 1)
			v.budget.left.Add(v.reserved - rest)
			v.reserved = rest
		}
	}
	return nil
}

// isHeader reports whether a line of type k is a length or a count.
func isHeader(k byte) bool {
	switch k {
	case '$', '!', '=', '*', '%', '~', '>', '|':
		return true
	}
	return false
}

// headerByte takes the next byte of a length or count, refusing it as soon as the number
// is over its bound.
func (v *respValidator) headerByte(c byte) error {
	switch {
	case c == '-' && v.digits == 0 && !v.neg:
		v.neg = true
	case c >= '0' && c <= '9':
		v.digits++
		v.num = v.num*10 + int64(c-'0')
		if limit := v.headerLimit(); v.num > limit {
			return fmt.Errorf("%q declares over %d", v.kind, limit)
		}
	default:
		return fmt.Errorf("%q header byte %q", v.kind, c)
	}
	return nil
}

// headerLimit is the largest number a header of the current kind may declare.
func (v *respValidator) headerLimit() int64 {
	switch v.kind {
	case '$', '!', '=':
		return MaxBulk
	case '%', '|':
		return ReplyBudget / replyElementCost / 2
	}
	return ReplyBudget / replyElementCost
}

// lineDone ends a line: a simple value is an element; a header starts a bulk string or
// an aggregate.
func (v *respValidator) lineDone() error {
	v.state = stType
	if !isHeader(v.kind) {
		v.elementDone()
		return nil
	}
	if v.digits == 0 || (v.neg && v.num != 1) {
		return fmt.Errorf("%q header is not a length", v.kind)
	}
	if v.neg { // a null bulk string or array
		v.elementDone()
		return nil
	}
	switch v.kind {
	case '$', '!', '=':
		v.bulkLeft = v.num
		if v.num > 0 {
			v.state = stBulk
		} else {
			v.state = stBulkCR
		}
		return nil
	}
	n := v.num
	if v.kind == '%' || v.kind == '|' {
		n *= 2
	}
	if err := v.draw(n * replyElementCost); err != nil {
		return err
	}
	if n == 0 {
		if v.kind != '|' {
			v.elementDone()
		}
		return nil
	}
	if v.depth == MaxDepth {
		return fmt.Errorf("aggregates nested over %d deep", MaxDepth)
	}
	v.stack[v.depth] = frame{left: n, attr: v.kind == '|'}
	v.depth++
	return nil
}

// elementDone counts a whole element in the aggregates that hold it; when none is left
// open, the reply is whole (feed gives back what it drew).
func (v *respValidator) elementDone() {
	for v.depth > 0 {
		top := &v.stack[v.depth-1]
		if top.left--; top.left > 0 {
			return
		}
		v.depth--
		if top.attr {
			return // the value it annotates is still to come
		}
	}
	v.whole = true
}

// draw takes n from the budget for the reply being read.
func (v *respValidator) draw(n int64) error {
	if v.budget.left.Add(-n) < 0 {
		v.budget.left.Add(n)
		return fmt.Errorf("replies in flight over %d bytes", ReplyBudget)
	}
	v.reserved += n
	return nil
}

// release gives back what the reply drew.
func (v *respValidator) release() {
	v.budget.left.Add(v.reserved)
	v.reserved = 0
}

// fail breaks the stream for good: nothing after a refused byte can be framed.
func (v *respValidator) fail(err error) error {
	v.release()
	v.broken = err
	return err
}
