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
// into one slice), and Gzip is the whole body compressed, in parts (never grown or copied
// whole either). Its slices are never modified.
type Export struct {
	Head, Tail []byte
	Size       int // bytes of the identity body
	Gzip       [][]byte
	GzipSize   int // bytes of Gzip's parts together
	ETag       string
}

// GzipReader returns the compressed body as a reader over its parts.
func (e *Export) GzipReader() io.Reader { return readerOf(e.Gzip) }

// readerOf returns a reader of parts back to back.
func readerOf(parts [][]byte) io.Reader {
	readers := make([]io.Reader, len(parts))
	for i, p := range parts {
		readers[i] = bytes.NewReader(p)
	}
	return io.MultiReader(readers...)
}

// exportPart is the size of the compressed export's parts.
const exportPart = 4 << 20

// partsWriter appends what is written to parts of exportPart bytes.
type partsWriter struct {
	parts [][]byte
	size  int
}

func (w *partsWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		last := len(w.parts) - 1
		if last < 0 || len(w.parts[last]) == cap(w.parts[last]) {
			w.parts = append(w.parts, make([]byte, 0, exportPart))
			last++
		}
		k := min(len(b), cap(w.parts[last])-len(w.parts[last]))
		w.parts[last] = append(w.parts[last], b[:k]...)
		b = b[k:]
	}
	w.size += n
	return n, nil
}

// Export returns the snapshot's export body.
func (s *Snapshot) Export() *Export { return s.export }

// Reader returns the identity body as a reader over the snapshot's own bytes.
func (e *Export) Reader(s *Snapshot) io.Reader {
	return readerOf(append(append([][]byte{e.Head}, s.arena...), e.Tail))
}

func (s *Snapshot) renderExport() error {
	e := &Export{Head: []byte(`{"data":[`)}
	tail := append([]byte(`],"meta":{"count":`), strconv.Itoa(len(s.keys))...)
	tail = append(tail, `,"data_version":"`...)
	tail = append(tail, s.version...)
	tail = append(tail, `","cursor":"`...)
	tail = s.Cursor().Append(tail)
	e.Tail = append(tail, `"}}`...)
	e.Size = len(e.Head) + s.gigsSize() + len(e.Tail)
	h := xxhash.New()
	var buf partsWriter
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
	e.Gzip, e.GzipSize = buf.parts, buf.size
	var sum [24]byte
	e.ETag = string(appendETagSum(sum[:0], h.Sum64()))
	s.export = e
	return nil
}
