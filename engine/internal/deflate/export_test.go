package deflate

import (
	"encoding/binary"
	"hash/crc32"
)

// SetBase sets where m's table of positions is valid from, so that a test can make it
// start the table afresh (past 2^31) before the next body.
func (m *Matcher) SetBase(base uint32) { m.base = base }

// windowed appends to buf item i of items with the k items before it, back to back, and
// returns it and where item i begins.
func windowed(buf []byte, items [][]byte, i, k int) ([]byte, int) {
	for _, it := range items[max(0, i-k):i] {
		buf = append(buf, it...)
	}
	return append(buf, items[i]...), len(buf)
}

// NewWindowedCoder makes the code of items as WindowedMember codes them, from every
// every-th item and the k before it.
func NewWindowedCoder(items [][]byte, k, every int) *Coder {
	var sample [][]byte
	var start []int
	for i := 0; i < len(items); i += every {
		b, at := windowed(nil, items, i, k)
		sample, start = append(sample, b), append(start, at)
	}
	return newCoder(sample, start)
}

// WindowedMember returns the gzip member of items back to back in one dynamic block of
// c's code, each item coded with matches reaching into itself and the k items before it
// only (every position of those filed, see Matcher.findFrom: an item's bits depend on
// those k+1 items alone, so that they could be spliced from a member made before), and
// how many bits each item took.
func WindowedMember(c *Coder, items [][]byte, k int) ([]byte, []int) {
	w := bitWriter{dst: append(append([]byte(nil), gzipHeader[:]...), c.head...), bits: c.tail, n: c.tn}
	var m Matcher
	bits := make([]int, len(items))
	sum, size := uint32(0), uint32(0)
	var buf []byte
	for i, it := range items {
		before := 8*len(w.dst) + int(w.n)
		var at int
		buf, at = windowed(buf[:0], items, i, k)
		c.code(&w, buf[at:], m.findFrom(buf, at))
		bits[i] = 8*len(w.dst) + int(w.n) - before
		sum, size = crc32.Update(sum, crc32.IEEETable, it), size+uint32(len(it))
	}
	w.code(c.lit[endBlock])
	w.write(1, 3) // the final block, stored, empty
	for w.n > 0 {
		w.dst = append(w.dst, byte(w.bits))
		w.bits >>= 8
		w.n -= min(w.n, 8)
	}
	dst := append(w.dst, 0, 0, 0xff, 0xff)
	dst = binary.LittleEndian.AppendUint32(dst, sum)
	return binary.LittleEndian.AppendUint32(dst, size), bits
}
