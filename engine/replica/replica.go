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
	"strings"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob:// buckets
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/gcsblob" // gs:// buckets
	_ "gocloud.dev/blob/s3blob"  // s3:// buckets
)

// ManifestKey is the manifest's name in the bucket; snapshot files are under
// SnapshotPrefix, deltas between them under DeltaPrefix.
const (
	ManifestKey    = "manifest.json"
	SnapshotPrefix = "snapshots/"
	DeltaPrefix    = "deltas/"
)

// manifestFormat is the version of the manifest this build writes; it reads format 1
// too (a snapshot uploaded whole, no deltas), which older publishers write.
const manifestFormat = 2

// maxWindow caps the zstd window a follower accepts (the publisher's encoder uses less),
// so a hostile object cannot make a follower allocate more.
const maxWindow = 64 << 20

// maxManifest caps the bytes of a manifest read; maxSnapshot those of a snapshot file
// and of its object; maxRatio how far an object may decompress (a snapshot file
// compresses about twice), so a small object cannot fill a follower's disk.
const (
	maxManifest = 64 << 10
	maxSnapshot = 64 << 30
	maxRatio    = 20
	// maxDelta caps a delta decompressed, which a follower writes to its disk and maps
	// while it applies it: a delta of more is not worth it (a publisher uploads a whole
	// snapshot instead, see Publish).
	maxDelta = 4 << 30
)

// deltaCap returns the most a delta making a snapshot file of fileSize bytes may hold
// decompressed: a quarter of the file and a MiB, at most maxDelta. A follower keeps a
// delta on its disk while it applies it, so a manifest may not make it keep more; a delta
// of more saves little over the whole file, which a publisher uploads instead (it writes
// the delta to its disk, and stops at this cap).
func deltaCap(fileSize int64) int64 { return min(maxDelta, fileSize/4+1<<20) }

// A manifest's times must be plausible, or one bad manifest would hold every follower
// and the publisher (nothing built before it is served or published) or set caches'
// lifetimes: built at most maxAhead after the reader's clock (the publisher's may run a
// little ahead), published after it was built, and its next refresh after it was built
// and at most maxRefreshGap after it was published.
const (
	maxAhead      = time.Hour
	maxRefreshGap = 31 * 24 * time.Hour
)

// Manifest names the published snapshot: the newest snapshot file uploaded whole (Object),
// and the chain of deltas (Deltas) that turns it, and the snapshots published before it,
// into the current one; DataVersion to Cursor describe the current snapshot.
type Manifest struct {
	Format   int    `json:"format"`
	Object   string `json:"object"`    // the key in the bucket of the snapshot file, zstd-compressed
	Size     int64  `json:"size"`      // of the object
	SHA256   string `json:"sha256"`    // hex, of the object
	FileSize int64  `json:"file_size"` // of the snapshot file, decompressed
	// Checksum is the checksum that ends Object's snapshot file (engine.SnapshotFileSum),
	// 16 hex digits; empty in format 1.
	Checksum string `json:"checksum,omitempty"`
	// Deltas is a chain, oldest first: each turns the snapshot file of its From into
	// its To, the next's From, and the last makes the current snapshot's file. Object's
	// Checksum is the From of one of them, or the last one's To. Empty when Object is the
	// current snapshot and no delta leads to it.
	Deltas      []Delta   `json:"deltas,omitempty"`
	DataVersion string    `json:"data_version"`
	Gigs        int       `json:"gigs"`
	Built       time.Time `json:"built"`
	Published   time.Time `json:"published"`
	NextRefresh time.Time `json:"next_refresh"`     // when the publisher refreshes next
	Cursor      string    `json:"cursor,omitempty"` // the snapshot's change-feed cursor
}

// Delta names a delta object: the zstd-compressed delta (see engine.WriteSnapshotDelta)
// that turns the snapshot file whose checksum is From into the one whose checksum is To.
type Delta struct {
	Object   string `json:"object"`    // its key in the bucket, under DeltaPrefix
	Size     int64  `json:"size"`      // of the object
	SHA256   string `json:"sha256"`    // hex, of the object
	RawSize  int64  `json:"raw_size"`  // of the delta, decompressed
	From     string `json:"from"`      // the checksum of the snapshot file it applies to
	To       string `json:"to"`        // the checksum of the snapshot file it makes
	FileSize int64  `json:"file_size"` // of the snapshot file it makes
}

// MaxChain caps the deltas a manifest lists: a follower applies at most these in a row,
// and a publisher uploads a snapshot whole at least every MaxChain.
const MaxChain = 64

// current returns the checksum of the current snapshot's file: empty in format 1.
func (m *Manifest) current() string {
	if len(m.Deltas) > 0 {
		return m.Deltas[len(m.Deltas)-1].To
	}
	return m.Checksum
}

// id names the current snapshot's file: two manifests of the same id name the same bytes.
func (m *Manifest) id() string {
	if sum := m.current(); sum != "" {
		return "checksum:" + sum
	}
	return m.Object + "@" + strings.ToLower(m.SHA256)
}

// afterFull returns the index in m.Deltas of the first delta to apply to Object's file.
func (m *Manifest) afterFull() int {
	for i, d := range m.Deltas {
		if d.From == m.Checksum {
			return i
		}
	}
	return len(m.Deltas)
}

// isSum reports whether s is a checksum as a manifest writes it.
func isSum(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 8 && s == strings.ToLower(s)
}

// checkDeltas reports what makes m's chain unusable.
func (m *Manifest) checkDeltas() error {
	if m.Format == 1 {
		if m.Checksum != "" || len(m.Deltas) > 0 {
			return errors.New("manifest format 1 with a checksum or deltas")
		}
		return nil
	}
	if !isSum(m.Checksum) {
		return fmt.Errorf("manifest checksum %q is not 16 hex digits", m.Checksum)
	}
	if len(m.Deltas) > MaxChain {
		return fmt.Errorf("manifest lists %d deltas, over %d", len(m.Deltas), MaxChain)
	}
	full := len(m.Deltas) == 0
	for i, d := range m.Deltas {
		sum, err := hex.DecodeString(d.SHA256)
		switch {
		case !strings.HasPrefix(d.Object, DeltaPrefix) || strings.Contains(d.Object, ".."):
			return fmt.Errorf("manifest names %q, not a delta under %s", d.Object, DeltaPrefix)
		case d.Size <= 0 || d.Size > maxSnapshot || d.FileSize <= 0 || d.FileSize > maxSnapshot || d.RawSize <= 0 || d.RawSize > deltaCap(d.FileSize):
			return fmt.Errorf("delta %s: sizes %d, %d decompressed, %d made (at most %d, %d, %d)", d.Object, d.Size, d.RawSize, d.FileSize,
				int64(maxSnapshot), deltaCap(d.FileSize), int64(maxSnapshot))
		case d.RawSize > maxRatio*d.Size:
			return fmt.Errorf("delta %s: %d bytes decompress to %d: over %d times", d.Object, d.Size, d.RawSize, maxRatio)
		case err != nil || len(sum) != sha256.Size:
			return fmt.Errorf("delta %s: checksum %q is not a hex SHA-256", d.Object, d.SHA256)
		case !isSum(d.From) || !isSum(d.To):
			return fmt.Errorf("delta %s: from %q to %q, not checksums", d.Object, d.From, d.To)
		case i > 0 && d.From != m.Deltas[i-1].To:
			return fmt.Errorf("delta %s applies to %s, not to what the delta before it makes (%s)", d.Object, d.From, m.Deltas[i-1].To)
		}
		full = full || d.From == m.Checksum || d.To == m.Checksum && i == len(m.Deltas)-1
	}
	if !full {
		return fmt.Errorf("snapshot %s (checksum %s) is on no delta's path", m.Object, m.Checksum)
	}
	return nil
}

// check reports what makes m unusable.
func (m *Manifest) check() error {
	sum, err := hex.DecodeString(m.SHA256)
	switch {
	case m.Format != manifestFormat && m.Format != 1:
		return fmt.Errorf("manifest format %d; this build reads 1 and %d", m.Format, manifestFormat)
	case !strings.HasPrefix(m.Object, SnapshotPrefix) || strings.Contains(m.Object, ".."):
		return fmt.Errorf("manifest names %q, not a snapshot under %s", m.Object, SnapshotPrefix)
	case m.Size <= 0 || m.Size > maxSnapshot || m.FileSize <= 0 || m.FileSize > maxSnapshot:
		return fmt.Errorf("manifest gives a size of %d bytes, %d decompressed (each at most %d)", m.Size, m.FileSize, int64(maxSnapshot))
	case m.FileSize > maxRatio*m.Size:
		return fmt.Errorf("manifest says %d bytes decompress to %d: over %d times, not a snapshot", m.Size, m.FileSize, maxRatio)
	case err != nil || len(sum) != sha256.Size:
		return fmt.Errorf("manifest checksum %q is not a hex SHA-256", m.SHA256)
	case m.Built.IsZero() || m.Built.After(time.Now().Add(maxAhead)):
		return fmt.Errorf("manifest says built %s: not a time up to now", m.Built)
	case m.Published.Before(m.Built) || m.NextRefresh.Before(m.Built) || m.NextRefresh.After(m.Published.Add(maxRefreshGap)):
		return fmt.Errorf("manifest's times do not follow each other: built %s, published %s, next refresh %s", m.Built, m.Published, m.NextRefresh)
	}
	return m.checkDeltas()
}

// CheckBucket reports a bucket URL whose scheme no driver linked in opens (a directory path
// is always one), without opening it.
func CheckBucket(rawURL string) error {
	scheme, _, ok := strings.Cut(rawURL, "://")
	if ok && !blob.DefaultURLMux().ValidBucketScheme(scheme) {
		return fmt.Errorf("bucket %q: unknown scheme %q (s3, gs, azblob, file, or a directory path)", rawURL, scheme)
	}
	return nil
}

// OpenBucket opens the bucket at url: a gocloud.dev URL (file://, s3://, gs://, azblob://)
// or a plain directory path, created when missing.
func OpenBucket(ctx context.Context, url string) (*blob.Bucket, error) {
	if !strings.Contains(url, "://") {
		dir, err := filepath.Abs(url)
		if err == nil {
			err = os.MkdirAll(dir, 0o755)
		}
		if err != nil {
			return nil, fmt.Errorf("bucket directory %q: %w", url, err)
		}
		// Temporary files beside the objects: renamed into place on the same file system.
		return fileblob.OpenBucket(dir, &fileblob.Options{NoTempDir: true})
	}
	b, err := blob.OpenBucket(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("bucket %q: %w", url, err)
	}
	return b, nil
}

// ReadManifest reads the bucket's manifest; an error for which IsNotFound reports true
// when nothing was published yet.
// The manifest is refused from its metadata, before a byte is read, when it is not a
// regular file (a named pipe would block the read forever) or over maxManifest bytes.
func ReadManifest(ctx context.Context, b *blob.Bucket) (Manifest, error) {
	size, err := statObject(ctx, b, ManifestKey)
	if err != nil {
		return Manifest{}, err
	}
	if size > maxManifest {
		return Manifest{}, fmt.Errorf("manifest is %d bytes, over %d", size, maxManifest)
	}
	r, err := b.NewReader(ctx, ManifestKey, nil)
	if err != nil {
		return Manifest{}, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, maxManifest+1))
	if err != nil {
		return Manifest{}, fmt.Errorf("cannot read the manifest: %w", err)
	}
	return parseManifest(data)
}

// errNotRegular means an object of a file bucket that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// statObject returns the size of the object at key from its metadata alone (a stat of a
// file bucket, a HEAD of a cloud one), refusing with errNotRegular an object of a file
// bucket that is not a regular file: a named pipe, a device, a directory. Opening a named
// pipe blocks until a writer comes, so nothing of the bucket is opened before this check.
func statObject(ctx context.Context, b *blob.Bucket, key string) (int64, error) {
	a, err := b.Attributes(ctx, key)
	if err != nil {
		return 0, err
	}
	var fi os.FileInfo
	if a.As(&fi) && !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s: %w (%s)", key, errNotRegular, fi.Mode().Type())
	}
	return a.Size, nil
}

// parseManifest reads a manifest, which must be at most maxManifest bytes and usable.
func parseManifest(data []byte) (Manifest, error) {
	if len(data) > maxManifest {
		return Manifest{}, fmt.Errorf("manifest is over %d bytes", maxManifest)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("cannot parse the manifest: %w", err)
	}
	if err := m.check(); err != nil {
		return Manifest{}, err
	}
	return m, nil
}

// errSize means a download whose size is not the manifest's.
var errSize = errors.New("snapshot file size differs from the manifest's")
