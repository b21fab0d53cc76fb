package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server"
	"github.com/gigs/gigs/testkit/agent"
	"github.com/gigs/gigs/testkit/scale"
)

// serveAPI serves a synthetic dataset's snapshot on a real listener until the test
// ends, and returns its root URL.
func serveAPI(t *testing.T) string {
	t.Helper()
	ds := scale.Generate(scale.Config{Gigs: 400, Seed: 42, Now: time.Now(), Days: 60})
	snap, err := engine.Build(ds, engine.Options{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(snap)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	api := server.New(server.Options{Live: &live, ReadLimit: 1 << 20, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go func() { _ = fasthttp.Serve(ln, api.Handler()) }()
	return "http://" + ln.Addr().String()
}

// TestMCPOverStdio drives gigsctl mcp's stdio with the SDK's client, its tools reading
// gigs on a real listener over HTTP.
func TestMCPOverStdio(t *testing.T) {
	base := serveAPI(t)
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpCmd([]string{"-api", base}, func(string) string { return "" }, toServer, fromServer, io.Discard)
		fromServer.Close()
	}()
	c := sdk.NewClient(&sdk.Implementation{Name: "gigs-test", Version: "0"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	agent.Exercise(t, cs)
	cs.Close() // closes stdin: gigsctl mcp ends
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("gigsctl mcp: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("gigsctl mcp did not end when stdin closed")
	}
}

func TestMCPBadAPI(t *testing.T) {
	for _, api := range []string{"", "ftp://x", "localhost:8080", "http://", "http://h/?q=1"} {
		if err := mcpCmd([]string{"-api", api}, func(string) string { return "" }, nil, io.Discard, io.Discard); err == nil {
			t.Errorf("-api %q: no error", api)
		}
	}
}
