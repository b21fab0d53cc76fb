package binfile

import (
	"bufio"
	"encoding/binary"
	"io"

	"github.com/cespare/xxhash/v2"
)

// Align is the boundary, in bytes of the file, every section's bytes start at.
const Align = 32

// A Writer writes a file of sections to an io.Writer, buffered, hashing what it writes.
// Its first error stops every later write and is returned by Finish.
type Writer struct {
	w   *bufio.Writer
	h   *xxhash.Digest
	n   int
	err error
}

// NewWriter returns a Writer of a file to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 1<<20), h: xxhash.New()}
}

// Header writes b as it is: the caller's header, before the sections.
func (fw *Writer) Header(b []byte) { fw.write(b) }

func (fw *Writer) write(b []byte) {
	if fw.err != nil {
		return
	}
	_, _ = fw.h.Write(b)
	_, fw.err = fw.w.Write(b)
	fw.n += len(b)
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
	if fw.err != nil {
		return fw.err
	}
	if _, err := fw.w.Write(binary.LittleEndian.AppendUint64(nil, fw.h.Sum64())); err != nil {
		return err
	}
	return fw.w.Flush()
}

// pad returns the bytes from n to the next section boundary.
func pad(n int) int { return (Align - n%Align) % Align }

// Sum returns the checksum of what was written so far: after Finish, the one that ends the file.
func (fw *Writer) Sum() uint64 { return fw.h.Sum64() }

// Written returns the bytes written so far, the checksum not counted.
func (fw *Writer) Written() int64 { return int64(fw.n) }
