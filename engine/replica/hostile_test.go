package replica_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
)

// dirBucket opens a new directory bucket and returns it with its directory. It is not
// closed: a read stalled on a named pipe would hold Close, and the test, forever.
func dirBucket(t *testing.T) (*blob.Bucket, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bucket")
	b, err := replica.OpenBucket(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return b, dir
}

// pollWithin polls f, failing the test when the poll does not return within a few
// seconds (a follower stalled on a read that never ends).
func pollWithin(t *testing.T, f *replica.Follower) (bool, error) {
	t.Helper()
	type result struct {
		swapped bool
		err     error
	}
	done := make(chan result, 1)
	go func() {
		s, err := f.Poll(context.Background())
		done <- result{s, err}
	}()
	select {
	case r := <-done:
		return r.swapped, r.err
	case <-time.After(5 * time.Second):
		t.Fatal("the poll has not returned after 5 s: the follower is stalled")
		return false, nil
	}
}

// writeManifest writes m as the bucket's manifest.
func writeManifest(t *testing.T, b *blob.Bucket, m replica.Manifest) {
	t.Helper()
	data, _ := json.Marshal(m)
	if err := b.WriteAll(context.Background(), replica.ManifestKey, data, nil); err != nil {
		t.Fatal(err)
	}
}

// followed is a directory bucket with a snapshot of 200 gigs published, a follower of it
// with its metrics on reg, and a 2 GiB sparse object in it, snapshots/sparse.
type followed struct {
	b        *blob.Bucket
	dir, pub string
	good     *engine.Snapshot
	manifest replica.Manifest
	f        *replica.Follower
	reg      *prometheus.Registry
}

func newFollowed(t *testing.T) *followed {
	t.Helper()
	x := &followed{pub: t.TempDir(), reg: prometheus.NewRegistry()}
	x.b, x.dir = dirBucket(t)
	x.good, x.manifest = published(t, x.b, x.pub, 200)
	x.f = follower(t, x.b)
	x.f.Metrics = replica.NewFollowMetrics(x.reg)
	sparse, err := os.Create(filepath.Join(x.dir, "snapshots", "sparse"))
	if err == nil {
		err = sparse.Truncate(2 << 30)
		sparse.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestFollowerRefusesObjectsFromTheirMetadata puts in a real directory bucket what no
// snapshot is: a named pipe as the object, and as the manifest; a 2 GiB
// sparse file of another size than the manifest's. Each poll returns at once with the
// reason, having read no byte of the object, and the follower keeps its snapshot; a
// manifest put right is followed at the next poll. Of the manifest's size, the sparse
// object is read only as far as its first bytes, which are not zstd.
func TestFollowerRefusesObjectsFromTheirMetadata(t *testing.T) {
	x := newFollowed(t)
	b, dir, pub, good, goodManifest, f, reg := x.b, x.dir, x.pub, x.good, x.manifest, x.f, x.reg
	if swapped, err := pollWithin(t, f); !swapped || err != nil {
		t.Fatalf("the first publish: %v %v", swapped, err)
	}
	read := counter(t, reg, "gigs_follow_downloaded_bytes_total")
	objects := filepath.Join(dir, "snapshots")
	if err := syscall.Mkfifo(filepath.Join(objects, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		object, want string
	}{
		{"snapshots/fifo", "not a regular file"},
		{"snapshots/sparse", "2147483648 bytes in the bucket"},
	} {
		m := goodManifest
		m.Object, m.Published = tc.object, m.Published.Add(time.Duration(i+1)*time.Second)
		m.Checksum = "0123456789abcdef" // other bytes than those served
		writeManifest(t, b, m)
		if swapped, err := pollWithin(t, f); swapped || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%s: swapped %v, %v; want an error with %q", tc.object, swapped, err, tc.want)
		}
		if swapped, err := pollWithin(t, f); swapped || err != nil {
			t.Fatalf("%s again: swapped %v, %v; want it skipped until the manifest changes", tc.object, swapped, err)
		}
	}
	// Of the right size, a sparse object is not zstd: refused at its first bytes.
	m := goodManifest
	m.Object, m.Size, m.FileSize, m.Published = "snapshots/sparse", 2<<30, 2<<30, m.Published.Add(time.Minute)
	m.Checksum = "0123456789abcdef"
	writeManifest(t, b, m)
	if swapped, err := pollWithin(t, f); swapped || err == nil || !strings.Contains(err.Error(), "not zstd") {
		t.Fatalf("a sparse object of the manifest's size: swapped %v, %v", swapped, err)
	}
	if got := counter(t, reg, "gigs_follow_downloaded_bytes_total") - read; got > 1<<20 {
		t.Fatalf("%v bytes read of a 2 GiB object that is not zstd", got)
	}
	read = counter(t, reg, "gigs_follow_downloaded_bytes_total")
	// The manifest itself a named pipe.
	if err := os.Remove(filepath.Join(dir, replica.ManifestKey)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, replica.ManifestKey), 0o644); err != nil {
		t.Fatal(err)
	}
	if swapped, err := pollWithin(t, f); swapped || err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a manifest that is a named pipe: swapped %v, %v", swapped, err)
	}
	if got := counter(t, reg, "gigs_follow_downloaded_bytes_total"); got != read {
		t.Fatalf("%v bytes downloaded for objects refused from their metadata", got-read)
	}
	if f.Live.Load().Version() != good.Version() {
		t.Fatal("the snapshot in service changed")
	}
	// Put right: the next publish is followed.
	if err := os.Remove(filepath.Join(dir, replica.ManifestKey)); err != nil {
		t.Fatal(err)
	}
	next, _ := published(t, b, pub, 300)
	if swapped, err := pollWithin(t, f); !swapped || err != nil || f.Live.Load().Version() != next.Version() {
		t.Fatalf("a good publish after the bad ones: swapped %v, %v", swapped, err)
	}
}

// counter returns the value of the counter of reg named name: of its series whose result
// label is result when given, else of its first.
func counter(t *testing.T, reg *prometheus.Registry, name string, result ...string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if len(result) == 0 || len(m.GetLabel()) > 0 && m.GetLabel()[0].GetValue() == result[0] {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no metric %s %v", name, result)
	return 0
}

func TestPollWait(t *testing.T) {
	low := func(int64) int64 { return 0 }
	high := func(n int64) int64 { return n - 1 }
	s := time.Second
	for _, tc := range []struct {
		every     time.Duration
		fails     int
		min, max  time.Duration
		sameEvery bool
	}{
		{5 * s, 0, 5 * s, 5 * s, true},
		{5 * s, 1, 5 * s, 10 * s, false},
		{5 * s, 2, 10 * s, 20 * s, false},
		{5 * s, 5, 80 * s, 160 * s, false},
		{5 * s, 6, replica.MaxPollBackoff / 2, replica.MaxPollBackoff, false},
		{5 * s, 1000, replica.MaxPollBackoff / 2, replica.MaxPollBackoff, false},
		{time.Hour, 3, 30 * time.Minute, time.Hour, false},
	} {
		lo, hi := replica.PollWait(tc.every, tc.fails, low), replica.PollWait(tc.every, tc.fails, high)
		if lo != tc.min || hi != tc.max {
			t.Errorf("every %s, %d failed: waits from %s to %s, want %s to %s", tc.every, tc.fails, lo, hi, tc.min, tc.max)
		}
	}
}

// TestFollowerBacksOff runs a follower whose bucket names a new unusable object at every
// poll (a 2 GiB sparse file of another size than its manifest's), counting its polls on
// an injected timer: each failure in a row doubles the wait, with jitter, up to
// MaxPollBackoff; no byte of the object is read; the first good publish brings the wait
// back to Every.
func TestFollowerBacksOff(t *testing.T) {
	x := newFollowed(t)
	b, pub, goodManifest, f, reg := x.b, x.pub, x.manifest, x.f, x.reg
	waits, ticks := make(chan time.Duration), make(chan time.Time)
	f.SetAfter(func(d time.Duration) <-chan time.Time { waits <- d; return ticks })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.Run(ctx) }()
	defer func() { cancel(); <-done }()
	if w := <-waits; w != f.Every {
		t.Fatalf("after a good poll: a wait of %s, want Every (%s)", w, f.Every)
	}
	read := counter(t, reg, "gigs_follow_downloaded_bytes_total")
	for fails := 1; fails <= 12; fails++ {
		m := goodManifest
		m.Object, m.Published = "snapshots/sparse", m.Published.Add(time.Duration(fails)*time.Second)
		m.Checksum = "0123456789abcdef"
		writeManifest(t, b, m)
		ticks <- time.Now()
		w := <-waits
		full := min(f.Every<<fails, replica.MaxPollBackoff)
		if w < full/2 || w > full {
			t.Fatalf("after %d failed polls: a wait of %s, want %s to %s", fails, w, full/2, full)
		}
	}
	if got := counter(t, reg, "gigs_follow_downloaded_bytes_total"); got != read {
		t.Fatalf("%v bytes read of objects of the wrong size", got-read)
	}
	published(t, b, pub, 300)
	ticks <- time.Now()
	if w := <-waits; w != f.Every {
		t.Fatalf("after a good publish: a wait of %s, want Every (%s)", w, f.Every)
	}
}
