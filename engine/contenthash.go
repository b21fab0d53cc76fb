package engine

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"
)

// writeGigHashes writes the gigs' hashes (Snapshot.gigHash), each little-endian, to h:
// what the snapshot's version and the export's tag hash of the gigs, rather than their
// JSON again (8 bytes a gig instead of some 650: two passes over the arena were a tenth
// of a second each at a million gigs). A gig's hash is the xxhash64 of its JSON, so the
// gigs hash alike only if their JSON does, but for 64-bit collisions.
func writeGigHashes(h *xxhash.Digest, hashes []uint64) {
	var buf [4096]byte
	for len(hashes) > 0 {
		n := min(len(hashes), len(buf)/8)
		for i, x := range hashes[:n] {
			binary.LittleEndian.PutUint64(buf[8*i:], x)
		}
		_, _ = h.Write(buf[:8*n])
		hashes = hashes[n:]
	}
}
