package keys

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// IdleLimit is how long a key may go unused before it is revoked for good.
const IdleLimit = 90 * 24 * time.Hour

// ReasonIdle is the revocation reason of keys unused for IdleLimit.
const ReasonIdle = "unused for 90 days"

// Record is what the store knows of a key: never the key itself.
type Record struct {
	ID       string    `json:"id"`
	Owner    string    `json:"owner"`
	Use      string    `json:"use"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used,omitzero"`
	Revoked  time.Time `json:"revoked,omitzero"`
	Reason   string    `json:"revoked_reason,omitempty"`
	Hash     string    `json:"hash"`
}

// State returns "active" or "revoked".
func (r *Record) State() string {
	if r.Revoked.IsZero() {
		return "active"
	}
	return "revoked"
}

// idle reports whether an active key has gone unused for longer than IdleLimit at now.
func (r *Record) idle(now time.Time) bool {
	last := r.Created
	if r.LastUsed.After(last) {
		last = r.LastUsed
	}
	return r.Revoked.IsZero() && now.Sub(last) > IdleLimit
}

// Store is the key file and the secret file in one directory. Changes are made under an
// exclusive lock and written atomically (temporary file, then rename), so gigsctl and a
// running gigsd can both change it. Safe for concurrent use.
type Store struct {
	path, lock string
	secret     []byte
}

type file struct {
	Keys []Record `json:"keys"`
}

// Open opens the store in dir, creating the directory and an empty store when missing,
// and the secret (32 random bytes, 0600, in a file of its own beside the store) on first
// use. A missing secret is never invented for a store that already holds keys: they would
// all stop working; restore the secret instead.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create key directory: %w", err)
	}
	s := &Store{path: filepath.Join(dir, "keys.json"), lock: filepath.Join(dir, "keys.lock")}
	secretPath := filepath.Join(dir, "key-secret")
	err := s.Update(func(recs []Record) ([]Record, bool, error) {
		secret, err := os.ReadFile(secretPath)
		if errors.Is(err, os.ErrNotExist) {
			if len(recs) > 0 {
				return nil, false, fmt.Errorf("the key secret %q is missing but the store holds %d keys: restore it", secretPath, len(recs))
			}
			secret = make([]byte, 32)
			_, _ = rand.Read(secret)
			err = os.WriteFile(secretPath, secret, 0o600) // under the lock: one creator only
		}
		if err != nil {
			return nil, false, fmt.Errorf("cannot read or create the key secret %q: %w", secretPath, err)
		}
		if len(secret) < 32 {
			return nil, false, fmt.Errorf("key secret %q is shorter than 32 bytes", secretPath)
		}
		s.secret = secret
		return recs, false, nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Read returns every record.
func (s *Store) Read() ([]Record, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read key store: %w", err)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("cannot parse key store %q: %w", s.path, err)
	}
	return f.Keys, nil
}

// Update runs fn on the records under the store's lock and writes what it returns when it
// reports a change.
func (s *Store) Update(fn func([]Record) ([]Record, bool, error)) error {
	lf, err := os.OpenFile(s.lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open key store lock: %w", err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("cannot lock key store: %w", err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	recs, err := s.Read()
	if err != nil {
		return err
	}
	recs, changed, err := fn(recs)
	if err != nil {
		return err
	}
	if _, statErr := os.Stat(s.path); !changed && statErr == nil {
		return nil
	}
	return s.write(recs) // a change, or a store that does not exist yet
}

func (s *Store) write(recs []Record) error {
	if recs == nil {
		recs = []Record{}
	}
	data, err := json.MarshalIndent(file{Keys: recs}, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(s.path, append(data, '\n'), 0o600)
}

func writeAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	// Keep the file's owner, so that an operator running gigsctl as root does not leave a
	// store the daemon's user cannot read. (Only root may chown; others keep their own.)
	if fi, err := os.Stat(path); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
			_ = tmp.Chown(int(st.Uid), int(st.Gid))
		}
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

var idEnc = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Create issues a key for owner and use, and returns it with its record. The key is
// returned only here; the store keeps its hash.
func (s *Store) Create(owner, use string, now time.Time) (string, Record, error) {
	if owner == "" || use == "" {
		return "", Record{}, errors.New("a key needs an owner and a use")
	}
	key := NewKey()
	var b [5]byte
	_, _ = rand.Read(b[:])
	rec := Record{ID: "key_" + idEnc.EncodeToString(b[:]), Owner: owner, Use: use, Created: now.UTC().Truncate(time.Second), Hash: Hash(s.secret, []byte(key))}
	err := s.Update(func(recs []Record) ([]Record, bool, error) { return append(recs, rec), true, nil })
	return key, rec, err
}

// Revoke revokes key id for reason; revoking a revoked key changes nothing.
func (s *Store) Revoke(id, reason string, now time.Time) (Record, error) {
	var out Record
	err := s.Update(func(recs []Record) ([]Record, bool, error) {
		for i := range recs {
			if recs[i].ID == id {
				changed := recs[i].Revoked.IsZero()
				if changed {
					recs[i].Revoked, recs[i].Reason = now.UTC().Truncate(time.Second), reason
				}
				out = recs[i]
				return recs, changed, nil
			}
		}
		return nil, false, fmt.Errorf("no key %q", id)
	})
	return out, err
}

// Find returns the record of key id.
func (s *Store) Find(id string) (Record, error) {
	recs, err := s.Read()
	if err != nil {
		return Record{}, err
	}
	for _, r := range recs {
		if r.ID == id {
			return r, nil
		}
	}
	return Record{}, fmt.Errorf("no key %q", id)
}
