package replica_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine/replica"
)

// TestS3Bucket publishes to and follows an s3:// bucket, configured by URL as an operator
// would, against an S3-compatible server over HTTP (gofakes3): the same snapshot comes
// out, whole, then by deltas (a whole one every second publish), pruned as in a directory.
func TestS3Bucket(t *testing.T) {
	b := s3Bucket(t)
	s, m := published(t, b, t.TempDir(), 300)
	f := follower(t, b)
	if swapped, err := f.Poll(context.Background()); !swapped || err != nil {
		t.Fatalf("following an S3 bucket: swapped %v, %v", swapped, err)
	}
	if got := f.Live.Load(); got.Version() != s.Version() || got.Export().ETag != s.Export().ETag {
		t.Fatalf("serving %s, published %s (%s)", got.Version(), s.Version(), m.Object)
	}
	r := newRefresher(t, b, 500, 2)
	d := newDeltaFollower(t, b)
	for i := range 4 {
		r.refresh()
		d.poll(t, r, "an S3 bucket's publish")
		if got := d.metric(t, "gigs_follow_deltas_total", "ok"); got != float64(i) {
			t.Fatalf("publish %d: %v deltas applied, want %d", i, got, i)
		}
	}
}

// s3Bucket opens an s3:// bucket of a new S3-compatible server (gofakes3), closed when
// the test ends.
func s3Bucket(t *testing.T) *blob.Bucket {
	backend := s3mem.New()
	if err := backend.CreateBucket("gigs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	b, err := replica.OpenBucket(context.Background(), "s3://gigs?region=us-east-1&use_path_style=true&endpoint="+srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
