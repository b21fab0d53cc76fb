package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gigs/gigs/testkit/agent"
)

// connectMCP connects the SDK's client to the /mcp endpoint at base.
func connectMCP(t *testing.T, base string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "gigs-test", Version: "0"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: base + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestMCPOverHTTP drives the tools at /mcp with the SDK's client, on a real listener.
func TestMCPOverHTTP(t *testing.T) {
	base, _ := servePublished(t)
	agent.Exercise(t, connectMCP(t, base))
}

// postMCP posts a JSON-RPC body to /mcp as an MCP client does.
func postMCP(t *testing.T, base, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestMCPEndpoint: the answers of /mcp beyond the protocol's, checked against the OpenAPI
// document, and its caps.
func TestMCPEndpoint(t *testing.T) {
	base, _ := servePublished(t)
	r := do(t, "GET", base+"/mcp", nil)
	if r.status != 405 || r.header.Get("Allow") != "POST" {
		t.Errorf("GET /mcp: %d, Allow %q", r.status, r.header.Get("Allow"))
	}
	r = do(t, "OPTIONS", base+"/mcp", map[string]string{"Origin": "https://agent.example", "Access-Control-Request-Method": "POST"})
	if r.status != 204 || r.header.Get("Access-Control-Allow-Methods") != "POST" || r.header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(r.header.Get("Access-Control-Allow-Headers"), "Mcp-Protocol-Version") {
		t.Errorf("OPTIONS /mcp: %d %v", r.status, r.header)
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_gigs","arguments":{"page_size":1}}}`
	status, h, body := postMCP(t, base, call)
	if status != 200 || h.Get("Mcp-Session-Id") != "" || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(body, `"structuredContent"`) {
		t.Errorf("a tool call with no initialize (stateless): %d %v %s", status, h, body)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_gigs","arguments":{"q":"` + strings.Repeat("a", 70<<10) + `"}}}`
	if status, _, body := postMCP(t, base, big); status != 413 || !strings.Contains(body, "64 KiB") {
		t.Errorf("a body over 64 KiB: %d %s", status, body)
	}
	listen := `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{}}}`
	done := make(chan string, 1)
	go func() { _, _, body := postMCP(t, base, listen); done <- body }()
	select {
	case body := <-done:
		if !strings.Contains(body, "error") {
			t.Errorf("subscriptions/listen: %s", body)
		}
	case <-time.After(10 * time.Second):
		t.Error("subscriptions/listen holds its request open")
	}
}

// TestMCPCharges: a POST to /mcp costs one request of the client's read limit, which pays
// for its tool call's first API request; a batch of calls costs what their requests cost,
// and a spent limit is a tool error saying when to retry.
func TestMCPCharges(t *testing.T) {
	live, _ := liveSnapshot(t)
	s := New(Options{Live: live, Now: func() time.Time { return testNow }, ReadLimit: 4,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	base := listen(t, s)
	call := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_gig","arguments":{"id":"nope"}}}`, id)
	}
	// A batch of three calls (protocol 2025-03-26 allows batches): three reads, of which the
	// POST paid one.
	_, h, body := postMCP(t, base, "["+call(1)+","+call(2)+","+call(3)+"]")
	if got := h.Get("X-RateLimit-Remaining"); got != "3" || strings.Count(body, `"isError":true`) != 3 {
		t.Errorf("after the batch's POST: remaining %s; %s", got, body)
	}
	if r := do(t, "GET", base+"/v1/genres", nil); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("the batch did not charge its reads: %d, remaining %s", r.status, r.header.Get("X-RateLimit-Remaining"))
	}
	if status, _, _ := postMCP(t, base, call(4)); status != 429 {
		t.Errorf("a POST over the limit: %d", status)
	}
}

// BenchmarkMCP compares a tool call over /mcp with the API request it makes, each a POST
// or GET on a real loopback listener with a kept-alive connection: what the MCP layer
// (JSON-RPC, the SDK, the adaptor, the in-process read, the summary lines) adds.
func BenchmarkMCP(b *testing.B) {
	live, _ := liveSnapshot(b)
	base := listen(b, testServer(b, live))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	for _, tc := range []struct{ name, method, path, body string }{
		{"api gigs page 20", "GET", "/v1/gigs?city=london&page_size=20", ""},
		{"mcp find_gigs page 20", "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_gigs","arguments":{"city":["london"],"page_size":20}}}`},
		{"api gig", "GET", "/v1/gigs/g0000370", ""},
		{"mcp get_gig", "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_gig","arguments":{"id":"g0000370"}}}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest(tc.method, base+tc.path, strings.NewReader(tc.body))
				if tc.body != "" {
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
				}
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatal(resp.Status)
				}
			}
		})
	}
}
