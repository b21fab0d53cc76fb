package engine

import "math/bits"

// A dense set holds positions as bits, a word per 64 positions counted from position 0,
// in scratch a query owns. When every filtered group is large, filterSet intersects the
// groups word by word in it: roaring's And builds new containers for every result (and
// turns each sparse one into an array), which cost most of the time of such queries and
// left their garbage behind (tens of kilobytes a query at 1M gigs); words cost a pass over
// the range per posting and allocate nothing once the scratch has grown.
//
// Only the words that cover the query's range [lo, hi) hold the set, with the bits outside
// the range cleared; the others are left as the postings' writing made them.

// denseWords returns how many words a dense set of s must have: roaring's WriteDenseTo
// writes a bitmap container's 1,024 words whole, so every container a posting may have is
// covered.
func (s *Snapshot) denseWords() int {
	if len(s.keys) == 0 {
		return 0
	}
	return ((len(s.keys)-1)>>16 + 1) << 10
}

// denseSet returns the positions in [lo, hi) that pass every group, intersected in q's
// dense scratch; ok is false when none does. groups are q's filtered dimensions.
func (s *Snapshot) denseSet(q *Query, groups []group, lo, hi int) (members, bool) {
	n := s.denseWords()
	acc, one, alt := grown(&q.dense[0], n), grown(&q.dense[1], n), grown(&q.dense[2], n)
	wlo, whi := lo>>6, (hi+63)>>6
	for gi, g := range groups {
		dst := acc
		if gi > 0 {
			dst = one
		}
		s.unite(q, g.d, dst, alt, wlo, whi)
		if gi > 0 {
			for w := wlo; w < whi; w++ {
				acc[w] &= one[w]
			}
		}
	}
	acc[wlo] &= ^uint64(0) << (lo & 63)
	if r := hi & 63; r != 0 {
		acc[whi-1] &= 1<<r - 1
	}
	for _, w := range acc[wlo:whi] {
		if w != 0 {
			return members{words: acc, lo: lo, hi: hi}, true
		}
	}
	return members{}, false
}

// unite writes the union of dimension d's postings into the words [wlo, whi) of dst, using
// alt as scratch when there is more than one.
func (s *Snapshot) unite(q *Query, d Dim, dst, alt []uint64, wlo, whi int) {
	clear(dst[wlo:whi])
	many := len(q.vals[d]) > 1
	for i := range q.vals[d] {
		p, ok := s.posting(q, d, i)
		switch {
		case !ok:
		case p.bm == nil:
			for _, x := range p.list[rankList(p.list, wlo<<6):] {
				if int(x) >= whi<<6 {
					break
				}
				dst[x>>6] |= 1 << (x & 63)
			}
		case !many:
			p.bm.WriteDenseTo(dst) // into cleared words: a bitmap container's are copied
		default:
			clear(alt[wlo:whi])
			p.bm.WriteDenseTo(alt)
			for w := wlo; w < whi; w++ {
				dst[w] |= alt[w]
			}
		}
	}
}

// grown returns *buf with n words, growing it when it is shorter.
func grown(buf *[]uint64, n int) []uint64 {
	if cap(*buf) < n {
		*buf = make([]uint64, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// denseRank returns the number of positions of the dense set below x, lo <= x <= hi.
func (m members) denseRank(x int) int {
	n := 0
	for _, w := range m.words[m.lo>>6 : x>>6] {
		n += bits.OnesCount64(w)
	}
	if r := x & 63; r != 0 {
		n += bits.OnesCount64(m.words[x>>6] & (1<<r - 1))
	}
	return n
}

// denseAt returns the position of rank k in the dense set, which must exist.
func (m members) denseAt(k int) int {
	for w := m.lo >> 6; ; w++ {
		word := m.words[w]
		if c := bits.OnesCount64(word); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			word &= word - 1
		}
		return w<<6 + bits.TrailingZeros64(word)
	}
}

// denseEach calls f on the positions of the dense set in [from, hi) in order, until f
// returns false.
func (m members) denseEach(from, hi int, f func(p int) bool) {
	from, hi = max(from, m.lo), min(hi, m.hi)
	if from >= hi {
		return
	}
	for w := from >> 6; w<<6 < hi; w++ {
		word := m.words[w]
		if w == from>>6 {
			word &= ^uint64(0) << (from & 63)
		}
		for word != 0 {
			p := w<<6 + bits.TrailingZeros64(word)
			if p >= hi || !f(p) {
				return
			}
			word &= word - 1
		}
	}
}
