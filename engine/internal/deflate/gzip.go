package deflate

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/gigs/gigs/engine/internal/crc"
)

// The bytes of a gzip member besides its stored blocks and fragments: the header
// NewGzipWriter writes, and the empty final block and trailer Finish writes.
const (
	GzipHeaderSize = 10
	GzipEndSize    = 5 + 8
)

// gzipHeader is a gzip member's header: deflate, no name, no time, unknown OS.
var gzipHeader = [GzipHeaderSize]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// A GzipWriter appends a gzip member to Dst: stored bytes and fragments, then the end.
// Dst is the member so far; a caller that streams the member may take its bytes and set
// Dst to another slice (an empty one) between writes, the checksum and size carrying on.
type GzipWriter struct {
	Dst  []byte
	crc  uint32
	size uint32 // identity bytes, modulo 2^32 as gzip keeps them
}

// NewGzipWriter returns a writer of a member appended to dst, its header written.
func NewGzipWriter(dst []byte) GzipWriter {
	return GzipWriter{Dst: append(dst, gzipHeader[:]...)}
}

// Raw appends p as stored blocks (at most 65535 bytes each).
func (w *GzipWriter) Raw(p []byte) {
	w.account(p)
	w.stored(p)
}

// account adds identity bytes to the checksum and size.
func (w *GzipWriter) account(p []byte) {
	w.crc = crc32.Update(w.crc, crc32.IEEETable, p)
	w.size += uint32(len(p))
}

// stored appends p as stored blocks without accounting for it.
func (w *GzipWriter) stored(p []byte) {
	for len(p) > 0 {
		n := min(len(p), 0xffff)
		w.Dst = append(w.Dst, 0) // not final, stored; the rest of the byte is padding
		w.Dst = binary.LittleEndian.AppendUint16(w.Dst, uint16(n))
		w.Dst = binary.LittleEndian.AppendUint16(w.Dst, ^uint16(n))
		w.Dst = append(w.Dst, p[:n]...)
		p = p[n:]
	}
}

// StoredSize is how many bytes Raw writes for n bytes: a 5-byte header per block.
func StoredSize(n int) int { return n + 5*((n+0xffff-1)/0xffff) }

// Fragment appends z, the deflate fragment of identity (see Coder.AppendFragment).
func (w *GzipWriter) Fragment(z, identity []byte) {
	w.account(identity)
	w.Dst = append(w.Dst, z...)
}

// ListFragment appends sep as stored blocks, then z, the deflate fragment of item: sum,
// the CRC-32 of sep and item back to back, is combined with the member's rather than
// their bytes checksummed again, unless known is false (or they are too long to combine:
// crc.MaxCombined bytes or more).
func (w *GzipWriter) ListFragment(sep, z, item []byte, sum uint32, known bool) {
	w.stored(sep)
	if c, ok := crc.Combine(w.crc, sum, len(sep)+len(item)); known && ok {
		w.crc = c
		w.size += uint32(len(sep) + len(item))
	} else {
		w.account(sep)
		w.account(item)
	}
	w.Dst = append(w.Dst, z...)
}

// Finish ends the member with an empty final stored block and the trailer, and returns
// Dst.
func (w *GzipWriter) Finish() []byte {
	w.Dst = append(w.Dst, 1, 0, 0, 0xff, 0xff)
	w.Dst = binary.LittleEndian.AppendUint32(w.Dst, w.crc)
	w.Dst = binary.LittleEndian.AppendUint32(w.Dst, w.size)
	return w.Dst
}

// Spliced appends sep as stored blocks, then item with insert spliced before its last
// byte: z, item's fragment, less its final stored block of that byte (see
// Coder.AppendFragment), then a stored block of insert and that byte. sum and known are
// as ListFragment's, the CRC-32 of sep and item. ok is false, and nothing is appended,
// when z does not end as a fragment of item does, or insert is 65535 bytes or more.
func (w *GzipWriter) Spliced(sep, z, item, insert []byte, sum uint32, known bool) (ok bool) {
	n := len(z)
	if len(item) == 0 || n < 5 || len(insert) >= 0xffff || z[n-5] != 1 || z[n-4] != 0 || z[n-3] != 0xfe || z[n-2] != 0xff || z[n-1] != item[len(item)-1] {
		return false
	}
	w.stored(sep)
	body, last := item[:len(item)-1], item[len(item)-1:]
	if c, combined := crc.Combine(w.crc, crc.Trim(sum, last[0]), len(sep)+len(body)); known && combined {
		w.crc = c
		w.size += uint32(len(sep) + len(body))
	} else {
		w.account(sep)
		w.account(body)
	}
	w.account(insert)
	w.account(last)
	w.Dst = append(w.Dst, z[:n-5]...) // up to the stored block's length, its header in the last byte
	m := len(insert) + 1
	w.Dst = binary.LittleEndian.AppendUint16(w.Dst, uint16(m))
	w.Dst = binary.LittleEndian.AppendUint16(w.Dst, ^uint16(m))
	w.Dst = append(append(w.Dst, insert...), last[0])
	return true
}
