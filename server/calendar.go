package server

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// The views of gigs other than the JSON, counted apart in the metrics.
type view uint8

const (
	viewICS view = iota // iCalendar feeds
	viewLD              // schema.org JSON-LD
	numViews
)

// Content types of the views.
const (
	typeCalendar = "text/calendar; charset=utf-8"
	typeLD       = "application/ld+json"
)

// DefaultViewCache is the size in bytes of the cache of venue and artist feeds and
// JSON-LD bodies (Options.ViewCache).
const DefaultViewCache = 64 << 20

// viewCache keeps, for the live snapshot, the bodies of the views rendered once per
// snapshot when first asked: a venue's or an artist's iCalendar feed and JSON-LD graph.
// Each is rendered once however many requests ask at once (the others wait for it). When
// the bodies kept pass the cache's size it starts empty again; a request of a snapshot no
// longer live renders its body without keeping it.
type viewCache struct {
	size int          // bytes; 0: nothing is kept
	live *engine.Live // the snapshot served

	mu      sync.Mutex                    // protects the fields below
	snap    weak.Pointer[engine.Snapshot] // weak: the cache never keeps a snapshot replaced alive
	entries map[string]*viewEntry
	bytes   int
}

// viewEntry is one body, rendered once.
type viewEntry struct {
	once sync.Once
	body *engine.Body
	err  error
}

// setViews applies the Options of the views: PublicURL's default and host, the view
// cache's size.
func (s *Server) setViews() {
	if s.o.PublicURL == "" {
		s.o.PublicURL = "http://localhost"
	}
	s.o.PublicURL = strings.TrimSuffix(s.o.PublicURL, "/")
	s.host = s.o.PublicURL
	if u, err := url.Parse(s.o.PublicURL); err == nil && u.Host != "" {
		s.host = u.Host
	}
	s.views.live = s.o.Live
	if s.o.ViewCache == 0 {
		s.views.size = DefaultViewCache
	} else if s.o.ViewCache > 0 {
		s.views.size = s.o.ViewCache
	}
}

// find returns the body kept for key of snap, once rendered. It does not allocate.
func (c *viewCache) find(snap *engine.Snapshot, key []byte) (*engine.Body, bool) {
	if c.size == 0 {
		return nil, false
	}
	c.mu.Lock()
	var e *viewEntry
	if c.snap.Value() == snap {
		e = c.entries[string(key)]
	}
	c.mu.Unlock()
	if e == nil {
		return nil, false
	}
	e.once.Do(func() {}) // waits for a render under way; a failed one is found again
	return e.body, e.body != nil
}

// get returns the body of key for snap, rendering it with render when not kept: once
// however many requests ask at once when snap is live, and without keeping it otherwise.
func (c *viewCache) get(snap *engine.Snapshot, key string, render func() ([]byte, error)) (*engine.Body, error) {
	do := func(e *viewEntry) {
		raw, err := render()
		if err == nil {
			e.body, err = engine.NewBody(raw)
		}
		e.err = err
	}
	if c.size == 0 || c.live.Load() != snap {
		e := new(viewEntry)
		do(e)
		return e.body, e.err
	}
	c.mu.Lock()
	if c.snap.Value() != snap || c.entries == nil {
		c.snap, c.entries, c.bytes = weak.Make(snap), map[string]*viewEntry{}, 0
	}
	e, ok := c.entries[key]
	if !ok {
		e = new(viewEntry)
		c.entries[key] = e
	}
	c.mu.Unlock()
	first := false
	e.once.Do(func() { do(e); first = true })
	if first {
		c.mu.Lock()
		if e.err != nil {
			if c.entries[key] == e {
				delete(c.entries, key) // a later request tries again
			}
		} else if c.snap.Value() == snap {
			if c.bytes += len(key) + len(e.body.Raw) + len(e.body.Gzip); c.bytes > c.size {
				c.entries, c.bytes = map[string]*viewEntry{}, 0
			}
		}
		c.mu.Unlock()
	}
	return e.body, e.err
}

// calendar returns what a feed of snap says of itself: the service's host, its name and
// what it lists, and the refresh interval, the time from snap's build to the next
// refresh rounded to 15 minutes (an hour when not known): the same across refreshes
// made on the same schedule, so that identical data makes identical feeds.
func (s *Server) calendar(snap *engine.Snapshot, name, what string) engine.Calendar {
	every := time.Hour
	if next := s.o.Live.NextRefresh(); next.After(snap.Built()) {
		const step = 15 * time.Minute
		every = max((next.Sub(snap.Built())+step/2)/step*step, step)
	}
	return engine.Calendar{Host: s.host, Name: name, What: what, Refresh: every}
}

// entity wraps the detail handler of a venue or an artist (json; kind is "venue" or
// "artist"): a slug ending ".ics" is the entity's iCalendar feed (route feed), and a
// request that prefers JSON-LD is answered with its gigs' schema.org graph. Both are
// rendered once per snapshot (renderEntity); a request that finds them kept allocates
// nothing.
func (s *Server) entity(kind string, feed route, json handler) handler {
	return func(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
		slug := pathParam(ctx, "slug")
		ics := strings.HasSuffix(slug, ".ics")
		if ics {
			ctx.SetUserValue(routeKey, feed)
			slug = strings.TrimSuffix(slug, ".ics")
		}
		ld := !ics && prefersLD(ctx.Request.Header.Peek("Accept"))
		if !ics && !ld {
			err := json(ctx, snap)
			varyAccept(ctx)
			return err
		}
		if err := noParams(ctx); err != nil {
			return err
		}
		var kb [160]byte
		key := append(append(append(kb[:0], kind...), ':'), slug...)
		if ics {
			key = append(key, ".ics"...)
		}
		b, ok := s.views.find(snap, key)
		if !ok {
			var err error
			if b, err = s.renderEntity(snap, kind, slug, ics); err != nil {
				return err
			}
		}
		if b == nil {
			return notFound("no %s with slug %q", kind, slug)
		}
		if err := s.send(ctx, snap, b, true); err != nil {
			return err
		}
		if ics {
			setCalendarHeaders(ctx, slug)
		} else {
			setLDHeaders(ctx)
		}
		return nil
	}
}

// renderEntity returns the feed (ics) or the JSON-LD graph of the venue or artist (kind)
// with slug, through the view cache; nil when there is none.
func (s *Server) renderEntity(snap *engine.Snapshot, kind, slug string, ics bool) (*engine.Body, error) {
	gigs := (*engine.Snapshot).VenueGigs
	if kind == "artist" {
		gigs = (*engine.Snapshot).ArtistGigs
	}
	name, positions, ok := gigs(snap, slug)
	if !ok {
		return nil, nil
	}
	key := kind + ":" + slug
	render := func() ([]byte, error) {
		s.m.rendered[viewLD].Add(float64(min(len(positions), engine.MaxCalendarEvents)))
		return snap.AppendGraphLD(nil, positions, s.o.PublicURL)
	}
	if ics {
		key += ".ics"
		render = func() ([]byte, error) {
			what := "upcoming gigs at " + name
			if kind == "artist" {
				what = "upcoming gigs of " + name
			}
			c := s.calendar(snap, name+" · gigs", what)
			c.Of = kind + ":" + slug
			body, n, err := snap.AppendCalendar(nil, positions, c)
			s.m.rendered[viewICS].Add(float64(n))
			return body, err
		}
	}
	return s.views.get(snap, key, render)
}

// gigLD answers /v1/gigs/{id} for a client that prefers JSON-LD (see gig): the gig's
// MusicEvent, rendered per request (one gig), in p.
func (s *Server) gigLD(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, p *params, id string) error {
	var ok bool
	var err error
	if p.buf, ok, err = snap.AppendGigLD(p.buf[:0], id, s.o.PublicURL); !ok {
		return s.unknownGig(ctx, snap, id)
	} else if err != nil {
		return err
	}
	s.m.rendered[viewLD].Inc()
	if err := s.sendAssembled(ctx, snap, p, engine.TagOf(p.buf), true); err != nil {
		return err
	}
	setLDHeaders(ctx)
	return nil
}

// gigsFeed answers /v1/gigs.ics: the first MaxCalendarEvents gigs of the listing its
// filters, range and order select, their count and the cap in the feed's description,
// and the gigs no source lists any more that they select, cancelled, while their
// tombstones last (Snapshot.AppendQueryCalendar). It is rendered on the first request
// and kept in the page memo, keyed by the query and, when the range starts now, by how
// many gigs, live or gone, have begun (Snapshot.Begun): the answer changes only when a
// gig begins, so that the polls of calendar apps are answered from the memo.
func (s *Server) gigsFeed(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	gz := acceptsGzip(ctx.Request.Header.Peek("Accept-Encoding"))
	now := s.now(ctx)
	query := ctx.URI().QueryString()
	key := memoKey{route: memoGigsFeed, query: query, gz: gz, start: -1}
	memo := s.memos.forRequest(ctx, snap)
	if memo != nil {
		if !hasFrom(query) {
			key.start = snap.Begun(now)
		}
		if e, ok := s.memos.get(memo, key); ok {
			s.m.memoHit.Inc()
			if s.sendHeaders(ctx, snap, e.tag, false, gz) {
				ctx.Response.SetBodyRaw(e.body)
			}
			setCalendarHeaders(ctx, "gigs")
			return nil
		}
	}
	p := s.acquire()
	defer s.release(p)
	p.parseGigs(ctx.QueryArgs(), now)
	for _, i := range []int{pPage, pPageSize, pAfter} {
		if p.given[i] {
			p.bad(paramNames[i], "not taken by the feed, which lists the first "+strconv.Itoa(engine.MaxCalendarEvents)+" gigs")
		}
	}
	if err := invalidParams(p.invalid); err != nil {
		return err
	}
	name := "gigs"
	if q := bytes.TrimSuffix(p.base, []byte{'&'}); len(q) > 0 {
		name += " · " + string(q)
	}
	var n int
	var err error
	p.buf, n, err = snap.AppendQueryCalendar(p.buf[:0], p.q, s.calendar(snap, name, "upcoming gigs match"))
	if err != nil {
		return err
	}
	s.m.rendered[viewICS].Add(float64(n))
	tag := engine.TagOf(p.buf)
	if gz {
		p.buf, p.zbuf = p.gzip(p.buf), p.buf
	}
	if memo != nil && s.memos.keep(memo, key, nil, p.buf, tag) {
		s.m.memoStored.Inc()
	}
	if err := s.sendEncoded(ctx, snap, p, tag, false, gz); err != nil {
		return err
	}
	setCalendarHeaders(ctx, "gigs")
	return nil
}

// setCalendarHeaders sets the content type of a 200 feed (a 304 has none) and its file
// name.
func setCalendarHeaders(ctx *fasthttp.RequestCtx, name string) {
	if ctx.Response.StatusCode() == fasthttp.StatusOK {
		ctx.SetContentType(typeCalendar)
		var b [160]byte
		ctx.Response.Header.SetBytesV("Content-Disposition", append(append(append(b[:0], `inline; filename="`...), name...), `.ics"`...))
	}
}

// setLDHeaders sets the content type of a 200 JSON-LD body and, on a 304 too, Vary.
func setLDHeaders(ctx *fasthttp.RequestCtx) {
	if ctx.Response.StatusCode() == fasthttp.StatusOK {
		ctx.SetContentType(typeLD)
	}
	varyAccept(ctx)
}

// varyAccept says that a response of a route with a JSON-LD view depends on Accept.
func varyAccept(ctx *fasthttp.RequestCtx) {
	if ctx.Response.StatusCode() < 300 || ctx.Response.StatusCode() == fasthttp.StatusNotModified {
		ctx.Response.Header.Set("Vary", "Accept-Encoding, Accept")
	}
}

// containsFold reports whether s holds sub (lower case ASCII) in any case.
func containsFold(s []byte, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if bytes.EqualFold(s[i:i+len(sub)], []byte(sub)) {
			return true
		}
	}
	return false
}

// prefersLD reports whether an Accept header value prefers application/ld+json to JSON:
// it names it with a q-value above zero and above that of application/json, when that is
// named too. It does not allocate unless the header names JSON-LD.
func prefersLD(accept []byte) bool {
	if !containsFold(accept, "ld+json") {
		return false
	}
	ld, js := -1.0, -1.0
	for elem := range bytes.SplitSeq(accept, []byte{','}) {
		typ, params, _ := bytes.Cut(elem, []byte{';'})
		q := 1.0
		for p := range bytes.SplitSeq(params, []byte{';'}) {
			k, v, ok := bytes.Cut(bytes.TrimSpace(p), []byte{'='})
			if ok && bytes.EqualFold(bytes.TrimSpace(k), []byte("q")) {
				if f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64); err == nil && f >= 0 && f <= 1 {
					q = f
				}
			}
		}
		switch typ = bytes.TrimSpace(typ); {
		case bytes.EqualFold(typ, []byte(typeLD)):
			ld = max(ld, q)
		case bytes.EqualFold(typ, []byte("application/json")):
			js = max(js, q)
		}
	}
	return ld > 0 && ld > js
}
