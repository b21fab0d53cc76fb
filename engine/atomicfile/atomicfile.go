// Package atomicfile replaces files so that, whatever happens, a reader finds the old
// content or the new, never a part: every file gigs keeps (keys, the key secret, gig ids,
// last good events) is written through it. It lives under engine, the room every other
// may import; it imports the standard library only.
//
// Write makes a temporary file beside the target, writes and syncs it, renames it over the
// target and syncs the directory (SyncDir), so that the rename itself survives a crash. A process
// killed in the middle leaves a temporary file, never a short target; Clean removes those
// of one target when its owner starts.
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// tempPattern names the temporary files of target: ".<name>.tmp-<random>".
func tempPattern(target string) string { return "." + filepath.Base(target) + ".tmp-*" }

// Write replaces the file at path with data, as the package comment says, with mode perm.
// When root replaces a file, the file keeps its owner, so that an operator running
// gigsctl as root does not leave a file the daemon's user cannot read.
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write of what write writes, for files too large to hold in memory twice.
// When write fails, the file at path is left as it was.
func WriteFunc(path string, perm fs.FileMode, write func(w io.Writer) error) error {
	if err := writeFile(path, perm, write); err != nil {
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	return nil
}

func writeFile(path string, perm fs.FileMode, write func(w io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if fi, serr := os.Stat(path); err == nil && serr == nil && os.Geteuid() == 0 {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			_ = tmp.Chown(int(st.Uid), int(st.Gid))
		}
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return SyncDir(dir)
}

// SyncDir syncs the directory dir, so that a rename into it (or a file created or
// removed there) survives a crash: syncing a file makes its bytes durable, not its name.
// A file system that cannot sync a directory (EINVAL) is taken as having nothing to sync.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) { // some file systems cannot sync a directory
		return err
	}
	return nil
}

// Clean removes the temporary files a Write of path left behind when its process died.
// Call it where no Write of path can be under way: when the file's owner starts, or under
// the lock that serializes its writers.
func Clean(path string) error {
	return clean(filepath.Join(filepath.Dir(path), tempPattern(path)))
}

func clean(pattern string) error {
	matches, err := filepath.Glob(pattern)
	if err != nil {
		return err
	}
	var errs []error
	for _, m := range matches {
		if err := os.Remove(m); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// OpenRegular opens the file at path for reading, with its size, if it is a regular file
// (through a symbolic link or not), and refuses anything else before opening it: opening
// a FIFO blocks until a writer comes, and a device may never end. A missing file is an
// error wrapping fs.ErrNotExist.
func OpenRegular(path string) (*os.File, int64, error) {
	fi, err := os.Stat(path)
	if err = notRegular(path, fi, err); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err = f.Stat() // again: it may have been replaced in between
	if err = notRegular(path, fi, err); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// notRegular returns err, the error of a stat of path, or one naming path when fi is not
// a regular file.
func notRegular(path string, fi fs.FileInfo, err error) error {
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%q is not a regular file (%v)", path, fi.Mode().Type())
	}
	return err
}

// CleanDir removes every temporary file Write left in dir, for a directory one owner
// writes alone; call it where no Write into dir can be under way.
func CleanDir(dir string) error {
	return clean(filepath.Join(dir, ".*.tmp-*"))
}

// Read returns the content of the file at path, refusing an empty one (no file gigs
// writes is ever empty, so an empty one was cut short: by a full disk, a crash of a
// writer that did not sync, or a hand) and one of more than limit bytes (what a file of
// its kind can hold: a file on disk is read with a bound like any other input). A missing
// file is an error wrapping fs.ErrNotExist; anything but a regular file is refused (see
// OpenRegular).
func Read(path string, limit int64) ([]byte, error) {
	f, size, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > limit {
		return nil, fmt.Errorf("%q holds %d bytes, more than the %d a file of its kind may: it is not one gigs wrote", path, size, limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew since
		return nil, fmt.Errorf("%q holds more than the %d bytes a file of its kind may: it is not one gigs wrote", path, limit)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%q is empty: it was cut short; restore it from a backup", path)
	}
	return data, nil
}
