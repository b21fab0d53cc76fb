package engine

import (
	"slices"
	"strconv"

	"github.com/gigs/gigs/engine/internal/deflate"
)

// pageByDistance sets q.Page to the page of m's members in r in order of distance from
// q's point, then start, then id (q.Total is set): the points within the radius are
// taken from the heap q.ring, nearest first, a distance at a time, and the matches of
// their gigs walked in position order (which is start then id), merged when several
// points share the distance to the metre.
// The walk stops at the page's end: the first page costs the nearest points' gigs up to
// it, not every match. Skipping (an offset, or counting the matches before a keyset
// token for q.Offset) walks the gigs of the points before, without sorting them.
func (s *Snapshot) pageByDistance(q *Query, m members, r posRange) {
	filtered := len(q.toks) > 0 // filters besides near: m's members must be checked
	for d := range q.vals {
		filtered = filtered || len(q.vals[d]) > 0
	}
	match := func(p int) bool {
		return (r.inCore(p) || r.dayOK(s.days[p])) && (!filtered || m.contains(p))
	}
	skip, want := q.Offset, max(q.Limit, 0)
	if q.afterSet {
		skip = 0
	} else if skip >= q.Total {
		return
	}
	var after, offset int
	if q.afterSet {
		after = s.positionAfter(q.afterKey, q.afterID)
	}
	for len(q.ring) > 0 {
		grp := s.geo.nextNearest(q)
		metres := grp[0].metres
		from := r.lo
		if q.afterSet {
			switch {
			case metres < q.afterMetres:
				from = r.hi // all of it before the token
			case metres == q.afterMetres:
				from = min(max(after, r.lo), r.hi)
			}
			if from > r.lo {
				s.geo.eachAt(q, grp, r.lo, from, func(p int) bool {
					if match(p) {
						offset++
					}
					return true
				})
			}
		}
		if len(q.Page) < want && from < r.hi {
			s.geo.eachAt(q, grp, from, r.hi, func(p int) bool {
				if !match(p) {
					return true
				}
				if skip > 0 {
					skip--
					return true
				}
				q.Page = append(q.Page, p)
				q.Dist = append(q.Dist, metres)
				return len(q.Page) < want
			})
		}
		if len(q.Page) >= want && (!q.afterSet || metres >= q.afterMetres) {
			break
		}
	}
	if q.afterSet {
		q.Offset = offset
	}
}

// eachAt calls f on the positions in [lo, hi) of the points grp, in order, until f returns
// false. Several points' positions are merged in q.merged.
func (g *geoIndex) eachAt(q *Query, grp []candidate, lo, hi int, f func(p int) bool) {
	if len(grp) == 1 {
		g.post.posting(int(grp[0].point)).each(q, lo, hi, f)
		return
	}
	q.merged = q.merged[:0]
	for _, c := range grp {
		g.post.posting(int(c.point)).each(q, lo, hi, func(p int) bool {
			q.merged = append(q.merged, uint32(p))
			return true
		})
	}
	slices.Sort(q.merged)
	for _, p := range q.merged {
		if !f(int(p)) {
			return
		}
	}
}

// each calls f on the positions of p in [lo, hi) in order, until f returns false.
func (p posting) each(q *Query, lo, hi int, f func(p int) bool) {
	members{bm: p.bm, list: p.list}.each(q, lo, hi, f)
}

// contains reports whether p is a member.
func (m members) contains(p int) bool {
	switch {
	case m.all:
		return true
	case m.words != nil:
		return p >= m.lo && p < m.hi && m.words[p>>6]&(1<<(p&63)) != 0
	case m.bm != nil:
		return m.bm.Contains(uint32(p))
	default:
		k := rankList(m.list, p)
		return k < len(m.list) && int(m.list[k]) == p
	}
}

// setDist sets q.Dist to the distances of q.Page's gigs, unless the page is by distance,
// whose walk set them.
func (s *Snapshot) setDist(q *Query) {
	if q.near.byDistance && len(q.Dist) == len(q.Page) {
		return
	}
	q.Dist = q.Dist[:0]
	last, metres := uint32(noPoint), uint32(0)
	for _, p := range q.Page {
		if k := s.geo.of[p]; k != last { // a page's gigs are often at one venue in a row
			last, metres = k, s.geo.pointMetres(q, int(k))
		}
		q.Dist = append(q.Dist, metres)
	}
}

// AppendQueryKeyset appends the keyset token of the k-th gig of q's page, after Run: as
// AppendKeyset writes it, preceded by its distance in metres and a tilde in a query
// ordered by distance ("1234~1765000000.g1").
func (s *Snapshot) AppendQueryKeyset(dst []byte, q *Query, k int) []byte {
	if q.near.byDistance {
		dst = append(strconv.AppendUint(dst, uint64(q.Dist[k]), 10), '~')
	}
	return s.AppendKeyset(dst, q.Page[k])
}

// parseMetres reads the distance of a keyset token of a query ordered by distance: up to
// nine digits and a tilde. It returns the rest of the token.
func parseMetres(token []byte) (metres uint32, rest []byte, ok bool) {
	n := 0
	for n < len(token) && n < 10 && '0' <= token[n] && token[n] <= '9' {
		metres = metres*10 + uint32(token[n]-'0')
		n++
	}
	if n == 0 || n > 9 || n >= len(token) || token[n] != '~' {
		return 0, nil, false
	}
	return metres, token[n+1:], true
}

// AppendQueryPage appends the body of q's page after Run, as AppendGigsPage does; in a
// near query each gig carries its distance_km.
func (s *Snapshot) AppendQueryPage(dst []byte, q *Query, m PageMeta, links []Link, gz bool) ([]byte, Tag) {
	if !q.near.set {
		return s.appendGigsPage(dst, q.Page, nil, nil, m, links, gz)
	}
	if cap(q.scratch) < 64 {
		q.scratch = make([]byte, 0, 64) // once per pooled query
	}
	return s.appendGigsPage(dst, q.Page, q.Dist[:len(q.Page)], q.scratch[:0], m, links, gz)
}

// appendDistance appends `,"distance_km":` and metres in kilometres, rounded to a tenth.
func appendDistance(dst []byte, metres uint32) []byte {
	tenths := (uint64(metres) + 50) / 100
	dst = append(dst, `,"distance_km":`...)
	dst = strconv.AppendUint(dst, tenths/10, 10)
	return append(dst, '.', byte('0'+tenths%10))
}

// spliceGig appends the gig at position pos to w's list (after a comma unless first) with
// insert before its closing brace, from its fragment (see deflate.GzipWriter.Spliced);
// a fragment that does not end as Spliced needs is sent as stored bytes.
func (s *Snapshot) spliceGig(w *deflate.GzipWriter, later bool, pos int, insert []byte) {
	sep := comma
	if !later {
		sep = nil
	}
	g := s.GigJSON(pos)
	sum, known := s.listCRC(pos)
	if !later {
		known = false
	}
	if w.Spliced(sep, s.gigZ(pos), g, insert, sum, known) {
		return
	}
	w.Raw(sep)
	w.Raw(g[:len(g)-1])
	w.Raw(insert)
	w.Raw(g[len(g)-1:])
}
