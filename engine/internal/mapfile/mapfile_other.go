//go:build !linux

package mapfile

import (
	"io"
	"os"
	"time"
)

// A Mapping is a file read into memory where files cannot be mapped.
type Mapping struct{ b []byte }

// Map reads the first size bytes of f, a regular file, into a buffer of their size.
func Map(f *os.File, size int) (Mapping, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return Mapping{}, err
	}
	return Mapping{b: b}, nil
}

// UnmapAfter does nothing: the garbage collector frees the buffer.
func (Mapping) UnmapAfter(time.Duration) {}
