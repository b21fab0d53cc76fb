package redis

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gigs/gigs/server/keys"
)

// Redis layout of a KeyStore.
const (
	keySecret = "gigs:keys:secret" // the HMAC secret of the key hashes, set by the first Open
	keyIDs    = "gigs:keys"        // hash: key id → key hash
	keyRecord = "gigs:key:"        // + key hash: hash of the record's fields
)

// KeyStore is the keys.Store in Redis, where every replica and gigsctl share the key
// records: each change is one atomic step of Redis. The secret the hashes are made with
// is kept in Redis too, so protect Redis as you would the key directory (AUTH, TLS with
// rediss://, a private network).
type KeyStore struct {
	c      *goredis.Client
	secret []byte
}

// ErrNoKeyStore means a Redis server that holds no key store: none was created, or the
// server lost its data.
var ErrNoKeyStore = errors.New("redis holds no key store (" + keySecret + " is missing): run gigsctl keys init -redis once for a new server, or restore its data")

// OpenKeyStore opens the key store in the Redis server of c, creating it (its secret) when
// create is set and there is none; otherwise a server without one is ErrNoKeyStore.
func OpenKeyStore(c *goredis.Client, create bool) (*KeyStore, error) {
	ctx, cancel := ctxTimeout()
	defer cancel()
	if create {
		secret := make([]byte, 32)
		_, _ = rand.Read(secret)
		if err := c.SetNX(ctx, keySecret, secret, 0).Err(); err != nil {
			return nil, fmt.Errorf("cannot open the key store in redis: %w", err)
		}
	}
	got, err := c.Get(ctx, keySecret).Bytes()
	switch {
	case errors.Is(err, goredis.Nil):
		return nil, ErrNoKeyStore
	case err != nil:
		return nil, fmt.Errorf("cannot read the key secret from redis: %w", err)
	case len(got) < 32:
		return nil, fmt.Errorf("the key secret in redis (%s) is %d bytes, not at least 32: restore it", keySecret, len(got))
	}
	return &KeyStore{c: c, secret: got}, nil
}

func ctxTimeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 2*time.Second)
}

// Create issues a key for owner and use, and returns it with its record.
func (s *KeyStore) Create(owner, use string, now time.Time) (string, keys.Record, error) {
	key, rec, err := keys.NewRecord(s.secret, owner, use, now)
	if err != nil {
		return "", keys.Record{}, err
	}
	ctx, cancel := ctxTimeout()
	defer cancel()
	_, err = s.c.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.HSet(ctx, keyRecord+rec.Hash, "id", rec.ID, "owner", rec.Owner, "use", rec.Use, "created", rec.Created.Format(time.RFC3339))
		p.HSet(ctx, keyIDs, rec.ID, rec.Hash)
		return nil
	})
	if err != nil {
		return "", keys.Record{}, fmt.Errorf("cannot store the key in redis: %w", err)
	}
	return key, rec, nil
}

// Read returns every record.
func (s *KeyStore) Read() ([]keys.Record, error) {
	ctx, cancel := ctxTimeout()
	defer cancel()
	ids, err := s.c.HGetAll(ctx, keyIDs).Result()
	if err != nil {
		return nil, fmt.Errorf("cannot read the keys from redis: %w", err)
	}
	cmds := make([]*goredis.MapStringStringCmd, 0, len(ids))
	_, err = s.c.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, h := range ids {
			cmds = append(cmds, p.HGetAll(ctx, keyRecord+h))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read the keys from redis: %w", err)
	}
	recs := make([]keys.Record, 0, len(cmds))
	for _, c := range cmds {
		h := c.Args()[1].(string)[len(keyRecord):]
		rec, err := recordOf(h, c.Val())
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	sortRecords(recs)
	return recs, nil
}

// sortRecords orders records as a key file keeps them: by creation, then id.
func sortRecords(recs []keys.Record) {
	slices.SortFunc(recs, func(a, b keys.Record) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Find returns the record of key id.
func (s *KeyStore) Find(id string) (keys.Record, error) {
	ctx, cancel := ctxTimeout()
	defer cancel()
	h, err := s.c.HGet(ctx, keyIDs, id).Result()
	if errors.Is(err, goredis.Nil) {
		return keys.Record{}, fmt.Errorf("no key %q", id)
	}
	if err != nil {
		return keys.Record{}, fmt.Errorf("cannot read key %q from redis: %w", id, err)
	}
	rec, ok, err := s.lookup(ctx, h)
	if err == nil && !ok {
		err = fmt.Errorf("key %q is listed but has no record in redis (%s%s)", id, keyRecord, h)
	}
	return rec, err
}

// revokeScript revokes the key whose record is KEYS[1] at ARGV[1] for reason ARGV[2],
// unless it is revoked already or, when ARGV[3] is set, was used or created at ARGV[3]
// or later (RFC 3339 UTC times, which compare as strings); it returns 0 when there is no
// such record.
var revokeScript = goredis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[3] ~= '' then
  local last = redis.call('HGET', KEYS[1], 'last_used') or redis.call('HGET', KEYS[1], 'created') or ''
  if last >= ARGV[3] then return 1 end
end
if redis.call('HEXISTS', KEYS[1], 'revoked') == 0 then
  redis.call('HSET', KEYS[1], 'revoked', ARGV[1], 'revoked_reason', ARGV[2])
end
return 1`)

// Revoke revokes key id for reason; revoking a revoked key changes nothing.
func (s *KeyStore) Revoke(id, reason string, now time.Time) (keys.Record, error) {
	if err := keys.CheckText("reason", reason); err != nil {
		return keys.Record{}, err
	}
	return s.revoke(id, reason, now, "")
}

// revokeIdle revokes key id as unused for keys.IdleLimit at now, unless a replica used
// it since the record was read.
func (s *KeyStore) revokeIdle(id string, now time.Time) (keys.Record, error) {
	return s.revoke(id, keys.ReasonIdle, now, now.Add(-keys.IdleLimit).UTC().Format(time.RFC3339))
}

func (s *KeyStore) revoke(id, reason string, now time.Time, usedSince string) (keys.Record, error) {
	rec, err := s.Find(id)
	if err != nil {
		return keys.Record{}, err
	}
	ctx, cancel := ctxTimeout()
	defer cancel()
	if err := revokeScript.Run(ctx, s.c, []string{keyRecord + rec.Hash}, now.UTC().Format(time.RFC3339), reason, usedSince).Err(); err != nil {
		return keys.Record{}, fmt.Errorf("cannot revoke key %q in redis: %w", id, err)
	}
	return s.Find(id)
}

// lookup returns the record of the key with hash h; false when there is none.
func (s *KeyStore) lookup(ctx context.Context, h string) (keys.Record, bool, error) {
	m, err := s.c.HGetAll(ctx, keyRecord+h).Result()
	if err != nil || len(m) == 0 {
		return keys.Record{}, false, err
	}
	rec, err := recordOf(h, m)
	return rec, err == nil, err
}

// used records a use of the key with hash h at t.
func (s *KeyStore) used(ctx context.Context, h string, t time.Time) error {
	return s.c.HSet(ctx, keyRecord+h, "last_used", t.UTC().Format(time.RFC3339)).Err()
}

// recordOf reads a record's fields.
func recordOf(h string, m map[string]string) (keys.Record, error) {
	rec := keys.Record{ID: m["id"], Owner: m["owner"], Use: m["use"], Reason: m["revoked_reason"], Hash: h}
	for name, t := range map[string]*time.Time{"created": &rec.Created, "last_used": &rec.LastUsed, "revoked": &rec.Revoked} {
		if v := m[name]; v != "" {
			var err error
			if *t, err = time.Parse(time.RFC3339, v); err != nil {
				return keys.Record{}, fmt.Errorf("key record %s%s: field %s: %w", keyRecord, h, name, err)
			}
		}
	}
	if rec.ID == "" {
		return keys.Record{}, fmt.Errorf("key record %s%s has no id", keyRecord, h)
	}
	return rec, nil
}

// KeyChecker is the keys.Checker of a KeyStore: it answers key checks from Redis, so a
// key created or revoked anywhere counts everywhere at the next check; each successful
// check writes the key's last use. While Redis cannot be reached, checks are answered
// from the last key set read (Run reads it every interval), with uses kept in memory
// until Redis answers again.
//
// The checker never creates a key store, and keeps the secret it first read: a Redis
// that comes back empty, or with another store, is logged at each Sync and checks go on
// from the last key set read until gigsd restarts. Safe for concurrent use.
type KeyChecker struct {
	c   *goredis.Client
	now func() time.Time
	log *slog.Logger
	b   *Breaker

	mu       sync.RWMutex
	store    *KeyStore              // nil until Redis first answered; protected by mu
	replaced bool                   // Redis holds no store or another one; protected by mu
	byHash   map[string]keys.Record // the last key set read, with uses made since; protected by mu
	unsent   map[string]time.Time   // key hash → use not yet written; protected by mu
}

// NewKeyChecker returns a checker of the keys in the Redis server of c. Redis need not
// answer yet: until it does, keys are refused with keys.ErrUnavailable.
func NewKeyChecker(c *goredis.Client, now func() time.Time, log *slog.Logger, m *Metrics) *KeyChecker {
	k := &KeyChecker{c: c, now: now, log: log, b: NewBreaker("keys", log, m), unsent: map[string]time.Time{}}
	if err := k.Sync(); errors.Is(err, ErrNoKeyStore) {
		log.Info("no key store in redis yet: every key is refused until gigsctl keys init -redis makes one")
	} else if err != nil {
		log.Error("cannot read the keys from redis yet", "err", err)
	}
	return k
}

// Check returns the record of an active key, or why the key is refused, as keys.Checker.Check.
func (k *KeyChecker) Check(key []byte) (keys.Record, error) {
	if err := keys.Check(key); err != nil {
		return keys.Record{}, err
	}
	now := k.now()
	k.mu.RLock()
	s, replaced := k.store, k.replaced
	k.mu.RUnlock()
	if s == nil {
		if s = k.open(now); s == nil {
			return keys.Record{}, keys.ErrUnavailable
		}
	}
	h := keys.Hash(s.secret, key)
	rec, ok, fromRedis := keys.Record{}, false, false
	ctx, cancel := ctxTimeout()
	defer cancel()
	if !replaced && k.b.Try(now) {
		var err error
		rec, ok, err = s.lookup(ctx, h)
		switch {
		case err == nil:
			k.b.Succeeded(now)
			fromRedis = true
		case IsReplyError(err):
			k.log.Error("key record unreadable in redis", "err", err) // Redis is fine; this record is not
		default:
			k.b.Failed(k.now(), err)
		}
	}
	if !fromRedis {
		k.b.FellBack()
		k.mu.RLock()
		rec, ok = k.byHash[h]
		k.mu.RUnlock()
	}
	if !ok || subtle.ConstantTimeCompare([]byte(h), []byte(rec.Hash)) != 1 {
		return keys.Record{}, keys.ErrUnknown
	}
	if err := keys.Refusal(rec, now); err != nil {
		return rec, err
	}
	if fromRedis && s.used(ctx, h, now) == nil {
		now = time.Time{} // written: nothing left to send
	}
	k.mu.Lock()
	if !now.IsZero() {
		k.unsent[h] = now // written by the next Sync
	}
	if k.byHash != nil {
		rec.LastUsed = k.now()
		k.byHash[h] = rec
	}
	k.mu.Unlock()
	return rec, nil
}

// open opens the store for a check made before any Sync could, at most once per
// ProbeEvery; nil when there is none yet.
func (k *KeyChecker) open(now time.Time) *KeyStore {
	if !k.b.Try(now) {
		return nil
	}
	s, err := OpenKeyStore(k.c, false)
	switch {
	case errors.Is(err, ErrNoKeyStore):
		return nil // Redis answered: there are no keys yet
	case err != nil:
		k.b.Failed(k.now(), err)
		return nil
	}
	k.b.Succeeded(now)
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.store == nil {
		k.store = s
	}
	return k.store
}

// sendUses writes the uses not yet in Redis in one pipeline; if it fails they stay for
// the next call.
func (k *KeyChecker) sendUses() error {
	k.mu.Lock()
	s, pending := k.store, k.unsent
	k.unsent = map[string]time.Time{}
	k.mu.Unlock()
	if s == nil || len(pending) == 0 {
		return nil
	}
	ctx, cancel := ctxTimeout()
	defer cancel()
	_, err := s.c.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for h, t := range pending {
			p.HSet(ctx, keyRecord+h, "last_used", t.UTC().Format(time.RFC3339))
		}
		return nil
	})
	if err != nil {
		k.mu.Lock()
		for h, t := range pending {
			if k.unsent[h].Before(t) {
				k.unsent[h] = t
			}
		}
		k.mu.Unlock()
	}
	return err
}

// Sync opens the store when it is not open yet, writes pending uses, revokes the keys
// idle for keys.IdleLimit and reads the key set again, the fallback of the checks while
// Redis is down.
func (k *KeyChecker) Sync() error {
	k.mu.RLock()
	s := k.store
	k.mu.RUnlock()
	cur, err := OpenKeyStore(k.c, false)
	if err != nil {
		if s != nil && errors.Is(err, ErrNoKeyStore) {
			k.setReplaced(true)
		}
		return err
	}
	switch {
	case s == nil:
		s = cur
		k.mu.Lock()
		k.store = s
		k.mu.Unlock()
	case !bytes.Equal(s.secret, cur.secret):
		k.setReplaced(true)
		return errors.New("the key store in redis was replaced (its secret differs from the one read at start): " +
			"checks use the last key set read; restore the store, or restart gigsd to use the new one")
	}
	k.setReplaced(false)
	if err := k.sendUses(); err != nil {
		return err
	}
	recs, err := s.Read()
	if err != nil {
		return err
	}
	t := k.now()
	byHash := make(map[string]keys.Record, len(recs))
	for _, r := range recs {
		if r.Idle(t) {
			if r, err = s.revokeIdle(r.ID, t); err != nil {
				return err
			}
			if !r.Revoked.IsZero() {
				k.log.Info("key revoked: unused for 90 days", "key", r.ID)
			}
		}
		byHash[r.Hash] = r
	}
	k.mu.Lock()
	for h, t := range k.unsent { // uses made while reading
		if r, ok := byHash[h]; ok {
			r.LastUsed = t
			byHash[h] = r
		}
	}
	k.byHash = byHash
	k.mu.Unlock()
	return nil
}

func (k *KeyChecker) setReplaced(v bool) {
	k.mu.Lock()
	k.replaced = v
	k.mu.Unlock()
}

// Run calls Sync every interval until ctx ends, and once more at the end.
func (k *KeyChecker) Run(ctx context.Context, every time.Duration) {
	keys.TickUntil(ctx, every, func() {
		err := k.Sync()
		k.mu.RLock()
		opened := k.store != nil
		k.mu.RUnlock()
		switch {
		case err == nil:
		case !opened && errors.Is(err, ErrNoKeyStore):
			k.log.Debug("no key store in redis yet: every key is refused", "err", err)
		default:
			k.log.Warn("cannot sync the keys with redis; checks use the last key set read", "err", err)
		}
	}, func() {
		if err := k.sendUses(); err != nil {
			k.log.Error("cannot write key uses to redis", "err", err)
		}
	})
}
