package engine

import (
	"encoding/binary"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/internal/deflate"
)

// DetailBody is the detail body of an entity with its gigs: a venue's,
// {"data":{…the venue…,"upcoming":[…its gigs…]}}, or an artist's. Its bytes are not kept:
// they repeat the gigs' JSON, as large as the rest of a snapshot together. Reader streams
// them from the snapshot's parts, identity or gzip (assembled from the gigs' deflate
// fragments as pages are, see gzipbody.go), so that an entity with thousands of gigs costs
// a response no buffer of its size. Its ETag is kept. A DetailBody is valid while its
// snapshot is.
type DetailBody struct {
	ETag string
	s    *Snapshot
	d    *detailPages
	i    int
}

// Venue returns a venue's detail body, with its upcoming gigs.
func (s *Snapshot) Venue(slug string) (DetailBody, bool) {
	return s.venueDetail.find(s, slug)
}

// find returns the body of the entity with slug.
func (d *detailPages) find(s *Snapshot, slug string) (DetailBody, bool) {
	i, ok := d.slugs.find(slug)
	if !ok {
		return DetailBody{}, false
	}
	return DetailBody{ETag: d.tags[d.tagAt[i]:d.tagAt[i+1]], s: s, d: d, i: i}, true
}

// Reader returns a reader of the body, gzip when gz is set, and its size in bytes. Close
// it when done (it is pooled); it must not be used after.
func (b DetailBody) Reader(gz bool) (*DetailReader, int) {
	d := b.d
	r, _ := detailReaders.Get().(*DetailReader)
	if r == nil {
		r = new(DetailReader)
	}
	*r = DetailReader{s: b.s, gz: gz, head: d.head[d.headAt[b.i]:d.headAt[b.i+1]], pos: d.pos[d.posAt[b.i]:d.posAt[b.i+1]], buf: r.buf[:0]}
	size := len(r.head) + len(closing) + max(len(r.pos)-1, 0)
	for _, p := range r.pos {
		size += len(b.s.GigJSON(int(p)))
	}
	if !gz {
		return r, size
	}
	// gzip: the header, the head, commas and closing as stored blocks (5 bytes each and
	// their bytes), the fragments, then an empty final block and the trailer.
	size = deflate.GzipHeaderSize + deflate.StoredSize(len(r.head)) + deflate.StoredSize(len(closing)) +
		max(len(r.pos)-1, 0)*deflate.StoredSize(len(comma)) + deflate.GzipEndSize
	for _, p := range r.pos {
		size += len(b.s.gigZ(int(p)))
	}
	return r, size
}

// A DetailReader reads a detail body piece by piece: the head, each gig (after a comma),
// the closing brackets; in gzip, each piece as deflate.GzipWriter writes it, the gigs'
// fragments as they are.
type DetailReader struct {
	s       *Snapshot
	gz      bool
	head    []byte
	pos     []uint32
	next    int    // the next piece: 0 the head, 1+k gig k, 1+len(pos) the end, after it none
	pending []byte // the rest of the current piece
	buf     []byte // where a piece is assembled: an identity comma and gig, every gzip piece
	w       deflate.GzipWriter
}

var detailReaders sync.Pool

// Read implements io.Reader.
func (r *DetailReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.pending) == 0 && !r.piece() {
			if n == 0 {
				return 0, io.EOF
			}
			break
		}
		k := copy(p[n:], r.pending)
		r.pending, n = r.pending[k:], n+k
	}
	return n, nil
}

// piece makes the next piece pending; false when there is none.
func (r *DetailReader) piece() bool {
	k := r.next
	if k > len(r.pos)+1 {
		return false
	}
	r.next++
	if !r.gz {
		switch {
		case k == 0:
			r.pending = r.head
		case k == len(r.pos)+1:
			r.pending = closing
		case k == 1:
			r.pending = r.s.GigJSON(int(r.pos[0]))
		default: // a comma and the gig, copied into buf as one piece
			r.pending = append(append(r.buf[:0], ','), r.s.GigJSON(int(r.pos[k-1]))...)
			r.buf = r.pending[:0]
		}
		return true
	}
	r.w.Dst = r.buf[:0]
	switch {
	case k == 0:
		r.w = deflate.NewGzipWriter(r.w.Dst)
		r.w.Raw(r.head)
	case k == len(r.pos)+1:
		r.w.Raw(closing)
		r.w.Finish()
	default:
		gig := int(r.pos[k-1])
		if k == 1 {
			r.w.Fragment(r.s.gigZ(gig), r.s.GigJSON(gig))
		} else {
			crc, known := r.s.listCRC(gig)
			r.w.ListFragment(comma, r.s.gigZ(gig), r.s.GigJSON(gig), crc, known)
		}
	}
	r.pending, r.buf = r.w.Dst, r.w.Dst[:0]
	return true
}

// Close returns r to its pool.
func (r *DetailReader) Close() error {
	*r = DetailReader{buf: r.buf[:0]}
	detailReaders.Put(r)
	return nil
}

// detailPages keeps the detail bodies of one kind of entity (venues, artists) in flat
// arrays, by number in slug order: the body up to its list of gigs, the positions of
// those gigs, and its ETag; slugs finds an entity's number.
type detailPages struct {
	head                 []byte // {"data":{…,"upcoming":[ of entity i is head[headAt[i]:headAt[i+1]]
	pos                  []uint32
	tags                 string
	headAt, posAt, tagAt []int
	slugs                keyTable
}

var comma, closing = []byte{','}, []byte("]}}")

// renderDetails lays out the detail bodies of one kind of entity and computes their ETags:
// entry(i) is the JSON object of entity i, in slug order, as its directory lists it (the
// detail's head is that entry's bytes, not rendered again), slugs their slugs, positions[i]
// the gigs of entity i, listed as "upcoming".
func (s *Snapshot) renderDetails(entry func(i int) []byte, slugs []string, positions [][]uint32) (detailPages, error) {
	n := len(slugs)
	v := detailPages{headAt: make([]int, 1, n+1), posAt: make([]int, 1, n+1), tagAt: make([]int, 1, n+1)}
	total, heads := 0, 0
	for i, p := range positions {
		total += len(p)
		heads += len(`{"data":`) + len(entry(i)) - 1 + len(`,"upcoming":[`)
	}
	v.pos = make([]uint32, 0, total)
	v.head = make([]byte, 0, heads)
	var tags strings.Builder
	tags.Grow(n * len(`W/"0123456789abcdef"`))
	var h xxhash.Digest
	var hashes []byte
	var sum [24]byte
	for i := range n {
		at := len(v.head)
		e := entry(i) // an object: its closing brace gives way to the list
		v.head = append(append(v.head, `{"data":`...), e[:len(e)-1]...)
		v.head = append(v.head, `,"upcoming":[`...)
		v.headAt = append(v.headAt, len(v.head))
		v.pos = append(v.pos, positions[i]...)
		v.posAt = append(v.posAt, len(v.pos))
		// The tag hashes the head and the gigs' hashes, not the gigs' bytes again.
		h.Reset()
		_, _ = h.Write(v.head[at:])
		hashes = hashes[:0]
		for _, p := range positions[i] {
			hashes = binary.LittleEndian.AppendUint64(hashes, s.gigHash[p])
		}
		_, _ = h.Write(hashes)
		tags.Write(appendETagSum(sum[:0], h.Sum64()))
		v.tagAt = append(v.tagAt, tags.Len())
	}
	v.tags = tags.String()
	var err error
	v.slugs, err = newKeyTable(slugs)
	return v, err
}

// renderVenueDetails lays out every venue's detail body; items are in venue number order
// (the venue directory's, whose entries are rendered), and positions[i] are the upcoming
// gigs of items[i].
func (s *Snapshot) renderVenueDetails(items []venueJSON, positions [][]uint32) error {
	slugs := make([]string, len(items))
	for i := range items {
		slugs[i] = items[i].Slug
	}
	var err error
	s.venueDetail, err = s.renderDetails(s.VenueItem, slugs, positions)
	return err
}

// parallel calls f(0) … f(n-1) on buildWorkers goroutines, the caller's among them, and
// returns the first error by index. With one worker, everything runs on the caller's
// goroutine (and its thread, which gigsd runs at a lower priority than the server's).
func parallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			errs[i] = f(i)
		}
	}
	var wg sync.WaitGroup
	for range buildWorkers() - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// buildWorkers is how many goroutines a build runs at once: one less than GOMAXPROCS, and
// at least one, so that a build never holds every P of a process that is also serving.
// With GOMAXPROCS at one more than the cores (gigsd's default), the build takes every
// core and requests still find a P, instead of waiting for the build's goroutines to be
// preempted.
func buildWorkers() int { return max(1, runtime.GOMAXPROCS(0)-1) }
