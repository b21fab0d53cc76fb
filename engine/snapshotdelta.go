package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gigs/gigs/engine/internal/bindelta"
)

// A snapshot delta turns one snapshot file (its base) into another, byte for byte: the
// sections of the file that did not change are copies of the base's, the rest are in
// the delta (see package bindelta). A follower that holds the base downloads the delta
// rather than the whole file; the file it makes ends with the checksum the delta names,
// or the delta is refused.

// snapshotHead is the length of a snapshot file's header: its magic line and version.
const snapshotHead = len(snapshotMagic) + 4

// The sections of a snapshot file (of this format version) a delta predicts: the
// export's gzip body is made again from its identity body (its head, the gigs' arena and
// its tail) rather than sent, since a few gigs changed anywhere change all its bytes.
// TestSnapshotDeltaSections holds these numbers to the file's layout.
const (
	sectionArena      = 4
	sectionExportHead = 110
	sectionExportTail = 111
	sectionExportGzip = 112
)

// predictSection is the bindelta.Predictor of snapshot files: the export's gzip body
// compressed from the file's own export body.
func predictSection(i int, _ [][]byte, made [][][]byte) ([]byte, error) {
	if i != sectionExportGzip || len(made) != i {
		return nil, nil
	}
	body := slices.Concat(made[sectionExportHead], made[sectionArena], made[sectionExportTail])
	parts, n, err := compressExport(body)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}

// WriteSnapshotDelta writes to w the delta that turns the snapshot file at basePath into
// the one at path. Neither file is checked beyond its layout of sections: both are files
// WriteFile wrote.
func WriteSnapshotDelta(w io.Writer, basePath, path string) error {
	base, err := mapSnapshotFile(basePath)
	if err != nil {
		return err
	}
	defer base.UnmapAfter(0)
	file, err := mapSnapshotFile(path)
	if err != nil {
		return err
	}
	defer file.UnmapAfter(0)
	d, err := bindelta.Encode(base.Bytes(), file.Bytes(), snapshotHead, predictSection)
	if err != nil {
		return fmt.Errorf("cannot write the delta of %q to %q: %w", basePath, path, err)
	}
	_, err = w.Write(d)
	return err
}

// SnapshotDelta is a delta read by ReadSnapshotDelta, not yet applied.
type SnapshotDelta struct{ d *bindelta.Delta }

// ReadSnapshotDelta reads the head of a delta WriteSnapshotDelta wrote: what it makes,
// and of what. A delta of a snapshot file of another format version is refused. delta is
// kept, not copied, and must not be modified while d is in use.
func ReadSnapshotDelta(delta []byte) (*SnapshotDelta, error) {
	d, err := bindelta.Parse(delta)
	if err != nil {
		return nil, err
	}
	if len(d.Head) != snapshotHead || string(d.Head[:len(snapshotMagic)]) != snapshotMagic {
		return nil, errors.New("not the delta of a snapshot file")
	}
	if v := binary.LittleEndian.Uint32(d.Head[len(snapshotMagic):]); v != snapshotVersion {
		return nil, fmt.Errorf("delta of a snapshot file of format version %d; this build reads version %d", v, snapshotVersion)
	}
	return &SnapshotDelta{d}, nil
}

// Base returns the checksum of the snapshot file d applies to (see SnapshotFileSum).
func (d *SnapshotDelta) Base() uint64 { return d.d.Base }

// Sum returns the checksum of the snapshot file d makes.
func (d *SnapshotDelta) Sum() uint64 { return d.d.Sum }

// Size returns the size of the snapshot file d makes.
func (d *SnapshotDelta) Size() int64 { return d.d.Size }

// Apply writes to w the snapshot file d makes of the one at basePath, and returns the
// bytes written. It fails when that file would be over limit bytes (before writing any),
// when d is damaged, or when the file made is not the one d names (its checksum):
// whatever was written to w then is to be thrown away.
func (d *SnapshotDelta) Apply(w io.Writer, basePath string, limit int64) (int64, error) {
	base, err := mapSnapshotFile(basePath)
	if err != nil {
		return 0, err
	}
	defer base.UnmapAfter(0)
	n, err := d.d.Apply(w, base.Bytes(), snapshotHead, limit, predictSection)
	if err != nil {
		return n, fmt.Errorf("snapshot file %q: %w", basePath, err)
	}
	return n, nil
}

// SnapshotFileSum returns the checksum a snapshot file ends with (the xxhash64 of all its
// bytes before it), without reading the rest: it names the file's content.
func SnapshotFileSum(path string) (uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if fi.Size() < int64(snapshotHead)+8 {
		return 0, fmt.Errorf("snapshot file %q: not a snapshot file (%d bytes)", path, fi.Size())
	}
	var b [8]byte
	if _, err := f.ReadAt(b[:], fi.Size()-8); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}
