package engine

import (
	"math/bits"
	"sort"
	"sync"
)

// Pair counts. A search for a frequent word with one value of another filter (q=lismo with
// city=london) intersects a posting kept as bits (see wordBits) with a large posting: as
// words (denseSet), that is three passes over the range at each request, 75 µs at a million
// gigs, whatever the page. For each pair of a dense copy and a large posting (a bitmap) of
// a filter dimension, a snapshot keeps how many positions the two share below each block
// of pairBlock words, a pass over the words per pair, made the first time a query asks for
// the pair (pairCum): counting every pair at once was half a second of a rebuild at a
// million gigs, most of them pairs no query asks for. Their table is laid out by a build
// before it returns, and in the background after a read of a snapshot file, which does not
// hold them (until then, the pairs are intersected as any other filters; see wordPairs). A
// query of such a pair then counts its matches from the table, ANDing at most a block's words at each end of its range, and walks its
// page ANDing the words it reads: nothing is set out in scratch but the filter's words of
// the block being read.

// pairBlock is the words of a block of a pair's counts (8,192 positions): a query's
// count reads at most this many words at each end of its range.
const pairBlock = 128

// pairBudget caps the bytes of a snapshot's pair counts, whose number grows with the
// frequent words and large postings upstream data makes: the copies past the budget are
// not counted, and their pairs are intersected as before (the counts only save time). A
// variable for tests only.
var pairBudget = 64 << 20

// pairCounts holds the counts of every pair of a dense copy and a large posting of a list
// of postings: the filters' dimensions, or the geo index's points, tiles and areas
// (nearwords.go).
type pairCounts struct {
	first  []int // the number of the first large posting of each of the list's postings
	views  int   // the large postings of all of them
	copies int   // the dense copies counted: the first ones, as the budget allows
	blocks int   // of a pair's counts: one per block, then the total
	// cum holds pair (copy k, posting v)'s counts at (k*views+v)*(blocks+1): the members of
	// both below each block, and then of both in all.
	cum []int32
	// made[k*views+v] counts pair (k, v) into cum the first time it is asked for (pairCum)
	// when the counts are made lazily (the filters'): until then cum's memory is the
	// system's zeroed pages, so the pairs no query asks for cost none. Nil when every pair
	// is counted at once (the geo index's, nearwords.go).
	made []sync.Once
}

// wordPairs holds a snapshot's pair counts: the dense copies crossed with the filters'
// large postings, and with the geo index's (nearwords.go).
type wordPairs struct{ filters, near pairCounts }

// countWordPairs counts every pair of s's dense copies (see wordPairs).
func (s *Snapshot) countWordPairs() *wordPairs {
	return &wordPairs{filters: s.countPairs(), near: s.countNearPairs()}
}

// newPairCounts lays out, all zero, the counts of the pairs of d's copies and the large
// postings of sets, of as many copies as budget bytes hold.
func newPairCounts(d *wordBits, sets []*postings, budget int) pairCounts {
	c := pairCounts{first: make([]int, len(sets))}
	for i, ps := range sets {
		c.first[i] = c.views
		c.views += len(ps.views)
	}
	if d.width == 0 || len(d.bits) == 0 || c.views == 0 {
		return c
	}
	c.blocks = (d.width + pairBlock - 1) / pairBlock
	c.copies = min(len(d.bits)/d.width, budget/(4*c.views*(c.blocks+1)))
	c.cum = make([]int32, c.copies*c.views*(c.blocks+1))
	return c
}

// countPairs lays out the counts of the pairs of s's dense copies (s.words.dense) and its
// filters' large postings, each counted on first use (see pairCum).
func (s *Snapshot) countPairs() pairCounts {
	sets := make([]*postings, len(s.index))
	for dim := range s.index {
		sets[dim] = &s.index[dim]
	}
	c := newPairCounts(&s.words.dense, sets, pairBudget)
	c.made = make([]sync.Once, c.copies*c.views)
	return c
}

// pairCum returns the counts of copy k and large posting v (numbered across the postings,
// see pairCounts.first) of c, counting them the first time when c counts lazily: other is
// scratch of the copies' width in words, which it overwrites.
func (s *Snapshot) pairCum(c *pairCounts, k, v int, other []uint64) []int32 {
	cum := c.of(k, v)
	if c.made != nil {
		c.made[k*c.views+v].Do(func() { s.countPair(c, k, v, cum, other) })
	}
	return cum
}

// countPair counts the pair of copy k and the filters' large posting v of c into cum.
func (s *Snapshot) countPair(c *pairCounts, k, v int, cum []int32, other []uint64) {
	d := &s.words.dense
	dim := len(c.first) - 1
	for dim > 0 && c.first[dim] > v {
		dim--
	}
	ps, j := &s.index[dim], v-c.first[dim]
	other = other[:d.width]
	clear(other)
	orPortable(other, ps.packed[ps.frz[2*j]:ps.frz[2*j+1]], 0, d.width, true)
	word := d.bits[k*d.width : (k+1)*d.width]
	n := 0
	for b := range c.blocks {
		cum[b] = int32(n)
		for w := b * pairBlock; w < min((b+1)*pairBlock, d.width); w++ {
			n += bits.OnesCount64(word[w] & other[w])
		}
	}
	cum[c.blocks] = int32(n)
}

// of returns the counts of copy k and large posting v, which pairCum makes.
func (c *pairCounts) of(k, v int) []int32 {
	at := (k*c.views + v) * (c.blocks + 1)
	return c.cum[at : at+c.blocks+1 : at+c.blocks+1]
}

// pairSet is the members of a pair in a query: the positions both a dense copy and a large
// posting hold, read word by word, with the posting's words of one block at a time set out
// in scratch.
type pairSet struct {
	bits  []uint64 // the dense copy
	raw   []byte   // the large posting, in roaring's portable format
	cum   []int32  // their counts (see pairCounts)
	other []uint64 // scratch as wide as bits: the posting's words of block got
	got   int      // the block whose words other holds, or -1
}

// pairMembers returns the members of q's groups g and h when they are a pair the snapshot
// counted: one a search token resolved to one posting kept dense, the other one value of a
// dimension whose posting is large; ok is false otherwise.
func (s *Snapshot) pairMembers(q *Query, g, h group) (m members, ok bool) {
	if g.word == 0 {
		g, h = h, g
	}
	wp := s.pairs.Load()
	if g.word == 0 || h.word > 0 || h.d == dimNear || len(q.vals[h.d]) != 1 || wp == nil || len(wp.filters.cum) == 0 {
		return members{}, false
	}
	k := s.words.copyOf(&q.wg[g.word-1])
	v := s.viewOf(q, h.d, 0)
	if k < 0 || k >= wp.filters.copies || v < 0 {
		return members{}, false
	}
	return s.pairOf(q, k, &s.index[h.d], v, &wp.filters, int(h.d)), true
}

// pairOf sets q.pair to the pair of dense copy k and large posting v of ps, the set-th of
// the postings whose pairs c counts, and returns its members.
func (s *Snapshot) pairOf(q *Query, k int, ps *postings, v int, c *pairCounts, set int) members {
	d, p := &s.words.dense, &q.pair
	p.bits = d.bits[k*d.width : (k+1)*d.width]
	p.raw = ps.packed[ps.frz[2*v]:ps.frz[2*v+1]]
	p.other, p.got = grown(&q.dense[1], d.width), -1
	p.cum = s.pairCum(c, k, c.first[set]+v, p.other)
	return members{pair: p}
}

// viewOf returns the number of the large posting of q's i-th value of dimension d, or -1
// when its posting is a list or there is none.
func (s *Snapshot) viewOf(q *Query, d Dim, i int) int {
	v, ps := q.vals[d][i], &s.index[d]
	k, ok := ps.keys.findBytes(q.keys[v.lo:v.hi])
	if !ok {
		return -1
	}
	return int(ps.big[ps.of[k]])
}

// total returns the number of members.
func (p *pairSet) total() int { return int(p.cum[len(p.cum)-1]) }

// word returns the members in word w, which must be below the copy's width.
func (p *pairSet) word(w int) uint64 {
	if b := w / pairBlock; b != p.got {
		lo, hi := b*pairBlock, min((b+1)*pairBlock, len(p.bits))
		clear(p.other[lo:hi])
		orPortable(p.other, p.raw, lo, hi, true)
		p.got = b
	}
	return p.bits[w] & p.other[w]
}

// rank returns the number of members below x, 0 <= x.
func (p *pairSet) rank(x int) int {
	w := x >> 6
	if w >= len(p.bits) {
		return p.total()
	}
	b := w / pairBlock
	n := int(p.cum[b])
	for v := b * pairBlock; v < w; v++ {
		n += bits.OnesCount64(p.word(v))
	}
	if r := x & 63; r != 0 {
		n += bits.OnesCount64(p.word(w) & (1<<r - 1))
	}
	return n
}

// at returns the member of rank k, which must exist.
func (p *pairSet) at(k int) int {
	b := sort.Search(len(p.cum)-1, func(b int) bool { return int(p.cum[b+1]) > k })
	return bitOfRank(b*pairBlock, k-int(p.cum[b]), p.word)
}

// each calls f on the members in [from, hi) in order, until f returns false. A block
// its counts say is empty is not read.
func (p *pairSet) each(from, hi int, f func(p int) bool) {
	hi = min(hi, len(p.bits)<<6)
	for from = max(from, 0); from < hi; {
		b := from >> 6 / pairBlock
		end := min(hi, (b+1)*pairBlock<<6)
		if p.cum[b+1] > p.cum[b] && !eachBit(from, end, p.word, f) {
			return
		}
		from = end
	}
}
