package replica_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/gigs/gigs/engine/replica"
)

// TestS3Bucket publishes to and follows an s3:// bucket, configured by URL as an operator
// would, against an S3-compatible server over HTTP (gofakes3): the same snapshot comes out.
func TestS3Bucket(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("gigs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	b, err := replica.OpenBucket(context.Background(), "s3://gigs?region=us-east-1&use_path_style=true&endpoint="+srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, m := published(t, b, t.TempDir(), 300)
	f := follower(t, b)
	if swapped, err := f.Poll(context.Background()); !swapped || err != nil {
		t.Fatalf("following an S3 bucket: swapped %v, %v", swapped, err)
	}
	if got := f.Live.Load(); got.Version() != s.Version() || got.Export().ETag != s.Export().ETag {
		t.Fatalf("serving %s, published %s (%s)", got.Version(), s.Version(), m.Object)
	}
}
