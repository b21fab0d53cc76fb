package engine

import (
	"encoding/binary"
	"math/bits"
	"sort"

	"github.com/gigs/gigs/engine/internal/binfile"
)

// A dense set holds positions as bits, a word per 64 positions counted from position 0,
// in scratch a query owns. When every filtered group is large, filterSet intersects the
// groups word by word in it: roaring's And builds new containers for every result (and
// turns each sparse one into an array), which cost most of the time of such queries and
// left their garbage behind (215 KB for a country and a genre at 1M gigs). Postings are
// read from their portable bytes, only the containers within the range; a group costs a
// pass over the range's words, and nothing is allocated once the scratch has grown.
//
// Only the words that cover the query's range [lo, hi) hold the set, with the bits outside
// the range cleared; the other words are not written.

// denseWords returns how many words a dense set of s has: one per 64 of its positions.
func (s *Snapshot) denseWords() int { return (len(s.keys) + 63) >> 6 }

// denseSet returns the positions in [lo, hi) that pass every group, intersected in q's
// dense scratch; ok is false when none does. groups are q's filtered dimensions.
func (s *Snapshot) denseSet(q *Query, groups []group, lo, hi int) (members, bool) {
	n := s.denseWords()
	acc, one := grown(&q.dense[0], n), grown(&q.dense[1], n)
	wlo, whi := lo>>6, (hi+63)>>6
	// The groups that are one posting kept as bits (see wordBits) are intersected last, in
	// place, rather than copied into scratch first.
	first := true
	for _, g := range groups {
		if s.bitsAlone(q, g) != nil {
			continue
		}
		if first {
			s.unite(q, g, acc, wlo, whi)
			first = false
			continue
		}
		if s.alts(q, g) == 1 {
			if p, ok := s.alt(q, g, 0); ok && p.bm != nil { // one bitmap: read in place
				andPortable(acc, one, p.raw, wlo, whi)
				continue
			}
		}
		s.unite(q, g, one, wlo, whi)
		for w := wlo; w < whi; w++ {
			acc[w] &= one[w]
		}
	}
	for _, g := range groups {
		switch bits := s.bitsAlone(q, g); {
		case bits == nil:
		case first:
			copy(acc[wlo:whi], bits[wlo:whi])
			first = false
		default:
			for w := wlo; w < whi; w++ {
				acc[w] &= bits[w]
			}
		}
	}
	return finishDense(acc, &q.cum, lo, hi)
}

// bitsAlone returns the bits of group g when it is one posting kept as bits, else nil.
func (s *Snapshot) bitsAlone(q *Query, g group) []uint64 {
	if s.alts(q, g) != 1 {
		return nil
	}
	p, _ := s.alt(q, g, 0)
	return p.dense
}

// finishDense clears the bits of words outside [lo, hi) in its words, counts the members
// before each block of 1,024 words (a roaring container's positions) into *cum, so that
// rank and at read one block rather than the whole range, and returns the set; ok is
// false when it is empty.
func finishDense(words []uint64, cum *[]int32, lo, hi int) (m members, ok bool) {
	wlo, whi := lo>>6, (hi+63)>>6
	words[wlo] &= ^uint64(0) << (lo & 63)
	if r := hi & 63; r != 0 {
		words[whi-1] &= 1<<r - 1
	}
	blo, bhi := wlo>>10, (whi-1)>>10
	c, total := grown(cum, bhi-blo+2), 0
	for b := blo; b <= bhi; b++ {
		c[b-blo] = int32(total)
		for _, w := range words[max(b<<10, wlo):min((b+1)<<10, whi)] {
			total += bits.OnesCount64(w)
		}
	}
	c[bhi-blo+1] = int32(total)
	return members{words: words, cum: c, lo: lo, hi: hi}, total > 0
}

// unite writes the union of group g's postings into the words [wlo, whi) of dst. The
// work is that of the postings' parts within those words, whatever their size elsewhere.
func (s *Snapshot) unite(q *Query, g group, dst []uint64, wlo, whi int) {
	clear(dst[wlo:whi])
	written := false // into dst: until then, a bitmap's words can be copied rather than ORed
	for i := range s.alts(q, g) {
		p, ok := s.alt(q, g, i)
		switch {
		case !ok:
		case p.dense != nil:
			if written {
				for w, x := range p.dense[wlo:whi] {
					dst[wlo+w] |= x
				}
			} else {
				copy(dst[wlo:whi], p.dense[wlo:whi])
			}
		case p.bm == nil:
			for _, x := range p.list[rankList(p.list, wlo<<6):] {
				if int(x) >= whi<<6 {
					break
				}
				dst[x>>6] |= 1 << (x & 63)
			}
		default:
			orPortable(dst, p.raw, wlo, whi, !written)
		}
		written = written || ok
	}
}

// Roaring's portable format (github.com/RoaringBitmap/RoaringFormatSpec): a cookie that
// says whether there are run containers, the containers' keys and cardinalities, their
// offsets, and the containers, each an array of uint16, a bitmap of 1,024 words or a list
// of runs.
const (
	cookieNoRuns     = 12346
	cookieRuns       = 12347
	noOffsetsBelow   = 4 // with runs, fewer containers than this have no offsets
	arrayMaxCard     = 4096
	containerWords   = 1024
	bitmapContainerB = containerWords * 8
)

// orPortable sets in dst the bits of the positions that buf, a bitmap in roaring's portable
// format, holds within the words [wlo, whi); no other word is written. Only the containers
// that overlap those words are read. With clean (those words are all 0), bitmap containers
// are copied. buf must be well formed, as postings.view checked it.
func orPortable(dst []uint64, buf []byte, wlo, whi int, clean bool) {
	for c := readPortable(buf); ; {
		base, card, run, data, ok := c.next()
		if !ok || base >= whi {
			return // keys ascend
		}
		lo, hi := max(wlo, base), min(whi, base+containerWords)
		if lo >= hi {
			continue
		}
		switch {
		case run:
			for r := data[2:]; len(r) >= 4; r = r[4:] {
				start := base<<6 + int(binary.LittleEndian.Uint16(r))
				end := start + int(binary.LittleEndian.Uint16(r[2:])) + 1
				setBits(dst, max(start, lo<<6), min(end, hi<<6))
			}
		case card <= arrayMaxCard && lo == base && hi == base+containerWords:
			// The whole container: every value is a bit of these 1,024 words, so none is
			// compared with the range nor its word's index checked.
			d := (*[containerWords]uint64)(dst[base : base+containerWords])
			for k := 0; k+1 < len(data); k += 2 {
				v := uint16(data[k]) | uint16(data[k+1])<<8
				d[v>>6] |= 1 << (v & 63)
			}
		case card <= arrayMaxCard:
			first, last := (lo-base)<<6, (hi-base)<<6
			k := sort.Search(card, func(k int) bool { return int(binary.LittleEndian.Uint16(data[2*k:])) >= first })
			for ; k < card; k++ {
				v := int(binary.LittleEndian.Uint16(data[2*k:]))
				if v >= last {
					break
				}
				dst[base+v>>6] |= 1 << (v & 63)
			}
		default:
			src, d := data[(lo-base)*8:(hi-base)*8], dst[lo:hi]
			if words, ok := binfile.View[uint64](src, 8); ok { // a bitmap container at an aligned offset
				if clean {
					copy(d, words)
					continue
				}
				words = words[:len(d)]
				for i := range d {
					d[i] |= words[i]
				}
				continue
			}
			for i := range d {
				d[i] |= binary.LittleEndian.Uint64(src[8*i:])
			}
		}
	}
}

// portable reads the containers of a bitmap in roaring's portable format in turn.
type portable struct {
	buf, runs, desc []byte
	n, i, pos       int // containers, the next one, and where its bytes begin
}

// readPortable returns a reader of buf's containers. buf must be well formed, as
// postings.view checked it.
func readPortable(buf []byte) portable {
	c := portable{buf: buf}
	if cookie := binary.LittleEndian.Uint32(buf); cookie == cookieNoRuns {
		c.n, c.pos = int(binary.LittleEndian.Uint32(buf[4:])), 8
	} else {
		c.n, c.pos = int(cookie>>16)+1, 4
		c.runs = buf[c.pos : c.pos+(c.n+7)/8]
		c.pos += len(c.runs)
	}
	c.desc = buf[c.pos : c.pos+4*c.n]
	c.pos += 4 * c.n
	if c.runs == nil || c.n >= noOffsetsBelow {
		c.pos += 4 * c.n // the offsets: the sizes below lead from one container to the next
	}
	return c
}

// next returns the next container: its first word, its cardinality, whether it is a list
// of runs, and its bytes; ok is false after the last one.
func (c *portable) next() (base, card int, run bool, data []byte, ok bool) {
	if c.i == c.n {
		return 0, 0, false, nil, false
	}
	i := c.i
	c.i++
	base = int(binary.LittleEndian.Uint16(c.desc[4*i:])) * containerWords
	card = int(binary.LittleEndian.Uint16(c.desc[4*i+2:])) + 1
	run = c.runs != nil && c.runs[i/8]&(1<<(i%8)) != 0
	var size int
	switch {
	case run:
		size = 2 + 4*int(binary.LittleEndian.Uint16(c.buf[c.pos:]))
	case card <= arrayMaxCard:
		size = 2 * card
	default:
		size = bitmapContainerB
	}
	data = c.buf[c.pos : c.pos+size]
	c.pos += size
	return base, card, run, data, true
}

// andPortable keeps in the words [wlo, whi) of dst only the bits of the positions that buf,
// a bitmap in roaring's portable format, holds; no other word is written. Bitmap containers
// are read in place, with no copy; an array or runs container is first set out in the
// same words of scratch (as long as dst), which it overwrites. buf must be well formed.
func andPortable(dst, scratch []uint64, buf []byte, wlo, whi int) {
	next := wlo // the words of dst below next are done
	for c := readPortable(buf); ; {
		base, card, run, data, ok := c.next()
		if !ok || base >= whi {
			break // keys ascend
		}
		lo, hi := max(wlo, base), min(whi, base+containerWords)
		if lo >= hi {
			continue
		}
		clear(dst[next:lo]) // no container holds these words
		next = hi
		d := dst[lo:hi]
		if run || card <= arrayMaxCard {
			sc := scratch[lo:hi]
			clear(sc)
			orPortable(scratch, buf, lo, hi, true)
			for i := range d {
				d[i] &= sc[i]
			}
			continue
		}
		src := data[(lo-base)*8 : (hi-base)*8]
		if words, ok := binfile.View[uint64](src, 8); ok { // at an aligned offset
			words = words[:len(d)]
			for i := range d {
				d[i] &= words[i]
			}
			continue
		}
		for i := range d {
			d[i] &= binary.LittleEndian.Uint64(src[8*i:])
		}
	}
	clear(dst[next:whi])
}

// setBits sets the bits [from, to) of dst.
func setBits(dst []uint64, from, to int) {
	for from < to {
		w, b := from>>6, from&63
		m := ^uint64(0) << b
		if to-from < 64-b {
			m &= 1<<(b+to-from) - 1
		}
		dst[w] |= m
		from += 64 - b
	}
}

// grown returns *buf with n elements, growing it when it is shorter; the elements are
// left as they were, or zero when it grew.
func grown[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// denseRank returns the number of positions of the dense set below x, lo <= x <= hi.
func (m members) denseRank(x int) int {
	w := x >> 6
	b := w >> 10
	n := int(m.cum[b-m.lo>>16])
	for _, v := range m.words[max(b<<10, m.lo>>6):w] {
		n += bits.OnesCount64(v)
	}
	if r := x & 63; r != 0 {
		n += bits.OnesCount64(m.words[w] & (1<<r - 1))
	}
	return n
}

// denseAt returns the position of rank k in the dense set, which must exist.
func (m members) denseAt(k int) int {
	i := 0
	for int(m.cum[i+1]) <= k {
		i++
	}
	return bitOfRank(max((m.lo>>16+i)<<10, m.lo>>6), k-int(m.cum[i]), func(w int) uint64 { return m.words[w] })
}

// bitOfRank returns the position of the set bit of rank k among the words from w on,
// which word reads; it must exist.
func bitOfRank(w, k int, word func(w int) uint64) int {
	for ; ; w++ {
		x := word(w)
		if c := bits.OnesCount64(x); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			x &= x - 1
		}
		return w<<6 + bits.TrailingZeros64(x)
	}
}

// denseEach calls f on the positions of the dense set in [from, hi) in order, until f
// returns false.
func (m members) denseEach(from, hi int, f func(p int) bool) {
	eachBit(max(from, m.lo), min(hi, m.hi), func(w int) uint64 { return m.words[w] }, f)
}

// eachBit calls f on the positions of the set bits in [from, hi) of the words word reads,
// in order, until f returns false, and reports whether f never did.
func eachBit(from, hi int, word func(w int) uint64, f func(p int) bool) bool {
	if from >= hi {
		return true
	}
	for w := from >> 6; w<<6 < hi; w++ {
		x := word(w)
		if w == from>>6 {
			x &= ^uint64(0) << (from & 63)
		}
		for x != 0 {
			p := w<<6 + bits.TrailingZeros64(x)
			if p >= hi {
				return true
			}
			if !f(p) {
				return false
			}
			x &= x - 1
		}
	}
	return true
}
