package mcp

import (
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewHTTPHandler returns the streamable HTTP handler of s: stateless (no session is kept
// between requests, no Mcp-Session-Id is issued), answering each POST with one JSON
// body rather than an event stream, its request bodies capped at maxBody bytes.
//
// The SDK's check of the Host header of requests to a loopback address (against DNS
// rebinding) is off: the endpoint is public, keyless and read-only, answers every origin
// (CORS) as the read API does, and sits behind proxies on loopback in deployments
// (docs/scaling.md) whose Host is the public name.
func NewHTTPHandler(s *sdk.Server, maxBody int64) http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		MaxRequestBodyBytes:        maxBody,
		DisableLocalhostProtection: true,
	})
}
