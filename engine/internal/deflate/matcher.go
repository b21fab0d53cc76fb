package deflate

import (
	"encoding/binary"
	"math/bits"
)

// A Matcher finds the matches of one goroutine's fragments: a hash table of the last
// position of each 4-byte hash, valid when at or above base, which moves past each body
// so the table never needs clearing between them. A body must be under 2 GiB. Of the
// positions inside a match only the one two bytes before its end is filed: filing them
// all took a third more time and found no more (gig bodies came out 0.1% larger with it).
// The zero Matcher is ready for use; a Matcher is used by one goroutine at a time.
type Matcher struct {
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
func (m *Matcher) find(p []byte) []seq { return m.findFrom(p, 0) }

// findFrom returns p[start:] as find does, its matches reaching back into p[:start] too
// (its last maxDist bytes): every position of p[:start] is filed first, so that the
// matches depend on p's bytes alone, not on how p[:start] was parsed.
func (m *Matcher) findFrom(p []byte, start int) []seq {
	if m.base == 0 || m.base > 1<<31 {
		m.table, m.base = [1 << hashBits]uint32{}, 1
	}
	for j := max(0, start-maxDist); j < start && j+minMatch <= len(p); j++ {
		m.table[hash4(binary.LittleEndian.Uint32(p[j:]))] = m.base + uint32(j)
	}
	out := m.seqs[:0]
	lit := start // p[lit:i] are literals not yet in out
	for i := start; i+minMatch <= len(p); {
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
func (m *Matcher) probe(p []byte, i int) (c int, ok bool) {
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
