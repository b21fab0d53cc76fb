//go:build !linux

package engine

import (
	"fmt"
	"io"
	"os"
	"time"
)

// mapped is a file read into memory where files cannot be mapped.
type mapped struct{ b []byte }

// mapFile reads the regular file at path into a buffer of its size.
func mapFile(path string) (mapped, error) {
	f, err := os.Open(path)
	if err != nil {
		return mapped{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return mapped{}, err
	}
	if !fi.Mode().IsRegular() {
		return mapped{}, fmt.Errorf("snapshot file %q is not a regular file", path)
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return mapped{}, fmt.Errorf("cannot read snapshot file %q: %w", path, err)
	}
	return mapped{b: b}, nil
}

// unmapAfter does nothing: the garbage collector frees the buffer.
func (mapped) unmapAfter(time.Duration) {}
