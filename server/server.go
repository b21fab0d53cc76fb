package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fasthttp/router"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/conns"
	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/server/limit"
)

// Options configure a Server.
type Options struct {
	Live   *engine.Live     // required: the snapshot to serve
	Logger *slog.Logger     // slog.Default() when nil
	Now    func() time.Time // time.Now when nil; drives max-age, the default "from" and limits
	// ReadLimit is the requests per minute each client may make, whatever the request and
	// its answer (60 when zero).
	ReadLimit int
	// TrustedProxies are the networks whose X-Forwarded-For is believed; a request from
	// anywhere else is limited by its own address.
	TrustedProxies []netip.Prefix
	// MaxClients caps the clients whose rate-limit state is kept (1<<20 when zero).
	MaxClients int
	// Keys checks the personal keys of /v1/gigs/download; without it the export is not served.
	Keys keys.Checker
	// ExportLimit is the exports per minute each key may make (10 when zero).
	ExportLimit int
	// ReadLimiter and ExportLimiter count the read and export limits; when nil, an
	// in-memory limit.Memory of ReadLimit and ExportLimit per minute (a shared one, such
	// as the Redis limiter of package server/redis, makes the limits hold across replicas).
	ReadLimiter, ExportLimiter limit.Limiter
	// Contact is where users ask for a key, named in key problems.
	Contact string
	// Metrics records requests, limits and key checks; NewMetrics on a private registry
	// when nil.
	Metrics *Metrics
	// AccessLog logs one line per request at info level: request id, method, route,
	// path, status, duration, bytes and client; never a query string or a header.
	AccessLog bool

	// MaxConns caps the open connections of a listener from Listen (10000 when zero);
	// while three quarters of them are open, every response closes its connection.
	MaxConns int
	// MaxConnsPerClient caps the open connections of one client address (an IPv4
	// address or an IPv6 /64) as the direct peer, not X-Forwarded-For; trusted proxies
	// are exempt (64 when zero; negative: no cap).
	MaxConnsPerClient int
	// IdleTimeout closes a keep-alive connection that sends no new request in time
	// (30s when zero).
	IdleTimeout time.Duration
	// PageMemo is the size in bytes of the memo of /v1/gigs answers (pageMemo), per
	// snapshot, at most 1 GiB: DefaultPageMemo when zero; negative: no memo.
	PageMemo int
	// HeaderTimeout bounds the reading of a request from its first byte (or from the
	// connection's opening) to the end of its headers (10s when zero).
	HeaderTimeout time.Duration
	// PublicURL is where the service is reached ("https://gigs.example"): the JSON-LD
	// views' @id and url are made of it, and the iCalendar UIDs of its host, so it must be
	// the same on every replica and stay the same ("http://localhost" when empty).
	PublicURL string
	// ViewCache is the size in bytes of the cache of venue and artist iCalendar feeds and
	// JSON-LD bodies, rendered once per snapshot when first asked: DefaultViewCache when
	// zero; negative: none is kept.
	ViewCache int
}

// Server serves the public API. Safe for concurrent use.
type Server struct {
	o             Options
	clock         func() time.Time // Options.Now as given: nil for the real clock
	bootID        string           // random per process, prefixes request ids
	pool          sync.Pool
	reads         limit.Limiter
	readPolicy    string // the read limit in words, for problem details
	readHeaders   rateHeaders
	exports       limit.Limiter
	exportPolicy  string
	exportHeaders rateHeaders
	m             *Metrics
	draining      atomic.Bool
	requests      atomic.Uint64               // numbers request ids
	changed       atomic.Pointer[changedDate] // Last-Modified of the snapshot served last
	memos         memos                       // answers of /v1/gigs kept for the live snapshot
	views         viewCache                   // feeds and JSON-LD bodies kept for the live snapshot
	host          string                      // PublicURL's host: the iCalendar UIDs' domain
}

// New returns a Server.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	clock := o.Now
	if o.Now == nil {
		o.Now = time.Now
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	if o.ReadLimit == 0 {
		o.ReadLimit = 60
	}
	if o.MaxClients == 0 {
		o.MaxClients = 1 << 20
	}
	if o.ExportLimit == 0 {
		o.ExportLimit = 10
	}
	if o.MaxConns == 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxConnsPerClient == 0 {
		o.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.HeaderTimeout == 0 {
		o.HeaderTimeout = DefaultHeaderTimeout
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics(prometheus.NewRegistry(), o.Live)
	}
	if o.ReadLimiter == nil {
		o.ReadLimiter = limit.NewMemory(o.ReadLimit, time.Minute, o.MaxClients)
	}
	if o.ExportLimiter == nil {
		o.ExportLimiter = limit.NewMemory(o.ExportLimit, time.Minute, o.MaxClients)
	}
	s := &Server{o: o, clock: clock, bootID: hex.EncodeToString(b[:]),
		reads: o.ReadLimiter, readPolicy: policyWords(o.ReadLimiter, "requests"),
		exports: o.ExportLimiter, exportPolicy: policyWords(o.ExportLimiter, "exports"), m: o.Metrics}
	s.memos.live = o.Live
	if o.PageMemo == 0 {
		s.memos.size = DefaultPageMemo
	} else if o.PageMemo > 0 {
		s.memos.size = min(o.PageMemo, maxPageMemo)
	}
	s.setViews()
	s.readHeaders, s.exportHeaders = newRateHeaders(s.reads, "read"), newRateHeaders(s.exports, "export")
	s.pool.New = func() any { return &params{q: engine.AcquireQuery()} }
	return s
}

// policyWords is a limit in words, such as "60 requests per minute".
func policyWords(l limit.Limiter, what string) string {
	if l.Period() == time.Minute {
		return fmt.Sprintf("%d %s per minute", l.Limit(), what)
	}
	return fmt.Sprintf("%d %s per %s", l.Limit(), what, l.Period())
}

// Defaults of the connection options.
const (
	DefaultMaxConns          = 10000
	DefaultMaxConnsPerClient = 64
	DefaultIdleTimeout       = 30 * time.Second
	DefaultHeaderTimeout     = 10 * time.Second
)

// Listen guards ln for serving: the connection caps of the options, and accept errors
// (out of file descriptors, buffers) waited out rather than returned; see package conns.
// Serve the returned listener; call Listen once per Server.
func (s *Server) Listen(ln net.Listener) net.Listener {
	l := conns.New(ln, conns.Options{
		MaxConns:     s.o.MaxConns,
		MaxPerClient: s.o.MaxConnsPerClient,
		Exempt:       s.trusted,
		OnAcceptError: func(err error, failed int) {
			s.o.Logger.Error("cannot accept connections, retrying", "err", err, "failed", failed)
		},
		OnReject: s.m.connRejected,
	})
	s.m.conns.Store(l)
	return l
}

// Drain makes /readyz answer 503 from now on, so that load balancers stop sending new
// requests while the server finishes the ones it has. It does not stop the server.
func (s *Server) Drain() { s.draining.Store(true) }

// Header names and values used on every response.
const (
	hdrRequestID   = "X-Request-Id"
	exposedHeaders = "ETag, Link, Retry-After, RateLimit, RateLimit-Policy, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id"
	allowMethods   = "GET, HEAD"
)

// route is a route template, the route label of metrics and access logs.
type route uint8

// The routes. routeOther is every request no route answers: an unknown path, a refused
// method, a CORS preflight or a request that could not be parsed.
const (
	routeGigs route = iota
	routeGig
	routeDownload
	routeCities
	routeVenues
	routeVenue
	routeArtists
	routeArtist
	routeGenres
	routeMeta
	routeChanges
	routeOpenAPI
	routeLivez
	routeReadyz
	routeDocs
	routeDocsAsset
	routeGigsFeed
	routeVenueFeed
	routeArtistFeed
	routeMCP
	routeOther
	numRoutes
)

var routeTemplates = [numRoutes]string{
	"/v1/gigs", "/v1/gigs/{id}", "/v1/gigs/download", "/v1/cities", "/v1/venues", "/v1/venues/{slug}",
	"/v1/artists", "/v1/artists/{slug}", "/v1/genres", "/v1/meta", "/v1/changes", "/v1/openapi.json", "/livez", "/readyz", "/docs", "/docs/{file}",
	"/v1/gigs.ics", "/v1/venues/{slug}.ics", "/v1/artists/{slug}.ics", "/mcp", "other"}

// routeKey is the user value under which a handler records its route.
const routeKey = "gigs.route"

// Handler returns the request handler with every route, recording each request's metrics
// and, when enabled, its access log line.
func (s *Server) Handler() fasthttp.RequestHandler {
	r := router.New()
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.HandleMethodNotAllowed = true
	r.HandleOPTIONS = true
	r.SaveMatchedRoutePath = false
	handlers := s.readRoutes()
	for rt, h := range map[route]fasthttp.RequestHandler{
		routeMeta:      s.v1(s.meta),
		routeGigsFeed:  s.v1(s.gigsFeed),
		routeChanges:   s.v1(s.changes),
		routeOpenAPI:   s.openAPI,
		routeLivez:     s.livez,
		routeReadyz:    s.readyz,
		routeDocs:      s.docs,
		routeDocsAsset: s.docsAsset,
	} {
		handlers[rt] = h
	}
	if s.o.Keys != nil {
		handlers[routeDownload] = s.v1(s.download)
	}
	for rt, h := range handlers { // the venue and artist feeds are answered by their entity's route (entity)
		h := s.charged(rt, h)
		r.GET(routeTemplates[rt], h)
		r.HEAD(routeTemplates[rt], h)
	}
	r.ANY(routeTemplates[routeMCP], s.charged(routeMCP, s.mcpEndpoint()))
	r.NotFound = s.charged(routeOther, func(ctx *fasthttp.RequestCtx) {
		writeProblem(ctx, notFound("no resource at %s", ctx.URI().PathOriginal()))
	})
	r.MethodNotAllowed = s.charged(routeOther, func(ctx *fasthttp.RequestCtx) {
		writeProblem(ctx, &Problem{kind: kindMethodNotAllowed, Detail: "the API is read-only: use GET or HEAD"})
	})
	r.GlobalOPTIONS = s.charged(routeOther, func(ctx *fasthttp.RequestCtx) {
		h := &ctx.Response.Header
		h.Set("Allow", allowMethods)
		h.Set("Access-Control-Allow-Methods", allowMethods)
		h.Set("Access-Control-Allow-Headers", "X-API-Key, If-None-Match, If-Modified-Since")
		h.Set("Access-Control-Max-Age", "86400")
		ctx.SetStatusCode(fasthttp.StatusNoContent)
	})
	r.PanicHandler = s.recoverPanic
	return func(ctx *fasthttp.RequestCtx) {
		start := ctx.Time()
		s.begin(ctx)
		r.Handler(ctx)
		s.observe(ctx, start)
	}
}

// now returns the time of a request: when it began (read once by fasthttp per request)
// with the real clock, else the Options' clock. fasthttp sets that time just before the
// handler runs: a request it could not parse has none (see malformed).
func (s *Server) now(ctx *fasthttp.RequestCtx) time.Time {
	if s.clock == nil {
		if t := ctx.Time(); !t.IsZero() {
			return t
		}
		return time.Now() // a read of an MCP tool (mcpRead), which no connection began
	}
	return s.clock()
}

// clockNow returns the time now: the Options' clock, or the real one.
func (s *Server) clockNow() time.Time {
	if s.clock == nil {
		return time.Now()
	}
	return s.clock()
}

// charged wraps the handler of route rt, and of every request the routes do not answer:
// it records the route, spends one request of the client's read quota whatever the
// answer will be, and refuses requests whose framing is ambiguous, before h runs.
func (s *Server) charged(rt route, h fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		ctx.SetUserValue(routeKey, rt)
		switch {
		case !s.charge(ctx):
		default:
			if why := framingProblem(ctx.Request.Header.RawHeaders()); why != "" {
				// A proxy in front may have framed this request otherwise: what follows
				// on the connection cannot be trusted to be a request boundary.
				ctx.SetConnectionClose()
				writeProblem(ctx, &Problem{kind: kindBadRequest, Detail: why})
				return
			}
			h(ctx)
		}
	}
}

// observe records an answered request in the metrics and the access log.
func (s *Server) observe(ctx *fasthttp.RequestCtx, start time.Time) {
	d := time.Since(start)
	rt, ok := ctx.UserValue(routeKey).(route)
	if !ok {
		rt = routeOther
	}
	s.m.request(rt, ctx.Method(), ctx.Response.StatusCode(), d)
	if s.o.AccessLog {
		s.logAccess(ctx, rt, d)
	}
}

// logAccess writes the access log line of a request. It names the path but not the query
// or any header: nothing a client sends in them (a key by mistake) reaches the log.
func (s *Server) logAccess(ctx *fasthttp.RequestCtx, rt route, d time.Duration) {
	size := ctx.Response.Header.ContentLength()
	switch {
	case ctx.IsHead():
		size = 0
	case !ctx.Response.IsBodyStream():
		size = len(ctx.Response.Body())
	}
	s.o.Logger.LogAttrs(context.Background(), slog.LevelInfo, "request",
		slog.String("request_id", string(ctx.Response.Header.Peek(hdrRequestID))),
		slog.String("method", string(ctx.Method())),
		slog.String("route", routeTemplates[rt]),
		slog.String("path", string(ctx.Path())),
		slog.Int("status", ctx.Response.StatusCode()),
		slog.Float64("duration_ms", float64(d.Microseconds())/1e3),
		slog.Int("bytes", size),
		slog.String("client", s.clientAddr(ctx).String()),
	)
}

// recoverPanic answers a request whose handler panicked with a 500 problem and logs it.
func (s *Server) recoverPanic(ctx *fasthttp.RequestCtx, v any) {
	s.o.Logger.Error("panic in handler", "path", string(ctx.Path()), "panic", fmt.Sprint(v), "request_id", string(ctx.Response.Header.Peek(hdrRequestID)))
	writeProblem(ctx, &Problem{kind: kindInternal, Detail: "the server could not answer this request"})
}

// HTTPServer returns a fasthttp server for the handler, with time limits and buffer sizes
// set for public exposure.
func (s *Server) HTTPServer() *fasthttp.Server {
	return &fasthttp.Server{
		Handler:                      s.Handler(),
		HeaderReceived:               exportTimeouts,
		ErrorHandler:                 s.malformed,
		ReadTimeout:                  s.o.HeaderTimeout, // the whole request: it has no body
		WriteTimeout:                 60 * time.Second,  // the largest directory on a slow link
		IdleTimeout:                  s.o.IdleTimeout,
		ReadBufferSize:               8 << 10,                   // also the cap on request headers
		WriteBufferSize:              WriteBufferSize,           // a page of 20 gigs in one write
		MaxRequestBodySize:           4 << 10,                   // reads carry no body; /mcp's: exportTimeouts
		Concurrency:                  max(64<<10, s.o.MaxConns), // the listener caps connections
		DisablePreParseMultipartForm: true,
		NoDefaultServerHeader:        true,
		NoDefaultContentType:         true,
		CloseOnShutdown:              true,
		TCPKeepalive:                 true,
		Logger:                       slogPrinter{s.o.Logger},
	}
}

// exportWriteTimeout bounds the writing of one export: hundreds of megabytes take minutes
// on an ordinary link, where every other body takes well under the server's 60 s.
const exportWriteTimeout = 30 * time.Minute

// exportTimeouts gives the export its longer write time limit, and /mcp its body.
func exportTimeouts(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	path, _, _ := bytes.Cut(targetPath(h.RequestURI()), []byte{'?'})
	switch string(path) {
	case "/v1/gigs/download":
		return fasthttp.RequestConfig{WriteTimeout: exportWriteTimeout}
	case "/mcp":
		return fasthttp.RequestConfig{MaxRequestBodySize: maxMCPBody}
	}
	return fasthttp.RequestConfig{}
}

// targetPath returns a request target's path and query: the target itself, or the part
// of an absolute-form target ("http://host/v1/gigs") after its scheme and authority, as
// the router reads it.
func targetPath(uri []byte) []byte {
	if len(uri) > 0 && uri[0] == '/' {
		return uri
	}
	_, rest, ok := bytes.Cut(uri, []byte("://"))
	if !ok {
		return uri
	}
	if i := bytes.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return []byte("/")
}

type slogPrinter struct{ l *slog.Logger }

func (p slogPrinter) Printf(format string, args ...any) {
	p.l.Debug("fasthttp", "msg", format, "args", args)
}

// malformed answers requests fasthttp could not parse; they are charged like any other,
// at the time now: fasthttp has not set the request's time (the zero time on a new
// connection, the previous request's on a kept one).
func (s *Server) malformed(ctx *fasthttp.RequestCtx, err error) {
	start := time.Now()
	s.begin(ctx)
	// fasthttp does not recover in its error handler: a panic there would end gigsd. The
	// recovery runs first, so that observe records its 500.
	defer s.observe(ctx, start)
	defer func() {
		if v := recover(); v != nil {
			s.recoverPanic(ctx, v)
		}
	}()
	var timeout net.Error
	if errors.As(err, &timeout) && timeout.Timeout() {
		// No whole request came within -header-timeout (a connection opened ahead of need,
		// or a slow client): 408, which costs no request of the client's quota.
		ctx.SetConnectionClose()
		writeProblem(ctx, &Problem{kind: kindRequestTimeout, Detail: "no whole request came in time"})
		return
	}
	if !s.chargeAt(ctx, s.clockNow()) {
		return
	}
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.As(err, &small):
		writeProblem(ctx, &Problem{kind: kindHeadersTooLarge, Detail: "request headers exceed 8 KiB"})
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		writeProblem(ctx, &Problem{kind: kindBodyTooLarge, Detail: "the API takes no request body, and /mcp one of at most 64 KiB"})
	default:
		writeProblem(ctx, &Problem{kind: kindBadRequest, Detail: "the request could not be parsed"})
	}
}

// handler answers one /v1 route from one snapshot.
type handler func(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error

// v1 wraps a handler: 503 before the first snapshot, and the single place where errors
// become problem bodies.
func (s *Server) v1(h handler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		snap := s.o.Live.Load()
		if snap == nil {
			writeProblem(ctx, &Problem{kind: kindNotReady, Detail: "no dataset is loaded yet; retry in a few seconds"})
			return
		}
		if err := h(ctx, snap); err != nil {
			var p *Problem
			if !errors.As(err, &p) {
				s.o.Logger.Error("request failed", "path", string(ctx.Path()), "err", err, "request_id", string(ctx.Response.Header.Peek(hdrRequestID)))
				p = &Problem{kind: kindInternal, Detail: "the server could not answer this request"}
			}
			writeProblem(ctx, p)
		}
	}
}

// begin sets the headers every response carries: a request id unique in the process
// (malformed requests included), nosniff and CORS. Under a crowd of connections the
// response closes its own.
func (s *Server) begin(ctx *fasthttp.RequestCtx) {
	var b [32]byte
	id := append(b[:0], s.bootID...)
	id = append(id, '-')
	id = strconv.AppendUint(id, s.requests.Add(1), 36)
	h := &ctx.Response.Header
	h.DisableNormalizing() // keep "ETag" as written; every name below is canonical already
	setHeader(h, keyRequestID, id)
	setHeader(h, keyNoSniff, valNoSniff)
	setHeader(h, keyAllowOrigin, valAnyOrigin)
	setHeader(h, keyExposeHeaders, valExposeHeaders)
	if l := s.m.conns.Load(); l != nil && l.Crowded() {
		ctx.SetConnectionClose()
	}
}

func (s *Server) livez(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Set("Cache-Control", "no-store")
	ctx.SetContentType("text/plain; charset=utf-8")
	ctx.SetBodyString("ok\n")
}

func (s *Server) readyz(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Set("Cache-Control", "no-store")
	ctx.SetContentType("text/plain; charset=utf-8")
	ready, why := s.Readiness()
	if !ready {
		ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
	}
	ctx.SetBodyString(why)
	ctx.Response.AppendBodyString("\n")
}

// Readiness says whether the server should be sent requests: not before the first
// snapshot and not once it drains. why is "ready" or "not ready: <reason>". /readyz
// answers it; gigsd's admin listener answers it too, unlimited, for probes.
func (s *Server) Readiness() (ready bool, why string) {
	switch {
	case s.draining.Load():
		return false, "not ready: shutting down"
	case s.o.Live.Load() == nil:
		return false, "not ready: no dataset loaded yet"
	}
	return true, "ready"
}
