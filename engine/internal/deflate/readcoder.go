package deflate

import (
	"bytes"
	"errors"
	"slices"
)

// ReadCoder returns the Coder that wrote fragment, from the block header it begins with,
// so that a build can compress new bodies with the code of fragments it keeps (a body
// compressed by the same Coder is the same fragment). It fails on bytes that are not the
// start of a fragment some Coder wrote.
func ReadCoder(fragment []byte) (*Coder, error) {
	r := bitReader{src: fragment}
	if r.read(1) != 0 || r.read(2) != 2 {
		return nil, errNotFragment
	}
	nlit, ndist, nclen := int(r.read(5))+257, int(r.read(5))+1, int(r.read(4))+4
	if nlit != 286 || ndist != 30 {
		return nil, errNotFragment // a Coder gives every symbol a code
	}
	var clLen [19]uint8
	for _, s := range codeLengthOrder[:nclen] {
		clLen[s] = uint8(r.read(3))
	}
	clCode := canonicalCodes(clLen[:])
	lengths := make([]uint8, 0, nlit+ndist)
	for len(lengths) < nlit+ndist && !r.short {
		sym := -1
		for s, c := range clCode {
			if c.n > 0 && r.peek(uint(c.n)) == uint64(c.bits) {
				sym = s
				r.read(uint(c.n))
				break
			}
		}
		switch {
		case sym < 0:
			return nil, errNotFragment
		case sym < 16:
			lengths = append(lengths, uint8(sym))
		case sym == 16 && len(lengths) > 0:
			for n := 3 + r.read(2); n > 0; n-- {
				lengths = append(lengths, lengths[len(lengths)-1])
			}
		default: // runs of zeros: no symbol of a Coder's has none
			return nil, errNotFragment
		}
	}
	if r.short || len(lengths) != nlit+ndist || slices.Contains(lengths, 0) ||
		!complete(lengths[:nlit]) || !complete(lengths[nlit:]) {
		return nil, errNotFragment
	}
	c := coderOf(lengths[:nlit], lengths[nlit:])
	// The code's header is written one way only: the fragment must begin with it.
	if !bytes.HasPrefix(fragment, c.head) || len(fragment) <= len(c.head) ||
		uint64(fragment[len(c.head)])&(1<<c.tn-1) != c.tail {
		return nil, errNotFragment
	}
	return c, nil
}

var errNotFragment = errors.New("deflate: not a fragment's header")

// complete reports whether code lengths (each 1 to 15) make a complete prefix code, as every
// code a Coder writes is: one neither over-subscribed (no inflater could decode it) nor
// leaving codes unused (the lengths are not a Coder's).
func complete(lengths []uint8) bool {
	sum := 0
	for _, n := range lengths {
		sum += 1 << (15 - n)
	}
	return sum == 1<<15
}

// bitReader reads bits as deflate packs them, least significant first; short is set once
// a read went past the end (the missing bits read as 0).
type bitReader struct {
	src   []byte
	at    uint // bits read
	short bool
}

// peek returns the next n (at most 32) bits without reading them.
func (r *bitReader) peek(n uint) uint64 {
	var v uint64
	for i := range n {
		k := r.at + i
		if k/8 < uint(len(r.src)) {
			v |= uint64(r.src[k/8]>>(k%8)&1) << i
		}
	}
	return v
}

func (r *bitReader) read(n uint) uint64 {
	v := r.peek(n)
	r.at += n
	r.short = r.short || r.at > 8*uint(len(r.src))
	return v
}
