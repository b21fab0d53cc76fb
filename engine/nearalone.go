package engine

// A near query with no other filter than its dates, and a search for a frequent word (see
// nearwords.go), is answered from the postings of its candidates (the tiles and points
// within its radius: a dozen or so tiles around a city) one at a time, rather than through
// a set of their union: each one's matches in the range are counted from its day table or
// by rank, and the page of a query by start is the least positions of their matches, a
// candidate's walk stopping once its positions are past the page's last. Candidates hold
// disjoint positions (a gig is at one point), so the counts add up. Beyond
// maxAloneCandidates candidates (a wide radius over many points), or a page that ends far
// into the matches, a union is cheaper.

// maxAloneCandidates is the most candidates a near query is answered from one by one.
const maxAloneCandidates = 64

// maxAlonePage is the furthest match (offset and page size, or page size after a keyset
// token) a near query by start is paged to from its candidates one by one; a deeper page
// skips by rank in a union.
const maxAlonePage = 200

// runNearAlone answers q, whose candidates findNear found, when near is its only filter
// besides the range r and a search nearWord takes, and its candidates are few (see
// above), and reports whether it did.
func (s *Snapshot) runNearAlone(q *Query, r posRange) bool {
	depth := max(q.Limit, 0) // the matches a page by start walks to
	if !q.afterSet {
		depth += max(q.Offset, 0)
	}
	if len(q.cand) > maxAloneCandidates || !q.near.byDistance && depth > maxAlonePage {
		return false
	}
	for d := range q.vals {
		if len(q.vals[d]) > 0 {
			return false
		}
	}
	var word members // with a search, its word's copy, which a page by distance checks gigs against
	if len(q.toks) > 0 {
		switch ok, matches := s.nearWord(q); {
		case !ok:
			return false
		case !matches:
			return true
		}
		word = members{words: s.wordBitsOf(q), lo: 0, hi: len(s.keys)}
	}
	keyset := q.afterSet && !q.near.byDistance
	var after, offset int
	if keyset {
		after = s.positionAfter(q.afterKey, q.afterID)
	}
	for i := range q.cand {
		m := s.candidate(q, i, r)
		c := s.countIn(q, m, r)
		q.Total += c.total()
		if keyset {
			offset += s.matchesBefore(q, m, r, c, after)
		}
	}
	if q.near.byDistance {
		s.pageByDistance(q, word, r)
		return true
	}
	from, skip := r.lo, q.Offset
	if keyset {
		q.Offset, from, skip = offset, max(after, r.lo), 0
	}
	if q.Offset >= q.Total || q.Limit <= 0 {
		return true
	}
	// The least need matches from from on, ascending, in q.merged.
	need := skip + min(q.Limit, q.Total-q.Offset)
	least := q.merged[:0]
	for i := range q.cand {
		s.candidate(q, i, r).each(q, from, r.hi, func(p int) bool {
			if !r.inCore(p) && !r.dayOK(s.days[p]) {
				return true
			}
			if len(least) == need && uint32(p) >= least[need-1] {
				return false // and so are the candidate's next positions
			}
			if len(least) < need {
				least = append(least, 0)
			}
			k := len(least) - 1
			for ; k > 0 && least[k-1] > uint32(p); k-- {
				least[k] = least[k-1]
			}
			least[k] = uint32(p)
			return true
		})
	}
	q.merged = least
	for _, p := range least[min(skip, len(least)):] {
		q.Page = append(q.Page, int(p))
	}
	return true
}

// candidate returns the members of q's i-th candidate, a tile's or a point's posting, or
// with a search, those of them that hold its word in r (see wordCandidate).
func (s *Snapshot) candidate(q *Query, i int, r posRange) members {
	if len(q.toks) > 0 {
		return s.wordCandidate(q, i, r)
	}
	p, _ := s.alt(q, group{d: dimNear}, i)
	return members{bm: p.bm, list: p.list, days: p.days}
}
