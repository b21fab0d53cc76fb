package engine

// The words of a search that many gigs hold (a headliner's name on a few percent of them,
// a big city's, a prefix of two letters) are postings whose roaring containers are arrays
// of thousands of positions: a query that intersects one with another filter as words
// (denseSet) sets a bit per position, tens of thousands at a million gigs, the most of its
// time. Such postings are also kept as a bit per position, made once per snapshot (built
// or read: they are not in the snapshot file), which a query copies a word at a time.

// denseShare is the share of positions from which a words posting is also kept dense: at a
// 32nd, its bits take at most twice its roaring arrays' bytes.
const denseShare = 32

// frequentFrom returns from how many positions, of a snapshot of n, a words posting is
// kept dense: a denseShare-th of them, and at least a bitmap's (bigPosting).
func frequentFrom(n int) int { return max(n/denseShare, bigPosting) }

// wordBits holds the dense copies of a wordIndex's frequent postings.
type wordBits struct {
	of    [2][]int32 // per posting of words (0) and of prefixes (1), its copy's number, or -1
	width int        // words of a copy: a bit per position
	bits  []uint64   // copy j is bits[j*width:(j+1)*width]
}

// newWordBits makes the dense copies of x's postings of at least frequentFrom(n) of its
// n positions.
func newWordBits(x *wordIndex, n int) wordBits {
	d := wordBits{width: (n + 63) >> 6}
	for i, ps := range []*postings{&x.words, &x.prefixes} {
		d.of[i] = make([]int32, len(ps.big))
		for k := range ps.big {
			d.of[i][k] = -1
			p := ps.posting(k)
			if p.bm == nil || p.card() < uint64(frequentFrom(n)) {
				continue
			}
			d.of[i][k] = int32(len(d.bits) / d.width)
			d.bits = append(d.bits, make([]uint64, d.width)...)
			orPortable(d.bits[len(d.bits)-d.width:], p.raw, 0, d.width, true)
		}
	}
	return d
}

// with returns p, posting k of words (which 0) or prefixes (1), with its dense copy when
// it has one.
func (d *wordBits) with(p posting, which, k int) posting {
	if k < len(d.of[which]) {
		if j := int(d.of[which][k]); j >= 0 {
			p.dense = d.bits[j*d.width : (j+1)*d.width : (j+1)*d.width]
		}
	}
	return p
}

// copyOf returns the number of the dense copy of g's one posting, or -1 when g is several
// postings or its posting has no copy.
func (x *wordIndex) copyOf(g *wordGroup) int {
	which, k := 1, int(g.heavy)
	if g.heavy < 0 {
		if g.hi-g.lo != 1 {
			return -1
		}
		which, k = 0, int(x.words.of[g.lo])
	}
	if k >= len(x.dense.of[which]) {
		return -1
	}
	return int(x.dense.of[which][k])
}
