package engine

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// A fragmentCoder compresses gig bodies into deflate fragments (see gzipbody.go) with one
// Huffman code for the whole build, made from a sample of its bodies. A general-purpose
// encoder builds a code per fragment, and for bodies of a few hundred bytes building it
// costs more than finding the matches (nearly half of a 1M build, measured); with one
// code, the block header of every fragment is the same bits, written once by
// newFragmentCoder and copied per fragment. Every byte, length and distance has a code (the rare ones long), so
// any body can be compressed with it, whatever the sample held.
//
// A fragment is one dynamic-Huffman block, not final, with matches only inside the body
// (greedy with one step of lazy evaluation, 4 bytes at least), then an empty stored block that ends it on a byte boundary.
// A fragmentCoder is immutable; each goroutine compresses with a matcher of its own.
type fragmentCoder struct {
	lit  [286]huffCode // literals, end of block, lengths
	dist [30]huffCode
	head []byte // the block header's whole bytes
	tail uint64 // and its last bits, headBits of them
	tn   uint
}

// huffCode is a code of n bits, stored bit-reversed as deflate writes it.
type huffCode struct {
	bits uint16
	n    uint8
}

const (
	minMatch = 4
	maxMatch = 258
	maxDist  = 32768
	hashBits = 13
	endBlock = 256
)

// Deflate's length and distance codes: the first value each covers and its extra bits.
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// codeLengthOrder is the order in which a header gives the code-length code's lengths.
	codeLengthOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

	lengthCode [256]uint8     // by length-3: the index into lengthBase
	distCode   [maxDist]uint8 // by distance-1: the index into distBase
)

func init() {
	for c := range lengthBase { // 258 is in code 27's range too, but has 28 of its own
		for l := int(lengthBase[c]); l < int(lengthBase[c])+1<<lengthExtra[c] && l <= maxMatch; l++ {
			lengthCode[l-3] = uint8(c)
		}
	}
	for c := range distBase {
		for d := int(distBase[c]); d < int(distBase[c])+1<<distExtra[c]; d++ {
			distCode[d-1] = uint8(c)
		}
	}
}

// A matcher finds the matches of one goroutine's fragments: a hash table of the last
// position of each 4-byte hash, valid when at or above base, which moves past each body
// so the table never needs clearing between them. A body must be under 2 GiB. Of the
// positions inside a match only the one two bytes before its end is filed: filing them
// all took a third more time and found no more (gig bodies came out 0.1% larger with it).
type matcher struct {
	table [1 << hashBits]uint32
	base  uint32
	seqs  []seq
}

// A seq is a run of literals, then a copy of length bytes from dist bytes back. Its
// length and dist are stored less 3 and 1, as deflate's tables are indexed; length 0 (a
// length of 3, shorter than minMatch) marks the literals that end a body. Literals are not
// listed one by one: they are most of a body, and the encoder reads them from it.
type seq struct {
	literals     uint32
	length, dist uint16
}

// find returns p as seqs in m.seqs, the last of length 0, carrying the literals that end
// p. Matches are greedy with one step of lazy evaluation, at least minMatch bytes, inside p.
func (m *matcher) find(p []byte) []seq {
	if m.base == 0 || m.base > 1<<31 {
		m.table, m.base = [1 << hashBits]uint32{}, 1
	}
	out := m.seqs[:0]
	lit := 0 // p[lit:i] are literals not yet in out
	for i := 0; i+minMatch <= len(p); {
		c, ok := m.probe(p, i)
		if !ok {
			i++
			continue
		}
		l := extend(p, c, i)
		if l < maxMatch && i+1+minMatch <= len(p) {
			// One step lazy: a longer match at the next byte wins over this one.
			if c1, ok := m.probe(p, i+1); ok {
				if l1 := extend(p, c1, i+1); l1 > l {
					i, c, l = i+1, c1, l1
				}
			}
		}
		out = append(out, seq{uint32(i - lit), uint16(l - 3), uint16(i - c - 1)})
		if j := i + l - 2; j > i && j+minMatch <= len(p) {
			m.table[hash4(binary.LittleEndian.Uint32(p[j:]))] = m.base + uint32(j)
		}
		i += l
		lit = i
	}
	out = append(out, seq{literals: uint32(len(p) - lit)})
	m.base += uint32(len(p)) + 1
	m.seqs = out
	return out
}

// probe returns the earlier position c the hash of p[i:i+4] leads to, ok if its 4 bytes
// are the same and within reach, and makes i the position that hash leads to.
func (m *matcher) probe(p []byte, i int) (c int, ok bool) {
	u := binary.LittleEndian.Uint32(p[i:])
	h := hash4(u)
	cand := m.table[h]
	m.table[h] = m.base + uint32(i)
	c = int(cand - m.base)
	return c, cand >= m.base && i-c <= maxDist && binary.LittleEndian.Uint32(p[c:]) == u
}

// extend returns the length of the match of p[i:] at c, which probe found.
func extend(p []byte, c, i int) int {
	return minMatch + matchLen(p[c+minMatch:], p[i+minMatch:min(len(p), i+maxMatch)])
}

// matchLen returns how many bytes b has in common with the start of a, which is at least
// as long.
func matchLen(a, b []byte) int {
	n := 0
	for ; len(b)-n >= 8; n += 8 {
		if x := binary.LittleEndian.Uint64(a[n:]) ^ binary.LittleEndian.Uint64(b[n:]); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
	}
	for ; n < len(b) && a[n] == b[n]; n++ {
	}
	return n
}

func hash4(u uint32) uint32 { return (u * 0x1e35a7bd) >> (32 - hashBits) }

// newFragmentCoder makes the code from sample (a few hundred bodies are plenty) and writes
// the block header that carries it.
func newFragmentCoder(sample [][]byte) *fragmentCoder {
	var litFreq [286]uint32
	var distFreq [30]uint32
	m := new(matcher)
	for _, p := range sample {
		for _, x := range m.find(p) {
			for _, b := range p[:x.literals] {
				litFreq[b]++
			}
			p = p[x.literals:]
			if x.length > 0 {
				litFreq[257+int(lengthCode[x.length])]++
				distFreq[distCode[x.dist]]++
				p = p[x.length+3:]
			}
		}
		litFreq[endBlock]++
	}
	// Every symbol gets a code, so that bodies unlike the sample compress too.
	for i := range litFreq {
		litFreq[i]++
	}
	for i := range distFreq {
		distFreq[i]++
	}
	litLen, distLen := huffmanLengths(litFreq[:], 15), huffmanLengths(distFreq[:], 15)
	c := &fragmentCoder{}
	copy(c.lit[:], canonicalCodes(litLen))
	copy(c.dist[:], canonicalCodes(distLen))

	// The header: not final, dynamic, then the code lengths run-length coded with the
	// code-length code (RFC 1951, 3.2.7).
	type clsym struct{ sym, extra, n uint8 }
	var syms []clsym
	all := slices.Concat(litLen, distLen)
	for i := 0; i < len(all); {
		l, run := all[i], 1
		for i+run < len(all) && all[i+run] == l {
			run++
		}
		i += run
		syms, run = append(syms, clsym{l, 0, 0}), run-1 // every symbol has a length, so none is 0
		for ; run >= 3; run -= min(run, 6) {
			syms = append(syms, clsym{16, uint8(min(run, 6) - 3), 2})
		}
		for ; run > 0; run-- {
			syms = append(syms, clsym{l, 0, 0})
		}
	}
	var clFreq [19]uint32
	for _, s := range syms {
		clFreq[s.sym]++
	}
	clLen := huffmanLengths(clFreq[:], 7)
	clCode := canonicalCodes(clLen)
	hclen := len(codeLengthOrder)
	for hclen > 4 && clLen[codeLengthOrder[hclen-1]] == 0 {
		hclen--
	}
	w := bitWriter{}
	w.write(0, 1) // not final
	w.write(2, 2) // dynamic Huffman
	w.write(uint64(len(litLen)-257), 5)
	w.write(uint64(len(distLen)-1), 5)
	w.write(uint64(hclen-4), 4)
	for _, s := range codeLengthOrder[:hclen] {
		w.write(uint64(clLen[s]), 3)
	}
	for _, s := range syms {
		w.code(clCode[s.sym])
		w.write(uint64(s.extra), uint(s.n))
	}
	for w.n >= 8 {
		w.dst = append(w.dst, byte(w.bits))
		w.bits >>= 8
		w.n -= 8
	}
	c.head, c.tail, c.tn = w.dst, w.bits, w.n
	return c
}

// appendFragment appends the fragment of p to dst, using m to find the matches.
func (c *fragmentCoder) appendFragment(dst, p []byte, m *matcher) []byte {
	w := bitWriter{dst: append(dst, c.head...), bits: c.tail, n: c.tn}
	for _, x := range m.find(p) {
		w.literals(&c.lit, p[:x.literals])
		p = p[x.literals:]
		if x.length == 0 {
			break
		}
		l, lc := uint32(x.length), lengthCode[x.length]
		code := c.lit[257+int(lc)]
		w.write(uint64(code.bits)|uint64(l+3-uint32(lengthBase[lc]))<<code.n, uint(code.n+lengthExtra[lc]))
		d, dc := uint32(x.dist), distCode[x.dist]
		code = c.dist[dc]
		w.write(uint64(code.bits)|uint64(d+1-uint32(distBase[dc]))<<code.n, uint(code.n+distExtra[dc]))
		p = p[l+3:]
	}
	w.code(c.lit[endBlock])
	w.write(0, 3) // an empty stored block, not final, ...
	for w.n > 0 { // ... padded to the byte ...
		w.dst = append(w.dst, byte(w.bits))
		w.bits >>= 8
		w.n -= min(w.n, 8)
	}
	return append(w.dst, 0, 0, 0xff, 0xff) // ... of length 0
}

// bitWriter appends bits to dst as deflate packs them, least significant first. At most 31
// are pending between writes, which holds as long as a write carries at most 32 (deflate's
// longest is 28: a 15-bit distance code and 13 extra bits).
type bitWriter struct {
	dst  []byte
	bits uint64
	n    uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.bits |= v << w.n
	w.n += n
	if w.n >= 32 {
		w.dst = binary.LittleEndian.AppendUint32(w.dst, uint32(w.bits))
		w.bits >>= 32
		w.n -= 32
	}
}

func (w *bitWriter) code(c huffCode) { w.write(uint64(c.bits), uint(c.n)) }

// literals writes the codes of lit's bytes, two at a time: codes are at most 15 bits, so
// two fit beside the 31 bits a write may leave pending.
func (w *bitWriter) literals(codes *[286]huffCode, lit []byte) {
	bits, n, dst := w.bits, w.n, w.dst
	for len(lit) >= 2 {
		a, b := codes[lit[0]], codes[lit[1]]
		bits |= (uint64(a.bits) | uint64(b.bits)<<a.n) << n
		n += uint(a.n) + uint(b.n)
		if n >= 32 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(bits))
			bits >>= 32
			n -= 32
		}
		lit = lit[2:]
	}
	w.bits, w.n, w.dst = bits, n, dst
	if len(lit) == 1 {
		w.code(codes[lit[0]])
	}
}

// huffmanLengths returns a length-limited Huffman code's lengths for freq: every symbol
// with a frequency gets a length from 1 to limit; the code is complete when two or more
// do. Over limit, the frequencies are halved (keeping every one above 0) and the code built
// again, until it fits: at worst all are equal and the tree is balanced.
func huffmanLengths(freq []uint32, limit uint8) []uint8 {
	lengths := make([]uint8, len(freq))
	f := slices.Clone(freq)
	for {
		var leaves []int
		for s, x := range f {
			if x > 0 {
				leaves = append(leaves, s)
			}
		}
		if len(leaves) < 2 { // no code to build: one symbol gets one bit, none nothing
			for _, s := range leaves {
				lengths[s] = 1
			}
			return lengths
		}
		slices.SortStableFunc(leaves, func(a, b int) int { return int(f[a]) - int(f[b]) })
		// Leaves are nodes 0..n-1, by weight; the internal nodes follow in the order they are
		// made, which is also by weight, so the two lightest are always at one of two fronts.
		n := len(leaves)
		weight, parent := make([]uint64, 2*n-1), make([]int, 2*n-1)
		for i, s := range leaves {
			weight[i] = uint64(f[s])
		}
		leaf, inner := 0, n
		lightest := func(made int) int {
			if leaf < n && (inner >= made || weight[leaf] <= weight[inner]) {
				leaf++
				return leaf - 1
			}
			inner++
			return inner - 1
		}
		for made := n; made < 2*n-1; made++ {
			a := lightest(made)
			b := lightest(made)
			weight[made], parent[a], parent[b] = weight[a]+weight[b], made, made
		}
		depth := make([]uint8, 2*n-1)
		deepest := uint8(0)
		for k := 2*n - 3; k >= 0; k-- {
			depth[k] = depth[parent[k]] + 1
			deepest = max(deepest, depth[k])
		}
		if deepest <= limit {
			for i, s := range leaves {
				lengths[s] = depth[i]
			}
			return lengths
		}
		for s := range f {
			f[s] = f[s] - f[s]/2 // halved, rounding up
		}
	}
}

// canonicalCodes gives the deflate codes of lengths (RFC 1951, 3.2.2), bit-reversed.
func canonicalCodes(lengths []uint8) []huffCode {
	var count, next [16]uint16
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	code := uint16(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	codes := make([]huffCode, len(lengths))
	for s, l := range lengths {
		if l > 0 {
			codes[s] = huffCode{bits.Reverse16(next[l]) >> (16 - l), l}
			next[l]++
		}
	}
	return codes
}
