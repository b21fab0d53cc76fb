package server

import (
	"bytes"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"weak"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

func (s *Server) acquire() *params {
	p := s.pool.Get().(*params)
	p.reset()
	return p
}

func (s *Server) release(p *params) { s.pool.Put(p) }

// gigs answers /v1/gigs: one page of the filtered listing, assembled from pre-rendered gigs.
func (s *Server) gigs(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	gz := acceptsGzip(peek(&ctx.Request.Header, keyAcceptEncoding))
	key := memoKey{route: memoGigs, query: ctx.URI().QueryString(), gz: gz, start: -1}
	memo := s.memos.forRequest(ctx, snap)
	// A range given is answered alike for the snapshot: looked up before the query is read.
	given := memo != nil && hasFrom(key.query)
	if given {
		if e, ok := s.memos.get(memo, key); ok {
			s.sendMemo(ctx, snap, e, gz)
			return nil
		}
	}
	p := s.acquire()
	defer s.release(p)
	now := s.now(ctx)
	p.parseGigs(ctx.QueryArgs(), now)
	if err := invalidParams(p.invalid); err != nil {
		return err
	}
	if memo != nil && !given {
		if p.raw[pFrom] == nil { // from now: alike until the next gig starts
			key.start = snap.Started(now)
		}
		if e, ok := s.memos.get(memo, key); ok {
			s.sendMemo(ctx, snap, e, gz)
			return nil
		}
	}
	snap.Run(p.q)
	if p.after {
		p.page = p.q.Offset/p.pageSize + 1
	}
	totalPages := (p.q.Total + p.pageSize - 1) / p.pageSize
	// Next begins after this page's last gig (a keyset), so that following it across a
	// swap neither skips nor repeats a gig that keeps its start; the others are page numbers.
	var next []byte
	if n := len(p.q.Page); n > 0 && p.q.Offset+n < p.q.Total {
		p.buf = snap.AppendQueryKeyset(p.buf[:0], p.q, n-1)
		next = p.buf
	}
	var self []byte
	if p.after {
		self = p.raw[pAfter]
	}
	l := p.pageLinks("/v1/gigs?", totalPages, self, next)
	var tag engine.Tag
	p.buf, tag = snap.AppendQueryPage(p.buf[:0], p.q, engine.PageMeta{Page: p.page, PageSize: p.pageSize, Total: p.q.Total, TotalPages: totalPages}, p.links, gz)
	if len(l) > 0 {
		setHeader(&ctx.Response.Header, keyLink, l)
	}
	if memo != nil && s.memos.keep(memo, key, l, p.buf, tag) {
		s.m.memoStored.Inc()
	}
	return s.sendEncoded(ctx, snap, p, tag, false, gz)
}

// maxLinkHeader bounds the Link header of a page. Every link repeats the query, its
// filters escaped, so long alternatives (up to 20 of 200 bytes a filter) would make a
// header of tens of kilobytes, more than proxies take (nginx's default buffer for a
// response's headers is 4 KiB: a 502): such a page has its links in its body only.
const maxLinkHeader = 2048

// pageLinks appends the links of page p.page of totalPages to p.links, their URLs (path,
// then the canonical query in p.base) after the query in p.base: self (after=self when
// self is not nil), first, prev, next (after=next when next is not nil, else the next
// page when there is one) and last. It returns their Link header value, written after
// them in p.base, or nothing when it would be longer than maxLinkHeader.
func (p *params) pageLinks(path string, totalPages int, self, next []byte) []byte {
	urls, last := len(p.base), max(totalPages, 1)
	link := func(rel string, page int, after []byte) {
		start := len(p.base)
		p.base = append(append(p.base, path...), p.base[:urls]...)
		if after != nil {
			p.base = appendPair(p.base, "after", after)
			p.base = p.base[:len(p.base)-1] // appendPair's '&'
		} else {
			p.base = strconv.AppendInt(append(p.base, "page="...), int64(page), 10)
		}
		p.links = append(p.links, engine.Link{Rel: rel, URL: p.base[start:len(p.base):len(p.base)]})
	}
	link("self", p.page, self)
	link("first", 1, nil)
	if p.page > 1 {
		link("prev", min(p.page-1, last), nil)
	}
	switch {
	case next != nil:
		link("next", 0, next)
	case p.page < totalPages && !p.after:
		link("next", p.page+1, nil)
	}
	link("last", last, nil)
	header := len(p.base)
	for i, l := range p.links {
		if i > 0 {
			p.base = append(p.base, ", "...)
		}
		p.base = append(append(append(p.base, '<'), l.URL...), `>; rel="`...)
		p.base = append(append(p.base, l.Rel...), '"')
	}
	if len(p.base)-header > maxLinkHeader {
		return nil
	}
	return p.base[header:]
}

// gig answers /v1/gigs/{id}: its JSON, or its JSON-LD when Accept prefers it (gigLD).
func (s *Server) gig(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	if err := noParams(ctx); err != nil {
		return err
	}
	id := pathParam(ctx, "id")
	p := s.acquire()
	defer s.release(p)
	if prefersLD(ctx.Request.Header.Peek("Accept")) {
		return s.gigLD(ctx, snap, p, id)
	}
	var ok bool
	var tag engine.Tag
	gz := acceptsGzip(peek(&ctx.Request.Header, keyAcceptEncoding))
	if p.buf, tag, ok = snap.AppendGig(p.buf[:0], id, gz); !ok {
		return s.unknownGig(ctx, snap, id)
	}
	err := s.sendEncoded(ctx, snap, p, tag, true, gz)
	varyAccept(ctx) // it has a JSON-LD view
	return err
}

// unknownGig answers a gig id the snapshot has no gig of: as gone would, else 404.
func (s *Server) unknownGig(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, id string) error {
	if known, err := s.gone(ctx, snap, id); known {
		return err
	}
	return notFound("no upcoming gig with id %q", id)
}

// directory answers a directory route from its pre-rendered body.
func (s *Server) directory(body func(*engine.Snapshot) *engine.Body) handler {
	return func(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
		if err := noParams(ctx); err != nil {
			return err
		}
		b := body(snap)
		return s.send(ctx, snap, b, true)
	}
}

// detail answers the page of one entity with its gigs, /v1/venues/{slug} or
// /v1/artists/{slug}, found by find: its body streamed from the snapshot's parts, identity
// or gzip (the snapshot keeps neither, and one with thousands of gigs is megabytes: no
// response holds it whole). kind names the entity in a 404.
func (s *Server) detail(kind string, find func(*engine.Snapshot, string) (engine.DetailBody, bool)) handler {
	return func(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
		if err := noParams(ctx); err != nil {
			return err
		}
		slug := pathParam(ctx, "slug")
		b, ok := find(snap, slug)
		if !ok {
			return notFound("no %s with slug %q", kind, slug)
		}
		return s.sendDetail(ctx, snap, b)
	}
}

// sendDetail writes a 200 (or 304) of an entity's detail body (a venue's, an artist's),
// streamed from the snapshot's parts.
func (s *Server) sendDetail(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, b engine.DetailBody) error {
	var tag [24]byte
	if s.validate(ctx, snap, append(tag[:0], b.ETag...), true, true) {
		return nil
	}
	gz := acceptsGzip(peek(&ctx.Request.Header, keyAcceptEncoding))
	if gz {
		ctx.Response.Header.Set("Content-Encoding", "gzip")
	}
	r, size := b.Reader(gz)
	ctx.Response.SetBodyStream(r, size) // fasthttp closes r once sent
	return nil
}

// meta answers /v1/meta: the snapshot's identity, counts and sources' health, and when
// the next refresh is due.
func (s *Server) meta(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	if err := noParams(ctx); err != nil {
		return err
	}
	p := s.acquire()
	defer s.release(p)
	p.buf = snap.AppendMeta(p.buf[:0], s.o.Live.NextRefresh())
	return s.sendAssembled(ctx, snap, p, engine.TagOf(p.buf), false)
}

// noParams rejects any query parameter on routes that take none.
func noParams(ctx *fasthttp.RequestCtx) error {
	var list []InvalidParam
	for k := range ctx.QueryArgs().All() {
		list = append(list, InvalidParam{Name: string(k), Reason: "unknown parameter; this resource takes none"})
	}
	return invalidParams(list)
}

// pathParam returns a path parameter, percent-decoded.
func pathParam(ctx *fasthttp.RequestCtx, name string) string {
	v, _ := ctx.UserValue(name).(string)
	if !strings.Contains(v, "%") {
		return v
	}
	if d, err := url.PathUnescape(v); err == nil {
		return d
	}
	return v
}

// send writes a 200 (or 304) of a pre-rendered body with the caching headers: its ETag,
// and its gzip variant when the client takes it (its bytes are set without copying: they
// never change). fixed says the body depends on the snapshot alone, so If-Modified-Since
// can be answered from the build time.
func (s *Server) send(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, pre *engine.Body, fixed bool) error {
	if s.validate(ctx, snap, []byte(pre.ETag), pre.Gzip != nil, fixed) {
		return nil
	}
	if pre.Gzip != nil && acceptsGzip(peek(&ctx.Request.Header, keyAcceptEncoding)) {
		ctx.Response.Header.Set("Content-Encoding", "gzip")
		ctx.Response.SetBodyRaw(pre.Gzip)
		return nil
	}
	ctx.Response.SetBodyRaw(pre.Raw)
	return nil
}

// sendAssembled writes a 200 (or 304) of the identity body assembled in p.buf, like
// send, with the ETag of its tag: compressed when the client takes gzip and the body is
// large enough to gain from it.
func (s *Server) sendAssembled(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, p *params, tag engine.Tag, fixed bool) error {
	gz := len(p.buf) >= engine.GzipMin && acceptsGzip(peek(&ctx.Request.Header, keyAcceptEncoding))
	if gz {
		p.buf, p.zbuf = p.gzip(p.buf), p.buf
	}
	return s.sendEncoded(ctx, snap, p, tag, fixed, gz)
}

// sendEncoded writes a 200 (or 304) of the body in p.buf, gzip when gz is set, with the
// ETag of its tag (the same for both encodings). The body is not copied: p.buf becomes
// the response's body, and the response's previous buffer becomes p.buf.
func (s *Server) sendEncoded(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, p *params, tag engine.Tag, fixed, gz bool) error {
	if s.sendHeaders(ctx, snap, tag, fixed, gz) {
		p.buf = ctx.Response.SwapBody(p.buf)[:0]
	}
	return nil
}

// sendHeaders sets the headers of a 200 of a body with tag, gzip when gz is set, and
// reports whether the body is to be sent: not when the request's validators match (a 304).
func (s *Server) sendHeaders(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, tag engine.Tag, fixed, gz bool) bool {
	var etag [24]byte
	if s.validate(ctx, snap, tag.AppendETag(etag[:0]), true, fixed) {
		return false
	}
	if gz {
		setHeader(&ctx.Response.Header, keyEncoding, valGzip)
	}
	return true
}

// validate sets the caching headers and the content type of a body with the ETag etag
// (vary: it has a gzip variant), and answers 304 when the request's validators match; it
// reports whether it did, leaving no body to send.
func (s *Server) validate(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, etag []byte, vary, fixed bool) bool {
	h := &ctx.Response.Header
	s.setMaxAge(ctx)
	setHeader(h, keyETag, etag)
	setHeader(h, keyLastModified, s.lastModified(snap))
	if vary {
		setHeader(h, keyVary, valVaryEncoding)
	}
	if notModified(&ctx.Request.Header, etag, snap.Changed(), fixed) {
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		ctx.Response.SkipBody = true
		ctx.Response.ResetBody()
		return true
	}
	ctx.SetContentType("application/json")
	return false
}

// changedDate is when a snapshot's data last changed, as an HTTP date, kept while it is
// served.
type changedDate struct {
	snap weak.Pointer[engine.Snapshot] // weak: it never keeps a snapshot replaced alive
	date []byte
}

// lastModified returns the Last-Modified value of snap's bodies: when its content last
// changed (engine.Snapshot.Changed, which an identical rebuild keeps), written once per
// snapshot rather than per request.
func (s *Server) lastModified(snap *engine.Snapshot) []byte {
	if d := s.changed.Load(); d != nil && d.snap.Value() == snap {
		return d.date
	}
	d := &changedDate{snap: weak.Make(snap), date: fasthttp.AppendHTTPDate(nil, snap.Changed())}
	s.changed.Store(d)
	return d.date
}

// notModified evaluates If-None-Match (weak comparison; every line of it, as one list) or,
// when it is absent and the body depends on the snapshot alone, If-Modified-Since against
// when its data last changed (in any of HTTP's three date formats).
func notModified(h *fasthttp.RequestHeader, etag []byte, changed time.Time, fixed bool) bool {
	if inm := peek(h, keyIfNoneMatch); len(inm) > 0 {
		if etagListMatches(inm, etag) {
			return true
		}
		for _, line := range h.PeekAll("If-None-Match")[1:] { // only a conditional request's cost
			if etagListMatches(line, etag) {
				return true
			}
		}
		return false
	}
	if !fixed {
		return false
	}
	if ims := peek(h, keyIfModifiedSince); len(ims) > 0 {
		var t time.Time
		ok := false
		if len(ims) == len(http1123) && ims[3] == ',' { // IMF-fixdate, else the obsolete forms (RFC 9110 5.6.7)
			var err error
			t, err = fasthttp.ParseHTTPDate(ims)
			ok = err == nil
		} else {
			t, ok = parseObsoleteDate(ims)
		}
		return ok && !changed.After(t)
	}
	return false
}

// http1123 is an IMF-fixdate, the form HTTP dates are sent in; only its length is used.
const http1123 = "Sun, 06 Nov 1994 08:49:37 GMT"

// weekdays are the day names of RFC 850 dates; asctime's are their first three letters.
var weekdays = [...]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// parseObsoleteDate reads an HTTP date in one of the obsolete forms a recipient must
// accept (RFC 9110 5.6.7), without allocating: RFC 850's "Sunday, 06-Nov-94 08:49:37 GMT"
// (a two-digit year from 69 is of the 1900s, as net/http reads it) and asctime's "Sun Nov
// 6 08:49:37 1994". A date that does not exist (30 February) or a day name that is none is
// not a date: the header is then ignored, as an invalid one must be (RFC 9110 13.1.3).
func parseObsoleteDate(b []byte) (time.Time, bool) {
	var day, mon, year, clock []byte
	if i := bytes.IndexByte(b, ','); i > 3 { // RFC 850
		weekday := b[:i]
		b = b[i+1:]
		if len(b) != len(" 06-Nov-94 08:49:37 GMT") || b[0] != ' ' || b[3] != '-' || b[7] != '-' || b[10] != ' ' || string(b[19:]) != " GMT" ||
			!slices.ContainsFunc(weekdays[:], func(d string) bool { return string(weekday) == d }) {
			return time.Time{}, false
		}
		day, mon, year, clock = b[1:3], b[4:7], b[8:10], b[11:19]
	} else if len(b) == len("Sun Nov  6 08:49:37 1994") && b[3] == ' ' && b[7] == ' ' && b[10] == ' ' && b[19] == ' ' &&
		slices.ContainsFunc(weekdays[:], func(d string) bool { return string(b[:3]) == d[:3] }) { // asctime
		day, mon, year, clock = bytes.TrimLeft(b[8:10], " "), b[4:7], b[20:24], b[11:19]
	} else {
		return time.Time{}, false
	}
	num := func(d []byte) int {
		n := 0
		for _, c := range d {
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	m := bytes.Index([]byte("JanFebMarAprMayJunJulAugSepOctNovDec"), mon)
	d, y := num(day), num(year)
	hh, mm, ss := num(clock[0:2]), num(clock[3:5]), num(clock[6:8])
	if m < 0 || m%3 != 0 || len(day) == 0 || d < 1 || y < 0 || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59 ||
		clock[2] != ':' || clock[5] != ':' {
		return time.Time{}, false
	}
	if len(year) == 2 {
		y += 2000
		if y >= 2069 {
			y -= 100
		}
	}
	t := time.Date(y, time.Month(m/3+1), d, hh, mm, ss, 0, time.UTC)
	return t, t.Day() == d // 30 February would be 2 March
}

// etagListMatches reports whether an If-None-Match value ("*" or a list of entity tags)
// matches etag under weak comparison.
func etagListMatches(list, etag []byte) bool {
	etag = bytes.TrimPrefix(etag, []byte("W/"))
	for len(list) > 0 {
		var t []byte
		t, list, _ = bytes.Cut(list, []byte{','})
		t = bytes.TrimSpace(t)
		if bytes.Equal(t, []byte("*")) || bytes.Equal(bytes.TrimPrefix(t, []byte("W/")), etag) {
			return true
		}
	}
	return false
}
