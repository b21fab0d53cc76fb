package engine

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
)

// VenueBody is a venue's detail body, {"data":{…the venue…,"upcoming":[…its gigs…]}}. Its
// bytes are not kept: they repeat the gigs' JSON, as large as the rest of a snapshot
// together, so WriteTo writes them from the snapshot's parts, and AppendGzip assembles its
// gzip variant from the gigs' deflate fragments as pages are (see gzipbody.go). Its ETag
// is kept. A VenueBody is valid while its snapshot is.
type VenueBody struct {
	ETag string
	s    *Snapshot
	i    int
}

// Venue returns a venue's detail body, with its upcoming gigs.
func (s *Snapshot) Venue(slug string) (VenueBody, bool) {
	i, ok := s.venueSlugs.find(slug)
	if !ok {
		return VenueBody{}, false
	}
	v := &s.venueDetail
	return VenueBody{ETag: v.tags[v.tagAt[i]:v.tagAt[i+1]], s: s, i: i}, true
}

// WriteTo writes the identity body to w.
func (b VenueBody) WriteTo(w io.Writer) (int64, error) {
	return b.s.writeVenue(w, b.head(), b.positions())
}

// AppendGzip appends the body as a gzip member to dst.
func (b VenueBody) AppendGzip(dst []byte) []byte {
	w := newGzipWriter(dst)
	w.raw(b.head())
	for k, p := range b.positions() {
		if k > 0 {
			w.raw(comma)
		}
		w.fragment(b.s.gigZ(int(p)), b.s.GigJSON(int(p)))
	}
	w.raw(closing)
	return w.finish()
}

func (b VenueBody) head() []byte {
	v := &b.s.venueDetail
	return v.head[v.headAt[b.i]:v.headAt[b.i+1]]
}

func (b VenueBody) positions() []uint32 {
	v := &b.s.venueDetail
	return v.pos[v.posAt[b.i]:v.posAt[b.i+1]]
}

// venueBodies keeps every venue's detail body in flat arrays, by venue number: the body up
// to its upcoming list, the positions of its upcoming gigs, and its ETag.
type venueBodies struct {
	head                 []byte // {"data":{…,"upcoming":[ of venue i is head[headAt[i]:headAt[i+1]]
	pos                  []uint32
	tags                 string
	headAt, posAt, tagAt []int
}

// writeVenue writes a venue's identity body: its head, its gigs separated by commas, and
// the closing brackets.
func (s *Snapshot) writeVenue(w io.Writer, head []byte, pos []uint32) (int64, error) {
	n, err := w.Write(head)
	total := int64(n)
	for k, p := range pos {
		if err != nil {
			return total, err
		}
		if k > 0 {
			n, err = w.Write(comma)
			total += int64(n)
		}
		if err == nil {
			n, err = w.Write(s.GigJSON(int(p)))
			total += int64(n)
		}
	}
	if err == nil {
		n, err = w.Write(closing)
		total += int64(n)
	}
	return total, err
}

var comma, closing = []byte{','}, []byte("]}}")

// renderVenueDetails lays out every venue's detail body and computes its ETag; items are
// in venue number order, and positions[i] are the upcoming gigs of items[i].
func (s *Snapshot) renderVenueDetails(items []venueJSON, positions [][]uint32) error {
	v := venueBodies{headAt: make([]int, 1, len(items)+1), posAt: make([]int, 1, len(items)+1), tagAt: make([]int, 1, len(items)+1)}
	total := 0
	for _, p := range positions {
		total += len(p)
	}
	v.pos = make([]uint32, 0, total)
	v.head = make([]byte, 0, 512*len(items)) // a venue's head is some 300 bytes
	slugs := make([]string, len(items))
	var tags strings.Builder
	tags.Grow(len(items) * len(`W/"0123456789abcdef"`))
	var h xxhash.Digest
	var word [8]byte
	var sum [24]byte
	for i := range items {
		var err error
		at := len(v.head)
		if v.head, err = appendJSON(append(v.head, `{"data":`...), &items[i]); err != nil {
			return fmt.Errorf("cannot render venue %q: %w", items[i].Slug, err)
		}
		v.head = append(v.head[:len(v.head)-1], `,"upcoming":[`...)
		v.headAt = append(v.headAt, len(v.head))
		v.pos = append(v.pos, positions[i]...)
		v.posAt = append(v.posAt, len(v.pos))
		slugs[i] = items[i].Slug
		// The tag hashes the head and the gigs' hashes, not the gigs' bytes again.
		h.Reset()
		_, _ = h.Write(v.head[at:])
		for _, p := range positions[i] {
			_, _ = h.Write(binary.LittleEndian.AppendUint64(word[:0], s.gigHash[p]))
		}
		tags.Write(appendETagSum(sum[:0], h.Sum64()))
		v.tagAt = append(v.tagAt, tags.Len())
	}
	v.tags = tags.String()
	s.venueSlugs, s.venueDetail = newKeyTable(slugs), v
	return nil
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
