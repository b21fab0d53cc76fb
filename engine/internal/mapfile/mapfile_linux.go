//go:build linux

package mapfile

import (
	"os"
	"syscall"
	"time"
)

// A Mapping is a file mapped read-only into memory.
type Mapping struct{ b []byte }

// Map maps the first size bytes of f, a regular file, read-only; size must be above 0.
// The pages are those of the page cache: mapping costs no copy and no fresh memory. f may
// be closed once Map returns; the mapping stays.
func Map(f *os.File, size int) (Mapping, error) {
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return Mapping{}, err
	}
	return Mapping{b: b}, nil
}

// UnmapAfter hands the mapping's pages back to the system now (a later read finds them
// in the file again) and unmaps it after grace, at once when grace is not positive.
func (m Mapping) UnmapAfter(grace time.Duration) {
	_ = syscall.Madvise(m.b, syscall.MADV_DONTNEED)
	if grace <= 0 {
		_ = syscall.Munmap(m.b)
		return
	}
	time.AfterFunc(grace, func() { _ = syscall.Munmap(m.b) })
}
