//go:build !linux

package engine

import (
	"fmt"
	"io"
	"time"

	"github.com/gigs/gigs/engine/atomicfile"
)

// mapped is a file read into memory where files cannot be mapped.
type mapped struct{ b []byte }

// mapFile reads the regular file at path into a buffer of its size.
func mapFile(path string) (mapped, error) {
	f, size, err := atomicfile.OpenRegular(path)
	if err != nil {
		return mapped{}, err
	}
	defer f.Close()
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return mapped{}, fmt.Errorf("cannot read snapshot file %q: %w", path, err)
	}
	return mapped{b: b}, nil
}

// unmapAfter does nothing: the garbage collector frees the buffer.
func (mapped) unmapAfter(time.Duration) {}
