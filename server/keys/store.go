package keys

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/engine/atomicfile"
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

// Idle reports whether an active key has gone unused for longer than IdleLimit at now.
func (r *Record) Idle(now time.Time) bool {
	last := r.Created
	if r.LastUsed.After(last) {
		last = r.LastUsed
	}
	return r.Revoked.IsZero() && now.Sub(last) > IdleLimit
}

// Store keeps the key records: FileStore (files in a directory) is one, and so is the
// key store in Redis that replicas share. A store keeps the hash of a key, never the key,
// which only Create returns. Each change is atomic, so gigsctl and running gigsd
// replicas can use one store at once.
type Store interface {
	// Create issues a key for owner and use at now, and returns it with its record.
	Create(owner, use string, now time.Time) (string, Record, error)
	// Read returns every record.
	Read() ([]Record, error)
	// Find returns the record of key id.
	Find(id string) (Record, error)
	// Revoke revokes key id for reason at now; revoking a revoked key changes nothing.
	Revoke(id, reason string, now time.Time) (Record, error)
}

// FileStore is the Store in files: the key file and the secret file in one directory.
// Changes are made under an exclusive lock and written atomically (package atomicfile),
// so gigsctl and a running gigsd can both change it. Safe for concurrent use.
//
// A store is never lost to a bad file: a key file that is empty, unreadable, not the
// format below, or missing while the secret exists (so keys were issued before), and a
// secret that is not the one the key file was written with (its fingerprint is kept in
// the file), are errors naming the file, never an empty key set.
type FileStore struct {
	path, lock, secretPath string
	secret                 []byte
	fingerprint            string // of secret, kept in the key file
}

// formatVersion is the version of keys.json this build writes. It reads it, and the files
// written before versions (no version and no fingerprint), which it upgrades.
const formatVersion = 1

// The largest key store and secret read: some hundred thousand keys, and a secret of 32
// bytes with room to spare. Larger files are not ones gigs wrote.
const (
	maxStoreBytes  = 64 << 20
	maxSecretBytes = 4 << 10
)

// file is keys.json.
type file struct {
	Version     int      `json:"version"`
	Fingerprint string   `json:"secret_fingerprint,omitempty"` // of the key secret; see fingerprintOf
	Keys        []Record `json:"keys"`
}

// fingerprintOf names a secret without revealing it: the HMAC of a fixed label under it.
func fingerprintOf(secret []byte) string {
	return Hash(secret, []byte("gigs key store fingerprint"))[:16]
}

// Open opens the store in dir, creating the directory and an empty store when missing,
// and the secret (32 random bytes, 0600, in a file of its own beside the store) with the
// store. Temporary files of writes cut short are removed.
func Open(dir string) (*FileStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create key directory: %w", err)
	}
	s := &FileStore{path: filepath.Join(dir, "keys.json"), lock: filepath.Join(dir, "keys.lock"), secretPath: filepath.Join(dir, "key-secret")}
	if err := s.locked(s.open); err != nil {
		return nil, err
	}
	return s, nil
}

// open reads or creates the secret and the key file; under the lock.
func (s *FileStore) open() error {
	if err := errors.Join(atomicfile.Clean(s.path), atomicfile.Clean(s.secretPath)); err != nil {
		return fmt.Errorf("cannot remove the temporary files of the key store: %w", err)
	}
	f, err := s.readFile()
	if err != nil {
		return err
	}
	secret, err := atomicfile.Read(s.secretPath, maxSecretBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist) && (f == nil || len(f.Keys) == 0):
		// A new store (or one that holds no key yet): the key file is written before the
		// secret, so this is also where a first Open cut short between them resumes.
		secret = make([]byte, 32)
		_, _ = rand.Read(secret)
		s.secret, s.fingerprint = secret, fingerprintOf(secret)
		if err := s.write(nil); err != nil {
			return err
		}
		return atomicfile.Write(s.secretPath, secret, 0o600)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the key secret %q is missing but the key store %q holds %d keys: restore the secret", s.secretPath, s.path, len(f.Keys))
	case err != nil:
		return fmt.Errorf("cannot read the key secret: %w", err)
	case len(secret) < 32:
		return fmt.Errorf("the key secret %q is %d bytes, not at least 32: it was cut short; restore it", s.secretPath, len(secret))
	case f == nil:
		return fmt.Errorf("the key store %q is missing but its secret %q exists, so keys were issued: restore the key store from a backup "+
			"(to start over with no keys, remove the secret as well)", s.path, s.secretPath)
	}
	s.secret, s.fingerprint = secret, fingerprintOf(secret)
	switch f.Fingerprint {
	case s.fingerprint:
		return nil
	case "":
		return s.write(f.Keys) // a store from before fingerprints gets one
	}
	return fmt.Errorf("the key secret %q is not the one the key store %q was written with (fingerprint %s, want %s): "+
		"every key would be refused; restore the matching secret", s.secretPath, s.path, s.fingerprint, f.Fingerprint)
}

// readFile reads the key file; nil when it does not exist. A file that is empty, cut
// short, not JSON, of a newer version or with a key lacking its id, hash or creation time
// is an error naming it: a key without a creation time would look unused for ever and be
// revoked at the first sync.
func (s *FileStore) readFile() (*file, error) {
	data, err := atomicfile.Read(s.path, maxStoreBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read key store: %w", err)
	}
	var f struct {
		Version     *int      `json:"version"`
		Fingerprint string    `json:"secret_fingerprint"`
		Keys        *[]Record `json:"keys"`
	}
	err = json.Unmarshal(data, &f)
	var out *file
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot parse key store %q: %w; restore it from a backup", s.path, err)
	case f.Keys == nil:
		return nil, fmt.Errorf("key store %q has no list of keys: it is not a key store, or was damaged; restore it from a backup", s.path)
	case f.Version == nil && f.Fingerprint == "":
		out = &file{Keys: *f.Keys} // a store from before versions
	case f.Version == nil || *f.Version != formatVersion:
		v := "no"
		if f.Version != nil {
			v = fmt.Sprint(*f.Version)
		}
		return nil, fmt.Errorf("key store %q has version %s; this build reads version %d", s.path, v, formatVersion)
	case f.Fingerprint == "":
		return nil, fmt.Errorf("key store %q has no secret fingerprint: it was damaged; restore it from a backup", s.path)
	default:
		out = &file{Version: *f.Version, Fingerprint: f.Fingerprint, Keys: *f.Keys}
	}
	for i, r := range out.Keys {
		if r.ID == "" || r.Hash == "" || r.Created.IsZero() {
			return nil, fmt.Errorf("key store %q: key %d (id %q) lacks its id, hash or creation time: it was damaged; restore it from a backup", s.path, i+1, r.ID)
		}
	}
	return out, nil
}

// Read returns every record. The store must exist, as Open leaves it.
func (s *FileStore) Read() ([]Record, error) {
	f, err := s.readFile()
	switch {
	case err != nil:
		return nil, err
	case f == nil:
		return nil, s.missingErr()
	case f.Fingerprint != s.fingerprint:
		return nil, fmt.Errorf("key store %q was replaced by one written with another secret: it is not read", s.path)
	}
	return f.Keys, nil
}

func (s *FileStore) missingErr() error {
	return fmt.Errorf("the key store %q is missing: restore it from a backup", s.path)
}

// Update runs fn on the records under the store's lock and writes what it returns when it
// reports a change.
func (s *FileStore) Update(fn func([]Record) ([]Record, bool, error)) error {
	return s.locked(func() error {
		recs, err := s.Read()
		if err != nil {
			return err
		}
		recs, changed, err := fn(recs)
		if err != nil || !changed {
			return err
		}
		return s.write(recs)
	})
}

// locked runs fn under the store's exclusive lock, which gigsctl and gigsd share.
func (s *FileStore) locked(fn func() error) error {
	lf, err := os.OpenFile(s.lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open key store lock: %w", err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("cannot lock key store: %w", err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	return fn()
}

func (s *FileStore) write(recs []Record) error {
	if recs == nil {
		recs = []Record{}
	}
	data, err := json.MarshalIndent(file{Version: formatVersion, Fingerprint: s.fingerprint, Keys: recs}, "", "  ")
	if err != nil {
		return err
	}
	if len(data)+1 > maxStoreBytes { // a store gigs could not read back
		return fmt.Errorf("the key store %q would hold %d bytes, more than the %d it may: not written", s.path, len(data)+1, maxStoreBytes)
	}
	return atomicfile.Write(s.path, append(data, '\n'), 0o600)
}

var idEnc = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Create issues a key for owner and use, and returns it with its record. The key is
// returned only here; the store keeps its hash.
func (s *FileStore) Create(owner, use string, now time.Time) (string, Record, error) {
	key, rec, err := NewRecord(s.secret, owner, use, now)
	if err != nil {
		return "", Record{}, err
	}
	err = s.Update(func(recs []Record) ([]Record, bool, error) { return append(recs, rec), true, nil })
	return key, rec, err
}

// NewRecord makes a new key for owner and use, and its record at now under secret: what
// every Store's Create keeps. It refuses an empty owner or use, and texts CheckText
// refuses.
func NewRecord(secret []byte, owner, use string, now time.Time) (string, Record, error) {
	if owner == "" || use == "" {
		return "", Record{}, errors.New("a key needs an owner and a use")
	}
	if err := errors.Join(CheckText("owner", owner), CheckText("use", use)); err != nil {
		return "", Record{}, err
	}
	key := NewKey()
	var b [5]byte
	_, _ = rand.Read(b[:])
	return key, Record{ID: "key_" + idEnc.EncodeToString(b[:]), Owner: owner, Use: use, Created: now.UTC().Truncate(time.Second), Hash: Hash(secret, []byte(key))}, nil
}

// maxText bounds a key's owner, use and revocation reason.
const maxText = 500

// CheckText refuses a text of a key record, named name in the error (an owner, a use, a
// revocation reason), that is too long or holds control characters (a line break or a
// tab would break gigsctl keys list's table). Every Store's Revoke checks its reason with
// it.
func CheckText(name, v string) error {
	if len(v) > maxText {
		return fmt.Errorf("the %s is %d bytes, more than %d", name, len(v), maxText)
	}
	if strings.ContainsFunc(v, unicode.IsControl) || !utf8.ValidString(v) {
		return fmt.Errorf("the %s %q holds control characters or bytes of no character", name, v)
	}
	return nil
}

// Revoke revokes key id for reason; revoking a revoked key changes nothing.
func (s *FileStore) Revoke(id, reason string, now time.Time) (Record, error) {
	if err := CheckText("reason", reason); err != nil {
		return Record{}, err
	}
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
func (s *FileStore) Find(id string) (Record, error) {
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
