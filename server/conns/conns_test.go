package conns

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gigs/gigs/server/limit"
)

// serve accepts on l until it is closed, holding each connection open until the peer
// closes it; it returns a function that waits for the loop to end and its error.
func serve(l *Listener) func() error {
	done := make(chan error, 1)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				done <- err
				return
			}
			go func() {
				_, _ = io.Copy(io.Discard, c)
				c.Close()
			}()
		}
	}()
	return func() error { return <-done }
}

func listen(t *testing.T, o Options) (*Listener, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(ln, o)
	wait := serve(l)
	t.Cleanup(func() {
		l.Close()
		if err := wait(); !errors.Is(err, net.ErrClosed) {
			t.Errorf("Accept after Close: %v", err)
		}
	})
	return l, ln.Addr().String()
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readRefusal reads what the server sent on c before closing it; "" when it sent nothing
// within a second.
func readRefusal(t *testing.T, c net.Conn) *http.Response {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return nil
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(strings.NewReader(string(body)))
	return resp
}

func waitOpen(t *testing.T, l *Listener, want int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); l.Open() != want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("open connections: %d, want %d", l.Open(), want)
		}
	}
}

func TestCaps(t *testing.T) {
	tests := []struct {
		name      string
		o         Options
		conns     int // opened from 127.0.0.1
		admitted  int
		status    int // of the first refusal
		perClient bool
	}{
		{"total cap", Options{MaxConns: 3, MaxPerClient: -1}, 5, 3, 503, false},
		{"per-client cap", Options{MaxConns: 100, MaxPerClient: 2}, 4, 2, 429, true},
		{"exempt peer", Options{MaxConns: 100, MaxPerClient: 2, Exempt: func(a netip.Addr) bool { return a.IsLoopback() }}, 6, 6, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var rejected []bool
			tt.o.OnReject = func(perClient bool) { mu.Lock(); rejected = append(rejected, perClient); mu.Unlock() }
			l, addr := listen(t, tt.o)
			var held []net.Conn
			for range tt.admitted {
				held = append(held, dial(t, addr))
			}
			waitOpen(t, l, tt.admitted)
			for i := tt.admitted; i < tt.conns; i++ {
				resp := readRefusal(t, dial(t, addr))
				if resp == nil || resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != "application/problem+json" ||
					resp.Header.Get("X-Content-Type-Options") != "nosniff" || !resp.Close ||
					resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("Access-Control-Expose-Headers") != "Retry-After" {
					t.Fatalf("connection %d over the cap: %+v", i+1, resp)
				}
				body, _ := io.ReadAll(resp.Body)
				if !strings.Contains(string(body), `"/problems/too-many-connections"`) || int64(len(body)) != resp.ContentLength {
					t.Fatalf("refusal body %q (Content-Length %d)", body, resp.ContentLength)
				}
			}
			mu.Lock()
			if len(rejected) != tt.conns-tt.admitted || len(rejected) > 0 && rejected[0] != tt.perClient {
				t.Errorf("rejections %v", rejected)
			}
			mu.Unlock()
			// A held connection that closes gives its place back.
			if len(held) > 0 && tt.status != 0 {
				held[0].Close()
				waitOpen(t, l, tt.admitted-1)
				c := dial(t, addr)
				if resp := readRefusal(t, c); resp != nil {
					t.Fatalf("a place was freed, yet refused: %d", resp.StatusCode)
				}
				waitOpen(t, l, tt.admitted)
			}
		})
	}
}

// TestCloseTwice counts a connection out once however often it is closed.
func TestCloseTwice(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(ln, Options{MaxConns: 10, MaxPerClient: 2})
	defer l.Close()
	for range 2 {
		dial(t, ln.Addr().String())
	}
	a, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		a.Close()
	}
	l.mu.Lock()
	n := l.perClient[limit.KeyOf(netip.MustParseAddr("127.0.0.1"))]
	l.mu.Unlock()
	if l.Open() != 1 || n != 1 {
		t.Fatalf("after closing one of two thrice: %d open, %d for the client", l.Open(), n)
	}
	b.Close()
	l.mu.Lock()
	left := len(l.perClient)
	l.mu.Unlock()
	if l.Open() != 0 || left != 0 {
		t.Fatalf("after closing both: %d open, %d clients", l.Open(), left)
	}
}

// failing is a listener whose Accept fails with err until n failures are spent.
type failing struct {
	net.Listener
	mu  sync.Mutex
	n   int
	err error
}

func (f *failing) Accept() (net.Conn, error) {
	f.mu.Lock()
	if f.n > 0 {
		f.n--
		f.mu.Unlock()
		return nil, f.err
	}
	f.mu.Unlock()
	return f.Listener.Accept()
}

// TestAcceptErrors keeps accepting through the errors of a machine out of descriptors or
// buffers, reporting them at most once a second, and stops only when closed.
func TestAcceptErrors(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED} {
		t.Run(errno.Error(), func(t *testing.T) {
			t.Parallel()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var reports, failed int
			l := New(&failing{Listener: ln, n: 9, err: &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", errno)}},
				Options{OnAcceptError: func(err error, n int) {
					mu.Lock()
					reports++
					failed += n
					mu.Unlock()
					if !errors.Is(err, errno) {
						t.Errorf("reported %v", err)
					}
				}})
			wait := serve(l)
			c := dial(t, ln.Addr().String())
			waitOpen(t, l, 1)
			c.Close()
			l.Close()
			if err := wait(); !errors.Is(err, net.ErrClosed) {
				t.Fatalf("Accept returned %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			// 9 failures back off 5 ms, 10 ms, ... 1 s: over 2 s, so 2 or 3 reports; every
			// one is counted.
			if reports < 2 || reports > 3 || failed > 9 || l.AcceptErrors() != 9 {
				t.Errorf("%d reports of %d failures", reports, failed)
			}
		})
	}
}

func TestCloseEndsBackoff(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(&failing{Listener: ln, n: 1 << 30, err: syscall.EMFILE}, Options{})
	wait := serve(l)
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	l.Close()
	if err := wait(); !errors.Is(err, net.ErrClosed) || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("Accept returned %v after %s", err, time.Since(start))
	}
}

func TestCrowded(t *testing.T) {
	l, addr := listen(t, Options{MaxConns: 4, MaxPerClient: -1})
	for n := 1; n <= 4; n++ {
		dial(t, addr)
		waitOpen(t, l, n)
		if want := n >= 3; l.Crowded() != want {
			t.Errorf("%d of 4 open: crowded %v", n, l.Crowded())
		}
	}
}
