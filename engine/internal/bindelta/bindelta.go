package bindelta

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/gigs/gigs/engine/internal/binfile"
)

const (
	magic   = "gigs-bindelta\n"
	version = 1
)

// Transforms of a section's words, on both sides, before its operations.
const (
	plain   byte = 0
	diff32  byte = 1
	diff64  byte = 2
	nTransf byte = 3
)

// maxSource caps the sources a Predictor offers a section.
const maxSource = 8

// block is the length of the runs matched between a section and its base's: a copy is at
// least this long (shorter runs are added).
const block = 32

// maxWordSection is the largest section coded as differences too, to see whether that is
// smaller: larger ones are arenas of bytes, and trying costs an encoding each.
const maxWordSection = 64 << 20

// A Predictor offers sources section i of a file may be coded against besides the base's
// section i (source 0), when the caller knows what the section is made of: source k (from
// 1 on) made from the base's sections and the file's sections before i, and ok false past
// the last one. Encode codes each section against the source that makes its delta
// smallest, and names it in the delta; Apply asks for that one alone. It must make the
// same bytes for both. A nil Predictor offers none.
//
// A source is its parts laid end to end, so that one made of runs of the base's sections
// need not copy them. Each section made is the parts it is made of, each a view of the
// bytes it was copied from where the delta copies them untransformed (of a base's section,
// or of a source's part), else of the delta or of a buffer of Apply's: a Predictor may
// tell the runs of a base's section a section was copied from by their memory. Encode
// gives each section made as one part, a view of the file.
type Predictor func(i, k int, base [][]byte, made [][][]byte) (src [][]byte, ok bool, err error)

// source returns source k of section i.
func (p Predictor) source(i, k int, base [][]byte, made [][][]byte) ([][]byte, bool, error) {
	switch {
	case k == 0 && i < len(base):
		return [][]byte{base[i]}, true, nil
	case k == 0:
		return nil, true, nil
	case p == nil:
		return nil, false, nil
	}
	return p(i, k, base, made)
}

// Encode writes to w the delta that turns base into file, two files of binfile sections
// whose callers' headers are head bytes long, with the sections predict makes, a section
// at a time: it holds no more of the delta than a section's. It stops at w's first error,
// and returns it. base and file are not modified.
func Encode(w io.Writer, base, file []byte, head int, predict Predictor) error {
	baseSecs, err := binfile.Split(base, head)
	if err != nil {
		return fmt.Errorf("base: %w", err)
	}
	secs, err := binfile.Split(file, head)
	if err != nil {
		return fmt.Errorf("file: %w", err)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	out := append([]byte(magic), version)
	out = binary.AppendUvarint(out, uint64(head))
	out = append(out, file[:head]...)
	out = binary.LittleEndian.AppendUint64(out, binfile.Checksum(base))
	out = binary.LittleEndian.AppendUint64(out, binfile.Checksum(file))
	out = binary.AppendUvarint(out, uint64(len(file)))
	out = binary.AppendUvarint(out, uint64(len(secs)))
	if _, err := bw.Write(out); err != nil {
		return err
	}
	var tab table
	made := make([][][]byte, 0, len(secs))
	for i, sec := range secs {
		srcs, same, err := sources(predict, i, baseSecs, made, sec)
		if err != nil {
			return fmt.Errorf("section %d: %w", i, err)
		}
		var best []byte
		for k, src := range srcs {
			if same >= 0 && k != same {
				continue // a source the section equals is one copy: none does better
			}
			if d := encodeSection(binary.AppendUvarint(nil, uint64(k)), &tab, plain, src, sec); best == nil || len(d) < len(best) {
				best = d
			}
			if same >= 0 || len(sec) > maxWordSection || len(src) > maxWordSection {
				continue
			}
			for t := diff32; t < nTransf; t++ {
				if size := wordSize(t); len(sec)%size == 0 && len(src)%size == 0 {
					if d := encodeSection(binary.AppendUvarint(nil, uint64(k)), &tab, t, transform(t, src), transform(t, sec)); len(d) < len(best) {
						best = d
					}
				}
			}
		}
		made = append(made, [][]byte{sec})
		if _, err := bw.Write(best); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// sources returns the sources predict offers section i of a file, sec, up to the first
// that equals sec (same, its number; -1 when none does, or sec is shorter than a block).
// The sources after it are not made: a section that is a source's copy is coded as that
// one copy. (A short one is coded as any other, as the delta was before: the same bytes.)
func sources(predict Predictor, i int, base [][]byte, made [][][]byte, sec []byte) (srcs [][]byte, same int, err error) {
	for k := 0; k <= maxSource; k++ {
		parts, ok, err := predict.source(i, k, base, made)
		if err != nil || !ok {
			return srcs, -1, err
		}
		src := joinParts(parts)
		srcs = append(srcs, src)
		if len(sec) >= block && bytes.Equal(src, sec) {
			return srcs, k, nil
		}
	}
	return srcs, -1, nil
}

// wordSize is the bytes of a word of transform t.
func wordSize(t byte) int {
	if t == diff32 {
		return 4
	}
	return 8
}

// transform returns the words of b as differences from the word before (the first as it
// is), modulo their size; b is not modified.
func transform(t byte, b []byte) []byte {
	out := bytes.Clone(b)
	if t == diff32 {
		differences(out, 4, binary.LittleEndian.Uint32, binary.LittleEndian.PutUint32, false)
	} else {
		differences(out, 8, binary.LittleEndian.Uint64, binary.LittleEndian.PutUint64, false)
	}
	return out
}

// untransform turns differences back into words, in place.
func untransform(t byte, b []byte) {
	if t == diff32 {
		differences(b, 4, binary.LittleEndian.Uint32, binary.LittleEndian.PutUint32, true)
	} else {
		differences(b, 8, binary.LittleEndian.Uint64, binary.LittleEndian.PutUint64, true)
	}
}

// differences turns b's words of size bytes, in place, into the differences from the
// word before, or (back) the differences into words.
func differences[T uint32 | uint64](b []byte, size int, get func([]byte) T, put func([]byte, T), back bool) {
	var prev T
	for i := 0; i+size <= len(b); i += size {
		w := get(b[i:])
		if back {
			prev += w
			put(b[i:], prev)
		} else {
			put(b[i:], w-prev)
			prev = w
		}
	}
}

// table maps hashes of src's blocks (at multiples of block) to the block's number plus
// one, shifted left by checkBits, with that many bits of the hash besides those that
// chose the slot: a look-up whose bits differ reads nothing of src, which at a large
// section is a cache miss. Its slots are reused from section to section.
type table struct {
	slots []uint32
	shift uint
}

// prime is the multiplier of the rolling hash; pow is prime to the power block.
const prime = 0x100000001b3

var pow = func() uint64 {
	p := uint64(1)
	for range block {
		p *= prime
	}
	return p
}()

func hash(b []byte) uint64 {
	var h uint64
	for _, c := range b[:block] {
		h = h*prime + uint64(c)
	}
	return h
}

// checkBits is how many bits of a slot check its hash: a block's number fits the rest,
// since a section is under 4 GB and its blocks start at multiples of block (2^5).
const checkBits = 5

// entry returns the slot of a block of hash h, and what that slot holds for block i.
func (t *table) entry(h uint64, i int) (uint64, uint32) {
	m := h * 0x9e3779b97f4a7c15
	return m >> t.shift, uint32(i+1)<<checkBits | uint32(m>>(t.shift-checkBits))&(1<<checkBits-1)
}

// find returns where in src the block of hash h that t holds may start: -1 when t holds
// none, and false positives possible (the caller compares the bytes).
func (t *table) find(h uint64) int {
	at, want := t.entry(h, 0)
	c := t.slots[at]
	if c>>checkBits == 0 || c&(1<<checkBits-1) != want&(1<<checkBits-1) {
		return -1
	}
	return int(c>>checkBits-1) * block
}

// index fills t with src's blocks.
func (t *table) index(src []byte) {
	n := len(src) / block
	size := max(64, 1<<bits.Len(uint(2*n)))
	if cap(t.slots) < size {
		t.slots = make([]uint32, size)
	}
	t.slots = t.slots[:size]
	clear(t.slots)
	t.shift = uint(64 - bits.Len(uint(size-1)))
	for i := n - 1; i >= 0; i-- { // the first block of equal ones wins
		at, c := t.entry(hash(src[i*block:]), i)
		t.slots[at] = c
	}
}

// maxMiss caps the bytes of a section searched for a run of its source past the last
// run found: a section made anew (an export compressed again) against a source it shares
// nothing with would look up every byte of it in a table too large for any cache.
const maxMiss = 4 << 20

// encodeSection appends to out the section dst as operations on src (both transformed by
// t already).
func encodeSection(out []byte, tab *table, t byte, src, dst []byte) []byte {
	out = append(out, t)
	out = binary.AppendUvarint(out, uint64(len(dst)))
	lit, last := 0, 0 // the start of the bytes not yet coded; the end of the last copy in src
	emit := func(at, from, n int) {
		out = binary.AppendUvarint(out, uint64(at-lit))
		out = append(out, dst[lit:at]...)
		out = binary.AppendUvarint(out, uint64(n))
		if n > 0 {
			out = binary.AppendVarint(out, int64(from-last))
			last = from + n
		}
		lit = at + n
	}
	switch {
	case len(dst) >= block && bytes.Equal(src, dst):
		emit(0, 0, len(dst))
	case len(src) >= block && len(dst) >= block && len(src) < 1<<32-block:
		tab.index(src)
		i := 0
		h := hash(dst)
		for {
			if j := tab.find(h); j >= 0 {
				if bytes.Equal(src[j:j+block], dst[i:i+block]) {
					for j > 0 && i > lit && src[j-1] == dst[i-1] {
						i, j = i-1, j-1
					}
					n := common(src[j:], dst[i:])
					emit(i, j, n)
					i += n
					if i+block > len(dst) {
						break
					}
					h = hash(dst[i:])
					continue
				}
			}
			if i+block >= len(dst) || i-lit > maxMiss {
				break // the rest is added: a source it has no run of costs no more
			}
			h = h*prime + uint64(dst[i+block]) - pow*uint64(dst[i])
			i++
		}
	}
	if lit < len(dst) {
		emit(len(dst), 0, 0)
	}
	return out
}

// common returns how many bytes a and b begin with alike.
func common(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// A Delta is a delta read by Parse: what it names, before it is applied.
type Delta struct {
	Head      []byte // the file's header
	Base, Sum uint64 // the checksums of the base and of the file
	Size      int64  // the file's size
	sections  int
	rest      []byte // the sections' operations
	restAt    int    // where in the delta rest starts
}

// Parse reads a delta's head: the file it makes, and of what base.
func Parse(delta []byte) (*Delta, error) {
	if len(delta) < len(magic)+1 || string(delta[:len(magic)]) != magic {
		return nil, errors.New("not a delta")
	}
	if v := delta[len(magic)]; v != version {
		return nil, fmt.Errorf("delta version %d; this build reads %d", v, version)
	}
	r := reader{b: delta[len(magic)+1:]}
	d := &Delta{}
	d.Head = r.bytes(r.uint(1 << 10))
	d.Base, d.Sum = r.u64(), r.u64()
	d.Size = int64(r.uint(1 << 62))
	d.sections = int(r.uint(1 << 16))
	d.rest, d.restAt = r.b, len(delta)-len(r.b)
	return d, r.err
}

// Apply writes to w the file d makes of base, with the sections predict makes (the
// Predictor given to Encode), and returns how many bytes of the file it made. It
// fails, having written what it did, when d's size is over limit, base does not end with
// the checksum d applies to, the file written does not end with d's (a damaged base or
// delta), or d is not well formed. base is not modified. w is written on a goroutine
// of Apply's, never after it returns; predict is called on the caller's.
func (d *Delta) Apply(w io.Writer, base []byte, head int, limit int64, predict Predictor) (int64, error) {
	if d.Size > limit {
		return 0, fmt.Errorf("delta makes a file of %d bytes, over %d", d.Size, limit)
	}
	if len(d.Head) != head {
		return 0, fmt.Errorf("delta's header is %d bytes, not %d", len(d.Head), head)
	}
	baseSecs, err := binfile.Split(base, head)
	if err != nil {
		return 0, fmt.Errorf("base: %w", err)
	}
	if sum := binfile.Checksum(base); sum != d.Base {
		return 0, fmt.Errorf("the base ends with checksum %016x, the delta applies to %016x", sum, d.Base)
	}
	fw := binfile.NewWriter(w)
	fw.Header(d.Head)
	// The sections are written, and hashed, on a goroutine of their own while the next
	// ones are made: a follower with a core to spare makes the file in the time of the
	// longer of the two, not of both.
	queue, written := make(chan [][]byte, 2), make(chan struct{})
	go func() {
		defer close(written)
		for parts := range queue {
			fw.Section(parts...)
		}
	}()
	err = func() error {
		// Even when make panics, the writer stops before Apply returns: it may be
		// writing parts that point into base, which the caller may unmap then.
		defer func() { close(queue); <-written }()
		return d.make(queue, baseSecs, int64(head), predict)
	}()
	switch {
	case err != nil:
		return fw.Written(), err
	case fw.Sum() != d.Sum:
		return fw.Written(), errors.New("the file made differs from the delta's checksum: a base other than the delta's, or a damaged delta")
	}
	if err := fw.Finish(); err != nil {
		return fw.Written(), err
	}
	if n := fw.Written() + 8; n != d.Size { // and its checksum
		return n, fmt.Errorf("the file made is %d bytes, the delta says %d", n, d.Size)
	}
	return d.Size, nil
}

// make makes d's sections of base's, after a header of head bytes, with the sources
// predict makes, and sends each to out as its parts (see Predictor), in order. It stops
// at the first error, which it returns.
func (d *Delta) make(out chan<- [][]byte, baseSecs [][]byte, head int64, predict Predictor) error {
	r := reader{b: d.rest}
	made := make([][][]byte, 0, d.sections)
	at := head // a bound on the bytes of the file made so far: sections' padding not counted
	for i := range d.sections {
		k, t, size := r.sectionHead(i, d.Size-at)
		if r.err != nil {
			return r.err
		}
		at += 8 + int64(size)
		srcParts, ok, err := predict.source(i, k, baseSecs, made)
		if err == nil && !ok {
			err = fmt.Errorf("no source %d", k)
		}
		if err != nil {
			return fmt.Errorf("section %d: %w", i, err)
		}
		src := newRope(srcParts)
		if t != plain {
			if src.size%wordSize(t) != 0 || src.size > maxWordSection {
				return fmt.Errorf("section %d: bad transform %d", i, t)
			}
			src = newRope([][]byte{transform(t, joinParts(srcParts))})
		}
		// Counted first, so that the parts of a section of a million operations (the gigs'
		// JSON) are not copied as their slice grows.
		count := r
		parts := make([][]byte, 0, count.ops(i, size, src.size, nil))
		r.ops(i, size, src.size, func(add []byte, from, n int) {
			if len(add) > 0 {
				parts = append(parts, add)
			}
			if n > 0 {
				parts = src.appendRange(parts, from, n)
			}
		})
		if r.err != nil {
			return r.err
		}
		if t != plain {
			parts = [][]byte{bytes.Join(parts, nil)}
			untransform(t, parts[0])
		}
		out <- parts
		made = append(made, parts)
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%d bytes after the last section", len(r.b))
	}
	return nil
}

// joinParts returns the parts laid end to end: the one part itself, else a copy.
func joinParts(parts [][]byte) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	return bytes.Join(parts, nil)
}

// A rope is a source's parts, laid end to end, read without joining them.
type rope struct {
	parts [][]byte
	at    []int // where each part starts in the source
	size  int
}

func newRope(parts [][]byte) rope {
	r := rope{parts: parts, at: make([]int, len(parts))}
	for j, p := range parts {
		r.at[j] = r.size
		r.size += len(p)
	}
	return r
}

// appendRange appends to out the bytes [from, from+n) of the source, as views of its
// parts.
func (r rope) appendRange(out [][]byte, from, n int) [][]byte {
	j, _ := slices.BinarySearch(r.at, from+1) // the first part starting after from
	for j--; n > 0; j++ {
		p := r.parts[j][from-r.at[j]:]
		if len(p) == 0 {
			continue
		}
		p = p[:min(n, len(p))]
		out = append(out, p)
		from, n = from+len(p), n-len(p)
	}
	return out
}

// sectionHead reads the head of section i, of at most left bytes: its source, transform
// and size.
func (r *reader) sectionHead(i int, left int64) (k int, t byte, size int) {
	k = int(r.uint(maxSource))
	t = r.byte()
	size = int(r.uint(uint64(max(0, left))))
	if t >= nTransf || t != plain && (size%wordSize(t) != 0 || size > maxWordSection) {
		r.fail(fmt.Errorf("section %d: bad transform %d", i, t))
	}
	return k, t, size
}

// ops reads the operations of section i, which make size bytes from a source of srcLen
// bytes, and calls f, when not nil, with each one's bytes added and copy (see op); it
// returns how many parts they make, added bytes and copies counted apart. It stops at
// r's first error.
func (r *reader) ops(i, size, srcLen int, f func(add []byte, from, n int)) int {
	parts, last := 0, 0
	for left := size; left > 0 && r.err == nil; {
		add, from, n := r.op(i, left, srcLen, last)
		if r.err != nil {
			break
		}
		if f != nil {
			f(add, from, n)
		}
		if len(add) > 0 {
			parts++
		}
		if n > 0 {
			parts++
			last = from + n
		}
		left -= len(add) + n
	}
	return parts
}

// op reads the next operation of section i, which has left bytes to make from a source
// of srcLen bytes whose last copy ended at last: the bytes it adds, then where in the
// source its copy starts and its length (0 for none). An operation out of its source or
// section fails r, as does one that makes nothing.
func (r *reader) op(i, left, srcLen, last int) (add []byte, from, n int) {
	a := r.uint(uint64(left))
	if a > 0 {
		add = r.take(int(a))
	}
	c := r.uint(uint64(left) - a)
	switch {
	case c == 0 && a > 0 && a != uint64(left):
		// Encode ends a literal with a copy, but a section's last: an operation
		// makes a block or more, so its parts are a few per block of the file.
		r.fail(fmt.Errorf("section %d: a literal of %d bytes with no copy after it, and %d bytes to make", i, a, left))
	case c > 0 && c < block:
		r.fail(fmt.Errorf("section %d: a copy of %d bytes, shorter than a block", i, c))
	case a+c == 0:
		r.fail(fmt.Errorf("section %d: an operation that makes nothing", i))
	}
	if c == 0 || r.err != nil {
		return add, 0, 0
	}
	step := r.sint()
	at := int64(last) + step
	if step < -int64(srcLen) || step > int64(srcLen) || at < 0 || at+int64(c) > int64(srcLen) {
		r.fail(fmt.Errorf("section %d: a copy of %d bytes at %d, out of its base's %d", i, c, at, srcLen))
		return add, 0, 0
	}
	return add, int(at), int(c)
}

// A Section says how a delta codes one section of its file.
type Section struct {
	Source    int  // what it is coded against: 0 the base's section, k a Predictor's k-th
	Transform byte // 0 none, 1 and 2 differences of 4- and 8-byte words
	Size      int  // of the section in the file
	At, Coded int  // where in the delta its coding starts, and its bytes
	Added     int  // bytes of it the delta holds (the rest are copies)
}

// Sections reads how d codes each section of its file, without applying it: what makes
// a delta large.
func (d *Delta) Sections() ([]Section, error) {
	r := reader{b: d.rest}
	var out []Section
	left := d.Size
	for i := range d.sections {
		at := len(r.b)
		k, t, size := r.sectionHead(i, left)
		sec := Section{Source: k, Transform: t, Size: size}
		r.ops(i, size, 1<<50, func(add []byte, _, _ int) { sec.Added += len(add) }) // the source unknown: any copy fits
		if r.err != nil {
			return out, r.err
		}
		sec.At, sec.Coded = d.restAt+len(d.rest)-at, at-len(r.b)
		left -= int64(size)
		out = append(out, sec)
	}
	return out, nil
}

// reader reads a delta's integers and bytes; its first error stops every later read.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

var errShort = errors.New("delta cut short")

// uint reads an unsigned varint, which must be at most limit.
func (r *reader) uint(limit uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	if v > limit {
		r.fail(fmt.Errorf("delta gives %d where at most %d fits", v, limit))
		return 0
	}
	return v
}

// sint reads a zigzag varint (binary.AppendVarint's).
func (r *reader) sint() int64 {
	u := r.uint(math.MaxUint64)
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.fail(errShort)
		return nil
	}
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) bytes(n uint64) []byte { return r.take(int(n)) }

func (r *reader) byte() byte {
	if b := r.take(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); len(b) == 8 {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
