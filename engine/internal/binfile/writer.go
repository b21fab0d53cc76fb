package binfile

import (
	"encoding/binary"
	"io"

	"github.com/cespare/xxhash/v2"
)

// Align is the boundary, in bytes of the file, every section's bytes start at.
const Align = 32

// A Writer writes a file of sections to an io.Writer, buffered, hashing what it writes.
// Its first error stops every later write and is returned by Finish.
type Writer struct {
	w   io.Writer
	buf []byte // what is neither hashed nor written yet
	h   *xxhash.Digest
	n   int
	err error
}

// bufSize is the size of a Writer's buffer: bytes written in smaller pieces (a section
// of a million parts) are hashed and written a buffer at a time, larger ones as they are.
const bufSize = 1 << 20

// NewWriter returns a Writer of a file to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, buf: make([]byte, 0, bufSize), h: xxhash.New()}
}

// Header writes b as it is: the caller's header, before the sections.
func (fw *Writer) Header(b []byte) { fw.write(b) }

func (fw *Writer) write(b []byte) {
	if fw.err != nil {
		return
	}
	fw.n += len(b)
	if len(fw.buf)+len(b) > cap(fw.buf) {
		fw.flush()
		if len(b) >= cap(fw.buf) {
			fw.out(b)
			return
		}
	}
	fw.buf = append(fw.buf, b...)
}

// flush hashes and writes what is buffered.
func (fw *Writer) flush() {
	fw.out(fw.buf)
	fw.buf = fw.buf[:0]
}

// out hashes and writes b, unless a write failed before.
func (fw *Writer) out(b []byte) {
	if fw.err == nil && len(b) > 0 {
		_, _ = fw.h.Write(b)
		_, fw.err = fw.w.Write(b)
	}
}

var zeros [Align]byte

// Section writes the parts back to back as one section.
func (fw *Writer) Section(parts ...[]byte) {
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

// Finish ends the file with its checksum and flushes it, or returns the first error.
func (fw *Writer) Finish() error {
	sum := fw.Sum()
	if fw.err != nil {
		return fw.err
	}
	_, err := fw.w.Write(binary.LittleEndian.AppendUint64(nil, sum))
	return err
}

// pad returns the bytes from n to the next section boundary.
func pad(n int) int { return (Align - n%Align) % Align }

// Sum returns the checksum of what was written so far (flushing it): after Finish, the
// one that ends the file.
func (fw *Writer) Sum() uint64 {
	fw.flush()
	return fw.h.Sum64()
}

// Written returns the bytes written so far, the checksum not counted.
func (fw *Writer) Written() int64 { return int64(fw.n) }
