package redis

import (
	"context"
	"net"
	"strings"
	"syscall"
	"testing"
)

// TestRespValidator checks streams of replies, whole or cut at every byte: those Redis
// sends pass and give their budget back; broken or oversized ones are refused at once.
func TestRespValidator(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		refused      string // in the error; "" when the stream is good
	}{
		{"status, error, integer", "+OK\r\n-ERR unknown command 'X'\r\n:42\r\n:-1\r\n", ""},
		{"bulk strings, empty and null", "$5\r\nhello\r\n$0\r\n\r\n$-1\r\n*-1\r\n", ""},
		{"the reply of HELLO 3", "%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:5\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n", ""},
		{"RESP3 scalars", "_\r\n#t\r\n,1.5\r\n(3492890328409238509324850943850943825024385\r\n!3\r\nbad\r\n=7\r\ntxt:abc\r\n", ""},
		{"a set, a push, nested arrays", "~2\r\n:1\r\n:2\r\n>2\r\n+message\r\n:1\r\n*2\r\n*1\r\n:1\r\n*0\r\n", ""},
		{"an attribute before a value", "|1\r\n+key\r\n:1\r\n*1\r\n|1\r\n+k\r\n+v\r\n:2\r\n", ""},
		{"an array of four billion", "*4294967296\r\n", "declares over"},
		{"a bulk string of 2^63-1 bytes", "$9223372036854775807\r\n", "declares over"},
		{"a map of two billion pairs", "%2147483648\r\n", "declares over"},
		{"a bulk string over MaxBulk", "$1048577\r\n", "declares over"},
		{"nested past MaxDepth", strings.Repeat("*1\r\n", MaxDepth+1), "nested over"},
		{"a line past MaxReplyLine", "+" + strings.Repeat("a", MaxReplyLine+1), "a line over"},
		{"no type byte", "hello\r\n", "type byte"},
		{"a negative count", "*-2\r\n", "not a length"},
		{"no number", "$\r\n", "not a length"},
		{"a bulk string longer than said", "$1\r\nab\r\n", "longer than its length"},
		{"a lone carriage return", "+a\rb", "without a line feed"},
		{"a streamed string", "$?\r\n", "header byte"},
		{"replies over the budget", "*1000000\r\n*400000\r\n", "in flight over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			step := max(1, len(tc.stream)/256) // every byte of a short stream
			for cut := 0; cut <= len(tc.stream); cut += step {
				b := newBudget()
				v := respValidator{budget: b}
				err := v.feed([]byte(tc.stream[:cut]))
				if err == nil {
					err = v.feed([]byte(tc.stream[cut:]))
				}
				switch {
				case tc.refused == "" && err != nil:
					t.Fatalf("cut at %d: refused: %v", cut, err)
				case tc.refused == "" && (b.left.Load() != ReplyBudget || v.depth != 0 || v.state != stType):
					t.Fatalf("cut at %d: %d of the budget left, depth %d, state %d after whole replies", cut, b.left.Load(), v.depth, v.state)
				case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
					t.Fatalf("cut at %d: %v, want an error with %q", cut, err, tc.refused)
				case tc.refused != "" && b.left.Load() != ReplyBudget:
					t.Fatalf("cut at %d: a refused reply keeps %d of the budget", cut, ReplyBudget-b.left.Load())
				}
			}
		})
	}
}

// FuzzRespValidator: any bytes, in any reads, never panic, and once the connection is
// closed every byte drawn from the budget is back.
func FuzzRespValidator(f *testing.F) {
	for _, s := range []string{"+OK\r\n", "*2\r\n$1\r\na\r\n:1\r\n", "%1\r\n+a\r\n|1\r\n+b\r\n+c\r\n+d\r\n", "*4294967296\r\n"} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, stream []byte, cut uint8) {
		b := newBudget()
		v := respValidator{budget: b}
		for len(stream) > 0 {
			n := min(int(cut)+1, len(stream))
			if v.feed(stream[:n]) != nil {
				break
			}
			stream = stream[n:]
		}
		if v.depth < 0 || v.depth > MaxDepth || b.left.Load() > ReplyBudget {
			t.Fatalf("depth %d, budget %d", v.depth, b.left.Load())
		}
		v.release()
		if b.left.Load() != ReplyBudget {
			t.Fatalf("%d of the budget not given back", ReplyBudget-b.left.Load())
		}
	})
}

// TestBoundedConnKeepsItsDescriptor: a TCP connection, wrapped, still shows its file
// descriptor, which the client's pool peeks at to find idle connections the server closed.
func TestBoundedConnKeepsItsDescriptor(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var d net.Dialer
	c, err := boundedDialer(d.DialContext)(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if sc, ok := c.(syscall.Conn); !ok {
		t.Fatal("a wrapped TCP connection hides its descriptor")
	} else if _, err := sc.SyscallConn(); err != nil {
		t.Fatal(err)
	}
}
