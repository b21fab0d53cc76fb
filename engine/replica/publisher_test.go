package replica_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine/replica"
)

// publisher returns a Publisher of the File in dir to b, and what it logs.
func publisher(t *testing.T, b *blob.Bucket, dir string) (*replica.Publisher, *strings.Builder) {
	f, live, _ := newFile(dir, true)
	if err := f.Load(time.Hour); err != nil {
		t.Fatal(err)
	}
	logs := &strings.Builder{}
	return &replica.Publisher{Bucket: b, Name: "bucket", File: f, Live: live, Log: slog.New(slog.NewJSONHandler(logs, nil)),
		Refresh: time.Hour, Metrics: replica.NewPublishMetrics(prometheus.NewRegistry()),
		Follower: func() *replica.Follower {
			fl := follower(t, b)
			fl.Path, fl.File, fl.Live = filepath.Join(dir, replica.FileName), f, live
			return fl
		}}, logs
}

// TestPublisherReplacesAManifestFromTheFuture resumes a publisher on a bucket whose
// manifest says it was built in the year 9999 (a publisher's clock gone wrong, or a hand):
// the manifest is refused, so it holds nothing back, and the first snapshot built
// replaces it.
func TestPublisherReplacesAManifestFromTheFuture(t *testing.T) {
	ctx := context.Background()
	b := bucket(t)
	future := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	bad, _ := json.Marshal(replica.Manifest{Format: 1, Object: replica.SnapshotPrefix + "future", Size: 100, FileSize: 200,
		SHA256: strings.Repeat("ab", 32), DataVersion: "0123456789abcdef", Built: future, Published: future, NextRefresh: future.Add(time.Hour)})
	if err := b.WriteAll(ctx, replica.ManifestKey, bad, nil); err != nil {
		t.Fatal(err)
	}
	p, logs := publisher(t, b, t.TempDir())
	p.Resume(ctx)
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second))) // build times are whole seconds
	s := built(t, 100, time.Now())
	p.Live.Publish(s)
	p.File.Save(s)
	p.Publish(ctx, s)
	if m, err := replica.ReadManifest(ctx, b); err != nil || m.DataVersion != s.Version() || m.Built.After(time.Now()) {
		t.Fatalf("the manifest after a publish: %+v, %v\n%s", m, err, logs)
	}
	if !strings.Contains(logs.String(), "cannot read the published manifest") {
		t.Errorf("the refused manifest is not logged:\n%s", logs)
	}
}

// TestPublisherResumes restarts a publisher that lost its data directory on a bucket
// holding a snapshot: it serves that one, carrying on its ledger, and publishing the same
// data again only moves the manifest's next refresh; a snapshot built before it is not
// published.
func TestPublisherResumes(t *testing.T) {
	ctx := context.Background()
	b := bucket(t)
	s, was := published(t, b, t.TempDir(), 300)
	p, logs := publisher(t, b, t.TempDir())
	p.Resume(ctx)
	if got := p.Live.Load(); got == nil || got.Version() != s.Version() || p.File.Published() != s.Cursor() {
		t.Fatalf("resumed without the published snapshot, or its cursor:\n%s", logs)
	}
	p.Live.SetNextRefresh(time.Now().Add(2 * time.Hour))
	p.Publish(ctx, p.Live.Load())
	is, err := replica.ReadManifest(ctx, b)
	if err != nil || is.Object != was.Object || is.SHA256 != was.SHA256 || !is.NextRefresh.After(was.NextRefresh) {
		t.Fatalf("the same data was published again, or its next refresh not moved (%v):\n%+v\n%+v", err, was, is)
	}
	older := built(t, 200, s.Built().Add(-time.Hour))
	p.File.Save(older)
	p.Publish(ctx, older)
	if again, _ := replica.ReadManifest(ctx, b); !reflect.DeepEqual(again, is) || !strings.Contains(logs.String(), "built before the one the bucket holds") {
		t.Errorf("a snapshot built before the bucket's: manifest %+v\n%s", again, logs)
	}
}
