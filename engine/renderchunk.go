package engine

import (
	"bytes"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/internal/deflate"
)

// gigScratch is a rendering worker's scratch: the JSON and fragments of the gigs of a
// chunk it renders, back to back, and where each ends in both.
type gigScratch struct {
	b, z []byte
	ends []int
	m    deflate.Matcher
}

// renderChunk lays out the gigs of chunk c of rows (see renderGigs) in two passes: the
// gigs that are not prev's unchanged are rendered and compressed into sc, then the
// chunk's parts of the arena and of zarena are made of exactly their size and filled in
// order, from sc and from prev. A gig taken from prev (most of a rebuild's) is copied
// once, not into sc and then again into the part; a first build copies every gig twice,
// as it did when the part was a copy of sc. It leaves each gig's offsets within the
// chunk's parts.
func (s *Snapshot) renderChunk(c int, rows []gigRow, contents [][]byte, ru *reuse, coder *deflate.Coder, sc *gigScratch) {
	prev, now := ru.prev, s.built.Unix()
	lo, hi := c*renderChunk, min((c+1)*renderChunk, len(rows))
	b, z, ends := sc.b[:0], sc.z[:0], sc.ends[:0]
	size, zsize := hi-lo, 0 // a comma after each gig but the last
	if hi == len(rows) {
		size--
	}
	for i := lo; i < hi; i++ {
		s.inputs[i] = rows[i].input
		if rows[i].same {
			p := int(rows[i].prevAt)
			s.copyGig(i, prev, p)
			size, zsize = size+len(prev.GigJSON(p)), zsize+len(prev.gigZ(p))
			continue
		}
		at, zat := len(b), len(z)
		b = append(b, rows[i].content(contents)...)
		s.content[i] = rows[i].hash
		s.created[i], s.updated[i] = now, now
		p, known := prev.priorOf(rows[i].prevAt, s.content[i])
		if known {
			s.created[i], s.firstSeq[i], s.lastSeq[i] = p.created, p.firstSeq, p.lastSeq
			if p.lastSeq != 0 {
				s.updated[i] = p.updated
			}
		}
		b = appendGigTimes(b, s.created[i], s.updated[i])
		s.gigHash[i] = xxhash.Sum64(b[at:])
		s.gigCRC[i] = commaCRC(b[at:])
		if known && ru.fragments && bytes.Equal(prev.GigJSON(p.at), b[at:]) {
			z = append(z, prev.gigZ(p.at)...) // the same body has the same fragment
		} else {
			z = coder.AppendFragment(z, b[at:], &sc.m)
		}
		ends = append(ends, len(b), len(z))
		size, zsize = size+len(b)-at, zsize+len(z)-zat
	}
	part, zpart := make([]byte, 0, size), make([]byte, 0, zsize)
	at, zat, next := 0, 0, ends
	for i := lo; i < hi; i++ {
		s.off[i], s.zoff[i] = len(part), len(zpart)
		if rows[i].same {
			p := int(rows[i].prevAt)
			part, zpart = append(part, prev.GigJSON(p)...), append(zpart, prev.gigZ(p)...)
		} else {
			part, zpart = append(part, b[at:next[0]]...), append(zpart, z[zat:next[1]]...)
			at, zat, next = next[0], next[1], next[2:]
		}
		if i < len(rows)-1 {
			part = append(part, ',')
		}
	}
	s.arena[c], s.zarena[c] = part, zpart
	sc.b, sc.z, sc.ends = b, z, ends
}
