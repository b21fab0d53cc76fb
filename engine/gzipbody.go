package engine

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/gigs/gigs/engine/internal/crc"
)

// Assembled bodies are sent gzip without compressing them per request: each gig is
// compressed once, at build, into a deflate fragment of its own (no reference outside it,
// ending on a byte boundary with an empty stored block; see deflate.go), and a body is a
// gzip member made of the fragments of its gigs and, between them, its other bytes
// (brackets, commas, meta, links) as stored blocks. Only the gzip trailer's CRC-32 of the
// identity bytes is made per request: each gig's checksum, after the comma that precedes
// it in a list, is kept (Snapshot.gigCRC) and a body's is combined from its parts'
// checksums and lengths (package crc) and the other bytes', rather than every gig's JSON
// checksummed again (most of a gzip page's cost).

// gzipHeader is a gzip member's header: deflate, no name, no time, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// gzipWriter appends a gzip member to dst: stored bytes and fragments, then the end.
type gzipWriter struct {
	dst  []byte
	crc  uint32
	size uint32 // identity bytes, modulo 2^32 as gzip keeps them
}

func newGzipWriter(dst []byte) gzipWriter {
	return gzipWriter{dst: append(dst, gzipHeader...)}
}

// raw appends p as stored blocks (at most 65535 bytes each).
func (w *gzipWriter) raw(p []byte) {
	w.account(p)
	w.stored(p)
}

// account adds identity bytes to the checksum and size.
func (w *gzipWriter) account(p []byte) {
	w.crc = crc32.Update(w.crc, crc32.IEEETable, p)
	w.size += uint32(len(p))
}

// stored appends p as stored blocks without accounting for it.
func (w *gzipWriter) stored(p []byte) {
	for len(p) > 0 {
		n := min(len(p), 0xffff)
		w.dst = append(w.dst, 0) // not final, stored; the rest of the byte is padding
		w.dst = binary.LittleEndian.AppendUint16(w.dst, uint16(n))
		w.dst = binary.LittleEndian.AppendUint16(w.dst, ^uint16(n))
		w.dst = append(w.dst, p[:n]...)
		p = p[n:]
	}
}

// storedSize is how many bytes raw writes for n bytes: a 5-byte header per block.
func storedSize(n int) int { return n + 5*((n+0xffff-1)/0xffff) }

// fragment appends z, the deflate fragment of identity.
func (w *gzipWriter) fragment(z, identity []byte) {
	w.account(identity)
	w.dst = append(w.dst, z...)
}

// listFragment appends a comma, then z, the deflate fragment of a gig in a list: the
// gig's checksum after a comma, sum (Snapshot.listCRC), is combined with the body's rather
// than the gig's identity bytes checksummed again, unless known is false.
func (w *gzipWriter) listFragment(z, gig []byte, sum uint32, known bool) {
	w.stored(comma)
	if c, ok := crc.Combine(w.crc, sum, len(comma)+len(gig)); known && ok {
		w.crc = c
		w.size += uint32(len(comma) + len(gig))
	} else {
		w.account(comma)
		w.account(gig)
	}
	w.dst = append(w.dst, z...)
}

// finish ends the stream with an empty final stored block and the trailer.
func (w *gzipWriter) finish() []byte {
	w.dst = append(w.dst, 1, 0, 0, 0xff, 0xff)
	w.dst = binary.LittleEndian.AppendUint32(w.dst, w.crc)
	return binary.LittleEndian.AppendUint32(w.dst, w.size)
}

// gigZ returns the deflate fragment of the gig at position i.
func (s *Snapshot) gigZ(i int) []byte {
	c := i / renderChunk
	base := s.zoff[c*renderChunk]
	return s.zarena[c][s.zoff[i]-base : s.zoff[i+1]-base : s.zoff[i+1]-base]
}

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
