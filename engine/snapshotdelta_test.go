package engine_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// refresh writes the snapshot files of a dataset of n gigs and of the same after churn,
// built an hour apart with the first as Prev, into dir: their paths.
func refreshFiles(t testing.TB, dir string, n int, churn scale.Churn) (string, string) {
	t.Helper()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now})
	a, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	churn.Apply(ds)
	b, err := engine.Build(ds, engine.Options{Now: now.Add(time.Hour), Prev: a})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := a.WriteFile(pa); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteFile(pb); err != nil {
		t.Fatal(err)
	}
	return pa, pb
}

// TestSnapshotDelta makes deltas between snapshots of random churn and applies them:
// the file made is the target's, byte for byte, and it reads as a snapshot.
func TestSnapshotDelta(t *testing.T) {
	for _, tc := range []struct {
		gigs  int
		churn scale.Churn
	}{
		{300, scale.Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 1}},
		{2000, scale.Churn{Edited: 0.1, Added: 0.05, Removed: 0.05, Seed: 2}},
		{2000, scale.Churn{Seed: 3}},
		{1000, scale.Churn{Edited: 0.5, Added: 0.3, Removed: 0.5, Seed: 4}},
	} {
		dir := t.TempDir()
		pa, pb := refreshFiles(t, dir, tc.gigs, tc.churn)
		var d bytes.Buffer
		if err := engine.WriteSnapshotDelta(&d, pa, pb); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(pb)
		if err != nil {
			t.Fatal(err)
		}
		sd, err := engine.ReadSnapshotDelta(d.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if sum, _ := engine.SnapshotFileSum(pa); sd.Base() != sum || sd.Size() != int64(len(want)) {
			t.Fatalf("delta names base %x size %d; base file %x, file %d", sd.Base(), sd.Size(), sum, len(want))
		}
		var got bytes.Buffer
		if _, err := sd.Apply(&got, pa, int64(len(want))); err != nil {
			t.Fatalf("%d gigs %+v: %v", tc.gigs, tc.churn, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%d gigs %+v: the file made differs from the target", tc.gigs, tc.churn)
		}
		if _, err := sd.Apply(&got, pa, int64(len(want))-1); err == nil {
			t.Errorf("a limit below the file's size was not refused")
		}
		if _, err := sd.Apply(&got, pb, int64(len(want))); err == nil {
			t.Errorf("the delta applied to another base")
		}
		made := filepath.Join(dir, "made")
		if err := os.WriteFile(made, got.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := engine.ReadSnapshotFile(made); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d gigs %+v: delta %d bytes, file %d (%.1f%%)", tc.gigs, tc.churn, d.Len(), len(want), 100*float64(d.Len())/float64(len(want)))
	}
}

// TestSnapshotDeltaSize measures a delta of the bench's refresh (2% of gigs edited, 1%
// added, 1% removed) against the whole file, both zstd-compressed as a publisher uploads
// them, at GIGS_DELTA_GIGS gigs (skipped without): its size, per section too, and how
// long a follower takes from the delta to its first page, GIGS_DELTA_RUNS times (1
// without) each way, alternating: applied into a file that is then read (Apply), and
// into a file's mapping that the snapshot is served from (ApplyTo). GIGS_DELTA_PROFILE
// names a file to write a CPU profile of the ApplyTo runs to.
func TestSnapshotDeltaSize(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("GIGS_DELTA_GIGS"))
	if n == 0 {
		t.Skip("set GIGS_DELTA_GIGS to the number of gigs")
	}
	runs, _ := strconv.Atoi(os.Getenv("GIGS_DELTA_RUNS"))
	dir := t.TempDir()
	pa, pb := refreshFiles(t, dir, n, scale.Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 7})
	start := time.Now()
	var d bytes.Buffer
	if err := engine.WriteSnapshotDelta(&d, pa, pb); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	file, err := os.ReadFile(pb)
	if err != nil {
		t.Fatal(err)
	}
	zd, zf, size := zsize(t, d.Bytes()), zsize(t, file), len(file)
	file = nil
	sd, err := engine.ReadSnapshotDelta(d.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d gigs (GOMAXPROCS %d): file %d bytes, %d zstd; delta %d bytes, %d zstd (%.2f%% of the file's zstd), written in %s",
		n, runtime.GOMAXPROCS(0), size, zf, d.Len(), zd, 100*float64(zd)/float64(zf), took)
	var prof *os.File
	if name := os.Getenv("GIGS_DELTA_PROFILE"); name != "" {
		if prof, err = os.Create(name); err != nil {
			t.Fatal(err)
		}
		defer prof.Close()
	}
	var applied, synced, read []time.Duration
	for run := range max(runs, 1) {
		if prof != nil && run == 0 {
			if err := pprof.StartCPUProfile(prof); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		made := filepath.Join(dir, "made")
		f, err := os.Create(made)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sd.Apply(f, pa, 1<<40); err != nil {
			t.Fatal(err)
		}
		applied = append(applied, time.Since(start))
		s, err := engine.ReadAppliedSnapshotFile(made, sd.Sum()) // as a follower reads it
		if err != nil {
			t.Fatal(err)
		}
		firstPage(s)
		read = append(read, time.Since(start)-applied[run])
		if prof != nil && run == 0 {
			pprof.StopCPUProfile()
		}
		start = time.Now()
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		synced = append(synced, time.Since(start))
		f.Close()
		os.Remove(made)
	}
	t.Logf("a follower (medians of %d): applied to a file in %s, read and first page in %s more; the file synced in %s after",
		len(read), median(applied), median(read), median(synced))
	for _, level := range []zstd.EncoderLevel{zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression} {
		start := time.Now()
		z := zsizeAt(t, d.Bytes(), level)
		t.Logf("delta at zstd %s: %d bytes (%.2f%% of the file's zstd) in %s", level, z, 100*float64(z)/float64(zf), time.Since(start))
	}
	secs, err := engine.DeltaSections(sd)
	if err != nil {
		t.Fatal(err)
	}
	for i, sec := range secs {
		if sec.Coded > 2000 { // the others are a few copies each
			t.Logf("section %d: %d bytes, source %d transform %d: coded in %d bytes (%d added), %d zstd", i, sec.Size, sec.Source,
				sec.Transform, sec.Coded, sec.Added, zsize(t, d.Bytes()[sec.At:sec.At+sec.Coded]))
		}
	}
}

// firstPage answers a first page of s, and reads its first gig.
func firstPage(s *engine.Snapshot) {
	q := engine.AcquireQuery()
	q.Limit = 20
	s.Run(q)
	_ = s.GigJSON(q.Page[0])
	engine.ReleaseQuery(q)
}

func median(l []time.Duration) time.Duration {
	l = slices.Clone(l)
	slices.Sort(l)
	return l[len(l)/2]
}

func zsize(t testing.TB, b []byte) int { return zsizeAt(t, b, zstd.SpeedFastest) }

func zsizeAt(t testing.TB, b []byte, level zstd.EncoderLevel) int {
	z, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithWindowSize(32<<20))
	if err != nil {
		t.Fatal(err)
	}
	return len(z.EncodeAll(b, nil))
}

// FuzzSnapshotDelta applies any delta to a snapshot file: it never panics, and a delta
// that applies makes a file that ends with the checksum it names.
func FuzzSnapshotDelta(f *testing.F) {
	dir := f.TempDir()
	pa, pb := refreshFiles(f, dir, 60, scale.Churn{Edited: 0.1, Added: 0.1, Removed: 0.1, Seed: 9})
	var d bytes.Buffer
	if err := engine.WriteSnapshotDelta(&d, pa, pb); err != nil {
		f.Fatal(err)
	}
	f.Add(d.Bytes())
	f.Fuzz(func(t *testing.T, delta []byte) {
		sd, err := engine.ReadSnapshotDelta(delta)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := sd.Apply(&out, pa, 16<<20); err == nil && int64(out.Len()) != sd.Size() {
			t.Fatalf("made %d bytes, the delta says %d", out.Len(), sd.Size())
		}
	})
}
