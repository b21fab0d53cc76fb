package deflate

import "slices"

// A Coder compresses bodies into deflate fragments with one Huffman code for all of them,
// made from a sample. A general-purpose encoder builds a code per fragment, and for bodies
// of a few hundred bytes building it costs more than finding the matches (nearly half of
// a 1M-gig build, measured); with one code, the block header of every fragment is the
// same bits, written once by NewCoder and copied per fragment. Every byte, length and
// distance has a code (the rare ones long), so any body can be compressed with it,
// whatever the sample held.
//
// A fragment is one dynamic-Huffman block, not final, of the body less its last byte,
// with matches only inside it (greedy with one step of lazy evaluation, 4 bytes at
// least), then a stored block of the last byte that ends it on a byte boundary: its last
// five bytes are that block's length (1), the length's complement and the byte, so that
// bytes can be spliced before the body's last byte (see GzipWriter.Spliced). An empty
// body ends with an empty stored block. A Coder is immutable; each goroutine compresses with a
// Matcher of its own.
type Coder struct {
	lit  [286]huffCode // literals, end of block, lengths
	dist [30]huffCode
	head []byte // the block header's whole bytes
	tail uint64 // and its last bits, tn of them
	tn   uint
}

const (
	minMatch = 4
	maxMatch = 258
	maxDist  = 32768
	hashBits = 13
	endBlock = 256
)

// Deflate's length and distance codes: the first value each covers and its extra bits.
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// codeLengthOrder is the order in which a header gives the code-length code's lengths.
	codeLengthOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

	lengthCode [256]uint8     // by length-3: the index into lengthBase
	distCode   [maxDist]uint8 // by distance-1: the index into distBase
)

func init() {
	for c := range lengthBase { // 258 is in code 27's range too, but has 28 of its own
		for l := int(lengthBase[c]); l < int(lengthBase[c])+1<<lengthExtra[c] && l <= maxMatch; l++ {
			lengthCode[l-3] = uint8(c)
		}
	}
	for c := range distBase {
		for d := int(distBase[c]); d < int(distBase[c])+1<<distExtra[c]; d++ {
			distCode[d-1] = uint8(c)
		}
	}
}

// NewCoder makes the code from sample (a few hundred bodies are plenty) and writes
// the block header that carries it.
func NewCoder(sample [][]byte) *Coder { return newCoder(sample, nil) }

// newCoder makes the code of the bodies sample[i][start[i]:], their matches reaching back
// before start[i] as findFrom's do (from 0 when start is nil).
func newCoder(sample [][]byte, start []int) *Coder {
	var litFreq [286]uint32
	var distFreq [30]uint32
	m := new(Matcher)
	for i, p := range sample {
		from := 0
		if start != nil {
			from = start[i]
		}
		seqs := m.findFrom(p, from)
		p = p[from:]
		for _, x := range seqs {
			for _, b := range p[:x.literals] {
				litFreq[b]++
			}
			p = p[x.literals:]
			if x.length > 0 {
				litFreq[257+int(lengthCode[x.length])]++
				distFreq[distCode[x.dist]]++
				p = p[x.length+3:]
			}
		}
		litFreq[endBlock]++
	}
	// Every symbol gets a code, so that bodies unlike the sample compress too.
	for i := range litFreq {
		litFreq[i]++
	}
	for i := range distFreq {
		distFreq[i]++
	}
	return coderOf(huffmanLengths(litFreq[:], 15), huffmanLengths(distFreq[:], 15))
}

// coderOf makes the Coder of the code lengths of every literal and length symbol (286)
// and every distance (30), and writes its block header.
func coderOf(litLen, distLen []uint8) *Coder {
	c := &Coder{}
	copy(c.lit[:], canonicalCodes(litLen))
	copy(c.dist[:], canonicalCodes(distLen))

	// The header: not final, dynamic, then the code lengths run-length coded with the
	// code-length code (RFC 1951, 3.2.7).
	type clsym struct{ sym, extra, n uint8 }
	var syms []clsym
	all := slices.Concat(litLen, distLen)
	for i := 0; i < len(all); {
		l, run := all[i], 1
		for i+run < len(all) && all[i+run] == l {
			run++
		}
		i += run
		syms, run = append(syms, clsym{l, 0, 0}), run-1 // every symbol has a length, so none is 0
		for ; run >= 3; run -= min(run, 6) {
			syms = append(syms, clsym{16, uint8(min(run, 6) - 3), 2})
		}
		for ; run > 0; run-- {
			syms = append(syms, clsym{l, 0, 0})
		}
	}
	var clFreq [19]uint32
	for _, s := range syms {
		clFreq[s.sym]++
	}
	clLen := huffmanLengths(clFreq[:], 7)
	clCode := canonicalCodes(clLen)
	hclen := len(codeLengthOrder)
	for hclen > 4 && clLen[codeLengthOrder[hclen-1]] == 0 {
		hclen--
	}
	w := bitWriter{}
	w.write(0, 1) // not final
	w.write(2, 2) // dynamic Huffman
	w.write(uint64(len(litLen)-257), 5)
	w.write(uint64(len(distLen)-1), 5)
	w.write(uint64(hclen-4), 4)
	for _, s := range codeLengthOrder[:hclen] {
		w.write(uint64(clLen[s]), 3)
	}
	for _, s := range syms {
		w.code(clCode[s.sym])
		w.write(uint64(s.extra), uint(s.n))
	}
	for w.n >= 8 {
		w.dst = append(w.dst, byte(w.bits))
		w.bits >>= 8
		w.n -= 8
	}
	c.head, c.tail, c.tn = w.dst, w.bits, w.n
	return c
}

// AppendFragment appends the fragment of p to dst, using m to find the matches.
func (c *Coder) AppendFragment(dst, p []byte, m *Matcher) []byte {
	w := bitWriter{dst: append(dst, c.head...), bits: c.tail, n: c.tn}
	var last []byte
	if len(p) > 0 {
		p, last = p[:len(p)-1], p[len(p)-1:]
	}
	c.code(&w, p, m.find(p))
	w.code(c.lit[endBlock])
	w.write(0, 3) // a stored block, not final, ...
	for w.n > 0 { // ... padded to the byte ...
		w.dst = append(w.dst, byte(w.bits))
		w.bits >>= 8
		w.n -= min(w.n, 8)
	}
	if len(last) == 0 {
		return append(w.dst, 0, 0, 0xff, 0xff) // ... of length 0
	}
	return append(w.dst, 1, 0, 0xfe, 0xff, last[0]) // ... of the last byte
}

// code writes p, found as seqs, with c's code.
func (c *Coder) code(w *bitWriter, p []byte, seqs []seq) {
	for _, x := range seqs {
		w.literals(&c.lit, p[:x.literals])
		p = p[x.literals:]
		if x.length == 0 {
			break
		}
		l, lc := uint32(x.length), lengthCode[x.length]
		code := c.lit[257+int(lc)]
		w.write(uint64(code.bits)|uint64(l+3-uint32(lengthBase[lc]))<<code.n, uint(code.n+lengthExtra[lc]))
		d, dc := uint32(x.dist), distCode[x.dist]
		code = c.dist[dc]
		w.write(uint64(code.bits)|uint64(d+1-uint32(distBase[dc]))<<code.n, uint(code.n+distExtra[dc]))
		p = p[l+3:]
	}
}
