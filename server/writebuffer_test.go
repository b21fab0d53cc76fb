package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestPageOneWrite serves a catalogue's default pages of gigs over a real connection and
// counts the server's writes to its socket: each city's first page, run for the request
// (Cache-Control: no-cache) as the bench's page run is, and the same from the page memo,
// is written with one, its status line and headers with it (see WriteBufferSize).
func TestPageOneWrite(t *testing.T) {
	snap, err := engine.Build(scale.Generate(scale.Config{Gigs: 20000, Seed: 1, Now: testNow}), engine.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(snap)
	live.SetNextRefresh(nextLoad)
	s := testServer(t, &live)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var writes atomic.Int64
	srv := s.HTTPServer()
	go func() { _ = srv.Serve(s.Listen(countingListener{ln, &writes})) }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	// get sends one request on c and returns its body and the writes that answered it.
	get := func(target string, header ...string) ([]byte, int64) {
		t.Helper()
		before := writes.Load()
		req := "GET " + target + " HTTP/1.1\r\nHost: x\r\n"
		for _, h := range header {
			req += h + "\r\n"
		}
		if _, err := io.WriteString(c, req+"\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d, %v", target, resp.StatusCode, err)
		}
		return body, writes.Load() - before
	}
	body, _ := get("/v1/cities?page_size=100")
	var cities struct{ Data []struct{ Slug string } }
	if err := json.Unmarshal(body, &cities); err != nil || len(cities.Data) < 10 {
		t.Fatalf("cities: %d, %v", len(cities.Data), err)
	}
	largest := 0
	for _, city := range cities.Data {
		for _, tc := range []struct {
			name   string
			header []string
		}{{"run", []string{"Cache-Control: no-cache"}}, {"memo", nil}, {"memo", nil}} {
			target := fmt.Sprintf("/v1/gigs?city=%s&from=2026-11-29&to=2026-12-29", city.Slug)
			body, n := get(target, tc.header...)
			largest = max(largest, len(body))
			if n != 1 {
				t.Errorf("%s (%s, %d bytes): %d writes, want 1", target, tc.name, len(body), n)
			}
		}
	}
	t.Logf("%d cities' pages, the largest body %d bytes", len(cities.Data), largest)
}

// countingListener counts the writes to the connections it accepts in writes.
type countingListener struct {
	net.Listener
	writes *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.writes}, nil
}

// countingConn counts its writes in writes.
type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(b []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(b)
}
