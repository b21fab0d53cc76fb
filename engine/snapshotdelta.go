package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/gigs/gigs/engine/internal/bindelta"
	"github.com/gigs/gigs/engine/internal/deflate"
	"github.com/gigs/gigs/engine/internal/mapfile"
	"github.com/klauspost/compress/gzip"
)

// A snapshot delta turns one snapshot file (its base) into another, byte for byte: the
// sections of the file that did not change are copies of the base's, the rest are in
// the delta (see package bindelta). A follower that holds the base downloads the delta
// rather than the whole file; the file it makes ends with the checksum the delta names,
// or the delta is refused.

// snapshotHead is the length of a snapshot file's header: its magic line and version.
const snapshotHead = len(snapshotMagic) + 4

// The sections of a snapshot file (of this format version) a delta's sources are made
// from and for (see snapshotSources). TestSnapshotDeltaSections holds these numbers to
// the file's layout: a format that moves them renumbers them.
const (
	sectionBuilt      = 1
	sectionArena      = 4 // the gigs' JSON, their offsets after it
	sectionZArena     = 6 // the gigs' deflate fragments, their offsets after it
	sectionGigHash    = 8
	sectionIDs        = 9 // the gig ids' arena, and their offsets after it
	sectionExportHead = 110
	sectionExportTail = 111
	sectionExportGzip = 112
	sectionContent    = 117 // the ledger's hash of each gig's JSON less its times
	sectionTombBodies = 183 // the JSON of gigs gone from the sources
)

// snapshotSources offers the sources a delta of snapshot files codes sections against
// besides the base's (see bindelta.Predictor), each what a section is made of, made on
// both sides from the base and the file's sections before it:
//   - the gigs' deflate fragments as renderGigs makes them: the base's fragment of a gig
//     whose JSON is the base's (a view of it, see fileGigs, or found by the base's gig
//     hashes among the others), the others compressed with the base's code (a base
//     without gigs: the coder made from the file's gigs as sampleGigs does); and the
//     offsets of those fragments after them;
//   - the gigs' hashes, and the ledger's hashes of their JSON less its times, hashed
//     from the file's gigs (the base's, of a gig whose JSON is a view of the base's);
//   - the export's gzip body compressed from the file's own export body, since a few
//     gigs changed anywhere change all of its bytes; and for a section the base holds a
//     gzip member in, the section before it compressed as Build compresses the
//     directories' bodies (each a section of JSON, then its gzip);
//   - the JSON of gigs gone from the sources, kept with their tombstones: the base's,
//     then the JSON of the base's gigs the file has not;
//   - for a section after the gig ids laid out as bitmaps by the offsets in the section
//     before it (an index's big postings), the base's bitmaps with their positions
//     renumbered to the file's gigs (by their ids; a removed gig's dropped);
//   - for a section of 4-byte words after the gig ids, the base's words read as gig
//     positions and renumbered likewise, since each gig added or removed moves the
//     positions after it in every list of positions;
//   - for a section after the gig ids of one word per gig of the base (1 to 8 bytes: its
//     day, status, ledger entries), the base's words in the order of the file's gigs (by
//     their ids; zero for a gig added), since a gig whose start moved moves its words.
//
// Words or bitmaps that are not positions are renumbered too, as nonsense that a delta
// does not choose. A source that cannot be made (sections inconsistent: a damaged delta,
// or a base that is not a snapshot file) is empty: a delta coded against it does not apply.
type snapshotSources struct {
	moved []int32 // the base's gig positions in the file, -1 for a gig removed; made once
	gigs  int     // the file's gigs, with moved
	err   error   // why moved could not be made
	// The file's gigs, made once (see fileGigs): their JSON, the base's gig each is a
	// view of (or -1), the xxhash of each one's JSON and of its JSON less its times.
	rows            *gigRows
	from            []int32
	hashes, content []uint64
	gigsErr         error  // why they could not be read
	zoff            []byte // the offsets of the fragments made, as the file lays them out
}

func (p *snapshotSources) source(i, k int, base [][]byte, made [][][]byte) ([][]byte, bool, error) {
	if len(made) != i {
		return nil, false, nil
	}
	var makers []func() ([][]byte, error)
	switch {
	case i == sectionZArena:
		makers = append(makers, func() ([][]byte, error) { return p.fragments(base, made) })
	case i == sectionZArena+1:
		makers = append(makers, whole(func() ([]byte, error) {
			if p.zoff == nil {
				if _, err := p.fragments(base, made[:sectionZArena]); err != nil {
					return nil, err
				}
			}
			return p.zoff, nil
		}))
	case i == sectionGigHash:
		makers = append(makers, whole(func() ([]byte, error) { return p.gigHashes(base, made, false) }))
	case i == sectionExportGzip:
		makers = append(makers, func() ([][]byte, error) { // its parts, not joined (91 MB at 1M)
			parts, _, err := compressExport(slices.Concat(made[sectionExportHead], made[sectionArena], made[sectionExportTail]))
			return parts, err
		})
	case i == sectionContent:
		makers = append(makers, whole(func() ([]byte, error) { return p.gigHashes(base, made, true) }))
	case i == sectionTombBodies && i < len(base):
		makers = append(makers, whole(func() ([]byte, error) { return goneBodies(base, p.movedGigs(base, made)) }))
	case i > 0 && i < len(base) && bytes.HasPrefix(base[i], gzipMagic):
		makers = append(makers, whole(func() ([]byte, error) { return bodyGzip(joined(made[i-1]), gzip.DefaultCompression) }))
	}
	if i > sectionIDs+1 && i < len(base) {
		if frz, ok := bitmapOffsets(base[i-1], len(base[i])); ok {
			makers = append(makers, whole(func() ([]byte, error) { return renumberBitmaps(base[i], frz, p.movedGigs(base, made)) }))
		}
		if len(base[i])%4 == 0 && len(base[i]) <= maxRenumbered {
			makers = append(makers, whole(func() ([]byte, error) { return renumber(base[i], p.movedGigs(base, made)) }))
		}
		if moved := p.movedGigs(base, made); len(moved) > 0 && len(base[i])%len(moved) == 0 {
			if w := len(base[i]) / len(moved); w == 1 || w == 2 || w == 4 || w == 8 {
				makers = append(makers, whole(func() ([]byte, error) { return gathered(base[i], w, moved, p.gigs), nil }))
			}
		}
	}
	if k < 1 || k > len(makers) {
		return nil, false, nil
	}
	src, err := makers[k-1]()
	if err != nil {
		return nil, true, nil // an empty source: a delta coded against it does not apply
	}
	return src, true, nil
}

// whole returns the maker of a source of one part, the bytes f makes.
func whole(f func() ([]byte, error)) func() ([][]byte, error) {
	return func() ([][]byte, error) {
		b, err := f()
		return [][]byte{b}, err
	}
}

// gzipMagic begins a gzip member.
var gzipMagic = []byte{0x1f, 0x8b, 8}

// movedGigs returns where each of the base's gigs went in the file made (see
// movedGigs), made once; nil when the sections are inconsistent.
func (p *snapshotSources) movedGigs(base [][]byte, made [][][]byte) []int32 {
	if p.moved == nil && p.err == nil {
		p.moved, p.gigs, p.err = movedGigs(base, made)
	}
	return p.moved
}

// gathered returns the words of b, w bytes each, one per gig of the base, laid out as
// the file's gigs by moved: a gig's the base gave it, zeros for one the base has not.
func gathered(b []byte, w int, moved []int32, gigs int) []byte {
	out := make([]byte, w*gigs)
	for j, to := range moved {
		if to >= 0 {
			copy(out[w*int(to):w*int(to)+w], b[w*j:])
		}
	}
	return out
}

// gigHashes returns the xxhash of the JSON of each of the file's gigs made (the gig
// hashes), as the file lays them out; content, of their JSON less its times (the
// ledger's content hashes).
func (p *snapshotSources) gigHashes(base [][]byte, made [][][]byte, content bool) ([]byte, error) {
	if err := p.fileGigs(base, made); err != nil {
		return nil, err
	}
	hashes := p.hashes
	if content {
		hashes = p.content
	}
	if hashes == nil {
		return nil, errors.New("a gig without its times")
	}
	out := make([]byte, 0, 8*len(hashes))
	for _, h := range hashes {
		out = binary.LittleEndian.AppendUint64(out, h)
	}
	return out, nil
}

// fileRows returns the JSON of the file's gigs made, read from the parts of its section
// as made (see gigRows).
func fileRows(made [][][]byte) (*gigRows, error) {
	if len(made) <= sectionArena+1 {
		return nil, errors.New("no gigs")
	}
	size := 0
	for _, p := range made[sectionArena] {
		size += len(p)
	}
	off, ok := gigOffsets(joined(made[sectionArena+1]), size)
	// Each gig ends with its separator: offsets that repeat (a hostile delta's) make a
	// gig of -1 bytes.
	for i := 1; ok && i < len(off); i++ {
		ok = off[i] > off[i-1]
	}
	if !ok {
		return nil, errors.New("gigs' offsets inconsistent")
	}
	parts := made[sectionArena]
	if len(parts) == 0 { // an empty section: a gig of no JSON is still a row of one
		parts = [][]byte{nil}
	}
	return &gigRows{parts: parts, off: off, sep: 1}, nil
}

// gigRows reads the JSON of gigs from an arena made of parts (the copies and additions a
// delta makes it of), laid out by offsets as gigOffsets reads them, without joining the
// parts (656 MB at a million gigs): a gig within a part is a slice of it, one across
// parts a copy into a buffer reused, valid until the next row read. Rows are read in
// ascending order; reading a lower one starts over from the first part.
type gigRows struct {
	parts [][]byte
	off   []int // the gigs' offsets: gig i is [off[i], off[i+1]-sep)
	sep   int   // the bytes after each gig: 1, its comma (0 for rows of other arenas)
	part  int   // the part the last row read began in
	at    int   // where that part begins in the arena
	buf   []byte
}

// len returns the number of gigs.
func (r *gigRows) len() int { return len(r.off) - 1 }

// row returns the JSON of gig i.
func (r *gigRows) row(i int) []byte {
	start, end := r.off[i], r.off[i+1]-r.sep
	if start < r.at {
		r.part, r.at = 0, 0
	}
	for r.part < len(r.parts)-1 && start >= r.at+len(r.parts[r.part]) {
		r.at += len(r.parts[r.part])
		r.part++
	}
	if p := r.parts[r.part]; end-r.at <= len(p) {
		return p[start-r.at : end-r.at]
	}
	r.buf = r.buf[:0]
	for k, at := r.part, r.at; len(r.buf) < end-start; k++ {
		p := r.parts[k]
		r.buf = append(r.buf, p[max(start-at, 0):min(end-at, len(p))]...)
		at += len(p)
	}
	return r.buf
}

// goneBodies returns the base's JSON of gigs gone from the sources, then the JSON of the
// base's gigs the file has not.
func goneBodies(base [][]byte, moved []int32) ([]byte, error) {
	off, ok := gigOffsets(base[sectionArena+1], len(base[sectionArena]))
	if moved == nil || !ok || len(off) != len(moved)+1 {
		return nil, errors.New("gigs inconsistent")
	}
	gone := slices.Clone(base[sectionTombBodies])
	for j, to := range moved {
		if to < 0 {
			gone = append(gone, base[sectionArena][off[j]:off[j+1]-1]...)
		}
	}
	return gone, nil
}

// bitmapOffsets reads b as the offsets of bitmaps (see postings.frz) laid out in a
// section of size bytes: pairs of 4-byte words, each bitmap's start at a 32-byte
// boundary, ascending within the section.
func bitmapOffsets(b []byte, size int) ([]uint32, bool) {
	if len(b)%8 != 0 || len(b) == 0 {
		return nil, false
	}
	frz := make([]uint32, len(b)/4)
	last := uint32(0)
	for j := range frz {
		frz[j] = binary.LittleEndian.Uint32(b[4*j:])
		if frz[j] < last || int(frz[j]) > size || j%2 == 0 && frz[j]%32 != 0 {
			return nil, false
		}
		last = frz[j]
	}
	return frz, true
}

// renumberBitmaps returns the bitmaps of packed, laid out by frz, with their positions
// renumbered by moved (a removed gig's dropped), laid out as newPostings lays them (as
// bitmapOf makes them of the same positions). The positions are set in one dense bitmap
// reused for all, read a block at a time: a delta applied at a million gigs renumbers
// thousands of bitmaps, most gigs in order, and sorting them cost more than the rest.
func renumberBitmaps(packed []byte, frz []uint32, moved []int32) ([]byte, error) {
	if moved == nil {
		return nil, errors.New("gigs inconsistent")
	}
	var out []byte
	var words []uint64 // the bitmap being renumbered, dense; all zeros between bitmaps
	var block [256]uint32
	for j := 0; j < len(frz); j += 2 {
		var b roaring.Bitmap
		buf := packed[frz[j]:frz[j+1]]
		if n, err := b.FromUnsafeBytes(buf); err != nil || int(n) != len(buf) || b.Validate() != nil {
			return nil, errors.New("not a bitmap")
		}
		top := -1 // the largest position set
		it := b.ManyIterator()
	read:
		for n := it.NextMany(block[:]); n > 0; n = it.NextMany(block[:]) {
			for _, w := range block[:n] {
				if int64(w) >= int64(len(moved)) {
					break read // ascending: no more gigs of the base (a bitmap may claim 2^32 of them)
				}
				if to := int(moved[w]); to >= 0 {
					if to>>6 >= len(words) {
						words = append(words, make([]uint64, to>>6+1-len(words))...)
					}
					words[to>>6] |= 1 << (to & 63)
					top = max(top, to)
				}
			}
		}
		r := roaring.New()
		if top >= 0 {
			r = roaring.FromDense(words[:top>>6+1], false) // it keeps words: cleared once written
			r.RunOptimize()
		}
		f, err := r.ToBytes()
		clear(words[:top>>6+1])
		if err != nil {
			return nil, err
		}
		for len(out)%32 != 0 {
			out = append(out, 0)
		}
		out = append(out, f...)
	}
	return out, nil
}

// fragments makes the deflate fragments of the gigs of the file (see snapshotSources), as
// parts: runs of the base's fragments, not copied, and the fragments compressed; and
// keeps their offsets. A gig of the base is the one its JSON is a view of (see fileGigs),
// else is found by the hash of its JSON (the base's gig hashes) among the others.
func (p *snapshotSources) fragments(base [][]byte, made [][][]byte) ([][]byte, error) {
	if len(base) <= sectionGigHash {
		return nil, errors.New("no gigs")
	}
	if err := p.fileGigs(base, made); err != nil {
		return nil, err
	}
	rows := p.rows
	bOff, ok1 := gigOffsets(base[sectionArena+1], len(base[sectionArena]))
	bZoff, ok2 := gigOffsets(base[sectionZArena+1], len(base[sectionZArena])-1)
	built, hashes := joined(made[sectionBuilt]), base[sectionGigHash]
	if !ok1 || !ok2 || len(bOff) != len(bZoff) || len(hashes) != 8*(len(bOff)-1) || len(built) != 8 {
		return nil, errors.New("gigs' offsets inconsistent")
	}
	baseRow := func(j int) []byte { return base[sectionArena][bOff[j] : bOff[j+1]-1] }
	// The base's gigs no gig of the file is a view of, by hash, made once when a gig
	// that is not a view is looked for.
	var was map[uint64]int32
	lookup := func(h uint64) (int32, bool) {
		if was == nil {
			seen := make([]bool, len(bOff)-1)
			for _, j := range p.from {
				if j >= 0 {
					seen[j] = true
				}
			}
			was = make(map[uint64]int32)
			for j := len(bOff) - 2; j >= 0; j-- { // the first of equal hashes wins
				if !seen[j] {
					was[binary.LittleEndian.Uint64(hashes[8*j:])] = int32(j)
				}
			}
		}
		j, ok := was[h]
		return j, ok
	}
	// The base's code, as Build takes its Prev's (see reuse.go); a base without gigs, or
	// whose code cannot be read, leaves the file's code made from its sample.
	var coder *deflate.Coder
	if len(bZoff) > 1 {
		coder, _ = deflate.ReadCoder(base[sectionZArena][bZoff[0]:bZoff[1]])
	}
	if coder == nil {
		coder = deflate.NewCoder(sampleOf(rows.len(), func(i int) []byte {
			g := rows.row(i)
			if k := bytes.LastIndex(g, []byte(`,"created_at":`)); k >= 0 {
				g = g[:k]
			}
			return slices.Clip(g)
		}, int64(binary.LittleEndian.Uint64(built))))
	}
	// The fragments as runs: of the base's section (fromBase) or of z, the ones compressed.
	type run struct {
		fromBase bool
		start    int
		end      int
	}
	var runs []run
	add := func(fromBase bool, start, end int) {
		if l := len(runs) - 1; l >= 0 && runs[l].fromBase == fromBase && runs[l].end == start {
			runs[l].end = end
			return
		}
		runs = append(runs, run{fromBase, start, end})
	}
	var m deflate.Matcher
	var z []byte
	zoff := make([]byte, 0, 8*rows.len()+8)
	at := 0
	for i, j := range p.from {
		zoff = binary.LittleEndian.AppendUint64(zoff, uint64(at))
		if j < 0 {
			if k, ok := lookup(p.hashes[i]); ok && bytes.Equal(baseRow(int(k)), rows.row(i)) {
				j = k
			}
		}
		if j >= 0 {
			add(true, bZoff[j], bZoff[j+1])
			at += bZoff[j+1] - bZoff[j]
			continue
		}
		n := len(z)
		z = coder.AppendFragment(z, rows.row(i), &m)
		add(false, n, len(z))
		at += len(z) - n
	}
	p.zoff = binary.LittleEndian.AppendUint64(zoff, uint64(at))
	parts := make([][]byte, len(runs))
	for k, r := range runs {
		if r.fromBase {
			parts[k] = base[sectionZArena][r.start:r.end]
		} else {
			parts[k] = z[r.start:r.end]
		}
	}
	return parts, nil
}

// joined returns the bytes of a section made of parts: its one part itself (a section of
// the file a delta is written to), else the parts joined.
func joined(parts [][]byte) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	return bytes.Join(parts, nil)
}

// gigOffsets reads a section of 8-byte offsets of gigs into an arena of size bytes (and
// a comma after the last): whether they start at 0, ascend, and end there.
func gigOffsets(b []byte, size int) ([]int, bool) {
	if len(b)%8 != 0 || len(b) < 8 {
		return nil, false
	}
	at := make([]int, len(b)/8)
	for i := range at {
		v := binary.LittleEndian.Uint64(b[8*i:])
		if v > uint64(size)+1 || i > 0 && int(v) < at[i-1] {
			return nil, false
		}
		at[i] = int(v)
	}
	return at, at[0] == 0 && at[len(at)-1] == size+1
}

// maxRenumbered caps the sections renumbered: larger ones are arenas of bytes.
const maxRenumbered = 64 << 20

// renumber returns the little-endian 4-byte words of b with each that is a position of
// moved replaced by where it moved, and dropped when its gig was removed.
func renumber(b []byte, moved []int32) ([]byte, error) {
	if moved == nil {
		return nil, errors.New("gigs inconsistent")
	}
	out := make([]byte, 0, len(b))
	for i := 0; i+4 <= len(b); i += 4 {
		w := binary.LittleEndian.Uint32(b[i:])
		if int64(w) < int64(len(moved)) {
			if moved[w] < 0 {
				continue
			}
			w = uint32(moved[w])
		}
		out = binary.LittleEndian.AppendUint32(out, w)
	}
	return out, nil
}

// WriteSnapshotDelta writes to w the delta that turns the snapshot file at basePath into
// the one at path, a section at a time (see bindelta.Encode): it stops at w's first
// error, which it returns wrapped. Neither file is checked beyond its layout of sections:
// both are files WriteFile wrote.
func WriteSnapshotDelta(w io.Writer, basePath, path string) error {
	base, err := mapSnapshotFile(basePath)
	if err != nil {
		return err
	}
	defer base.UnmapAfter(0)
	file, err := mapSnapshotFile(path)
	if err != nil {
		return err
	}
	defer file.UnmapAfter(0)
	if err := bindelta.Encode(w, base.Bytes(), file.Bytes(), snapshotHead, (&snapshotSources{}).source); err != nil {
		return fmt.Errorf("cannot write the delta of %q to %q: %w", basePath, path, err)
	}
	return nil
}

// SnapshotDelta is a delta read by ReadSnapshotDelta or OpenSnapshotDelta, not yet
// applied.
type SnapshotDelta struct {
	d *bindelta.Delta
	m mapfile.Mapping // the file OpenSnapshotDelta mapped; zero for ReadSnapshotDelta's
}

// ReadSnapshotDelta reads the head of a delta WriteSnapshotDelta wrote: what it makes,
// and of what. A delta of a snapshot file of another format version is refused. delta is
// kept, not copied, and must not be modified while d is in use.
func ReadSnapshotDelta(delta []byte) (*SnapshotDelta, error) {
	d, err := bindelta.Parse(delta)
	if err != nil {
		return nil, err
	}
	if len(d.Head) != snapshotHead || string(d.Head[:len(snapshotMagic)]) != snapshotMagic {
		return nil, errors.New("not the delta of a snapshot file")
	}
	if v := binary.LittleEndian.Uint32(d.Head[len(snapshotMagic):]); v != snapshotVersion {
		return nil, fmt.Errorf("delta of a snapshot file of format version %d; this build reads version %d", v, snapshotVersion)
	}
	return &SnapshotDelta{d: d}, nil
}

// OpenSnapshotDelta reads the head of the delta in the regular file at path, as
// ReadSnapshotDelta does, mapped into memory rather than read (see package mapfile): a
// delta costs the page cache, not the heap. The file must not be changed until Close.
func OpenSnapshotDelta(path string) (*SnapshotDelta, error) {
	m, err := mapRegular(path, "delta")
	if err != nil {
		return nil, err
	}
	d, err := ReadSnapshotDelta(m.Bytes())
	if err != nil {
		m.UnmapAfter(0)
		return nil, fmt.Errorf("delta %q: %w", path, err)
	}
	d.m = m
	return d, nil
}

// Close unmaps the file OpenSnapshotDelta mapped; d is not to be used after.
func (d *SnapshotDelta) Close() {
	if d.m.Bytes() != nil {
		d.m.UnmapAfter(0)
	}
}

// Base returns the checksum of the snapshot file d applies to (see SnapshotFileSum).
func (d *SnapshotDelta) Base() uint64 { return d.d.Base }

// Sum returns the checksum of the snapshot file d makes.
func (d *SnapshotDelta) Sum() uint64 { return d.d.Sum }

// Size returns the size of the snapshot file d makes.
func (d *SnapshotDelta) Size() int64 { return d.d.Size }

// Apply writes to w the snapshot file d makes of the one at basePath, and returns the
// bytes written. It fails when that file would be over limit bytes (before writing any),
// when d is damaged, or when the file made is not the one d names (its checksum):
// whatever was written to w then is to be thrown away.
func (d *SnapshotDelta) Apply(w io.Writer, basePath string, limit int64) (int64, error) {
	base, err := mapSnapshotFile(basePath)
	if err != nil {
		return 0, err
	}
	defer base.UnmapAfter(0)
	n, err := d.d.Apply(w, base.Bytes(), snapshotHead, limit, (&snapshotSources{}).source)
	if err != nil {
		return n, fmt.Errorf("snapshot file %q: %w", basePath, err)
	}
	return n, nil
}

// SnapshotFileSum returns the checksum a snapshot file ends with (the xxhash64 of all its
// bytes before it), without reading the rest: it names the file's content.
func SnapshotFileSum(path string) (uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if fi.Size() < int64(snapshotHead)+8 {
		return 0, fmt.Errorf("snapshot file %q: not a snapshot file (%d bytes)", path, fi.Size())
	}
	var b [8]byte
	if _, err := f.ReadAt(b[:], fi.Size()-8); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}
