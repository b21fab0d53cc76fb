package keys

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"maps"
	"os"
	"sync"
	"time"
)

// ErrUnknown means a well-formed key that the store does not hold.
var ErrUnknown = errors.New("unknown key")

// ErrUnavailable means the store could not be loaded for too long to trust the copy in
// memory: a key revoked meanwhile must not keep working.
var ErrUnavailable = errors.New("key store unavailable")

// RevokedError means a key that was revoked, and says why.
type RevokedError struct {
	Reason string
	When   time.Time
}

func (e *RevokedError) Error() string { return "key revoked: " + e.Reason }

// Checker checks personal keys for the server: FileChecker is one, and so is the checker
// of the key store in Redis. Safe for concurrent use.
type Checker interface {
	// Check returns the record of an active key, or why the key is refused:
	// ErrMalformed, ErrChecksum, ErrUnknown, ErrUnavailable or a *RevokedError. A
	// successful check counts as a use of the key.
	Check(key []byte) (Record, error)
}

// FileChecker is the Checker of a FileStore: it answers key checks from an in-memory copy
// of the store, which it reloads when the file changes; it records each key's last use in
// memory and writes the uses, and the revocation of keys idle for IdleLimit, at each Sync.
// Safe for concurrent use.
type FileChecker struct {
	store *FileStore
	now   func() time.Time
	log   *slog.Logger

	mu     sync.RWMutex
	byHash map[string]Record // protected by mu
	stamp  fileStamp         // the store file as last loaded; protected by mu
	loaded time.Time         // when the store was last read or found unchanged; protected by mu
	stale  time.Duration     // refuse keys when loaded is older (0: never); set by Run

	usedMu sync.Mutex
	used   map[string]time.Time // id → last use not yet written; protected by usedMu
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// NewFileChecker returns the checker of s, which it loads.
func NewFileChecker(s *FileStore, now func() time.Time, log *slog.Logger) (*FileChecker, error) {
	c := &FileChecker{store: s, now: now, log: log, used: map[string]time.Time{}}
	return c, c.reload(true)
}

// Check returns the record of an active key, or why the key is refused: ErrMalformed,
// ErrChecksum, ErrUnknown or a *RevokedError. A successful check counts as a use.
func (c *FileChecker) Check(key []byte) (Record, error) {
	if err := Check(key); err != nil {
		return Record{}, err
	}
	h := Hash(c.store.secret, key)
	now := c.now()
	c.mu.RLock()
	rec, ok := c.byHash[h]
	unavailable := c.stale > 0 && now.Sub(c.loaded) > c.stale
	c.mu.RUnlock()
	if unavailable {
		return Record{}, ErrUnavailable
	}
	if !ok || subtle.ConstantTimeCompare([]byte(h), []byte(rec.Hash)) != 1 {
		return Record{}, ErrUnknown
	}
	c.usedMu.Lock()
	if last, ok := c.used[rec.ID]; ok && last.After(rec.LastUsed) {
		rec.LastUsed = last
	}
	c.usedMu.Unlock()
	if err := Refusal(rec, now); err != nil {
		return rec, err
	}
	c.usedMu.Lock()
	c.used[rec.ID] = now
	c.usedMu.Unlock()
	return rec, nil
}

// Sync writes the recorded uses and the revocations of idle keys to the store, and
// reloads it if it changed. It reloads even when the write fails, so that revocations made
// by gigsctl take effect whatever happens to the uses; uses stay in memory, and count in
// Check, until they are written.
func (c *FileChecker) Sync() error {
	now := c.now()
	c.usedMu.Lock()
	pending := make(map[string]time.Time, len(c.used))
	maps.Copy(pending, c.used)
	c.usedMu.Unlock()
	werr := c.store.Update(func(recs []Record) ([]Record, bool, error) {
		changed := false
		for i := range recs {
			r := &recs[i]
			if t, ok := pending[r.ID]; ok && t.After(r.LastUsed) {
				r.LastUsed, changed = t.UTC().Truncate(time.Second), true
			}
			if r.Idle(now) {
				r.Revoked, r.Reason, changed = now.UTC().Truncate(time.Second), ReasonIdle, true
			}
		}
		return recs, changed, nil
	})
	rerr := c.reload(false)
	if werr == nil && rerr == nil {
		c.usedMu.Lock()
		for id, t := range pending {
			if c.used[id].Equal(t) { // not used again meanwhile
				delete(c.used, id)
			}
		}
		c.usedMu.Unlock()
	}
	return errors.Join(werr, rerr)
}

// Refusal returns why rec is refused at now, or nil for an active key: a *RevokedError
// for a key revoked, or Idle at now (ReasonIdle). Every Checker refuses keys with it.
func Refusal(rec Record, now time.Time) error {
	switch {
	case !rec.Revoked.IsZero():
		return &RevokedError{Reason: rec.Reason, When: rec.Revoked}
	case rec.Idle(now):
		return &RevokedError{Reason: ReasonIdle, When: now}
	}
	return nil
}

// reload reads the store when its file changed since the last load (or always, if force).
func (c *FileChecker) reload(force bool) error {
	fi, err := os.Stat(c.store.path)
	if err != nil {
		return err
	}
	st := fileStamp{fi.ModTime(), fi.Size()}
	c.mu.Lock()
	same := st == c.stamp && !force
	if same {
		c.loaded = c.now()
	}
	c.mu.Unlock()
	if same {
		return nil
	}
	recs, err := c.store.Read()
	if err != nil {
		return err
	}
	byHash := make(map[string]Record, len(recs))
	for _, r := range recs {
		byHash[r.Hash] = r
	}
	c.mu.Lock()
	c.byHash, c.stamp, c.loaded = byHash, st, c.now()
	c.mu.Unlock()
	return nil
}

// Run calls Sync every interval until ctx ends, and once more at the end. While it runs,
// keys are refused with ErrUnavailable when the store could not be loaded for three
// intervals.
func (c *FileChecker) Run(ctx context.Context, every time.Duration) {
	c.mu.Lock()
	c.stale = 3 * every
	c.mu.Unlock()
	TickUntil(ctx, every, func() {
		if err := c.Sync(); err != nil {
			c.log.Error("cannot sync the key store", "err", err)
		}
	}, func() {
		if err := c.Sync(); err != nil {
			c.log.Error("cannot write key uses", "err", err)
		}
	})
}

// TickUntil calls tick every interval until ctx ends, then last once: the loop of every
// checker's Run, which syncs on tick and saves what is left on last.
func TickUntil(ctx context.Context, every time.Duration, tick, last func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			last()
			return
		case <-t.C:
			tick()
		}
	}
}
