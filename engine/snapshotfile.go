package engine

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/atomicfile"
	"github.com/gigs/gigs/engine/internal/mapfile"
)

// The snapshot file: a magic line and a little-endian uint32 format version, then the
// snapshot's arrays as sections in a fixed order (each a uint64 byte length, zero padding
// to a 32-byte boundary, and its bytes), then the xxhash64 of everything before it.
// Sections start at 32-byte boundaries so that a read buffer's bitmaps are viewed
// in place, aligned as roaring requires. A file of another version is refused: the next
// refresh writes one of this version.
const (
	snapshotMagic   = "gigs-snapshot\n"
	snapshotVersion = 4
	sectionAlign    = 32
)

// WriteFile writes s to path, replacing the file atomically: a reader finds the previous
// file or this one, never a part.
func (s *Snapshot) WriteFile(path string) error {
	return atomicfile.WriteFunc(path, 0o600, func(w io.Writer) error {
		fw := &fileWriter{w: bufio.NewWriterSize(w, 1<<20), h: xxhash.New()}
		fw.write([]byte(snapshotMagic))
		fw.write(binary.LittleEndian.AppendUint32(nil, snapshotVersion))
		s.sections(&codec{w: fw})
		if fw.err != nil {
			return fw.err
		}
		if _, err := fw.w.Write(binary.LittleEndian.AppendUint64(nil, fw.h.Sum64())); err != nil {
			return err
		}
		return fw.w.Flush()
	})
}

// ReadSnapshotFile reads a snapshot WriteFile wrote, with no rebuild: the file is mapped
// into memory (read into one buffer on systems without mmap), and the large arrays are views
// of it. A file that is not a snapshot, of another version, damaged (its checksum), or
// inconsistent (an index out of range) is an error naming the file; so is one that cannot
// be opened (an *fs.PathError within) or mapped.
//
// A mapped file must not be changed in place while it is served (WriteFile replaces it
// with another file, which is safe). When the snapshot is no longer reachable its pages
// are handed back at once, and the mapping itself is removed an hour later, after any
// response still writing its bytes has ended.
func ReadSnapshotFile(path string) (*Snapshot, error) {
	data, err := mapSnapshotFile(path)
	if err != nil {
		return nil, err
	}
	s, err := decodeSnapshot(data.Bytes())
	if err != nil {
		data.UnmapAfter(0)
		return nil, fmt.Errorf("snapshot file %q: %w", path, err)
	}
	runtime.AddCleanup(s, func(m mapfile.Mapping) { m.UnmapAfter(unmapGrace) }, data)
	go s.checksumGigs() // it keeps s, and so its mapping, until it is done
	return s, nil
}

// mapSnapshotFile maps the regular file at path into memory (see package mapfile): a
// restart reads the snapshot it served without faulting in a buffer of its size.
func mapSnapshotFile(path string) (mapfile.Mapping, error) {
	f, size, err := atomicfile.OpenRegular(path)
	if err != nil {
		return mapfile.Mapping{}, err
	}
	defer f.Close()
	if size == 0 || size != int64(int(size)) {
		return mapfile.Mapping{}, fmt.Errorf("snapshot file %q: not a snapshot file (%d bytes)", path, size)
	}
	m, err := mapfile.Map(f, int(size))
	if err != nil {
		return mapfile.Mapping{}, fmt.Errorf("cannot map snapshot file %q: %w", path, err)
	}
	return m, nil
}

// checksumGigs computes gigCRC, which a snapshot file does not hold, and sets crcReady.
func (s *Snapshot) checksumGigs() {
	crcs := make([]uint32, len(s.keys))
	for i := range crcs {
		crcs[i] = commaCRC(s.GigJSON(i))
	}
	s.gigCRC = crcs
	s.crcReady.Store(true)
}

// unmapGrace is how long a mapped snapshot's memory stays mapped once the snapshot is
// unreachable: longer than any response may take to write bytes it holds of it (the
// export's 30 minutes).
const unmapGrace = time.Hour

var errDamaged = errors.New("damaged: its checksum does not match")

func decodeSnapshot(data []byte) (*Snapshot, error) {
	head := len(snapshotMagic) + 4
	if len(data) < head+8 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, errors.New("not a snapshot file")
	}
	if v := binary.LittleEndian.Uint32(data[len(snapshotMagic):]); v != snapshotVersion {
		return nil, fmt.Errorf("format version %d; this build reads version %d", v, snapshotVersion)
	}
	body := data[:len(data)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(data[len(data)-8:]) {
		return nil, errDamaged
	}
	r := &fileReader{data: body, at: head}
	s := &Snapshot{read: true}
	s.sections(&codec{r: r})
	if r.err != nil {
		return nil, r.err
	}
	if r.at != len(body) {
		return nil, fmt.Errorf("%d bytes after the last section", len(body)-r.at)
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, s.views()
}

// sections lists what the file holds, in order, for writing and reading alike.
func (s *Snapshot) sections(c *codec) {
	c.str(&s.version)
	built := s.built.Unix()
	c.int64(&built)
	counts := []int{s.counts.Gigs, s.counts.Cities, s.counts.Venues, s.counts.Artists, s.counts.Genres}
	words(c, &counts, 8)
	if c.r != nil && len(counts) == 5 {
		s.built = time.Unix(built, 0).UTC()
		s.counts = Counts{counts[0], counts[1], counts[2], counts[3], counts[4]}
	}
	words(c, &s.keys, 8)
	c.parts(&s.arena)
	words(c, &s.off, 8)
	c.parts(&s.zarena)
	words(c, &s.zoff, 8)
	words(c, &s.gigHash, 8)
	c.keyTable(&s.ids)
	words(c, &s.days, 4)
	c.bytes(&s.status)
	window := []int64{int64(s.dayBase), int64(s.dayN)}
	words(c, &window, 8)
	if c.r != nil && len(window) == 2 {
		s.dayBase, s.dayN = int32(window[0]), int(window[1])
	}
	words(c, &s.allDays.cum, 4)
	words(c, &s.allDays.first, 4)
	for d := range s.index {
		c.postings(&s.index[d])
	}
	if c.r != nil {
		s.cities, s.venues, s.artists, s.genres = &Body{}, &Body{}, &Body{}, &Body{}
		s.export = &Export{}
	}
	for _, b := range []*Body{s.cities, s.venues, s.artists, s.genres} {
		c.bytes(&b.Raw)
		c.bytes(&b.Gzip)
		c.str(&b.ETag)
	}
	c.keyTable(&s.venueSlugs)
	v := &s.venueDetail
	// Format 4 began with each venue's gzip body kept (a byte section and its offsets)
	// where noGzip and noGzipAt are; they are assembled per request since. A file written
	// now holds none (every venue without one, as a release before reads it), a file
	// written before is read without them: releases on either side read each other's
	// files, and a follower may run either.
	var noGzip []byte
	var noGzipAt []int
	if c.w != nil {
		noGzipAt = make([]int, len(v.headAt))
	}
	c.bytes(&v.head)
	words(c, &v.pos, 4)
	c.bytes(&noGzip)
	c.str(&v.tags)
	words(c, &v.headAt, 8)
	words(c, &v.posAt, 8)
	words(c, &noGzipAt, 8)
	words(c, &v.tagAt, 8)
	c.bytes(&s.venueItems)
	words(c, &s.venueOff, 4)
	c.postings(&s.venueIndex)
	e := s.export
	c.bytes(&e.Head)
	c.bytes(&e.Tail)
	c.parts(&e.Gzip)
	c.str(&e.ETag)
	if c.r != nil {
		e.Size = len(e.Head) + s.gigsSize() + len(e.Tail)
		e.GzipSize = len(e.Gzip[0])
	}
	c.bytes(&s.metaHead)
	c.bytes(&s.metaTail)
	c.ledger(&s.ledger)
}

func (c *codec) ledger(l *ledger) {
	head := []uint64{l.epoch, l.seq, l.floor, uint64(l.changed)}
	words(c, &head, 8)
	if c.r != nil && len(head) == 4 {
		l.epoch, l.seq, l.floor, l.changed = head[0], head[1], head[2], int64(head[3])
	}
	words(c, &l.content, 8)
	words(c, &l.created, 8)
	words(c, &l.updated, 8)
	words(c, &l.firstSeq, 8)
	words(c, &l.lastSeq, 8)
	t := &l.tomb
	c.keyTable(&t.ids)
	words(c, &t.removed, 8)
	words(c, &t.seq, 8)
	c.bytes(&t.reason)
	c.bytes(&t.into)
	words(c, &t.intoOff, 4)
	words(c, &l.feed, 4)
}

// check proves that no index in a read snapshot points outside what it indexes, so that
// no query can fail on it: offsets ascend within their arenas, positions are below the
// number of gigs (venues for the venue index), and the counts agree.
func (s *Snapshot) check() error {
	n := len(s.keys)
	var errs []error
	bad := func(what string, ok bool) {
		if !ok {
			errs = append(errs, errors.New(what))
		}
	}
	bad("gig offsets", len(s.off) == n+1 && ascending(s.off, true) && s.off[0] == 0 && len(s.arena) == 1 &&
		(n == 0 || s.off[n]-1 == len(s.arena[0])))
	bad("gig fragments", len(s.zoff) == n+1 && ascending(s.zoff, false) && s.zoff[0] == 0 && len(s.zarena) == 1 &&
		s.zoff[n] == len(s.zarena[0]))
	bad("start times", ascending(s.keys, false))
	bad("days", len(s.days) == n)
	bad("statuses", len(s.status) == n && below(s.status, len(Statuses)))
	bad("gig hashes", len(s.gigHash) == n)
	bad("day window", s.dayN >= 0 && s.dayN <= maxDayWindow && len(s.allDays.cum) == s.dayN+1 &&
		validDayTables(s.allDays.cum, s.allDays.first, s.dayN, n) && int(s.allDays.cum[s.dayN]) <= n)
	bad("gig ids", s.ids.valid(n))
	for d := range s.index {
		ps := &s.index[d]
		bad(fmt.Sprintf("index %d", d), ps.valid(n) && len(ps.dayCum) == len(ps.frz)/2*(s.dayN+1) &&
			validDayTables(ps.dayCum, ps.dayFirst, s.dayN, n))
	}
	v := &s.venueDetail
	venues := len(s.venueOff) - 1
	bad("venues", venues >= 0 && s.venueOff[0] == 0 && ascending(s.venueOff, false) && int(s.venueOff[venues]) == len(s.venueItems) &&
		s.venueSlugs.valid(venues) && s.venueIndex.valid(venues) && len(s.venueIndex.dayCum) == 0 && s.counts.Venues == venues && s.counts.Gigs == n)
	bad("venue bodies", len(v.headAt) == venues+1 && len(v.posAt) == venues+1 && len(v.tagAt) == venues+1 &&
		within(v.headAt, len(v.head)) && within(v.posAt, len(v.pos)) && within(v.tagAt, len(v.tags)) &&
		below(v.pos, n))
	bad("ledger", s.validLedger())
	if len(errs) > 0 {
		return fmt.Errorf("inconsistent: %w", errors.Join(errs...))
	}
	return nil
}

// ascending reports whether l ascends (strictly when strict).
func ascending[T word](l []T, strict bool) bool {
	for i := 1; i < len(l); i++ {
		if l[i] < l[i-1] || strict && l[i] == l[i-1] {
			return false
		}
	}
	return true
}

// below reports whether every element of l is below limit.
func below[T uint8 | uint32](l []T, limit int) bool {
	for _, x := range l {
		if int(x) >= limit {
			return false
		}
	}
	return true
}

// within reports whether offsets start at 0, ascend, and end at size.
func within(at []int, size int) bool {
	return len(at) > 0 && at[0] == 0 && ascending(at, false) && at[len(at)-1] == size
}

// valid reports whether t holds n keys within its arena.
func (t *keyTable) valid(n int) bool {
	return len(t.off) == n+1 && t.off[0] == 0 && ascending(t.off, false) && int(t.off[n]) == len(t.arena)
}

// valid reports whether ps is consistent and its positions are below limit.
func (ps *postings) valid(limit int) bool {
	keys := len(ps.of)
	if !ps.keys.valid(keys) || len(ps.start) != len(ps.big)+1 || ps.start[0] != 0 || !ascending(ps.start, false) ||
		int(ps.start[len(ps.big)]) != len(ps.list) || len(ps.frz)%2 != 0 || !ascending(ps.frz, false) ||
		len(ps.frz) > 0 && int(ps.frz[len(ps.frz)-1]) > len(ps.packed) {
		return false
	}
	for _, k := range ps.of {
		if int(k) >= len(ps.big) {
			return false
		}
	}
	for _, j := range ps.big {
		if j < -1 || int(j) >= len(ps.frz)/2 {
			return false
		}
	}
	for k := range ps.big {
		l := ps.list[ps.start[k]:ps.start[k+1]]
		if !ascending(l, true) || len(l) > 0 && int(l[len(l)-1]) >= limit {
			return false
		}
	}
	for j := 0; j < len(ps.frz); j += 2 {
		if ps.frz[j]%sectionAlign != 0 {
			return false
		}
	}
	return true
}

// views makes what a read snapshot derives from its arrays: the key tables' slots, the
// bitmaps' views and the bodies.
func (s *Snapshot) views() error {
	s.indexHours()
	whole := s.arena[0]
	s.arena = s.arena[:0]
	for lo := 0; lo < len(s.keys); lo += renderChunk {
		end := len(whole)
		if hi := lo + renderChunk; hi < len(s.keys) {
			end = s.off[hi]
		}
		s.arena = append(s.arena, whole[s.off[lo]:end:end])
	}
	zwhole := s.zarena[0]
	s.zarena = s.zarena[:0]
	for lo := 0; lo < len(s.keys); lo += renderChunk {
		s.zarena = append(s.zarena, zwhole[s.zoff[lo]:s.zoff[min(lo+renderChunk, len(s.keys))]])
	}
	for _, t := range []struct {
		name  string
		table *keyTable
	}{{"gig ids", &s.ids}, {"venue slugs", &s.venueSlugs}, {"tombstones' ids", &s.tomb.ids}} {
		var err error
		if *t.table, err = keyTableOf(t.table.arena, t.table.off); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
	}
	// A build gives a gig that is back no tombstone (carryLedger); a file that does would
	// fail every rebuild that follows it, when the gig goes again.
	for i := range s.tomb.len() {
		if _, live := s.ids.find(string(s.tomb.ids.key(i))); live {
			return fmt.Errorf("tombstones' ids: %q is a gig's too", s.tomb.ids.key(i))
		}
	}
	for d := range s.index {
		if err := s.index[d].reindex(len(s.keys)); err != nil {
			return err
		}
	}
	if err := s.venueIndex.reindex(len(s.venueOff) - 1); err != nil {
		return err
	}
	for _, b := range []*Body{s.cities, s.venues, s.artists, s.genres} {
		if len(b.Gzip) == 0 {
			b.Gzip = nil
		}
	}
	return nil
}

func (ps *postings) reindex(limit int) error {
	var err error
	if ps.keys, err = keyTableOf(ps.keys.arena, ps.keys.off); err != nil {
		return fmt.Errorf("an index's keys: %w", err)
	}
	return ps.view(limit)
}

// codec writes or reads sections: exactly one of w and r is set.
type codec struct {
	w *fileWriter
	r *fileReader
}

func (c *codec) bytes(p *[]byte) {
	if c.w != nil {
		c.w.section(*p)
	} else {
		*p = c.r.section()
	}
}

// parts writes byte slices as one section, read back as one slice.
func (c *codec) parts(p *[][]byte) {
	if c.w != nil {
		c.w.section(*p...)
	} else {
		*p = [][]byte{c.r.section()}
	}
}

func (c *codec) str(p *string) {
	b := []byte(*p)
	c.bytes(&b)
	if c.r != nil {
		*p = string(b)
	}
}

func (c *codec) int64(p *int64) {
	l := []int64{*p}
	words(c, &l, 8)
	if len(l) == 1 {
		*p = l[0]
	}
}

func (c *codec) keyTable(t *keyTable) {
	c.bytes(&t.arena)
	words(c, &t.off, 4)
}

func (c *codec) postings(ps *postings) {
	c.keyTable(&ps.keys)
	words(c, &ps.of, 4)
	words(c, &ps.start, 4)
	words(c, &ps.list, 4)
	words(c, &ps.big, 4)
	words(c, &ps.frz, 4)
	c.bytes(&ps.packed)
	words(c, &ps.dayCum, 4)
	words(c, &ps.dayFirst, 4)
}

// word is an integer kept in size bytes, little-endian.
type word interface {
	~int | ~int32 | ~uint32 | ~int64 | ~uint64
}

func words[T word](c *codec, p *[]T, size int) {
	if c.w != nil {
		if b, ok := wordBytes(*p, size); ok {
			c.w.section(b)
			return
		}
		b := make([]byte, 0, len(*p)*size)
		for _, x := range *p {
			if size == 4 {
				b = binary.LittleEndian.AppendUint32(b, uint32(x))
			} else {
				b = binary.LittleEndian.AppendUint64(b, uint64(x))
			}
		}
		c.w.section(b)
		return
	}
	b := c.r.section()
	if len(b)%size != 0 {
		c.r.fail(fmt.Errorf("a section of %d bytes is not of %d-byte words", len(b), size))
		return
	}
	if l, ok := bytesWords[T](b, size); ok {
		*p = l
		return
	}
	l := make([]T, len(b)/size)
	for i := range l {
		if size == 4 {
			l[i] = T(binary.LittleEndian.Uint32(b[4*i:])) // wraps back to a negative int32
		} else {
			l[i] = T(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	*p = l
}

// littleEndian says whether the host stores integers as the file does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// wordBytes returns the bytes of l as the file stores them, without copying, when the
// host stores a T in size bytes, little-endian; ok is false otherwise.
func wordBytes[T word](l []T, size int) (b []byte, ok bool) {
	var zero T
	if !littleEndian || int(unsafe.Sizeof(zero)) != size {
		return nil, false
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(l))), len(l)*size), true
}

// bytesWords is wordBytes's inverse: a view of a section as the words it holds, when
// the host stores them as the file does and the section is aligned for them (sections
// start at 32-byte boundaries of the file, which is mapped at a page boundary). The view
// shares the file's memory, which nothing writes.
func bytesWords[T word](b []byte, size int) (l []T, ok bool) {
	var zero T
	if !littleEndian || int(unsafe.Sizeof(zero)) != size || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) != 0 {
		return nil, false
	}
	if len(b) == 0 {
		return []T{}, true
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size), true
}

type fileWriter struct {
	w   *bufio.Writer
	h   *xxhash.Digest
	n   int
	err error
}

func (fw *fileWriter) write(b []byte) {
	if fw.err != nil {
		return
	}
	_, _ = fw.h.Write(b)
	_, fw.err = fw.w.Write(b)
	fw.n += len(b)
}

var zeros [sectionAlign]byte

// section writes the parts back to back as one section.
func (fw *fileWriter) section(parts ...[]byte) {
	n := 0
	for _, b := range parts {
		n += len(b)
	}
	fw.write(binary.LittleEndian.AppendUint64(nil, uint64(n)))
	fw.write(zeros[:pad(fw.n)])
	for _, b := range parts {
		fw.write(b)
	}
}

// pad returns the bytes from n to the next section boundary.
func pad(n int) int { return (sectionAlign - n%sectionAlign) % sectionAlign }

type fileReader struct {
	data []byte
	at   int
	err  error
}

func (r *fileReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// section returns the next section's bytes, capped: a view of the file's buffer.
func (r *fileReader) section() []byte {
	if r.err != nil {
		return nil
	}
	if len(r.data)-r.at < 8 {
		r.fail(errors.New("cut short"))
		return nil
	}
	n := binary.LittleEndian.Uint64(r.data[r.at:])
	r.at += 8
	r.at += pad(r.at)
	if r.at > len(r.data) || n > uint64(len(r.data)-r.at) {
		r.fail(errors.New("cut short"))
		return nil
	}
	b := r.data[r.at : r.at+int(n) : r.at+int(n)]
	r.at += int(n)
	return b
}
