package replica_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/prometheus/client_golang/prometheus"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
	"github.com/gigs/gigs/testkit/scale"
)

var now = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// published builds a snapshot of n gigs, writes its file in dir and publishes it to b.
func published(t *testing.T, b *blob.Bucket, dir string, n int) (*engine.Snapshot, replica.Manifest) {
	t.Helper()
	s, err := engine.Build(scale.Generate(scale.Config{Gigs: n, Seed: uint64(n), Now: now}), engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "snapshot")
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	m, err := replica.Publish(context.Background(), b, path, s, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

// bucket opens a new directory bucket, closed when the test ends.
func bucket(t *testing.T) *blob.Bucket {
	b, err := replica.OpenBucket(context.Background(), filepath.Join(t.TempDir(), "bucket"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func follower(t *testing.T, b *blob.Bucket) *replica.Follower {
	dir := t.TempDir()
	return &replica.Follower{Bucket: b, Path: filepath.Join(dir, "snapshot"), Live: &engine.Live{},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Every: time.Second, Metrics: replica.NewFollowMetrics(prometheus.NewRegistry())}
}

// TestFollowerServesWhatIsPublished publishes three snapshots to a directory bucket: a
// follower serves each (its file byte for byte, so its ETags and cursors are the
// publisher's), polls with nothing new without downloading, and the bucket keeps the last
// Keep snapshot files.
func TestFollowerServesWhatIsPublished(t *testing.T) {
	ctx := context.Background()
	b := bucket(t)
	f := follower(t, b)
	if swapped, err := f.Poll(ctx); swapped || err != nil {
		t.Fatalf("an empty bucket: swapped %v, %v", swapped, err)
	}
	pub := t.TempDir()
	for i, n := range []int{200, 300, 400, 500} {
		s, m := published(t, b, pub, n)
		if swapped, err := f.Poll(ctx); !swapped || err != nil {
			t.Fatalf("publish %d: swapped %v, %v", i, swapped, err)
		}
		got := f.Live.Load()
		if got.Version() != s.Version() || got.Len() != n || got.Cursor() != s.Cursor() || got.Export().ETag != s.Export().ETag {
			t.Fatalf("publish %d: serving %s (%d gigs), want %s (%d)", i, got.Version(), got.Len(), s.Version(), n)
		}
		mine, _ := os.ReadFile(f.Path)
		theirs, _ := os.ReadFile(filepath.Join(pub, "snapshot"))
		if string(mine) != string(theirs) || int64(len(mine)) != m.FileSize || m.Size >= m.FileSize {
			t.Fatalf("publish %d: the follower's file is not the publisher's", i)
		}
		if swapped, err := f.Poll(ctx); swapped || err != nil {
			t.Fatalf("publish %d, nothing new: swapped %v, %v", i, swapped, err)
		}
		if next := f.Live.NextRefresh(); !next.Equal(m.NextRefresh.Add(f.Every)) {
			t.Fatalf("next refresh %s, want the publisher's %s plus a poll", next, m.NextRefresh)
		}
	}
	var objects []string
	for it := b.List(&blob.ListOptions{Prefix: replica.SnapshotPrefix}); ; {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		objects = append(objects, o.Key)
	}
	if len(objects) != replica.Keep {
		t.Fatalf("bucket keeps %v, want the last %d", objects, replica.Keep)
	}
	if entries, _ := os.ReadDir(filepath.Dir(f.Path)); len(entries) != 1 {
		t.Fatalf("the follower's directory holds %d files, want only its snapshot file", len(entries))
	}
}

// TestFollowerNeverServesACorruptSnapshot publishes a good snapshot, then damages what the
// bucket holds in every way an upload cut short, a broken disk or a wrong writer could:
// the follower serves none of it, keeps the good snapshot and its file, does not download
// a bad file again, and serves the next good publish.
func TestFollowerNeverServesACorruptSnapshot(t *testing.T) {
	ctx := context.Background()
	b := bucket(t)
	pub := t.TempDir()
	good, goodManifest := published(t, b, pub, 300)
	f := follower(t, b)
	if _, err := f.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	goodFile, _ := os.ReadFile(f.Path)
	goodObject, err := b.ReadAll(ctx, goodManifest.Object)
	if err != nil {
		t.Fatal(err)
	}
	// bad returns a manifest naming snapshots/bad, changed by change.
	bad := func(change func(*replica.Manifest)) []byte {
		m := goodManifest
		m.Object, m.Published = "snapshots/bad", time.Now() // each publish writes a manifest of its own
		m.Checksum = "0123456789abcdef"                     // and names other bytes
		change(&m)
		data, _ := json.Marshal(m)
		return data
	}
	// sized has a manifest describe object, which decompresses to n bytes.
	sized := func(object []byte, n int) func(*replica.Manifest) {
		return func(m *replica.Manifest) { m.SHA256, m.Size, m.FileSize = sha(object), int64(len(object)), int64(n) }
	}
	flippedObject := append([]byte(nil), goodObject...)
	flippedObject[len(flippedObject)/2] ^= 0x40
	flippedFile := append([]byte(nil), goodFile...)
	flippedFile[len(flippedFile)/2] ^= 0x40
	notSnapshot := make([]byte, 1500) // incompressible: within the ratio a manifest may claim
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range notSnapshot {
		notSnapshot[i] = byte(rng.Uint32())
	}
	compressedFlip, compressedNot := compress(t, flippedFile), compress(t, notSnapshot)
	tests := []struct {
		name     string
		object   []byte // written under snapshots/bad when set
		manifest []byte
		want     string // in the error
	}{
		{"cut short", goodObject[:len(goodObject)/2], bad(func(*replica.Manifest) {}), "size"},
		{"one bit flipped", flippedObject, bad(func(*replica.Manifest) {}), "damaged"},
		{"longer than said", append(append([]byte(nil), goodObject...), 0), bad(func(*replica.Manifest) {}), "size"},
		{"checksum of a damaged object", flippedObject, bad(sized(flippedObject, len(goodFile))), "download"},
		{"a damaged file, compressed", compressedFlip, bad(sized(compressedFlip, len(flippedFile))), "snapshot file"},
		{"not a snapshot", compressedNot, bad(sized(compressedNot, len(notSnapshot))), "snapshot file"},
		{"not compressed", goodFile, bad(sized(goodFile, len(goodFile))), "magic number"},
		{"larger than said, decompressed", goodObject, bad(sized(goodObject, len(goodFile)-1)), "decompressed"},
		{"smaller than said, decompressed", goodObject, bad(sized(goodObject, len(goodFile)+1)), "decompressed"},
		{"built before the one served", goodObject, bad(func(m *replica.Manifest) { m.Built = m.Built.Add(-time.Hour) }), "before the one served"},
		{"built other than its file", goodObject, bad(func(m *replica.Manifest) { m.Built = m.Built.Add(time.Second) }), "the manifest names"},
		{"built in the future", nil, bad(func(m *replica.Manifest) {
			m.Built = time.Now().Add(2 * time.Hour)
			m.Published, m.NextRefresh = m.Built, m.Built.Add(time.Hour)
		}), "not a time up to now"},
		{"published before built", nil, bad(func(m *replica.Manifest) { m.Published = m.Built.Add(-time.Minute) }), "do not follow"},
		{"next refresh before built", nil, bad(func(m *replica.Manifest) { m.NextRefresh = m.Built.Add(-time.Minute) }), "do not follow"},
		{"next refresh in a century", nil, bad(func(m *replica.Manifest) { m.NextRefresh = m.Published.AddDate(100, 0, 0) }), "do not follow"},
		{"decompresses too far", nil, bad(func(m *replica.Manifest) { m.FileSize = 100 * m.Size }), "over 20 times"},
		{"missing object", nil, bad(func(m *replica.Manifest) { m.Object = "snapshots/none" }), "NotFound"},
		{"manifest not JSON", nil, []byte("{\"format\": 1, \"obj"), "parse"},
		{"manifest of another format", nil, bad(func(m *replica.Manifest) { m.Format = 3 }), "format"},
		{"object outside snapshots/", nil, bad(func(m *replica.Manifest) { m.Object = "manifest.json" }), "not a snapshot"},
		{"no checksum", nil, bad(func(m *replica.Manifest) { m.SHA256 = "" }), "checksum"},
		{"huge size", nil, bad(func(m *replica.Manifest) { m.FileSize = 1 << 50 }), "size"},
		{"manifest too long", nil, []byte(strings.Repeat(" ", 70<<10) + "{}"), "over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.object != nil {
				if err := b.WriteAll(ctx, "snapshots/bad", tt.object, nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := b.WriteAll(ctx, replica.ManifestKey, tt.manifest, nil); err != nil {
				t.Fatal(err)
			}
			swapped, err := f.Poll(ctx)
			if swapped || err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("swapped %v, error %v; want no swap and an error about %q", swapped, err, tt.want)
			}
			if s := f.Live.Load(); s.Version() != good.Version() {
				t.Fatalf("serving %s after a bad publish", s.Version())
			}
			if mine, _ := os.ReadFile(f.Path); string(mine) != string(goodFile) {
				t.Fatal("the follower's snapshot file was replaced")
			}
			if entries, _ := os.ReadDir(filepath.Dir(f.Path)); len(entries) != 1 {
				t.Fatalf("a bad download left %d files", len(entries))
			}
			if tt.object != nil {
				if swapped, err := f.Poll(ctx); swapped || err != nil {
					t.Fatalf("the same bad manifest again: swapped %v, %v; want it skipped, not downloaded again", swapped, err)
				}
			}
		})
	}
	if swapped, err := f.Poll(ctx); swapped || err == nil {
		// The last manifest was too long to be read: an error each time, nothing served.
		t.Fatalf("polling the last bad manifest again: swapped %v, %v", swapped, err)
	}
	next, _ := published(t, b, pub, 400)
	if swapped, err := f.Poll(ctx); !swapped || err != nil || f.Live.Load().Version() != next.Version() {
		t.Fatalf("a good publish after bad ones: swapped %v, %v", swapped, err)
	}
}

// TestRestartedFollowerKeepsItsNewerFile starts a follower as gigsd does, serving the
// snapshot file it read at start, while the bucket names an older snapshot (a publisher
// restored from a backup, or its clock set back): the older one is not served and the
// file is not replaced.
func TestRestartedFollowerKeepsItsNewerFile(t *testing.T) {
	ctx := context.Background()
	b := bucket(t)
	ds := scale.Generate(scale.Config{Gigs: 200, Seed: 3, Now: now})
	older, err := engine.Build(ds, engine.Options{Now: now.Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(t.TempDir(), "snapshot")
	if err := older.WriteFile(pub); err != nil {
		t.Fatal(err)
	}
	if _, err := replica.Publish(ctx, b, pub, older, now); err != nil {
		t.Fatal(err)
	}
	f := follower(t, b)
	newer, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := newer.WriteFile(f.Path); err != nil {
		t.Fatal(err)
	}
	read, err := engine.ReadSnapshotFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	f.Live.Publish(read)
	file, _ := os.ReadFile(f.Path)
	if swapped, err := f.Poll(ctx); swapped || err == nil || !strings.Contains(err.Error(), "before the one served") {
		t.Fatalf("swapped %v, %v; want the older snapshot refused", swapped, err)
	}
	if s := f.Live.Load(); !s.Built().Equal(now) {
		t.Errorf("serving the snapshot built %s", s.Built())
	}
	if mine, _ := os.ReadFile(f.Path); string(mine) != string(file) {
		t.Error("the follower's newer snapshot file was replaced")
	}
}

// TestFollowerServesWhatItCannotKeep gives a follower a directory where its snapshot file
// goes: the downloaded snapshot is served all the same, and not downloaded again.
func TestFollowerServesWhatItCannotKeep(t *testing.T) {
	ctx := context.Background()
	b := bucket(t)
	s, _ := published(t, b, t.TempDir(), 200)
	f := follower(t, b)
	if err := os.Mkdir(f.Path, 0o700); err != nil {
		t.Fatal(err)
	}
	if swapped, err := f.Poll(ctx); !swapped || err != nil || f.Live.Load().Version() != s.Version() {
		t.Fatalf("swapped %v, %v; want the snapshot served", swapped, err)
	}
	if swapped, err := f.Poll(ctx); swapped || err != nil {
		t.Fatalf("polled again: swapped %v, %v; want nothing new", swapped, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(f.Path)); len(entries) != 1 {
		t.Errorf("%d files in the data directory, want the directory alone", len(entries))
	}
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// compress is what a publisher uploads for a file holding b.
func compress(t *testing.T, b []byte) []byte {
	z, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return z.EncodeAll(b, nil)
}

// TestReschedule moves the manifest's next refresh after a refresh that changed nothing:
// a follower takes it without downloading anything; a manifest of other data is left alone.
func TestReschedule(t *testing.T) {
	ctx := context.Background()
	b := bucket(t)
	f := follower(t, b)
	s, m := published(t, b, t.TempDir(), 200)
	if swapped, err := f.Poll(ctx); !swapped || err != nil {
		t.Fatalf("first poll: swapped %v, %v", swapped, err)
	}
	next := m.NextRefresh.Add(time.Hour)
	if _, err := replica.Reschedule(ctx, b, s.Version(), next); err != nil {
		t.Fatal(err)
	}
	got, err := replica.ReadManifest(ctx, b)
	if err != nil || !got.NextRefresh.Equal(next) || got.Object != m.Object || got.SHA256 != m.SHA256 {
		t.Fatalf("manifest after rescheduling: %+v, %v; want %s's with next refresh %s", got, err, m.Object, next)
	}
	if swapped, err := f.Poll(ctx); swapped || err != nil || !f.Live.NextRefresh().Equal(next.Add(f.Every)) {
		t.Fatalf("poll after rescheduling: swapped %v, %v, next refresh %s, want %s", swapped, err, f.Live.NextRefresh(), next.Add(f.Every))
	}
	if _, err := replica.Reschedule(ctx, b, "other data", next.Add(time.Hour)); err == nil {
		t.Fatal("rescheduled a manifest of other data")
	}
	if again, _ := replica.ReadManifest(ctx, b); !again.NextRefresh.Equal(next) {
		t.Fatalf("a refused reschedule changed the manifest: %+v", again)
	}
}
