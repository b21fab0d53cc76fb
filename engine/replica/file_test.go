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
