package crc

import (
	"hash/crc32"
	"sync"
)

// crc(A‖B) = crc(A)·x^(8·len B) mod P ⊕ crc(B), in the reflected representation of
// CRC-32 (IEEE), where bit 31 is the coefficient of x^0.

// poly is the CRC-32 (IEEE) polynomial without its x^32 term, reflected.
const poly = 0xedb88320

// MaxCombined bounds the lengths of B that Combine takes: x^(8·n) mod P is tabled for
// shorter ones (256 KB). A longer part is to be checksummed instead.
const MaxCombined = 1 << 16

// Combine returns the CRC-32 of A‖B from crcA, crcB and lenB, the length of B, if B is
// shorter than MaxCombined; ok is false otherwise.
func Combine(crcA, crcB uint32, lenB int) (crc uint32, ok bool) {
	if lenB >= MaxCombined {
		return 0, false
	}
	t := tables()
	return t.mulmod(t.shift[lenB], crcA) ^ crcB, true
}

type table struct {
	shift [MaxCombined]uint32 // x^(8·n) mod P
	// reduce[k][v] is the residue mod P of the terms x^32…x^63 that byte k of a product's
	// low word holds (see mulmod).
	reduce [4][256]uint32
}

var tables = sync.OnceValue(func() *table {
	t := new(table)
	timesX := func(v uint32) uint32 { return v>>1 ^ poly&-(v&1) }
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
	for n := 1; n < MaxCombined; n++ {
		t.shift[n] = t.mulmod(t.shift[n-1], xn[8])
	}
	return t
})

// mulmod returns a·b mod P.
func (t *table) mulmod(a, b uint32) uint32 {
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

// Trim returns the CRC-32 (IEEE) of A from crcAB, the CRC-32 of A‖b: the last byte's
// update undone. (The table's entries differ in their top byte, which so names the
// entry the update used.)
func Trim(crcAB uint32, b byte) uint32 {
	inv := untable()
	x := ^crcAB
	i := inv[x>>24]
	return ^((x^crc32.IEEETable[i])<<8 | uint32(i^b))
}

var untable = sync.OnceValue(func() *[256]byte {
	var inv [256]byte
	for i, v := range crc32.IEEETable {
		inv[v>>24] = byte(i)
	}
	return &inv
})
