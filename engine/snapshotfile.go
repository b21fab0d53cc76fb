package engine

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/gigs/gigs/engine/atomicfile"
	"github.com/gigs/gigs/engine/internal/binfile"
	"github.com/gigs/gigs/engine/internal/mapfile"
)

// The snapshot file: a magic line and a little-endian uint32 format version, then the
// snapshot's arrays as sections in a fixed order (see package binfile: each a uint64 byte
// length, zero padding to a 32-byte boundary, and its bytes), then the xxhash64 of
// everything before it. Sections start at 32-byte boundaries so that a read buffer's
// bitmaps are viewed in place, aligned as roaring requires. A file of another version is
// refused: the next refresh writes one of this version.
const (
	snapshotMagic   = "gigs-snapshot\n"
	snapshotVersion = 9 // 5: the artists' detail bodies at the end; 6: the geo index after them; 7: the words index; 8: the gone gigs' JSON; 9: the directories' indexes last
)

// WriteFile writes s to path, replacing the file atomically: a reader finds the previous
// file or this one, never a part.
func (s *Snapshot) WriteFile(path string) error {
	return atomicfile.WriteFunc(path, 0o600, func(w io.Writer) error {
		fw := binfile.NewWriter(w)
		fw.Header([]byte(snapshotMagic))
		fw.Header(binary.LittleEndian.AppendUint32(nil, snapshotVersion))
		s.sections(&codec{fw.Codec()})
		return fw.Finish()
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
func ReadSnapshotFile(path string) (*Snapshot, error) { return readSnapshotFile(path, nil) }

// readSnapshotFile is ReadSnapshotFile of a file whose bytes hashed to *sum as they were
// written, when sum is not nil: its checksum is not computed again.
func readSnapshotFile(path string, sum *uint64) (*Snapshot, error) {
	data, err := mapSnapshotFile(path)
	if err != nil {
		return nil, err
	}
	s, err := decodeSnapshot(data.Bytes(), sum)
	if err != nil {
		data.UnmapAfter(0)
		return nil, fmt.Errorf("snapshot file %q: %w", path, err)
	}
	runtime.AddCleanup(s, func(m mapfile.Mapping) { m.UnmapAfter(unmapGrace) }, data)
	go s.completeRead() // it keeps s, and so its mapping, until it is done
	return s, nil
}

// completeRead computes what a snapshot file does not hold and a read snapshot serves
// without, only slower until it is there: the gigs' checksums, then the pair counts (the
// geo index's counted here, the filters' laid out and each counted when a query first
// asks for it, see pairCum).
func (s *Snapshot) completeRead() {
	s.checksumGigs()
	s.pairs.Store(s.countWordPairs())
}

// mapSnapshotFile maps the regular file at path into memory (see package mapfile): a
// restart reads the snapshot it served without faulting in a buffer of its size.
func mapSnapshotFile(path string) (mapfile.Mapping, error) { return mapRegular(path, "snapshot file") }

// mapRegular maps the regular file at path, a file of kind (named in errors), into memory.
func mapRegular(path, kind string) (mapfile.Mapping, error) {
	f, size, err := atomicfile.OpenRegular(path)
	if err != nil {
		return mapfile.Mapping{}, err
	}
	defer f.Close()
	if size == 0 || size != int64(int(size)) {
		return mapfile.Mapping{}, fmt.Errorf("%s %q: not a %s (%d bytes)", kind, path, kind, size)
	}
	m, err := mapfile.Map(f, int(size))
	if err != nil {
		return mapfile.Mapping{}, fmt.Errorf("cannot map %s %q: %w", kind, path, err)
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

// decodeSnapshot reads a snapshot file's bytes, checked against their checksum; or,
// when sum is not nil, the sum the caller hashed them to as it wrote them (the checksum
// that ends them must be that).
func decodeSnapshot(data []byte, sum *uint64) (*Snapshot, error) {
	head := len(snapshotMagic) + 4
	if len(data) < head+8 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, errors.New("not a snapshot file")
	}
	if v := binary.LittleEndian.Uint32(data[len(snapshotMagic):]); v != snapshotVersion {
		return nil, fmt.Errorf("format version %d; this build reads version %d", v, snapshotVersion)
	}
	var r *binfile.Reader
	var err error
	if sum != nil {
		r, err = binfile.NewReaderSummed(data, head, *sum)
	} else {
		r, err = binfile.NewReader(data, head)
	}
	if err != nil {
		return nil, err
	}
	s := &Snapshot{read: true}
	s.sections(&codec{r.Codec()})
	if err := r.Done(); err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, s.views()
}

// sections lists what the file holds, in order, for writing and reading alike.
func (s *Snapshot) sections(c *codec) {
	c.Str(&s.version)
	built := s.built.Unix()
	c.Int64(&built)
	counts := []int{s.counts.Gigs, s.counts.Cities, s.counts.Venues, s.counts.Artists, s.counts.Genres}
	binfile.Words(c.Codec, &counts, 8)
	if c.Reading() && len(counts) == 5 {
		s.built = time.Unix(built, 0).UTC()
		s.counts = Counts{counts[0], counts[1], counts[2], counts[3], counts[4]}
	}
	binfile.Words(c.Codec, &s.keys, 8)
	c.Parts(&s.arena)
	binfile.Words(c.Codec, &s.off, 8)
	c.Parts(&s.zarena)
	binfile.Words(c.Codec, &s.zoff, 8)
	binfile.Words(c.Codec, &s.gigHash, 8)
	c.keyTable(&s.ids)
	binfile.Words(c.Codec, &s.days, 4)
	c.Bytes(&s.status)
	window := []int64{int64(s.dayBase), int64(s.dayN)}
	binfile.Words(c.Codec, &window, 8)
	if c.Reading() && len(window) == 2 {
		s.dayBase, s.dayN = int32(window[0]), int(window[1])
	}
	binfile.Words(c.Codec, &s.allDays.cum, 4)
	binfile.Words(c.Codec, &s.allDays.first, 4)
	for d := range s.index {
		c.postings(&s.index[d])
	}
	if c.Reading() {
		s.cities, s.venues, s.artists, s.genres = &Body{}, &Body{}, &Body{}, &Body{}
		s.export = &Export{}
	}
	for _, b := range []*Body{s.cities, s.venues, s.artists, s.genres} {
		c.Bytes(&b.Raw)
		c.Bytes(&b.Gzip)
		c.Str(&b.ETag)
	}
	v := &s.venueDetail
	c.keyTable(&v.slugs)
	// Format 4 began with each venue's gzip body kept (a byte section and its offsets)
	// where noGzip and noGzipAt are; they are assembled per request since. A file written
	// now holds none (every venue without one, as a release before reads it), a file
	// written before is read without them: releases on either side read each other's
	// files, and a follower may run either.
	var noGzip []byte
	var noGzipAt []int
	if !c.Reading() {
		noGzipAt = make([]int, len(v.headAt))
	}
	c.Bytes(&v.head)
	binfile.Words(c.Codec, &v.pos, 4)
	c.Bytes(&noGzip)
	c.Str(&v.tags)
	binfile.Words(c.Codec, &v.headAt, 8)
	binfile.Words(c.Codec, &v.posAt, 8)
	binfile.Words(c.Codec, &noGzipAt, 8)
	binfile.Words(c.Codec, &v.tagAt, 8)
	c.Bytes(&s.venueItems)
	binfile.Words(c.Codec, &s.venueOff, 4)
	c.postings(&s.venueIndex)
	e := s.export
	c.Bytes(&e.Head)
	c.Bytes(&e.Tail)
	c.Parts(&e.Gzip)
	c.Str(&e.ETag)
	if c.Reading() {
		e.Size = len(e.Head) + s.gigsSize() + len(e.Tail)
		e.GzipSize = len(e.Gzip[0])
	}
	c.Bytes(&s.metaHead)
	c.Bytes(&s.metaTail)
	c.ledger(&s.ledger)
	c.detailPages(&s.artistDetail)
	c.geoIndex(&s.geo)
	c.postings(&s.words.words)
	c.postings(&s.words.prefixes)
	c.Bytes(&s.tomb.body)
	binfile.Words(c.Codec, &s.tomb.bodyOff, 4)
	for d := range s.dirs {
		x := &s.dirs[d]
		binfile.Words(c.Codec, &x.at, 4)
		c.postings(&x.words.words)
		c.postings(&x.words.prefixes)
		if Directory(d) != DirArtists {
			c.geoIndex(&x.geo)
		}
	}
}

func (c *codec) geoIndex(g *geoIndex) {
	binfile.Words(c.Codec, &g.rowAt, 4)
	binfile.Words(c.Codec, &g.lat, 8)
	binfile.Words(c.Codec, &g.lon, 8)
	c.postings(&g.post)
	binfile.Words(c.Codec, &g.of, 4)
	binfile.Words(c.Codec, &g.tileAt, 4)
	c.postings(&g.tilePost)
}

// detailPages writes or reads the detail bodies of one kind of entity (see detailPages).
func (c *codec) detailPages(d *detailPages) {
	c.keyTable(&d.slugs)
	c.Bytes(&d.head)
	binfile.Words(c.Codec, &d.pos, 4)
	c.Str(&d.tags)
	binfile.Words(c.Codec, &d.headAt, 8)
	binfile.Words(c.Codec, &d.posAt, 8)
	binfile.Words(c.Codec, &d.tagAt, 8)
}

func (c *codec) ledger(l *ledger) {
	head := []uint64{l.epoch, l.seq, l.floor, uint64(l.changed)}
	binfile.Words(c.Codec, &head, 8)
	if c.Reading() && len(head) == 4 {
		l.epoch, l.seq, l.floor, l.changed = head[0], head[1], head[2], int64(head[3])
	}
	binfile.Words(c.Codec, &l.content, 8)
	binfile.Words(c.Codec, &l.created, 8)
	binfile.Words(c.Codec, &l.updated, 8)
	binfile.Words(c.Codec, &l.firstSeq, 8)
	binfile.Words(c.Codec, &l.lastSeq, 8)
	t := &l.tomb
	c.keyTable(&t.ids)
	binfile.Words(c.Codec, &t.removed, 8)
	binfile.Words(c.Codec, &t.seq, 8)
	c.Bytes(&t.reason)
	c.Bytes(&t.into)
	binfile.Words(c.Codec, &t.intoOff, 4)
	binfile.Words(c.Codec, &l.feed, 4)
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
		s.venueDetail.slugs.valid(venues) && s.venueIndex.valid(venues) && len(s.venueIndex.dayCum) == 0 && s.counts.Venues == venues && s.counts.Gigs == n)
	bad("venue bodies", len(v.headAt) == venues+1 && len(v.posAt) == venues+1 && len(v.tagAt) == venues+1 &&
		within(v.headAt, len(v.head)) && within(v.posAt, len(v.pos)) && within(v.tagAt, len(v.tags)) &&
		below(v.pos, n))
	bad("ledger", s.validLedger())
	a := &s.artistDetail
	artists := len(a.headAt) - 1
	bad("artist bodies", artists >= 0 && artists == s.counts.Artists && len(a.posAt) == artists+1 && len(a.tagAt) == artists+1 &&
		a.slugs.valid(artists) && within(a.headAt, len(a.head)) && within(a.posAt, len(a.pos)) && within(a.tagAt, len(a.tags)) &&
		below(a.pos, n))
	bad("geo index", s.geo.valid(n, s.dayN) && validDayTables(s.geo.post.dayCum, s.geo.post.dayFirst, s.dayN, n) &&
		validDayTables(s.geo.tilePost.dayCum, s.geo.tilePost.dayFirst, s.dayN, n))
	bad("words index", s.words.valid(n))
	bad("directories", s.validDirectories())
	if len(errs) > 0 {
		return fmt.Errorf("inconsistent: %w", errors.Join(errs...))
	}
	return nil
}

// ascending reports whether l ascends (strictly when strict).
func ascending[T cmp.Ordered](l []T, strict bool) bool {
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
		if ps.frz[j]%binfile.Align != 0 {
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
	}{{"gig ids", &s.ids}, {"venue slugs", &s.venueDetail.slugs}, {"artist slugs", &s.artistDetail.slugs}, {"tombstones' ids", &s.tomb.ids}} {
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
	if err := s.geo.post.reindex(len(s.keys)); err != nil {
		return err
	}
	if err := s.geo.tilePost.reindex(len(s.keys)); err != nil {
		return err
	}
	if err := s.geo.agrees(); err != nil {
		return err
	}
	s.geo.setTrig()
	if err := s.geo.setAreas(len(s.keys), s); err != nil {
		return err
	}
	for _, ps := range []*postings{&s.words.words, &s.words.prefixes} {
		if err := ps.reindex(len(s.keys)); err != nil {
			return err
		}
	}
	s.words.dense = newWordBits(&s.words, len(s.keys))
	if err := s.viewDirectories(); err != nil {
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

// codec writes or reads the snapshot's sections: a binfile.Codec, and the sections of
// the snapshot's own types.
type codec struct{ binfile.Codec }

func (c *codec) keyTable(t *keyTable) {
	c.Bytes(&t.arena)
	binfile.Words(c.Codec, &t.off, 4)
}

func (c *codec) postings(ps *postings) {
	c.keyTable(&ps.keys)
	binfile.Words(c.Codec, &ps.of, 4)
	binfile.Words(c.Codec, &ps.start, 4)
	binfile.Words(c.Codec, &ps.list, 4)
	binfile.Words(c.Codec, &ps.big, 4)
	binfile.Words(c.Codec, &ps.frz, 4)
	c.Bytes(&ps.packed)
	binfile.Words(c.Codec, &ps.dayCum, 4)
	binfile.Words(c.Codec, &ps.dayFirst, 4)
}
