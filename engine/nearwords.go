package engine

import "math/bits"

// A near query with a search for a frequent word (q=lismo within 25 km of London's centre)
// is answered as a near query alone (nearalone.go), from its candidates one at a time,
// each narrowed to the gigs that hold the word: a large candidate (a point's, a tile's or
// an area's bitmap) through its pair with the word's dense copy (see wordBits), counted
// per block once per snapshot as the filters' pairs are (pairs.go), and a small one (a
// list) by its positions in the range whose bit the copy sets. The count is then a lookup
// or two per large candidate, and the page by start a walk of the candidates' shared words
// that stops at the page's last gig, rather than setting out the union of every candidate
// and ANDing the word into it over the whole range, a pass over every word of the range
// per candidate at each request. A page by distance walks the nearest points' gigs, keeping
// those whose bit the copy sets.
//
// The counts of the geo index's pairs are made with the filters' (wordPairs), but from each copy's members rather than from
// each pair's words: a copy's member adds to the counts of its point, its tile and its
// area, whichever of them are large, so that a copy costs a pass over its members,
// whatever the number of the geo index's large postings (hundreds at a million gigs).

// nearPairBudget caps the bytes of the counts of the pairs of the dense copies and the geo
// index's large postings, as pairBudget caps the filters': the copies past it are
// intersected as before. A variable for tests only.
var nearPairBudget = 32 << 20

// sets returns the geo index's postings: its points', its tiles' and its areas'.
func (g *geoIndex) sets() [3]*postings { return [3]*postings{&g.post, &g.tilePost, &g.areas.post} }

// candidatePosting returns which of g's sets (see sets) holds candidate c's posting, and
// its number there.
func (g *geoIndex) candidatePosting(c candidate) (set, k int) {
	switch n := g.tiles(); {
	case !c.tile:
		return 0, int(c.point)
	case int(c.point) < n:
		return 1, int(c.point)
	default:
		return 2, int(c.point) - n
	}
}

// countNearPairs counts the pairs of s's dense copies and its geo index's large postings
// (see the top of this file).
func (s *Snapshot) countNearPairs() pairCounts {
	g, d := &s.geo, &s.words.dense
	sets := g.sets()
	c := newPairCounts(d, sets[:], nearPairBudget)
	if c.copies == 0 {
		return c
	}
	// Per point, the numbers (in c) of the large postings of it, its tile and its area, or -1.
	areaOf := make([]int, g.tiles())
	for t := range areaOf {
		areaOf[t] = -1
	}
	for a := range len(g.areas.tileAt) - 1 {
		for _, t := range g.areas.tiles[g.areas.tileAt[a]:g.areas.tileAt[a+1]] {
			areaOf[t] = a
		}
	}
	view := func(set, k int) int32 {
		if k >= 0 {
			if j := sets[set].big[k]; j >= 0 {
				return int32(c.first[set]) + j
			}
		}
		return -1
	}
	large := make([][3]int32, g.points())
	for k := range large {
		t := int(g.tileOf[k])
		large[k] = [3]int32{view(0, k), view(1, t), view(2, areaOf[t])}
	}
	stride := c.blocks + 1
	for k := range c.copies {
		// The members of each block b go at b+1, summed up to below each block after.
		counts := c.cum[k*c.views*stride : (k+1)*c.views*stride]
		for w, x := range d.bits[k*d.width : (k+1)*d.width] {
			b := w/pairBlock + 1
			for ; x != 0; x &= x - 1 {
				pt := g.of[w<<6+bits.TrailingZeros64(x)]
				if pt == noPoint {
					continue
				}
				for _, v := range large[pt] {
					if v >= 0 {
						counts[int(v)*stride+b]++
					}
				}
			}
		}
		for v := range c.views {
			cum := counts[v*stride : (v+1)*stride]
			for b := 1; b < stride; b++ {
				cum[b] += cum[b-1]
			}
		}
	}
	return c
}

// nearWord resolves q's search for runNearAlone, which answers a near query with a search
// when the search is one token resolved to one posting kept dense whose pairs with the geo
// index's large postings are counted. It reports whether runNearAlone can answer q, and
// whether any gig holds every token of the search.
func (s *Snapshot) nearWord(q *Query) (ok, matches bool) {
	if !s.resolveWords(q) {
		return true, false
	}
	if len(q.wg) != 1 {
		return false, true
	}
	k, wp := s.words.copyOf(&q.wg[0]), s.pairs.Load()
	return k >= 0 && wp != nil && k < wp.near.copies, true
}

// wordBitsOf returns the dense copy of q's search, which nearWord found.
func (s *Snapshot) wordBitsOf(q *Query) []uint64 {
	d := &s.words.dense
	k := s.words.copyOf(&q.wg[0])
	return d.bits[k*d.width : (k+1)*d.width : (k+1)*d.width]
}

// wordCandidate returns the members of q's i-th candidate that hold the word of its search
// (see nearWord): those of the candidate's pair with the word's copy, in q.pair, when the
// candidate is large; else those of its list in r's positions, set out in q.ids.
func (s *Snapshot) wordCandidate(q *Query, i int, r posRange) members {
	set, k := s.geo.candidatePosting(q.cand[i])
	ps := s.geo.sets()[set]
	if j := ps.big[k]; j >= 0 {
		return s.pairOf(q, s.words.copyOf(&q.wg[0]), ps, int(j), &s.pairs.Load().near, set)
	}
	word, list := s.wordBitsOf(q), ps.posting(k).list
	q.ids = q.ids[:0]
	for _, p := range list[rankList(list, r.lo):] {
		if int(p) >= r.hi {
			break
		}
		if word[p>>6]&(1<<(p&63)) != 0 {
			q.ids = append(q.ids, p)
		}
	}
	return members{list: q.ids}
}
