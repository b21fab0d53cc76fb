package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
)

// stalledProxy accepts connections and never answers, so that a refresh through it does
// not end while a test runs.
func stalledProxy(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	return "http://" + ln.Addr().String()
}

// waitForSnapshotFile waits until m has written the snapshot it serves to the snapshot
// file in dir's data directory, and returns the file's path.
func waitForSnapshotFile(t *testing.T, m *Main, dir string) string {
	t.Helper()
	file := filepath.Join(dir, "data", "snapshot")
	waitFor(t, "the snapshot file", 60*time.Second, func() bool {
		s, err := engine.ReadSnapshotFile(file)
		live := m.Live.Load()
		return err == nil && live != nil && s.Version() == live.Version()
	})
	return file
}

// TestRestartServesSnapshotFile runs gigsd on the demo until its snapshot is in the file,
// then restarts it with every upstream stalled: it serves the same bytes at once; with
// -snapshot=false it does not read the file. (The package replica tests which files are
// served.)
func TestRestartServesSnapshotFile(t *testing.T) {
	dir := demoCorpus(t)
	vars, _ := demoUpstream(t, dir)
	first := demoMain(t, dir, env(vars), "-log-level", "error")
	start(t, first)
	file := waitForSnapshotFile(t, first, dir)
	const page = "/v1/gigs?city=london&page=2"
	_, want := fetchChecked(t, "http://"+first.Addr().String()+page, nil)
	closeMain(t, first)

	stalled := map[string]string{}
	for k, v := range vars {
		stalled[k] = v
	}
	stalled["GIGS_FETCH_PROXY"] = stalledProxy(t)
	restart := func(flags ...string) *Main {
		m := demoMain(t, dir, env(stalled), flags...)
		m.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
		start(t, m)
		return m
	}

	m := restart()
	status, got := fetchChecked(t, "http://"+m.Addr().String()+page, nil)
	if status != 200 || string(got) != string(want) {
		t.Errorf("after a restart from the file: %d\n%s\nwant the page served before it\n%s", status, got, want)
	}
	closeMain(t, m)

	// With -snapshot=false no file is read: nothing is served before the first refresh,
	// and the file is left as it is.
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m = restart("-snapshot=false")
	if status := getStatus("http://" + m.Addr().String() + page); status != 503 {
		t.Errorf("-snapshot=false: served %d before the first refresh, want 503", status)
	}
	closeMain(t, m)
	if after, err := os.ReadFile(file); err != nil || string(after) != string(before) {
		t.Errorf("-snapshot=false: the file changed or went: %v", err)
	}
}

// TestRestartKeepsValidators restarts gigsd on the same demo sources: once its first
// refresh after the restart is served, the resources that do not depend on the time of the
// build (gigs by date range, a gig, the export) keep their ETag and Last-Modified, and the
// gigs their created_at and updated_at.
func TestRestartKeepsValidators(t *testing.T) {
	dir := demoCorpus(t)
	vars, _ := demoUpstream(t, dir)
	key := issueKey(t, filepath.Join(dir, "data"))
	from := time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)
	to := time.Now().UTC().AddDate(0, 0, 40).Format(time.DateOnly)
	validators := func(m *Main) map[string]string {
		base := "http://" + m.Addr().String()
		_, body := fetchChecked(t, base+"/v1/gigs?from="+from+"&to="+to+"&page_size=100", nil)
		var page struct{ Data []struct{ ID string } }
		if err := json.Unmarshal(body, &page); err != nil || len(page.Data) < 50 {
			t.Fatalf("page: %v, %.200s", err, body)
		}
		out := map[string]string{}
		for _, path := range []string{"/v1/gigs?from=" + from + "&to=" + to, "/v1/gigs?city=london&from=" + from + "&to=" + to + "&page=2",
			"/v1/gigs/" + page.Data[0].ID, "/v1/gigs/" + page.Data[99].ID, "/v1/gigs/download"} {
			resp, err := http.DefaultClient.Do(mustRequest(t, base+path, key))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %d %.200s", path, resp.StatusCode, b)
			}
			out[path] = resp.Header.Get("ETag") + " " + resp.Header.Get("Last-Modified")
		}
		return out
	}
	first := demoMain(t, dir, env(vars), "-log-level", "error")
	start(t, first)
	waitForSnapshotFile(t, first, dir)
	before, built := validators(first), first.Live.Load().Built()
	closeMain(t, first)

	time.Sleep(time.Until(built.Add(time.Second))) // a build in another second than the first
	second := demoMain(t, dir, env(vars), "-log-level", "error")
	start(t, second)
	waitFor(t, "the refresh after the restart", 60*time.Second, func() bool {
		s := second.Live.Load()
		return s != nil && s.Built().After(built)
	})
	if s := second.Live.Load(); !s.Changed().Equal(first.Live.Load().Changed()) && s.Version() == first.Live.Load().Version() {
		t.Errorf("the same data_version changed at %v, before at %v", s.Changed(), first.Live.Load().Changed())
	}
	if after := validators(second); !maps.Equal(before, after) {
		t.Errorf("validators changed across a restart and an identical refresh:\n%v\n%v", before, after)
	}
}

func mustRequest(t *testing.T, url, key string) *http.Request {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", key)
	return req
}

// TestRestartBehindPublishedCursor restarts gigsd on a snapshot file older than the last
// snapshot it published (as after a crash, or a failed write, between publishing and
// saving): every change-feed cursor given before, and those of the lost snapshot, is
// expired, and what it gives after is not; a second restart expires nothing more.
func TestRestartBehindPublishedCursor(t *testing.T) {
	dir := t.TempDir()
	dataset, data := filepath.Join(dir, "dataset"), filepath.Join(dir, "data")
	writeDataset(t, dataset, 300)
	mark := filepath.Join(data, "published-cursor")
	run := func() *Main {
		return replicaMain(t, "-dataset", dataset, "-refresh", "300ms", "-data-dir", data, "-read-limit", "10000")
	}
	rebuilt := func(m *Main) { // a build after the start is served, and in the file
		t.Helper()
		served := m.Live.Load()
		waitFor(t, "a refresh", 30*time.Second, func() bool { return m.Live.Load() != served })
		waitForSnapshotFile(t, m, dir)
	}
	changes := func(m *Main, c engine.Cursor) int {
		status, _, _ := get(m, "/v1/changes?since="+c.String(), "192.0.2.1")
		return status
	}
	marked := func() string {
		b, err := os.ReadFile(mark)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}

	m := run()
	waitForSnapshotFile(t, m, dir)
	given := metaCursor(t, m)
	if marked() != given.String() {
		t.Fatalf("published cursor file %q, want %q", marked(), given)
	}
	closeMain(t, m)
	lost := engine.Cursor{Epoch: given.Epoch, Seq: given.Seq + 5} // published, never saved
	if err := os.WriteFile(mark, []byte(lost.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	m = run()
	rebuilt(m)
	now := metaCursor(t, m)
	for _, c := range []engine.Cursor{given, lost, {Epoch: given.Epoch, Seq: 1}} {
		if status := changes(m, c); status != 410 {
			t.Errorf("since %s (given before the restart): %d, want 410", c, status)
		}
	}
	if status := changes(m, now); now.Epoch != given.Epoch || now.Seq <= lost.Seq || status != 200 {
		t.Errorf("the cursor after the restart %s: %d, want one of the same ledger after %s, 200", now, status, lost)
	}
	if marked() != now.String() {
		t.Errorf("published cursor file %q, want %q", marked(), now)
	}
	closeMain(t, m)

	m = run()
	rebuilt(m)
	if again := metaCursor(t, m); again != now || changes(m, now) != 200 {
		t.Errorf("after a second restart the cursor is %s (%d), want %s still valid", again, changes(m, now), now)
	}
	closeMain(t, m)

	// A published cursor no ledger reaches (a review's, at the largest number: numbering
	// on after it wrapped round to small numbers clients held) is one that cannot be read.
	if err := os.WriteFile(mark, []byte(engine.Cursor{Epoch: now.Epoch, Seq: math.MaxUint64}.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m = run()
	rebuilt(m)
	if after := metaCursor(t, m); changes(m, now) != 410 || changes(m, after) != 200 || after.Seq > 1<<62 {
		t.Errorf("after a published cursor at the largest number: since %s %d (want 410), now %s (%d)", now, changes(m, now), after, changes(m, after))
	}
}

// TestPublisherRestartBehindPublishedCursor restarts a publisher whose last snapshot
// served may be in neither its snapshot file nor the bucket (the upload failed, or the
// crash came first), as independent reviews found: with the file damaged, the publisher
// serves the bucket's snapshot and its first build still numbers after what it may have
// given and expires it, whether its cursor file says how far (behind), cannot be read, or
// is of another ledger; with the file behind but servable and the data unchanged, the build
// that expires cursors is uploaded all the same, so that followers serve its cursor.
func TestPublisherRestartBehindPublishedCursor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mark    func(given engine.Cursor) string // the cursor file's content
		damaged bool                             // the snapshot file
	}{
		{"ahead of the bucket, file damaged", func(g engine.Cursor) string { return engine.Cursor{Epoch: g.Epoch, Seq: g.Seq + 5}.String() }, true},
		{"ahead of the bucket and the file", func(g engine.Cursor) string { return engine.Cursor{Epoch: g.Epoch, Seq: g.Seq + 5}.String() }, false},
		{"unreadable, file damaged", func(engine.Cursor) string { return "garbage" }, true},
		{"of another ledger, file damaged", func(g engine.Cursor) string { return engine.Cursor{Epoch: g.Epoch ^ 2, Seq: 3}.String() }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dataset, data, bucket := filepath.Join(dir, "dataset"), filepath.Join(dir, "data"), filepath.Join(dir, "bucket")
			writeDataset(t, dataset, 300)
			run := func() *Main {
				return replicaMain(t, "-dataset", dataset, "-refresh", "300ms", "-data-dir", data, "-publish", bucket, "-read-limit", "10000")
			}
			m := run()
			waitForSnapshotFile(t, m, dir)
			waitFor(t, "the first publish", 30*time.Second, func() bool {
				man, err := replica.ReadManifest(context.Background(), m.bucket)
				return err == nil && man.DataVersion == m.Live.Load().Version()
			})
			given := metaCursor(t, m)
			closeMain(t, m)
			mark := tc.mark(given)
			if err := os.WriteFile(filepath.Join(data, "published-cursor"), []byte(mark+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.damaged {
				if err := os.WriteFile(filepath.Join(data, "snapshot"), []byte("damaged"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			last := given // the last cursor that may have been given
			if c, err := engine.ParseCursor(mark); err == nil && c.Epoch == given.Epoch {
				last = c
			}
			m = run()
			waitFor(t, "a build numbered after the last cursor given", 30*time.Second, func() bool {
				c := metaCursor(t, m)
				return c.Epoch == given.Epoch && c.Seq > last.Seq
			})
			for _, c := range []engine.Cursor{given, last} {
				if status, _, _ := get(m, "/v1/changes?since="+c.String(), "192.0.2.1"); status != 410 {
					t.Errorf("since %s, given before the restart: %d, want 410", c, status)
				}
			}
			f := replicaMain(t, "-follow", bucket, "-follow-every", "100ms", "-data-dir", filepath.Join(dir, "follower"), "-read-limit", "10000")
			waitFor(t, "the follower at the publisher's cursor", 30*time.Second, func() bool {
				return f.Live.Load() != nil && metaCursor(t, f) == metaCursor(t, m)
			})
		})
	}
}

// metaCursor returns the change-feed cursor m's /v1/meta gives.
func metaCursor(t *testing.T, m *Main) engine.Cursor {
	t.Helper()
	var meta struct{ Data struct{ Cursor string } }
	_, _, body := get(m, "/v1/meta", "192.0.2.1")
	err := json.Unmarshal(body, &meta)
	c, perr := engine.ParseCursor(meta.Data.Cursor)
	if err = errors.Join(err, perr); err != nil {
		t.Fatalf("meta %s: %v", body, err)
	}
	return c
}

// TestSnapshotFileNotTrusted: a snapshot file gigsd cannot read gives no reason to replace
// it (a review replaced a whole file, and the change feed's history, that only its
// permissions kept from gigsd): gigsd stops, naming it, and leaves it; a follower, whose
// file is only a copy of the bucket's, starts.
func TestSnapshotFileNotTrusted(t *testing.T) {
	dir := t.TempDir()
	dataset, data := filepath.Join(dir, "ds"), filepath.Join(dir, "data")
	writeDataset(t, dataset, 300)
	file := filepath.Join(data, "snapshot")
	if err := os.MkdirAll(data, 0o700); err != nil || os.Symlink("snapshot", file) != nil {
		t.Fatal("cannot make a symbolic link loop")
	}
	m := NewMain()
	if err := m.ParseFlags([]string{"-addr", "127.0.0.1:0", "-admin-addr", "", "-dataset", dataset, "-data-dir", data, "-refresh", "1h"}, env(nil), io.Discard); err != nil {
		t.Fatal(err)
	}
	m.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	err := m.Run(context.Background())
	closeMain(t, m)
	if err == nil || !strings.Contains(err.Error(), "cannot read the snapshot file") || !strings.Contains(err.Error(), file) {
		t.Errorf("an unreadable snapshot file: Run %v", err)
	}
	if fi, err := os.Lstat(file); err != nil || fi.Mode().Type() != os.ModeSymlink {
		t.Errorf("the unreadable file was replaced: %v", err)
	}
	// A follower's file is only a copy of the bucket's: it does not stop (a review's).
	bucket := filepath.Join(dir, "bucket")
	follower := NewMain()
	if err := os.MkdirAll(bucket, 0o700); err != nil || follower.ParseFlags([]string{"-addr", "127.0.0.1:0", "-admin-addr", "", "-follow", bucket, "-data-dir", data}, env(nil), io.Discard) != nil {
		t.Fatal("cannot set up a follower")
	}
	follower.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	start(t, follower)
	closeMain(t, follower)
}
