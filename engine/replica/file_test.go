package replica_test

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
	"github.com/gigs/gigs/testkit/scale"
)

// built builds a snapshot of n gigs as of at.
func built(t *testing.T, n int, at time.Time) *engine.Snapshot {
	t.Helper()
	s, err := engine.Build(scale.Generate(scale.Config{Gigs: n, Seed: uint64(n), Now: at}), engine.Options{Now: at})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newFile returns the File of dir, serving into a new Live, and what it logs.
func newFile(dir string, builds bool) (*replica.File, *engine.Live, *bytes.Buffer) {
	live, logs := &engine.Live{}, &bytes.Buffer{}
	return replica.NewFile(dir, builds, live, slog.New(slog.NewJSONHandler(logs, nil)), prometheus.NewRegistry()), live, logs
}

// TestFileLoad reads the snapshot file as a daemon starting does: a whole file built
// within the age limit is served; a missing, damaged, too old or future one is logged, not
// served, and kept for the first refresh to replace. A file a daemon that builds cannot
// open gives no reason to replace it (a review replaced a whole file, and the change
// feed's history, that only its permissions kept from gigsd): Load fails, naming it. A
// follower's file is only a copy of the bucket's: it logs it and goes on.
func TestFileLoad(t *testing.T) {
	good := built(t, 200, time.Now())
	future := built(t, 200, time.Now().Add(72*time.Hour))
	tests := []struct {
		name   string
		write  func(t *testing.T, path string)
		builds bool
		maxAge time.Duration
		served bool
		log    string // logged, naming the file
		err    string // Load's error, naming the file
	}{
		{"missing", func(*testing.T, string) {}, true, time.Hour, false, "no snapshot file yet", ""},
		{"whole", writeSnapshot(good), true, time.Hour, true, "snapshot file served", ""},
		{"too old", writeSnapshot(good), true, time.Millisecond, false, "older than -max-stale", ""},
		{"damaged", func(t *testing.T, path string) {
			writeSnapshot(good)(t, path)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 1
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}, true, time.Hour, false, "checksum", ""},
		{"built in the future", writeSnapshot(future), true, time.Hour, false, "built later than now", ""},
		{"unreadable, builds", symlinkLoop, true, time.Hour, false, "", "cannot read the snapshot file"},
		{"unreadable, follows", symlinkLoop, false, time.Hour, false, "snapshot file not served", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, replica.FileName)
			tt.write(t, path)
			before, _ := os.Readlink(path)
			if before == "" {
				b, _ := os.ReadFile(path)
				before = string(b)
			}
			time.Sleep(time.Millisecond) // past a -max-stale of 1ms
			f, live, logs := newFile(dir, tt.builds)
			err := f.Load(tt.maxAge)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), path)) {
				t.Fatalf("Load: %v, want an error about %q", err, tt.err)
			}
			if served := live.Load() != nil; served != tt.served {
				t.Errorf("served %v, want %v", served, tt.served)
			}
			if !strings.Contains(logs.String(), tt.log) || tt.log != "" && !strings.Contains(logs.String(), path) {
				t.Errorf("the log does not say %q, naming the file:\n%s", tt.log, logs)
			}
			after, _ := os.Readlink(path)
			if after == "" {
				b, _ := os.ReadFile(path)
				after = string(b)
			}
			if after != before {
				t.Error("the file changed or went")
			}
		})
	}
}

func writeSnapshot(s *engine.Snapshot) func(*testing.T, string) {
	return func(t *testing.T, path string) {
		if err := s.WriteFile(path); err != nil {
			t.Fatal(err)
		}
	}
}

// symlinkLoop makes path a symbolic link to itself: a file there that cannot be opened.
func symlinkLoop(t *testing.T, path string) {
	if err := os.Symlink(filepath.Base(path), path); err != nil {
		t.Fatal(err)
	}
}

// TestFilePublishedCursor records a snapshot's cursor as published and reads it back as a
// restart does: behind it, the file is logged as older; a cursor file that cannot be
// read, or whose number no ledger reaches (a review's, at the largest number: numbering
// on after it wrapped round to small numbers clients held), stands for a cursor of no
// ledger. A follower's File, and a nil one, keep no published cursor.
func TestFilePublishedCursor(t *testing.T) {
	dir := t.TempDir()
	s := built(t, 200, time.Now())
	f, _, _ := newFile(dir, true)
	if err := f.Load(time.Hour); err != nil || f.Published() != (engine.Cursor{}) {
		t.Fatalf("an empty data directory: %v, published %s", err, f.Published())
	}
	if err := f.MarkPublished(s); err != nil || f.Published() != s.Cursor() {
		t.Fatalf("MarkPublished: %v, published %s, want %s", err, f.Published(), s.Cursor())
	}
	f.Save(s)

	mark := filepath.Join(dir, "published-cursor")
	for _, tc := range []struct {
		name, mark, log string
		want            func(engine.Cursor) bool
	}{
		{"the file's", s.Cursor().String(), "", func(c engine.Cursor) bool { return c == s.Cursor() }},
		{"ahead of the file", engine.Cursor{Epoch: s.Cursor().Epoch, Seq: s.Cursor().Seq + 5}.String(), "older than the last snapshot published",
			func(c engine.Cursor) bool { return c.Epoch == s.Cursor().Epoch && c.Seq == s.Cursor().Seq+5 }},
		{"unreadable", "garbage", "cannot read the published cursor", func(c engine.Cursor) bool { return c.Epoch == 0 && c.Seq != 0 }},
		{"at the largest number", engine.Cursor{Epoch: s.Cursor().Epoch, Seq: math.MaxUint64}.String(), "cannot read the published cursor",
			func(c engine.Cursor) bool { return c.Epoch == 0 && c.Seq != 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(mark, []byte(tc.mark+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			f, live, logs := newFile(dir, true)
			if err := f.Load(time.Hour); err != nil || live.Load() == nil {
				t.Fatalf("Load: %v, served %v", err, live.Load() != nil)
			}
			if !tc.want(f.Published()) || !strings.Contains(logs.String(), tc.log) {
				t.Errorf("published %s, logged:\n%s", f.Published(), logs)
			}
			follower, _, _ := newFile(dir, false)
			if err := follower.Load(time.Hour); err != nil || follower.Published() != (engine.Cursor{}) {
				t.Errorf("a follower's File: %v, published %s", err, follower.Published())
			}
		})
	}
	var none *replica.File
	if none.Published() != (engine.Cursor{}) || none.MarkPublished(s) != nil {
		t.Error("a nil File has published something")
	}
}

// TestFileSave writes each snapshot once: the same data again is not written.
func TestFileSave(t *testing.T) {
	dir := t.TempDir()
	f, _, logs := newFile(dir, true)
	s := built(t, 200, time.Now())
	f.Save(s)
	path := filepath.Join(dir, replica.FileName)
	if read, err := engine.ReadSnapshotFile(path); err != nil || read.Version() != s.Version() {
		t.Fatalf("the saved file: %v", err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	f.Save(s)
	if _, err := os.Stat(path); !os.IsNotExist(err) || strings.Count(logs.String(), "snapshot file written") != 1 {
		t.Errorf("the same data was written again: %v\n%s", err, logs)
	}
}

// TestFileOfADownload serves a published snapshot through a follower whose File is of a
// daemon that builds: it carries on the bucket's ledger, its cursor recorded as published,
// unless the cursor published last may be ahead of it. A follower's File records none.
func TestFileOfADownload(t *testing.T) {
	b := bucket(t)
	s, _ := published(t, b, t.TempDir(), 300)
	ahead := engine.Cursor{Epoch: s.Cursor().Epoch, Seq: s.Cursor().Seq + 5}
	for _, tc := range []struct {
		name   string
		builds bool
		mark   string // the published cursor's file beforehand; "" for none
		want   engine.Cursor
	}{
		{"builds", true, "", s.Cursor()},
		{"builds, ahead of the bucket", true, ahead.String(), ahead},
		{"follows", false, "", engine.Cursor{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.mark != "" {
				if err := os.WriteFile(filepath.Join(dir, "published-cursor"), []byte(tc.mark), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, live, logs := newFile(dir, tc.builds)
			if err := f.Load(time.Hour); err != nil {
				t.Fatal(err)
			}
			fl := follower(t, b)
			fl.Path, fl.File, fl.Live = filepath.Join(dir, replica.FileName), f, live
			if swapped, err := fl.Poll(context.Background()); !swapped || err != nil {
				t.Fatalf("swapped %v, %v", swapped, err)
			}
			if f.Published() != tc.want {
				t.Errorf("published %s, want %s", f.Published(), tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "published-cursor")); tc.builds != (err == nil) {
				t.Errorf("the published cursor's file: %v", err)
			}
			f.Save(live.Load()) // the download is the file: nothing to write
			if read, err := engine.ReadSnapshotFile(fl.Path); err != nil || read.Version() != s.Version() || strings.Contains(logs.String(), "snapshot file written") {
				t.Errorf("the snapshot file: %v, written again:\n%s", err, logs)
			}
		})
	}
}

// TestFileOfADownloadKeptFirst serves a download through a follower whose File is of a
// daemon that builds: the downloaded file is in place (synced, its directory too) before
// the cursor is recorded as published, so that a crash never leaves the cursor ahead of
// the file a restart serves; when the file cannot be put in place (a directory there),
// the snapshot is served all the same, the failure logged naming the file and counted,
// and the File records nothing: the published cursor stays, and Save writes the snapshot.
func TestFileOfADownloadKeptFirst(t *testing.T) {
	b := bucket(t)
	old := built(t, 300, now)
	newer, err := engine.Build(scale.Generate(scale.Config{Gigs: 320, Seed: 301, Now: now.Add(time.Hour)}), engine.Options{Now: now.Add(time.Hour), Prev: old})
	if err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(t.TempDir(), "snapshot")
	if err := newer.WriteFile(pub); err != nil {
		t.Fatal(err)
	}
	if _, err := replica.Publish(context.Background(), b, pub, newer, now.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if newer.Version() == old.Version() || newer.Cursor().Epoch != old.Cursor().Epoch || newer.Cursor().Seq <= old.Cursor().Seq {
		t.Fatalf("the published snapshot (%s at %s) does not carry on the file's (%s at %s) with new data", newer.Version(), newer.Cursor(), old.Version(), old.Cursor())
	}
	for _, tc := range []struct {
		name string
		kept bool
	}{
		{"kept", true},
		{"its place a directory", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, mark := filepath.Join(dir, replica.FileName), filepath.Join(dir, "published-cursor")
			if err := old.WriteFile(path); err != nil {
				t.Fatal(err)
			}
			live, logs, reg := &engine.Live{}, &bytes.Buffer{}, prometheus.NewRegistry()
			log := slog.New(slog.NewJSONHandler(logs, nil))
			f := replica.NewFile(dir, true, live, log, reg)
			if err := f.Load(math.MaxInt64); err != nil {
				t.Fatal(err)
			}
			if err := f.MarkPublished(old); err != nil {
				t.Fatal(err)
			}
			if !tc.kept {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Join(path, "in the way"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			fl := follower(t, b)
			fl.Path, fl.File, fl.Live, fl.Log = path, f, live, log
			var fileThen, markThen string // when the snapshot is put into service
			fl.Swapped = func(*engine.Snapshot) {
				if s, err := engine.ReadSnapshotFile(path); err == nil {
					fileThen = s.Cursor().String()
				}
				markThen = readMark(t, mark)
			}
			if swapped, err := fl.Poll(context.Background()); !swapped || err != nil || live.Load().Cursor() != newer.Cursor() {
				t.Fatalf("swapped %v, %v; want %s served", swapped, err, newer.Cursor())
			}
			if markThen != old.Cursor().String() {
				t.Errorf("the published cursor was %s before the file was in place, want %s", markThen, old.Cursor())
			}
			want, writes := old.Cursor(), map[string]float64{"ok": 0, "error": 1}
			if tc.kept {
				want, writes = newer.Cursor(), map[string]float64{"ok": 1, "error": 0}
				if fileThen != newer.Cursor().String() {
					t.Errorf("the snapshot file held %q when the snapshot was served, want %s's file in place", fileThen, newer.Cursor())
				}
			} else if !strings.Contains(logs.String(), "not kept as the snapshot file") || !strings.Contains(logs.String(), path) {
				t.Errorf("the failure is not logged naming %s:\n%s", path, logs)
			}
			if got := readMark(t, mark); got != want.String() || f.Published() != want {
				t.Errorf("published cursor %s (file %s), want %s", f.Published(), got, want)
			}
			for result, n := range writes {
				if got := counted(t, reg, "gigs_snapshot_file_writes_total", result); got != n {
					t.Errorf("writes %s: %v, want %v", result, got, n)
				}
			}
			if !tc.kept {
				if err := os.RemoveAll(path); err != nil {
					t.Fatal(err)
				}
			}
			logs.Reset()
			f.Save(live.Load()) // what the File believes the file holds
			if written := strings.Contains(logs.String(), "snapshot file written"); written == tc.kept {
				t.Errorf("Save wrote the snapshot file: %v, want %v:\n%s", written, !tc.kept, logs)
			}
			if read, err := engine.ReadSnapshotFile(path); err != nil || read.Cursor() != newer.Cursor() {
				t.Errorf("the snapshot file: %v, want %s's", err, newer.Cursor())
			}
		})
	}
}

// readMark returns what the published cursor's file at path holds; "" when none.
func readMark(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// counted returns the value of the counter name of reg with label result.
func counted(t *testing.T, reg *prometheus.Registry, name, result string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range families {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if mf.GetName() == name && l.GetName() == "result" && l.GetValue() == result {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	t.Fatalf("no %s{result=%q}", name, result)
	return 0
}
