package replica

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/klauspost/compress/zstd"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/gigs/gigs/engine"
)

// Keep is how many snapshot files a publisher leaves in the bucket: the one the manifest
// names and those before it, which followers may still be downloading.
const Keep = 3

// IsNotFound reports whether err means a missing object, such as the manifest of a
// bucket nothing was published to yet.
func IsNotFound(err error) bool { return gcerrors.Code(err) == gcerrors.NotFound }

// Publish uploads the snapshot file at path, which holds snap, then the manifest naming
// it, and deletes the snapshot files older than the last Keep. next is when the publisher
// refreshes next (followers give it to caches).
func Publish(ctx context.Context, b *blob.Bucket, path string, snap *engine.Snapshot, next time.Time) (Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return Manifest{}, err
	}
	defer f.Close()
	m := Manifest{Format: manifestFormat, DataVersion: snap.Version(), Gigs: snap.Len(), Built: snap.Built().UTC(), NextRefresh: next.UTC(),
		Cursor: snap.Cursor().String(),
		Object: SnapshotPrefix + snap.Built().UTC().Format("20060102T150405.000000000Z") + "-" + snap.Version()}
	h := sha256.New()
	w, err := b.NewWriter(ctx, m.Object, &blob.WriterOptions{ContentType: "application/zstd"})
	if err != nil {
		return Manifest{}, fmt.Errorf("cannot upload %s: %w", m.Object, err)
	}
	object := &counter{w: io.MultiWriter(w, h)}
	z, err := zstd.NewWriter(object, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(maxWindow/2))
	if err == nil {
		if m.FileSize, err = io.Copy(z, f); err == nil {
			err = z.Close()
		}
	}
	if err != nil {
		w.Close()
		return Manifest{}, fmt.Errorf("cannot upload %s: %w", m.Object, err)
	}
	if err := w.Close(); err != nil {
		return Manifest{}, fmt.Errorf("cannot upload %s: %w", m.Object, err)
	}
	m.Size = object.n
	m.SHA256, m.Published = hex.EncodeToString(h.Sum(nil)), time.Now().UTC()
	if err := writeManifest(ctx, b, m); err != nil {
		return Manifest{}, err
	}
	return m, prune(ctx, b, m.Object)
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

// prune deletes the snapshot files but current and the Keep-1 uploaded last before it.
func prune(ctx context.Context, b *blob.Bucket, current string) error {
	var old []*blob.ListObject
	it := b.List(&blob.ListOptions{Prefix: SnapshotPrefix})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("cannot list old snapshots: %w", err)
		}
		if o.Key != current {
			old = append(old, o)
		}
	}
	slices.SortFunc(old, func(a, b *blob.ListObject) int { return b.ModTime.Compare(a.ModTime) }) // newest first
	for _, o := range old[min(Keep-1, len(old)):] {
		if err := b.Delete(ctx, o.Key); err != nil && !IsNotFound(err) {
			return fmt.Errorf("cannot delete old snapshot %s: %w", o.Key, err)
		}
	}
	return nil
}
