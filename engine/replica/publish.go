package replica

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/klauspost/compress/zstd"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/gigs/gigs/engine"
)

// Keep is how many snapshot files (and deltas) a publisher leaves in the bucket beyond
// those the manifest names: Keep-1 uploaded before, which followers may still be
// downloading.
const Keep = 3

// IsNotFound reports whether err means a missing object, such as the manifest of a
// bucket nothing was published to yet.
func IsNotFound(err error) bool { return gcerrors.Code(err) == gcerrors.NotFound }

// Publish uploads the snapshot file at path, which holds snap, whole, then the manifest
// naming it alone, and deletes the objects older than the last Keep. next is when the
// publisher refreshes next (followers give it to caches).
func Publish(ctx context.Context, b *blob.Bucket, path string, snap *engine.Snapshot, next time.Time) (Manifest, error) {
	return PublishNext(ctx, b, path, snap, next, Chain{})
}

// Chain says how a snapshot is published after the one before it.
type Chain struct {
	// Prev is the bucket's manifest before this publish; zero when unknown.
	Prev Manifest
	// Base is the snapshot file Prev's current snapshot was published from (the
	// publisher keeps a link to it); "" when none is kept.
	Base string
	// FullEvery is how often a snapshot is uploaded whole: every FullEvery publishes,
	// counted from the last whole one; 1 (or less) uploads every one whole.
	FullEvery int
}

// PublishNext uploads the snapshot file at path, which holds snap, as c says: a delta
// from the file c.Base when it is the one c.Prev names as current, and the file whole
// when c.FullEvery publishes have passed since the last whole one, when there is no
// delta, or when the delta is over half the last whole object's size. The manifest then
// names the newest whole object and the chain of deltas from it (and up to
// c.FullEvery-1 before it, for followers that are behind) to snap. Objects the manifest
// does not name are deleted, but for the last Keep-1 of each kind. An error with a
// manifest whose Object is set means snap was published all the same: its delta could
// not be made, or old objects not deleted.
func PublishNext(ctx context.Context, b *blob.Bucket, path string, snap *engine.Snapshot, next time.Time, c Chain) (Manifest, error) {
	sum, err := engine.SnapshotFileSum(path)
	if err != nil {
		return Manifest{}, err
	}
	m := Manifest{Format: manifestFormat, DataVersion: snap.Version(), Gigs: snap.Len(), Built: snap.Built().UTC(), NextRefresh: next.UTC(),
		Cursor: snap.Cursor().String()}
	name := snap.Built().UTC().Format("20060102T150405.000000000Z") + "-" + snap.Version()
	var d *Delta
	var deltaErr error // a delta not made: the file goes whole, and the error is returned with the manifest
	if c.Base != "" && c.Prev.Format == manifestFormat && c.Prev.current() != "" {
		if base, err := engine.SnapshotFileSum(c.Base); err == nil && fmt.Sprintf("%016x", base) == c.Prev.current() {
			if d, err = uploadDelta(ctx, b, DeltaPrefix+name, c.Base, path); err != nil {
				d, deltaErr = nil, fmt.Errorf("no delta, the snapshot uploaded whole: %w", err)
			}
		}
	}
	whole := d == nil || d.Size > c.Prev.Size/2 || len(c.Prev.Deltas)-c.Prev.afterFull()+1 >= c.FullEvery
	if d != nil && d.Size <= c.Prev.Size/2 {
		m.Deltas = append(slices.Clone(c.Prev.Deltas), *d)
	}
	if whole {
		m.Object, m.Checksum = SnapshotPrefix+name, fmt.Sprintf("%016x", sum)
		if m.Size, m.FileSize, m.SHA256, err = upload(ctx, b, m.Object, path); err != nil {
			return Manifest{}, err
		}
		if len(m.Deltas) == 0 || c.FullEvery <= 1 { // a delta to it still helps followers one behind
			m.Deltas = m.Deltas[max(0, len(m.Deltas)-1):]
		}
	} else {
		m.Object, m.Size, m.SHA256, m.FileSize, m.Checksum = c.Prev.Object, c.Prev.Size, c.Prev.SHA256, c.Prev.FileSize, c.Prev.Checksum
	}
	m.Deltas = m.Deltas[max(0, len(m.Deltas)-max(c.FullEvery, 1)):]
	m.Published = time.Now().UTC()
	if err := m.checkDeltas(); err != nil { // a bug, not the bucket's: nothing named yet
		return Manifest{}, fmt.Errorf("cannot publish %s: %w", name, err)
	}
	if err := writeManifest(ctx, b, m); err != nil {
		return Manifest{}, err
	}
	return m, errors.Join(deltaErr, prune(ctx, b, m))
}

// upload puts the file at path in the bucket at key, zstd-compressed, and returns the
// object's size, the file's and the object's SHA-256 (hex).
func upload(ctx context.Context, b *blob.Bucket, key, path string) (size, fileSize int64, sha string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, "", err
	}
	defer f.Close()
	return uploadFrom(ctx, b, key, f, wholeLevel)
}

// The zstd levels objects are uploaded at: a whole snapshot file (1.5 GB at a million
// gigs) at the fastest, a delta (a fiftieth of that) at one that takes more off for the
// time it costs, since each follower downloads it.
const (
	wholeLevel = zstd.SpeedFastest
	deltaLevel = zstd.SpeedBetterCompression
)

// uploadFrom puts what r holds in the bucket at key, zstd-compressed at level, and returns
// the object's size, the bytes read and the object's SHA-256 (hex).
func uploadFrom(ctx context.Context, b *blob.Bucket, key string, r io.Reader, level zstd.EncoderLevel) (size, read int64, sha string, err error) {
	h := sha256.New()
	w, err := b.NewWriter(ctx, key, &blob.WriterOptions{ContentType: "application/zstd"})
	if err != nil {
		return 0, 0, "", fmt.Errorf("cannot upload %s: %w", key, err)
	}
	object := &counter{w: io.MultiWriter(w, h)}
	z, err := zstd.NewWriter(object, zstd.WithEncoderLevel(level), zstd.WithWindowSize(maxWindow/2))
	if err == nil {
		if read, err = io.Copy(z, r); err == nil {
			err = z.Close()
		}
	}
	if err != nil {
		w.Close()
		return 0, 0, "", fmt.Errorf("cannot upload %s: %w", key, err)
	}
	if err := w.Close(); err != nil {
		return 0, 0, "", fmt.Errorf("cannot upload %s: %w", key, err)
	}
	return object.n, read, hex.EncodeToString(h.Sum(nil)), nil
}

// uploadDelta puts the delta from the snapshot file at base to the one at path in the
// bucket at key, and returns what the manifest says of it; nil, and no error, when the
// delta is over what followers accept (deltaCap), which is found as it is written: the
// delta goes to a temporary file beside path, never whole into memory, and no further
// than that cap.
func uploadDelta(ctx context.Context, b *blob.Bucket, key, base, path string) (*Delta, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-delta-*") // File.Load removes it after a crash
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	capped := &capWriter{w: tmp, left: deltaCap(fi.Size())}
	if err := engine.WriteSnapshotDelta(capped, base, path); errors.Is(err, errOverCap) {
		return nil, nil // followers would refuse it: the file goes whole
	} else if err != nil {
		return nil, err
	}
	sd, err := engine.OpenSnapshotDelta(tmp.Name())
	if err != nil {
		return nil, err
	}
	sd.Close()
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	d := &Delta{Object: key, From: fmt.Sprintf("%016x", sd.Base()), To: fmt.Sprintf("%016x", sd.Sum()), FileSize: sd.Size()}
	if d.Size, d.RawSize, d.SHA256, err = uploadFrom(ctx, b, key, tmp, deltaLevel); err != nil {
		return nil, err
	}
	return d, nil
}

// errOverCap is a capWriter's error past its cap.
var errOverCap = errors.New("over the cap")

// capWriter writes to w up to left bytes, and fails with errOverCap, writing nothing,
// when a write would take it past.
type capWriter struct {
	w    io.Writer
	left int64
}

func (c *capWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		return 0, errOverCap
	}
	c.left -= int64(len(p))
	return c.w.Write(p)
}

// writeManifest puts m in the bucket as its manifest.
func writeManifest(ctx context.Context, b *blob.Bucket, m Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := b.WriteAll(ctx, ManifestKey, append(data, '\n'), &blob.WriterOptions{ContentType: "application/json"}); err != nil {
		return fmt.Errorf("cannot upload the manifest: %w", err)
	}
	return nil
}

// Reschedule rewrites the manifest with next as the publisher's next refresh, after a
// refresh whose data is the manifest's (dataVersion): nothing new is uploaded, but followers
// learn when to expect the next, and give caches that time. The rest stays as it was,
// Published included (followers remember an object they found bad by it) unless the
// data has not changed for a month (see Manifest.check). It fails,
// leaving the manifest alone, when the manifest names other data.
func Reschedule(ctx context.Context, b *blob.Bucket, dataVersion string, next time.Time) (Manifest, error) {
	m, err := ReadManifest(ctx, b)
	if err != nil {
		return m, err
	}
	if m.DataVersion != dataVersion {
		return m, fmt.Errorf("the manifest names data %s, not %s: not rescheduled", m.DataVersion, dataVersion)
	}
	m.NextRefresh = next.UTC()
	if m.NextRefresh.After(m.Published.Add(maxRefreshGap)) { // a month unchanged: as the check wants
		m.Published = time.Now().UTC()
	}
	return m, writeManifest(ctx, b, m)
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// prune deletes the snapshot files and deltas m does not name, but for the Keep-1
// uploaded last of each kind, which followers may still be downloading.
func prune(ctx context.Context, b *blob.Bucket, m Manifest) error {
	named := map[string]bool{m.Object: true}
	for _, d := range m.Deltas {
		named[d.Object] = true
	}
	for _, prefix := range []string{SnapshotPrefix, DeltaPrefix} {
		var old []*blob.ListObject
		it := b.List(&blob.ListOptions{Prefix: prefix})
		for {
			o, err := it.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("cannot list old objects: %w", err)
			}
			if !named[o.Key] {
				old = append(old, o)
			}
		}
		slices.SortFunc(old, func(a, b *blob.ListObject) int { return b.ModTime.Compare(a.ModTime) }) // newest first
		for _, o := range old[min(Keep-1, len(old)):] {
			if err := b.Delete(ctx, o.Key); err != nil && !IsNotFound(err) {
				return fmt.Errorf("cannot delete old object %s: %w", o.Key, err)
			}
		}
	}
	return nil
}
