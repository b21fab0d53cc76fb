package keys

import (
	"errors"
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
	ck, err := NewChecker(s, c.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
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
	restarted, _ := NewChecker(s, c.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))

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

func TestMissingSecretIsNotInvented(t *testing.T) {
	dir, _, _, _, _, _ := oneKey(t)
	if err := os.Remove(filepath.Join(dir, "key-secret")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "restore it") {
		t.Fatalf("a store with keys and no secret opened: %v", err)
	}
}

// oneKey opens a store in a new directory with one key and a checker on a fake clock.
func oneKey(t *testing.T) (dir string, s *Store, c *clock, key string, rec Record, ck *Checker) {
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
	if ck, err = NewChecker(s, c.Now, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
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
