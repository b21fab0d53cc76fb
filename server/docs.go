package server

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"strconv"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/openapi"
)

// The docs page's renderer: Redoc's standalone bundle (MIT, see docs/redoc.LICENSE), the
// release REDOC_VERSION in the Makefile names, checked against
// docs/redoc.standalone.js.sha256 (make redoc fetches it; a test checks it).
//
//go:embed docs/redoc.standalone.js
var redocJS []byte

// docsHTML renders the document with the bundled Redoc. Its references are relative, so
// the page works under a reverse proxy's path prefix, and nothing is fetched from
// another origin (the Content-Security-Policy below forbids it).
const docsHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gigs API reference</title>
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="v1/openapi.json"></redoc>
<script src="docs/redoc.standalone.js"></script>
</body>
</html>
`

// docsCSP lets the page load only from this origin; Redoc needs inline styles, data: images
// and a blob: worker for its search.
const docsCSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"

// static is a body that never changes while the process runs.
type static struct {
	body        engine.Body
	contentType string
}

// The static bodies are compressed on first use, not at start: the renderer alone takes
// tens of milliseconds, which every program importing this package would pay.
var (
	openAPIBody = sync.OnceValue(func() *static { return newStatic(openapi.Document, "application/json") })
	docsBody    = sync.OnceValue(func() *static { return newStatic([]byte(docsHTML), "text/html; charset=utf-8") })
	redocBody   = sync.OnceValue(func() *static { return newStatic(redocJS, "text/javascript; charset=utf-8") })
)

func newStatic(raw []byte, contentType string) *static {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
	_, _ = zw.Write(raw)                                     // writes to a bytes.Buffer do not fail
	_ = zw.Close()
	return &static{body: engine.Body{Raw: raw, Gzip: buf.Bytes(), ETag: engine.ETag(raw)}, contentType: contentType}
}

// openAPI answers /v1/openapi.json. It needs no snapshot: the document is there before
// the data.
func (s *Server) openAPI(ctx *fasthttp.RequestCtx) {
	if err := noParams(ctx); err != nil {
		writeProblem(ctx, err.(*Problem))
		return
	}
	s.sendStatic(ctx, openAPIBody())
}

// docs answers /docs, the API reference page.
func (s *Server) docs(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Set("Content-Security-Policy", docsCSP)
	s.sendStatic(ctx, docsBody())
}

// docsAsset answers /docs/{file}: the renderer.
func (s *Server) docsAsset(ctx *fasthttp.RequestCtx) {
	if name := pathParam(ctx, "file"); name != "redoc.standalone.js" {
		writeProblem(ctx, notFound("no resource at %s", ctx.URI().PathOriginal()))
		return
	}
	s.sendStatic(ctx, redocBody())
}

// sendStatic writes a static body, or 304, with the same caching headers as the data.
func (s *Server) sendStatic(ctx *fasthttp.RequestCtx, st *static) {
	h := &ctx.Response.Header
	s.setMaxAge(ctx)
	h.Set("ETag", st.body.ETag)
	h.Set("Vary", "Accept-Encoding")
	if notModified(&ctx.Request.Header, []byte(st.body.ETag), time.Time{}, false) {
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		ctx.Response.SkipBody = true
		return
	}
	ctx.SetContentType(st.contentType)
	if acceptsGzip(ctx.Request.Header.Peek("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		ctx.Response.SetBodyRaw(st.body.Gzip)
		return
	}
	ctx.Response.SetBodyRaw(st.body.Raw)
}

// setMaxAge sets Cache-Control to public with the whole seconds until the next refresh.
func (s *Server) setMaxAge(ctx *fasthttp.RequestCtx) {
	h := &ctx.Response.Header
	maxAge := int64(s.o.Live.NextRefresh().Sub(s.now(ctx)) / time.Second)
	var cc [48]byte
	setHeader(h, keyCacheControl, strconv.AppendInt(append(cc[:0], "public, max-age="...), max(maxAge, 0), 10))
}
