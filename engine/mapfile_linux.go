//go:build linux

package engine

import (
	"fmt"
	"syscall"
	"time"

	"github.com/gigs/gigs/engine/atomicfile"
)

// mapped is a file mapped read-only into memory.
type mapped struct{ b []byte }

// mapFile maps the regular file at path read-only. Its pages are those of the page cache:
// mapping costs no copy and no fresh memory, and a restart reads the snapshot it served
// without faulting in a buffer of its size.
func mapFile(path string) (mapped, error) {
	f, size, err := atomicfile.OpenRegular(path)
	if err != nil {
		return mapped{}, err
	}
	defer f.Close()
	if size == 0 || size != int64(int(size)) {
		return mapped{}, fmt.Errorf("snapshot file %q: not a snapshot file (%d bytes)", path, size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return mapped{}, fmt.Errorf("cannot map snapshot file %q: %w", path, err)
	}
	return mapped{b: b}, nil
}

// unmapAfter hands the mapping's pages back to the system now (a later read finds them in
// the file again) and unmaps it after grace.
func (m mapped) unmapAfter(grace time.Duration) {
	_ = syscall.Madvise(m.b, syscall.MADV_DONTNEED)
	if grace <= 0 {
		_ = syscall.Munmap(m.b)
		return
	}
	time.AfterFunc(grace, func() { _ = syscall.Munmap(m.b) })
}
