package engine

import "hash/crc32"

// Assembled bodies are sent gzip without compressing them per request: each gig is
// compressed once, at build, into a deflate fragment of its own (no reference outside it,
// ending on a byte boundary; see package deflate), and a body is a gzip member made of the
// fragments of its gigs and, between them, its other bytes (brackets, commas, meta, links)
// as stored blocks. Only the gzip trailer's CRC-32 of the identity bytes is made per
// request: each gig's checksum, after the comma that precedes it in a list, is kept
// (Snapshot.gigCRC) and a body's is combined from its parts' checksums and lengths and
// the other bytes', rather than every gig's JSON checksummed again (most of a gzip page's
// cost).

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
