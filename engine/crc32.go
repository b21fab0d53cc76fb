package engine

import (
	"hash/crc32"
	"sync"
)

// A gzip body's trailer holds the CRC-32 of its identity bytes, and a body assembled per
// request would otherwise checksum every gig's JSON again (most of a gzip page's cost).
// Instead each gig's checksum, after the comma that precedes it in a list, is kept
// (Snapshot.gigCRC) and a body's is combined from its parts' checksums and lengths, as
// zlib's crc32_combine does: crc(A‖B) = crc(A)·x^(8·len B) mod P ⊕ crc(B), in the
// reflected representation of CRC-32 (IEEE), where bit 31 is the coefficient of x^0.

// crcPoly is the CRC-32 (IEEE) polynomial without its x^32 term, reflected.
const crcPoly = 0xedb88320

// listCRC returns the CRC-32 of a comma and the gig at position i; ok is false while a
// snapshot read from its file is still computing them (see Snapshot.gigCRC).
func (s *Snapshot) listCRC(i int) (crc uint32, ok bool) {
	if !s.crcReady.Load() {
		return 0, false
	}
	return s.gigCRC[i], true
}

// commaCRC returns the CRC-32 of a comma followed by gig.
func commaCRC(gig []byte) uint32 {
	return crc32.Update(crcOfComma, crc32.IEEETable, gig)
}

var crcOfComma = crc32.ChecksumIEEE(comma)

// crcCombine returns the CRC-32 of A‖B from crcA, crcB and len B, if B is shorter than
// maxCombined; ok is false otherwise.
func crcCombine(crcA, crcB uint32, lenB int) (crc uint32, ok bool) {
	if lenB >= maxCombined {
		return 0, false
	}
	t := crcTables()
	return t.mulmod(t.shift[lenB], crcA) ^ crcB, true
}

// maxCombined bounds the lengths whose x^(8·n) mod P is tabled (256 KB): a gig's JSON is
// far shorter, and a longer part is checksummed instead.
const maxCombined = 1 << 16

type crcTable struct {
	shift [maxCombined]uint32 // x^(8·n) mod P
	// reduce[k][v] is the residue mod P of the terms x^32…x^63 that byte k of a product's
	// low word holds (see mulmod).
	reduce [4][256]uint32
}

var crcTables = sync.OnceValue(func() *crcTable {
	t := new(crcTable)
	timesX := func(v uint32) uint32 { return v>>1 ^ crcPoly&-(v&1) }
	var xn [64]uint32 // x^j mod P
	xn[0] = 1 << 31
	for j := 1; j < 64; j++ {
		xn[j] = timesX(xn[j-1])
	}
	for k := range t.reduce {
		for v := range 256 {
			var r uint32
			for b := range 8 {
				if v>>b&1 == 1 {
					r ^= xn[63-(8*k+b)] // bit m of the low word is x^(63-m)
				}
			}
			t.reduce[k][v] = r
		}
	}
	t.shift[0] = xn[0]
	for n := 1; n < maxCombined; n++ {
		t.shift[n] = t.mulmod(t.shift[n-1], xn[8])
	}
	return t
})

// mulmod returns a·b mod P.
func (t *crcTable) mulmod(a, b uint32) uint32 {
	// The carry-less product of two reflected words has x^i at bit 62-i; shifted left by
	// one, its high word is x^0…x^31 reflected as a CRC is and its low word x^32…x^63,
	// which the tables reduce.
	p := clmul32(a, b) << 1
	lo := uint32(p)
	return uint32(p>>32) ^ t.reduce[0][lo&0xff] ^ t.reduce[1][lo>>8&0xff] ^ t.reduce[2][lo>>16&0xff] ^ t.reduce[3][lo>>24]
}

// clmul32 returns the carry-less product of a and b, four bits of a at a time.
func clmul32(a, b uint32) uint64 {
	var m [16]uint64 // b times each 4-bit polynomial
	m[1] = uint64(b)
	for i := 2; i < 16; i += 2 {
		m[i] = m[i/2] << 1
		m[i+1] = m[i] ^ uint64(b)
	}
	var p uint64
	for s := 28; s >= 0; s -= 4 {
		p = p<<4 ^ m[a>>s&15]
	}
	return p
}
