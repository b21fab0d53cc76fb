package keys

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var day0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func TestFormat(t *testing.T) {
	k := NewKey()
	if len(k) != KeyLen || !strings.HasPrefix(k, Prefix) || Check([]byte(k)) != nil {
		t.Fatalf("new key %q does not check", k)
	}
	if NewKey() == k {
		t.Fatal("two keys alike")
	}
	flip := []byte(k)
	flip[10] = map[bool]byte{true: 'b', false: 'a'}[flip[10] == 'a']
	tests := []struct {
		name, key string
		err       error
	}{
		{"empty", "", ErrMalformed},
		{"short", k[:40], ErrMalformed},
		{"long", k + "a", ErrMalformed},
		{"prefix", "xxxx_" + k[5:], ErrMalformed},
		{"upper case", strings.ToUpper(k), ErrMalformed},
		{"bad character", k[:20] + "!" + k[21:], ErrMalformed},
		{"one character changed", string(flip), ErrChecksum},
	}
	for _, tt := range tests {
		if err := Check([]byte(tt.key)); !errors.Is(err, tt.err) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.err)
		}
	}
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

func TestStoreKeepsNoKeys(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := s.Create("ops@example.org", "nightly sync", day0)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "keys.json"))
	if strings.Contains(string(data), key) || !strings.Contains(string(data), rec.ID) {
		t.Fatalf("store holds the key, or not the record: %s", data)
	}
	for _, name := range []string{"keys.json", "key-secret"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", name, fi.Mode(), err)
		}
	}
	if _, _, err := s.Create("", "x", day0); err == nil {
		t.Error("a key without an owner")
	}
	if _, err := s.Revoke("key_nope", "x", day0); err == nil {
		t.Error("revoked an unknown key")
	}
	again, err := Open(dir) // the secret survives
	if err != nil || Hash(again.secret, []byte(key)) != rec.Hash {
		t.Fatalf("reopened store hashes differently: %v", err)
	}
}

func TestChecker(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	c := &clock{t: day0}
	key, rec, _ := s.Create("ops@example.org", "app", c.Now())
	other, otherRec, _ := s.Create("dev@example.org", "test", c.Now())
	ck, err := NewFileChecker(s, c.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ck.Check([]byte(key)); err != nil || got.ID != rec.ID {
		t.Fatalf("valid key: %v %v", got, err)
	}
	if _, err := ck.Check([]byte(NewKey())); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown key: %v", err)
	}

	// gigsctl revokes through its own handle; the checker sees it after a sync.
	ctl, _ := Open(dir)
	if _, err := ctl.Revoke(otherRec.ID, "leaked in a public repository", c.Now()); err != nil {
		t.Fatal(err)
	}
	if err := ck.Sync(); err != nil {
		t.Fatal(err)
	}
	var rev *RevokedError
	if _, err := ck.Check([]byte(other)); !errors.As(err, &rev) || rev.Reason != "leaked in a public repository" {
		t.Fatalf("revoked key: %v", err)
	}

	// Uses are written at sync and survive a restart.
	c.Add(10 * 24 * time.Hour)
	if _, err := ck.Check([]byte(key)); err != nil {
		t.Fatal(err)
	}
	if err := ck.Sync(); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Find(rec.ID); !r.LastUsed.Equal(c.Now()) {
		t.Fatalf("last use %v, want %v", r.LastUsed, c.Now())
	}
	restarted, _ := NewFileChecker(s, c.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))

	// Unused for 90 days: revoked, and it stays revoked.
	c.Add(IdleLimit + time.Second)
	if _, err := restarted.Check([]byte(key)); !errors.As(err, &rev) || rev.Reason != ReasonIdle {
		t.Fatalf("idle key: %v", err)
	}
	if err := restarted.Sync(); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Find(rec.ID); r.State() != "revoked" || r.Reason != ReasonIdle {
		t.Fatalf("idle key not revoked in the store: %+v", r)
	}
	if _, err := restarted.Check([]byte(key)); !errors.As(err, &rev) {
		t.Fatalf("idle key works again: %v", err)
	}
}

func TestCanonicalSpellingOnly(t *testing.T) {
	k := NewKey()
	if err := Check([]byte(Prefix + strings.ToUpper(k[len(Prefix):]))); !errors.Is(err, ErrMalformed) {
		t.Errorf("upper-case body: %v", err)
	}
	passing := 0
	for _, c := range "abcdefghijklmnopqrstuvwxyz234567" {
		if Check([]byte(k[:len(k)-1]+string(c))) == nil {
			passing++
		}
	}
	if passing != 1 {
		t.Errorf("%d spellings of the last character pass, want 1", passing)
	}
}

// TestBadFilesStop opens stores whose files were damaged in every way a disk, a crash or a
// hand can: each is an error naming the file, never an empty key set, and the files are
// left as they were for the operator to restore.
func TestBadFilesStop(t *testing.T) {
	otherSecret := strings.Repeat("x", 32)
	tests := []struct {
		name   string
		damage func(dir string) error
		want   string
	}{
		{"empty key file", func(dir string) error { return os.WriteFile(filepath.Join(dir, "keys.json"), nil, 0o600) }, "keys.json\" is empty"},
		{"blank key file", func(dir string) error { return os.WriteFile(filepath.Join(dir, "keys.json"), []byte("\n \n"), 0o600) }, "is empty"},
		{"truncated key file", func(dir string) error { return truncate(filepath.Join(dir, "keys.json"), 40) }, "cannot parse key store"},
		{"not JSON", func(dir string) error { return os.WriteFile(filepath.Join(dir, "keys.json"), []byte("<html>"), 0o600) }, "cannot parse key store"},
		{"newer version", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "keys.json"), []byte(`{"version": 9, "keys": []}`), 0o600)
		}, "has version 9; this build reads version 1"},
		{"null", func(dir string) error { return os.WriteFile(filepath.Join(dir, "keys.json"), []byte("null"), 0o600) }, "has no list of keys"},
		{"an empty object", func(dir string) error { return os.WriteFile(filepath.Join(dir, "keys.json"), []byte("{}"), 0o600) }, "has no list of keys"},
		{"keys null", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "keys.json"), []byte(`{"version": 1, "keys": null}`), 0o600)
		}, "has no list of keys"},
		{"misspelt list", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "keys.json"), []byte(`{"version": 1, "kyes": []}`), 0o600)
		}, "has no list of keys"},
		{"fingerprint removed", func(dir string) error {
			return editKeyFile(dir, func(f map[string]any) { delete(f, "secret_fingerprint") })
		}, "has no secret fingerprint"},
		{"key without its creation time", func(dir string) error {
			return editKeyFile(dir, func(f map[string]any) { delete(f["keys"].([]any)[0].(map[string]any), "created") })
		}, "lacks its id, hash or creation time"},
		{"unreadable key file", func(dir string) error {
			p := filepath.Join(dir, "keys.json")
			return errors.Join(os.Remove(p), os.Mkdir(p, 0o700))
		}, "cannot read key store"},
		{"missing key file", func(dir string) error { return os.Remove(filepath.Join(dir, "keys.json")) }, "keys.json\" is missing but its secret"},
		{"missing secret", func(dir string) error { return os.Remove(filepath.Join(dir, "key-secret")) }, "is missing but the key store"},
		{"empty secret", func(dir string) error { return truncate(filepath.Join(dir, "key-secret"), 0) }, "key-secret\" is empty"},
		{"short secret", func(dir string) error { return truncate(filepath.Join(dir, "key-secret"), 5) }, "key-secret\" is 5 bytes"},
		{"another secret", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "key-secret"), []byte(otherSecret), 0o600)
		}, "is not the one the key store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _, _, _, _, _ := oneKey(t)
			if err := tt.damage(dir); err != nil {
				t.Fatal(err)
			}
			before := snapshotDir(t, dir)
			_, err := Open(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("Open: %v; want an error naming the file with %q", err, tt.want)
			}
			if after := snapshotDir(t, dir); after != before {
				t.Errorf("Open changed the files:\n%s\nto\n%s", before, after)
			}
		})
	}
}

func truncate(path string, n int64) error { return os.Truncate(path, n) }

// editKeyFile rewrites the key file of dir as edit changes its JSON.
func editKeyFile(dir string, edit func(f map[string]any)) error {
	p := filepath.Join(dir, "keys.json")
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	edit(f)
	data, _ = json.Marshal(f)
	return os.WriteFile(p, data, 0o600)
}

// snapshotDir describes the regular files of dir and their contents.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		if e.Type().IsRegular() && e.Name() != "keys.lock" {
			data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			fmt.Fprintf(&b, "%s %q\n", e.Name(), data)
		}
	}
	return b.String()
}

// TestStoreFiles checks what Open writes and cleans: a versioned key file with the
// secret's fingerprint, an old file without one upgraded, orphan temporary files gone,
// and a first Open cut short between the key file and the secret resumed.
func TestStoreFiles(t *testing.T) {
	dir, s, _, _, rec, _ := oneKey(t)
	data, err := os.ReadFile(filepath.Join(dir, "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 || f.Fingerprint != s.fingerprint || len(f.Keys) != 1 {
		t.Fatalf("key file %s: %v", data, err)
	}
	// An old key file: no version, no fingerprint.
	old := strings.Replace(strings.Replace(string(data), `"version": 1,`, "", 1), `"secret_fingerprint": "`+s.fingerprint+`",`, "", 1)
	for _, orphan := range []string{".keys.json.tmp-123", ".key-secret.tmp-9"} {
		if err := os.WriteFile(filepath.Join(dir, orphan), []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "keys.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s2.Find(rec.ID); err != nil || got.Hash != rec.Hash {
		t.Fatalf("the old store's key: %+v %v", got, err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "keys.json")); !strings.Contains(string(data), `"secret_fingerprint": "`+s.fingerprint+`"`) {
		t.Errorf("the old store was not given its fingerprint:\n%s", data)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(tmp) != 0 {
		t.Errorf("orphan temporary files left: %v", tmp)
	}

	// A first Open that wrote the key file but died before the secret.
	dir = t.TempDir()
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "key-secret")); err != nil {
		t.Fatal(err)
	}
	s3, err := Open(dir)
	if err != nil {
		t.Fatalf("resuming an empty store: %v", err)
	}
	if _, _, err := s3.Create("a@example.org", "x", day0); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err != nil {
		t.Fatalf("reopening: %v", err)
	}
}

// TestCheckerKeepsKeysOverABadFile damages the key file under a running checker: the keys
// loaded stay valid (until the store has been unreadable for three syncs), the damaged
// file is not overwritten, and a restored file is read again.
func TestCheckerKeepsKeysOverABadFile(t *testing.T) {
	dir, _, _, key, _, ck := oneKey(t)
	path := filepath.Join(dir, "keys.json")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ck.Sync(); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("Sync over an empty file: %v", err)
	}
	if _, err := ck.Check([]byte(key)); err != nil {
		t.Errorf("the loaded key after the file broke: %v", err)
	}
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Errorf("the damaged file was overwritten with %q", data)
	}
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ck.Sync(); err != nil {
		t.Errorf("Sync after the file was restored: %v", err)
	}
}

// oneKey opens a store in a new directory with one key and a checker on a fake clock.
func oneKey(t *testing.T) (dir string, s *FileStore, c *clock, key string, rec Record, ck *FileChecker) {
	t.Helper()
	dir = t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c = &clock{t: day0}
	if key, rec, err = s.Create("a@example.org", "x", day0); err != nil {
		t.Fatal(err)
	}
	if ck, err = NewFileChecker(s, c.Now, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	return dir, s, c, key, rec, ck
}

func TestRevocationWinsOverWriteFailure(t *testing.T) {
	dir, s, c, key, rec, ck := oneKey(t)
	if _, err := ck.Check([]byte(key)); err != nil { // a use to write
		t.Fatal(err)
	}
	if _, err := s.Revoke(rec.ID, "revoked by the operator", day0); err != nil {
		t.Fatal(err)
	}
	// The store can no longer be locked, so the uses cannot be written...
	lock := filepath.Join(dir, "keys.lock")
	if err := os.Remove(lock); err != nil || os.Mkdir(lock, 0o700) != nil {
		t.Fatal("cannot break the lock")
	}
	if err := ck.Sync(); err == nil {
		t.Fatal("sync succeeded without its lock")
	}
	// ...but the revocation is read all the same.
	var rev *RevokedError
	if _, err := ck.Check([]byte(key)); !errors.As(err, &rev) {
		t.Fatalf("revoked key after a failed write: %v", err)
	}
	// An unreadable store, for longer than the checker may trust its copy: keys are refused.
	if err := os.WriteFile(filepath.Join(dir, "keys.json"), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	ck.stale = time.Minute
	_ = ck.Sync()
	c.Add(2 * time.Minute)
	_ = ck.Sync()
	if _, err := ck.Check([]byte(key)); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("key checked against a store unreadable for two minutes: %v", err)
	}
}

func TestNoFalseIdleRevocationDuringSync(t *testing.T) {
	_, _, c, key, _, ck := oneKey(t)
	c.Add(IdleLimit - time.Minute)
	if _, err := ck.Check([]byte(key)); err != nil { // used a minute before it would go idle
		t.Fatal(err)
	}
	c.Add(2 * time.Minute) // idle by the stored last use, not by the recorded one
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 20 {
			if err := ck.Sync(); err != nil {
				t.Error(err)
			}
		}
	})
	for range 2000 {
		if _, err := ck.Check([]byte(key)); err != nil {
			t.Fatalf("check while syncing: %v", err)
		}
	}
	wg.Wait()
}

// TestStoredFormatV1 opens a store of the current format, checked in under testdata/v1
// with its (fixture) secret, and checks its key: a change in Go that would lose the keys
// on disk fails here.
func TestStoredFormatV1(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"keys.json", "key-secret"} {
		data, err := os.ReadFile(filepath.Join("testdata", "v1", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := NewFileChecker(s, func() time.Time { return day0 }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	const fixtureKey = "gigs_7p6sjvt5yqyghqdcqcy5majjik2ktyk5tq5shmwuxd6p4lomjzt7ug46hy" // of the fixture only
	rec, err := ck.Check([]byte(fixtureKey))
	if err != nil || rec.ID != "key_vrlliezf" || rec.Owner != "fixture@example.org" || rec.Use != "the format test" ||
		!rec.Created.Equal(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)) {
		t.Fatalf("the fixture key: %+v, %v", rec, err)
	}
}

// TestStoreTexts refuses owners, uses and reasons that would break gigsctl keys list's
// table or grow the store without bound.
func TestStoreTexts(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ owner, use string }{
		{"ops@example.org", "nightly\nmirror\tX"},
		{"ops@example.org\r", "mirror"},
		{"ops@example.org", strings.Repeat("m", maxText+1)},
		{"ops@example.org", "mirror \xff"},
	} {
		if _, _, err := s.Create(tt.owner, tt.use, now); err == nil {
			t.Errorf("owner %q, use %q: created", tt.owner, tt.use)
		}
	}
	_, rec, err := s.Create("ops@example.org", "nightly mirror, Zürich", now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revoke(rec.ID, "leaked\nin a log", now); err == nil {
		t.Error("a reason with a line break was taken")
	}
}

// TestStoreNeverWritesWhatItCannotRead: a store grown past what Open reads is not written
// (gigsctl wrote it, then neither gigsctl nor gigsd could read it, and every export key was
// refused).
func TestStoreNeverWritesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	rec := Record{ID: "key_aaaaaaaa", Owner: "ops@example.org", Use: strings.Repeat("u", maxText), Created: now, Hash: strings.Repeat("h", 64)}
	many := make([]Record, maxStoreBytes/len(rec.Use)+1)
	for i := range many {
		many[i] = rec
	}
	if err := s.Update(func(recs []Record) ([]Record, bool, error) { return append(recs, many...), true, nil }); err == nil {
		t.Fatal("a store over the read limit was written")
	}
	if _, err := Open(dir); err != nil {
		t.Fatalf("the store no longer opens: %v", err)
	}
}
