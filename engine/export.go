package engine

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/pgzip"
)

// Export is every gig of a snapshot in one body, {"data":[…],"meta":{…}}, rendered once:
// the identity body is Head, the snapshot's gig arena and Tail back to back (never copied
// into one slice), and Gzip is the whole body compressed. Its slices are never modified.
type Export struct {
	Head, Tail []byte
	Size       int // bytes of the identity body
	Gzip       []byte
	ETag       string
}

// Export returns the snapshot's export body.
func (s *Snapshot) Export() *Export { return s.export }

// Reader returns the identity body as a reader over the snapshot's own bytes.
func (e *Export) Reader(s *Snapshot) io.Reader {
	readers := []io.Reader{bytes.NewReader(e.Head)}
	for _, part := range s.arena {
		readers = append(readers, bytes.NewReader(part))
	}
	return io.MultiReader(append(readers, bytes.NewReader(e.Tail))...)
}

func (s *Snapshot) renderExport() error {
	e := &Export{Head: []byte(`{"data":[`)}
	tail := append([]byte(`],"meta":{"count":`), strconv.Itoa(len(s.keys))...)
	tail = AppendVersion(tail, s)
	e.Tail = append(tail, "}}"...)
	e.Size = len(e.Head) + s.gigsSize() + len(e.Tail)
	h := xxhash.New()
	var buf bytes.Buffer
	buf.Grow(e.Size / 6)
	// One gzip member, its blocks compressed on every core: the export is the one body
	// large enough for that to matter (656 MB of JSON at a million gigs).
	zw, err := pgzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return err
	}
	if err := zw.SetConcurrency(1<<20, buildWorkers()); err != nil {
		return err
	}
	for _, part := range append(append([][]byte{e.Head}, s.arena...), e.Tail) {
		_, _ = h.Write(part)
		if _, err := zw.Write(part); err != nil {
			return fmt.Errorf("cannot compress the export: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("cannot compress the export: %w", err)
	}
	e.Gzip = buf.Bytes()
	if cap(e.Gzip) > len(e.Gzip)+len(e.Gzip)/8 { // grown past the guess: keep no slack
		e.Gzip = bytes.Clone(e.Gzip)
	}
	var sum [24]byte
	e.ETag = string(appendETagSum(sum[:0], h.Sum64()))
	s.export = e
	return nil
}
