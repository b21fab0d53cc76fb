package deflate

import "encoding/binary"

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
