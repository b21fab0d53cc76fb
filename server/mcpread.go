package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/fasthttp/router"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/mcp"
)

// maxMCPBody caps the body of a request to /mcp.
const maxMCPBody = mcp.MaxRequest

// mcpTimeout bounds the answer to one request to /mcp: its tool calls read a snapshot
// in-process, in milliseconds; nothing of it waits on the client.
const mcpTimeout = 30 * time.Second

// readRoutes returns the handlers of the public read routes the MCP tools call.
func (s *Server) readRoutes() map[route]fasthttp.RequestHandler {
	return map[route]fasthttp.RequestHandler{
		routeGigs:    s.v1(s.gigs),
		routeGig:     s.v1(s.gig),
		routeCities:  s.v1(s.pagedDirectory(engine.DirCities, "/v1/cities?", (*engine.Snapshot).Cities, cityParams, cityAccepted)),
		routeVenues:  s.v1(s.pagedDirectory(engine.DirVenues, "/v1/venues?", (*engine.Snapshot).Venues, venueParams, venueAccepted)),
		routeVenue:   s.v1(s.entity("venue", routeVenueFeed, s.detail("venue", (*engine.Snapshot).Venue))),
		routeArtists: s.v1(s.pagedDirectory(engine.DirArtists, "/v1/artists?", (*engine.Snapshot).Artists, artistParams, artistAccepted)),
		routeArtist:  s.v1(s.entity("artist", routeArtistFeed, s.detail("artist", (*engine.Snapshot).Artist))),
		routeGenres:  s.v1(s.directory((*engine.Snapshot).Genres)),
	}
}

// mcpCall is what the in-process reads of one request to /mcp share: whom to charge,
// and whether the request's own charge is still unspent.
type mcpCall struct {
	client  netip.Addr
	prepaid atomic.Bool // the charge of the POST itself pays for its first read
}

type mcpCallKey struct{}

// mcpEndpoint returns the handler of /mcp: the MCP server of package mcp, stateless,
// over streamable HTTP, its tools reading this server's snapshot in-process (mcpReader).
// A POST is charged one read like any request, which pays for the first read its tool
// calls make; each further read is charged as the API request it is (a batch of tool
// calls costs what their requests cost). OPTIONS answers a CORS preflight; any other
// method is a 405.
func (s *Server) mcpEndpoint() fasthttp.RequestHandler {
	router := s.readRouter()
	srv, err := mcp.NewServer(mcp.Options{Reader: mcpReader{s, router}, Now: s.o.Now, Logger: s.o.Logger})
	if err != nil {
		panic(fmt.Sprintf("the MCP tools cannot be made from the OpenAPI document: %v", err)) // the embedded document is tested
	}
	inner := mcp.NewHTTPHandler(srv, maxMCPBody)
	serve := fasthttpadaptor.NewFastHTTPHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		call := &mcpCall{client: s.clientAddr(r.Context().(*fasthttp.RequestCtx))}
		call.prepaid.Store(true)
		// Not a child of the fasthttp.RequestCtx the adaptor gives: its Done may not be
		// watched from another goroutine (it races with the server's Shutdown).
		ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), mcpCallKey{}, call), mcpTimeout)
		defer cancel()
		inner.ServeHTTP(w, r.WithContext(ctx))
	}))
	return func(ctx *fasthttp.RequestCtx) {
		switch {
		case ctx.IsPost():
			serve(ctx)
		case ctx.IsOptions():
			h := &ctx.Response.Header
			h.Set("Allow", "POST")
			h.Set("Access-Control-Allow-Methods", "POST")
			h.Set("Access-Control-Allow-Headers", "Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID")
			h.Set("Access-Control-Max-Age", "86400")
			ctx.SetStatusCode(fasthttp.StatusNoContent)
		default:
			writeProblem(ctx, &Problem{kind: kindMCPMethodNotAllowed, Detail: "the MCP endpoint takes POST (streamable HTTP, stateless)"})
		}
	}
}

// kindMCPMethodNotAllowed is the 405 of /mcp, which takes POST alone.
var kindMCPMethodNotAllowed = kind{"method-not-allowed", "Method not allowed", 405, "Allow", "POST"}

// readRouter routes the reads of the MCP tools to the public read handlers, each read
// charged to the client of the request to /mcp (but the first; see mcpEndpoint).
func (s *Server) readRouter() fasthttp.RequestHandler {
	r := router.New()
	r.RedirectTrailingSlash, r.RedirectFixedPath, r.HandleMethodNotAllowed, r.HandleOPTIONS = false, false, false, false
	for rt, h := range s.readRoutes() {
		r.GET(routeTemplates[rt], func(ctx *fasthttp.RequestCtx) {
			ctx.SetUserValue(routeKey, rt)
			call, _ := ctx.UserValue(mcpCallKey{}).(*mcpCall)
			if call == nil || !call.prepaid.CompareAndSwap(true, false) {
				if !s.chargeAt(ctx, s.clockNow()) {
					return
				}
			}
			h(ctx)
		})
	}
	r.NotFound = func(ctx *fasthttp.RequestCtx) {
		writeProblem(ctx, notFound("no resource at %s", ctx.URI().PathOriginal()))
	}
	return r.Handler
}

// mcpReader reads the API in-process for the MCP tools: each read is a GET handled by
// the public handlers from the live snapshot, recorded in the metrics (and the access
// log) under its route, as if the client had sent it.
type mcpReader struct {
	s      *Server
	router fasthttp.RequestHandler
}

// Read implements mcp.Reader.
func (m mcpReader) Read(ctx context.Context, path string, query url.Values, etag string) (resp *mcp.Response, err error) {
	call, _ := ctx.Value(mcpCallKey{}).(*mcpCall)
	if call == nil {
		return nil, errors.New("a read outside a request to /mcp")
	}
	var req fasthttp.Request
	req.Header.SetMethod(fasthttp.MethodGet)
	uri := path
	if len(query) > 0 {
		uri += "?" + query.Encode()
	}
	req.SetRequestURI(uri)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	var rc fasthttp.RequestCtx
	rc.Init(&req, net.TCPAddrFromAddrPort(netip.AddrPortFrom(call.client, 0)), nil)
	rc.SetUserValue(mcpCallKey{}, call)
	start := time.Now()
	m.s.begin(&rc)
	defer func() {
		if v := recover(); v != nil {
			m.s.recoverPanic(&rc, v)
			resp, err = &mcp.Response{Status: rc.Response.StatusCode(), Body: rc.Response.Body()}, nil
		}
		m.s.observe(&rc, start)
	}()
	m.router(&rc)
	h := &rc.Response.Header
	return &mcp.Response{Status: rc.Response.StatusCode(), Body: append([]byte(nil), rc.Response.Body()...),
		ETag: string(h.Peek("ETag")), Location: string(h.Peek("Location")), RetryAfter: string(h.Peek("Retry-After"))}, nil
}
