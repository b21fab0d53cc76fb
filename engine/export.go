package engine

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/internal/gzipbytes"
	"github.com/klauspost/compress/gzip"
)

// Export is every gig of a snapshot in one body, {"data":[…],"meta":{…}}, rendered once:
// the identity body is Head, the snapshot's gig arena and Tail back to back (never copied
// into one slice), and Gzip is the whole body compressed, in parts (never grown or copied
// whole either). Its slices are never modified.
type Export struct {
	Head, Tail []byte
	Size       int // bytes of the identity body
	Gzip       [][]byte
	GzipSize   int    // bytes of Gzip's parts together
	ETag       string // weak, of the content (see writeGigHashes): the same for both encodings

	gzipOnce sync.Once
	gzipTag  string
}

// Tag returns the strong entity tag (RFC 9110 8.8.1) of the body in one encoding, which
// If-Range needs: the identity body's is ETag's (of its bytes, the gigs' by their hashes), the gzip body's
// from its compressed bytes, so that a range of one encoding, or of a body compressed by
// another build, is never taken for a range of the other. The gzip body's is computed on
// the first call (milliseconds for a hundred megabytes), then kept.
func (e *Export) Tag(gzip bool) string {
	if !gzip {
		return strings.TrimPrefix(e.ETag, "W/")
	}
	e.gzipOnce.Do(func() {
		h := xxhash.New()
		for _, p := range e.Gzip {
			_, _ = h.Write(p)
		}
		var sum [24]byte
		e.gzipTag = strings.TrimPrefix(string(appendETagSum(sum[:0], h.Sum64())), "W/")
	})
	return e.gzipTag
}

// Body returns n bytes of the body in one encoding from offset off, as a reader over the
// snapshot's own bytes (never copied); off and n must lie within the body, whose size is
// Size or GzipSize.
func (e *Export) Body(s *Snapshot, gzip bool, off, n int) io.Reader {
	parts := e.Gzip
	if !gzip {
		parts = append(append([][]byte{e.Head}, s.arena...), e.Tail)
	}
	var readers []io.Reader
	for _, p := range parts {
		if off >= len(p) {
			off -= len(p)
			continue
		}
		if n == 0 {
			break
		}
		k := min(len(p)-off, n)
		readers = append(readers, bytes.NewReader(p[off:off+k]))
		off, n = 0, n-k
	}
	return io.MultiReader(readers...)
}

// compressExport returns the export's gzip body, of the identity body's parts, in parts,
// and its size. The bytes depend on the body's alone, not on how it is cut into parts:
// a follower applying a delta makes them again (see predictSection).
func compressExport(body [][]byte) ([][]byte, int, error) {
	// One gzip member, its blocks compressed on every core: the export is the one body
	// large enough for that to matter (656 MB of JSON at a million gigs). A build of one
	// worker compresses on its own goroutine, and so at its thread's priority.
	zw, err := gzipbytes.NewPartsWriter(gzip.BestSpeed, exportPart, buildWorkers())
	if err != nil {
		return nil, 0, err
	}
	for _, part := range body {
		if _, err := zw.Write(part); err != nil {
			return nil, 0, fmt.Errorf("cannot compress the export: %w", err)
		}
	}
	parts, n, err := zw.Finish()
	if err != nil {
		return nil, 0, fmt.Errorf("cannot compress the export: %w", err)
	}
	return parts, n, nil
}

// exportPart is the size of the compressed export's parts.
const exportPart = 4 << 20

// Export returns the snapshot's export body.
func (s *Snapshot) Export() *Export { return s.export }

func (s *Snapshot) renderExport() error {
	e := &Export{Head: []byte(`{"data":[`)}
	tail := append([]byte(`],"meta":{"count":`), strconv.Itoa(len(s.keys))...)
	tail = append(tail, `,"data_version":"`...)
	tail = append(tail, s.version...)
	tail = append(tail, `","cursor":"`...)
	tail = s.Cursor().Append(tail)
	e.Tail = append(tail, `"}}`...)
	e.Size = len(e.Head) + s.gigsSize() + len(e.Tail)
	h := xxhash.New() // of the body's bytes, the gigs' by their hashes
	_, _ = h.Write(e.Head)
	writeGigHashes(h, s.gigHash)
	_, _ = h.Write(e.Tail)
	var err error
	if e.Gzip, e.GzipSize, err = compressExport(append(append([][]byte{e.Head}, s.arena...), e.Tail)); err != nil {
		return err
	}
	var sum [24]byte
	e.ETag = string(appendETagSum(sum[:0], h.Sum64()))
	s.export = e
	return nil
}
