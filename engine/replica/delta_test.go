package replica_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
	"github.com/gigs/gigs/testkit/scale"
)

// refresher publishes the snapshots of a dataset changed by random churn at each
// refresh, through a Publisher of a real data directory, as gigsd does.
type refresher struct {
	t    *testing.T
	p    *replica.Publisher
	dir  string
	ds   *engine.Dataset
	prev *engine.Snapshot
	n    int
	logs *strings.Builder // the publisher's
}

func newRefresher(t *testing.T, b *blob.Bucket, gigs, fullEvery int) *refresher {
	dir := t.TempDir()
	p, logs := publisher(t, b, dir)
	p.FullEvery = fullEvery
	return &refresher{t: t, p: p, dir: dir, logs: logs, ds: scale.Generate(scale.Config{Gigs: gigs, Seed: 5, Now: now})}
}

// refresh changes the dataset (none the first time), builds, saves and publishes it, and
// returns the manifest.
func (r *refresher) refresh() replica.Manifest {
	t := r.t
	t.Helper()
	if r.n > 0 {
		ch := scale.Churn{Edited: 0.04, Added: 0.02, Removed: 0.02, Seed: uint64(r.n)}.Apply(r.ds)
		// Churn numbers added gigs after the dataset's size: ids of each refresh's own.
		for i := len(r.ds.Gigs) - len(ch.Added); i < len(r.ds.Gigs); i++ {
			r.ds.Gigs[i].ID = fmt.Sprintf("r%d-%s", r.n, r.ds.Gigs[i].ID)
		}
	}
	s, err := engine.Build(r.ds, engine.Options{Now: now.Add(time.Duration(r.n) * time.Hour), Prev: r.prev})
	if err != nil {
		t.Fatal(err)
	}
	r.n++
	r.prev = s
	r.p.File.Save(s)
	r.p.Live.Publish(s)
	r.p.Publish(context.Background(), s)
	m, err := replica.ReadManifest(context.Background(), r.p.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	if m.DataVersion != s.Version() {
		t.Fatalf("refresh %d: the manifest names %s, not the snapshot built (%s)", r.n, m.DataVersion, s.Version())
	}
	return m
}

// file returns the publisher's snapshot file.
func (r *refresher) file() []byte {
	b, err := os.ReadFile(filepath.Join(r.dir, replica.FileName))
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// deltaFollower is a follower with its registry and logs.
type deltaFollower struct {
	*replica.Follower
	reg  *prometheus.Registry
	logs *strings.Builder
}

func newDeltaFollower(t *testing.T, b *blob.Bucket) deltaFollower {
	f := follower(t, b)
	reg, logs := prometheus.NewRegistry(), &strings.Builder{}
	f.Metrics, f.Log = replica.NewFollowMetrics(reg), slog.New(slog.NewTextHandler(logs, nil))
	return deltaFollower{f, reg, logs}
}

// metric returns the value of a counter of f's, of its series whose result label is
// result when given.
func (f deltaFollower) metric(t *testing.T, name, result string) float64 {
	t.Helper()
	if result == "" {
		return counter(t, f.reg, name)
	}
	return counter(t, f.reg, name, result)
}

// poll polls f, which must swap, and checks that it serves the publisher's file byte for
// byte; it returns the bytes it downloaded.
func (f deltaFollower) poll(t *testing.T, r *refresher, what string) float64 {
	t.Helper()
	before := f.metric(t, "gigs_follow_downloaded_bytes_total", "")
	if swapped, err := f.Poll(context.Background()); !swapped || err != nil {
		t.Fatalf("%s: swapped %v, %v\n%s", what, swapped, err, f.logs)
	}
	mine, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mine, r.file()) || f.Live.Load().Version() != r.prev.Version() {
		t.Fatalf("%s: the follower's file is not the publisher's", what)
	}
	noTemp(t, filepath.Dir(f.Path), what)
	noTemp(t, r.dir, what)
	return f.metric(t, "gigs_follow_downloaded_bytes_total", "") - before
}

// TestDeltaChain publishes refreshes of random churn with a whole snapshot every third:
// a follower that polls each refresh applies one delta (downloading far less than the
// whole object) and serves the publisher's file byte for byte; one that skips refreshes
// applies the chain since its snapshot; one that starts late downloads the whole object
// and the deltas after it. The bucket keeps what the manifest names and Keep-1 more of
// each kind.
func TestDeltaChain(t *testing.T) {
	b := bucket(t)
	r := newRefresher(t, b, 1500, 3)
	every, skips := newDeltaFollower(t, b), newDeltaFollower(t, b)
	m := r.refresh()
	if len(m.Deltas) != 0 {
		t.Fatalf("the first publish lists deltas: %+v", m.Deltas)
	}
	every.poll(t, r, "the first publish")
	skips.poll(t, r, "the first publish")
	for i := 1; i <= 7; i++ {
		m = r.refresh()
		whole := i%3 == 0
		if got := m.Checksum == m.Deltas[len(m.Deltas)-1].To; got != whole {
			t.Fatalf("refresh %d: uploaded whole %v, want %v (%+v)", i, got, whole, m)
		}
		if len(m.Deltas) > 3 {
			t.Fatalf("refresh %d: %d deltas listed, want at most FullEvery", i, len(m.Deltas))
		}
		got := every.poll(t, r, "refresh "+string(rune('0'+i)))
		if last := m.Deltas[len(m.Deltas)-1]; got != float64(last.Size) || got*2 > float64(m.Size) {
			t.Fatalf("refresh %d: downloaded %v bytes, want the delta's %d (the whole object is %d)", i, got, last.Size, m.Size)
		}
		if i%2 == 0 {
			skips.poll(t, r, "a follower two refreshes behind")
		}
	}
	if every.metric(t, "gigs_follow_deltas_total", "ok") != 7 || every.metric(t, "gigs_follow_delta_fallbacks_total", "") != 0 {
		t.Fatalf("deltas applied: %v ok, %v fallbacks; want 7 and 0", every.metric(t, "gigs_follow_deltas_total", "ok"),
			every.metric(t, "gigs_follow_delta_fallbacks_total", ""))
	}
	if got := skips.metric(t, "gigs_follow_deltas_total", "ok"); got != 6 {
		t.Fatalf("the follower two behind applied %v deltas, want 6", got)
	}
	late := newDeltaFollower(t, b)
	late.poll(t, r, "a new follower")
	if got := late.metric(t, "gigs_follow_deltas_total", "ok"); got != 1 { // the whole object of refresh 6, then 7's delta
		t.Fatalf("a new follower applied %v deltas, want 1", got)
	}
	named := map[string]bool{m.Object: true}
	for _, d := range m.Deltas {
		named[d.Object] = true
	}
	for _, prefix := range []string{replica.SnapshotPrefix, replica.DeltaPrefix} {
		extra := 0
		for it := b.List(&blob.ListOptions{Prefix: prefix}); ; {
			o, err := it.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if !named[o.Key] {
				extra++
			}
		}
		if extra != replica.Keep-1 {
			t.Errorf("%s: %d objects the manifest does not name, want %d", prefix, extra, replica.Keep-1)
		}
	}
}

// TestDeltaFallback damages the delta a follower needs in every way a bucket could: the
// follower never serves what it makes of it. When the current snapshot was uploaded whole
// too, it downloads that instead, counts the fallback and logs the object; when it was
// not, it keeps serving its snapshot and reports the error, and follows the next publish.
func TestDeltaFallback(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, b *blob.Bucket, m, prev replica.Manifest) replica.Manifest
	}{
		{"missing", func(t *testing.T, b *blob.Bucket, m, _ replica.Manifest) replica.Manifest {
			if err := b.Delete(ctx, last(m).Object); err != nil {
				t.Fatal(err)
			}
			return m
		}},
		{"a byte flipped", func(t *testing.T, b *blob.Bucket, m, _ replica.Manifest) replica.Manifest {
			data, err := b.ReadAll(ctx, last(m).Object)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 1
			if err := b.WriteAll(ctx, last(m).Object, data, nil); err != nil {
				t.Fatal(err)
			}
			return m
		}},
		{"another delta, its checksum right", func(t *testing.T, b *blob.Bucket, m, prev replica.Manifest) replica.Manifest {
			d, other := last(m), last(prev) // the delta before, which applies to another file
			data, err := b.ReadAll(ctx, other.Object)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.WriteAll(ctx, d.Object, data, nil); err != nil {
				t.Fatal(err)
			}
			m.Deltas[len(m.Deltas)-1].Size, m.Deltas[len(m.Deltas)-1].SHA256 = other.Size, other.SHA256
			m.Deltas[len(m.Deltas)-1].RawSize = other.RawSize
			return m
		}},
		{"a checksum the file made does not end with", func(t *testing.T, b *blob.Bucket, m, _ replica.Manifest) replica.Manifest {
			m.Deltas[len(m.Deltas)-1].To = "0123456789abcdef"
			if m.Checksum == last(m).To || m.Deltas[len(m.Deltas)-1].From == m.Checksum {
				m.Checksum = "0123456789abcdef"
			}
			return m
		}},
	} {
		for _, fullEvery := range []int{1, 3} {
			t.Run(tc.name+" full every "+string(rune('0'+fullEvery)), func(t *testing.T) {
				b := bucket(t)
				r := newRefresher(t, b, 800, fullEvery)
				f := newDeltaFollower(t, b)
				r.refresh()
				prev := r.refresh()
				f.poll(t, r, "the second publish")
				good := f.Live.Load()
				m := tc.damage(t, b, r.refresh(), prev)
				m.Published = m.Published.Add(time.Second)
				writeManifest(t, b, m)
				if fullEvery == 1 && tc.name != "a checksum the file made does not end with" {
					f.poll(t, r, "the whole object after a damaged delta")
					if f.metric(t, "gigs_follow_delta_fallbacks_total", "") != 1 || !strings.Contains(f.logs.String(), m.Object) {
						t.Fatalf("no fallback counted, or not logged with %s:\n%s", m.Object, f.logs)
					}
					return
				}
				swapped, err := f.Poll(ctx)
				if swapped || err == nil || f.Live.Load() != good {
					t.Fatalf("a damaged delta: swapped %v, %v; want the snapshot served kept, and an error", swapped, err)
				}
				noTemp(t, filepath.Dir(f.Path), "a damaged delta")
				if sum, _ := engine.SnapshotFileSum(f.Path); m.Deltas[0].From != "" && sum == 0 {
					t.Fatalf("the follower's file is gone")
				}
				r.refresh()
				f.poll(t, r, "the publish after a damaged delta")
			})
		}
	}
}

// noTemp fails t when dir holds a temporary file of a snapshot or a delta.
func noTemp(t *testing.T, dir, what string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(dir, "."+replica.FileName+".tmp-*")); len(left) > 0 {
		t.Fatalf("%s: temporary files left: %v", what, left)
	}
}

func last(m replica.Manifest) replica.Delta { return m.Deltas[len(m.Deltas)-1] }

// TestManifestChainRefused reads manifests whose chain of deltas no follower could trust:
// each is refused before a byte of any object is read, and the snapshot served stays.
func TestManifestChainRefused(t *testing.T) {
	b := bucket(t)
	r := newRefresher(t, b, 300, 4)
	f := newDeltaFollower(t, b)
	r.refresh()
	f.poll(t, r, "the first publish")
	r.refresh()
	good := r.refresh() // a whole object and two deltas after it
	served := f.Live.Load()
	for _, tc := range []struct {
		name   string
		change func(m *replica.Manifest)
		want   string
	}{
		{"out of order", func(m *replica.Manifest) { m.Deltas[0], m.Deltas[1] = m.Deltas[1], m.Deltas[0] }, "not to what the delta before it makes"},
		{"a gap", func(m *replica.Manifest) { m.Deltas[1].From = "00000000000000ff" }, "not to what the delta before it makes"},
		{"too long", func(m *replica.Manifest) {
			for len(m.Deltas) <= 64 {
				m.Deltas = append(m.Deltas, m.Deltas[len(m.Deltas)-1])
			}
		}, "over 64"},
		{"outside deltas/", func(m *replica.Manifest) { m.Deltas[1].Object = "manifest.json" }, "not a delta"},
		{"climbing out", func(m *replica.Manifest) { m.Deltas[1].Object = replica.DeltaPrefix + "../manifest.json" }, "not a delta"},
		{"huge", func(m *replica.Manifest) { m.Deltas[1].RawSize = 1 << 40 }, "sizes"},
		{"over a quarter of its file", func(m *replica.Manifest) { m.Deltas[1].RawSize = m.Deltas[1].FileSize/4 + 1<<20 + 1 }, "sizes"},
		{"decompresses too far", func(m *replica.Manifest) { m.Deltas[1].RawSize = 30 * m.Deltas[1].Size }, "over 20 times"},
		{"not a checksum", func(m *replica.Manifest) { m.Deltas[1].To = "snapshot" }, "not checksums"},
		{"no SHA-256", func(m *replica.Manifest) { m.Deltas[1].SHA256 = "" }, "not a hex SHA-256"},
		{"the whole object on no path", func(m *replica.Manifest) { m.Checksum = "00000000000000ff" }, "on no delta's path"},
		{"format 1 with deltas", func(m *replica.Manifest) { m.Format = 1 }, "format 1 with"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := good
			m.Deltas = append([]replica.Delta(nil), good.Deltas...)
			tc.change(&m)
			writeManifest(t, b, m)
			before := f.metric(t, "gigs_follow_downloaded_bytes_total", "")
			if swapped, err := f.Poll(context.Background()); swapped || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("swapped %v, %v; want an error with %q", swapped, err, tc.want)
			}
			if f.Live.Load() != served || f.metric(t, "gigs_follow_downloaded_bytes_total", "") != before {
				t.Fatalf("the snapshot served changed, or bytes were downloaded")
			}
		})
	}
	writeManifest(t, b, good)
	f.poll(t, r, "the manifest put right")
	if got := f.metric(t, "gigs_follow_deltas_total", "ok"); got != 2 {
		t.Fatalf("%v deltas applied, want the 2 of the chain", got)
	}
}

// TestDeltaNotMade damages the publisher's base of the next delta (its checksum kept, so
// it passes for the snapshot published last): the delta cannot be made, the snapshot is
// uploaded whole all the same, with a warning, and followers follow it.
func TestDeltaNotMade(t *testing.T) {
	b := bucket(t)
	r := newRefresher(t, b, 300, 5)
	f := newDeltaFollower(t, b)
	r.refresh()
	f.poll(t, r, "the first publish")
	base := filepath.Join(r.dir, "published-snapshot")
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base, append(make([]byte, 100), data[len(data)-8:]...), 0o600); err != nil {
		t.Fatal(err)
	}
	m := r.refresh()
	if len(m.Deltas) != 0 || m.Checksum == "" {
		t.Fatalf("published %+v, want the snapshot whole and no delta", m)
	}
	if logs := r.logs.String(); !strings.Contains(logs, "not as a delta") {
		t.Fatalf("no warning logged:\n%s", logs)
	}
	f.poll(t, r, "a publish whole after a delta not made")
	m = r.refresh()
	if len(m.Deltas) != 1 {
		t.Fatalf("the publish after: %d deltas, want the one from the snapshot published whole", len(m.Deltas))
	}
	f.poll(t, r, "the delta after")
}
