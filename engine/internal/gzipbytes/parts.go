package gzipbytes

import (
	"io"

	"github.com/klauspost/pgzip"
)

// A PartsWriter compresses what is written to it into one gzip member, its blocks on
// several goroutines, appended to parts of a fixed size.
type PartsWriter struct {
	zw  io.WriteCloser
	out parts
}

// NewPartsWriter returns a PartsWriter at level whose parts are of partSize bytes (the
// last one fewer), compressing blocks of a megabyte on up to workers goroutines. With
// one worker, the blocks are compressed on the caller's goroutine (see serialWriter);
// the bytes are the same whatever the workers.
func NewPartsWriter(level, partSize, workers int) (*PartsWriter, error) {
	w := &PartsWriter{out: parts{size: partSize}}
	if workers <= 1 {
		zw, err := newSerialWriter(&w.out, level)
		if err != nil {
			return nil, err
		}
		w.zw = zw
		return w, nil
	}
	zw, err := pgzip.NewWriterLevel(&w.out, level)
	if err != nil {
		return nil, err
	}
	if err := zw.SetConcurrency(blockSize, workers); err != nil {
		return nil, err
	}
	w.zw = zw
	return w, nil
}

// Write implements io.Writer.
func (w *PartsWriter) Write(p []byte) (int, error) { return w.zw.Write(p) }

// Finish ends the member and returns its parts and their size together.
func (w *PartsWriter) Finish() ([][]byte, int, error) {
	if err := w.zw.Close(); err != nil {
		return nil, 0, err
	}
	return w.out.parts, w.out.n, nil
}

// parts appends what is written to parts of size bytes.
type parts struct {
	parts [][]byte
	size  int // of a part
	n     int // bytes written
}

func (w *parts) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		last := len(w.parts) - 1
		if last < 0 || len(w.parts[last]) == cap(w.parts[last]) {
			w.parts = append(w.parts, make([]byte, 0, w.size))
			last++
		}
		k := min(len(b), cap(w.parts[last])-len(w.parts[last]))
		w.parts[last] = append(w.parts[last], b[:k]...)
		b = b[k:]
	}
	w.n += n
	return n, nil
}
