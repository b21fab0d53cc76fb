package server

import (
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// Directories that answer queries: /v1/cities, /v1/venues and /v1/artists take q (every
// word begins a word of the name: a typeahead, folded as /v1/gigs's q is), near and
// radius (cities and venues), page and page_size. Any of these makes the answer a page,
// {"data","meta":{"page","page_size","total","total_pages"},"links"} as /v1/gigs's, in
// the directory's order (by slug) or, near a point, nearest first, each entry with its
// distance_km. Without them a directory is its whole body, as it always was (venues
// filtered by city or country alone: every venue that matches).

var (
	cityParams     = []int{pQ, pNear, pRadius, pPageSize, pPage}
	cityAccepted   = "q, near, radius, page, page_size"
	artistParams   = []int{pQ, pPageSize, pPage}
	artistAccepted = "q, page, page_size"
)

// pagedDirectory answers directory d at path (its URL and '?'), whose whole body is
// whole, taking the parameters allowed (accepted names them).
func (s *Server) pagedDirectory(d engine.Directory, path string, whole func(*engine.Snapshot) *engine.Body, allowed []int, accepted string) handler {
	return func(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
		args := ctx.QueryArgs()
		if args.Len() == 0 {
			return s.send(ctx, snap, whole(snap), true)
		}
		p := s.acquire()
		defer s.release(p)
		p.collect(args, allowed, accepted)
		p.parseFilters(allowed)
		if !p.given[pQ] && !p.given[pNear] && !p.given[pRadius] && !p.given[pPage] && !p.given[pPageSize] {
			return s.filteredVenues(ctx, snap, p)
		}
		p.parseSearch()
		p.parsePaging()
		if lat, lon, km, ok := p.readNear(); ok {
			p.q.Near(lat, lon, km, true)
			for _, i := range []int{pNear, pRadius} {
				if p.raw[i] != nil {
					p.base = appendPair(p.base, paramNames[i], p.raw[i])
				}
			}
		}
		if err := invalidParams(p.invalid); err != nil {
			return err
		}
		p.q.Offset, p.q.Limit = (p.page-1)*p.pageSize, p.pageSize
		snap.RunDirectory(d, p.q)
		totalPages := (p.q.Total + p.pageSize - 1) / p.pageSize
		l := p.pageLinks(path, totalPages, nil, nil)
		var tag engine.Tag
		p.buf, tag = snap.AppendDirectoryPage(p.buf[:0], d, p.q, engine.PageMeta{Page: p.page, PageSize: p.pageSize, Total: p.q.Total, TotalPages: totalPages}, p.links)
		if len(l) > 0 {
			ctx.Response.Header.SetBytesV("Link", l)
		}
		return s.sendAssembled(ctx, snap, p, tag, true)
	}
}

// filteredVenues answers /v1/venues filtered by city or country alone, whose parameters
// p holds: every venue that matches, {"data","meta":{"count"}}.
func (s *Server) filteredVenues(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, p *params) error {
	if err := invalidParams(p.invalid); err != nil {
		return err
	}
	snap.FilterVenues(p.q)
	var tag engine.Tag
	p.buf, tag = snap.AppendVenueList(p.buf[:0], p.q.Page)
	return s.sendAssembled(ctx, snap, p, tag, true)
}
