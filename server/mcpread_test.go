package server

import (
	"context"
	"testing"

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
