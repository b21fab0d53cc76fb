package keys

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

	"github.com/redis/go-redis/v9"

	"github.com/gigs/gigs/server/shared"
)

// Redis layout of a RedisStore.
const (
	redisSecret = "gigs:keys:secret" // the HMAC secret of the key hashes, set by the first Open
	redisIDs    = "gigs:keys"        // hash: key id → key hash
	redisRecord = "gigs:key:"        // + key hash: hash of the record's fields
)

// RedisStore keeps the key records in Redis, where every replica and gigsctl share them:
// Store's operations, with each change one atomic step of Redis. The secret the hashes are
// made with is kept in Redis too, so protect Redis as you would the key directory (AUTH,
// TLS with rediss://, a private network).
type RedisStore struct {
	c      *redis.Client
	secret []byte
}

// ErrNoRedisStore means a Redis server that holds no key store: none was created, or the
// server lost its data.
var ErrNoRedisStore = errors.New("redis holds no key store (" + redisSecret + " is missing): run gigsctl keys init -redis once for a new server, or restore its data")

// OpenRedis opens the key store in the Redis server of c, creating it (its secret) when
// create is set and there is none; otherwise a server without one is ErrNoRedisStore.
func OpenRedis(c *redis.Client, create bool) (*RedisStore, error) {
	ctx, cancel := ctxTimeout()
	defer cancel()
	if create {
		secret := make([]byte, 32)
		_, _ = rand.Read(secret)
		if err := c.SetNX(ctx, redisSecret, secret, 0).Err(); err != nil {
			return nil, fmt.Errorf("cannot open the key store in redis: %w", err)
		}
	}
	got, err := c.Get(ctx, redisSecret).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, ErrNoRedisStore
	case err != nil:
		return nil, fmt.Errorf("cannot read the key secret from redis: %w", err)
	case len(got) < 32:
		return nil, fmt.Errorf("the key secret in redis (%s) is %d bytes, not at least 32: restore it", redisSecret, len(got))
	}
	return &RedisStore{c: c, secret: got}, nil
}

func ctxTimeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 2*time.Second)
}

// Create issues a key for owner and use, and returns it with its record.
func (s *RedisStore) Create(owner, use string, now time.Time) (string, Record, error) {
	key, rec, err := NewRecord(s.secret, owner, use, now)
	if err != nil {
		return "", Record{}, err
	}
	ctx, cancel := ctxTimeout()
	defer cancel()
	_, err = s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, redisRecord+rec.Hash, "id", rec.ID, "owner", rec.Owner, "use", rec.Use, "created", rec.Created.Format(time.RFC3339))
		p.HSet(ctx, redisIDs, rec.ID, rec.Hash)
		return nil
	})
	if err != nil {
		return "", Record{}, fmt.Errorf("cannot store the key in redis: %w", err)
	}
	return key, rec, nil
}

// Read returns every record.
func (s *RedisStore) Read() ([]Record, error) {
	ctx, cancel := ctxTimeout()
	defer cancel()
	ids, err := s.c.HGetAll(ctx, redisIDs).Result()
	if err != nil {
		return nil, fmt.Errorf("cannot read the keys from redis: %w", err)
	}
	cmds := make([]*redis.MapStringStringCmd, 0, len(ids))
	_, err = s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, h := range ids {
			cmds = append(cmds, p.HGetAll(ctx, redisRecord+h))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read the keys from redis: %w", err)
	}
	recs := make([]Record, 0, len(cmds))
	for _, c := range cmds {
		h := c.Args()[1].(string)[len(redisRecord):]
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
func sortRecords(recs []Record) {
	slices.SortFunc(recs, func(a, b Record) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Find returns the record of key id.
func (s *RedisStore) Find(id string) (Record, error) {
	ctx, cancel := ctxTimeout()
	defer cancel()
	h, err := s.c.HGet(ctx, redisIDs, id).Result()
	if errors.Is(err, redis.Nil) {
		return Record{}, fmt.Errorf("no key %q", id)
	}
	if err != nil {
		return Record{}, fmt.Errorf("cannot read key %q from redis: %w", id, err)
	}
	rec, ok, err := s.lookup(ctx, h)
	if err == nil && !ok {
		err = fmt.Errorf("key %q is listed but has no record in redis (%s%s)", id, redisRecord, h)
	}
	return rec, err
}

// revokeScript revokes the key whose record is KEYS[1] at ARGV[1] for reason ARGV[2],
// unless it is revoked already or, when ARGV[3] is set, was used or created at ARGV[3]
// or later (RFC 3339 UTC times, which compare as strings); it returns 0 when there is no
// such record.
var revokeScript = redis.NewScript(`
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
func (s *RedisStore) Revoke(id, reason string, now time.Time) (Record, error) {
	if err := CheckText("reason", reason); err != nil {
		return Record{}, err
	}
	return s.revoke(id, reason, now, "")
}

// revokeIdle revokes key id as unused for IdleLimit at now, unless a replica used it
// since the record was read.
func (s *RedisStore) revokeIdle(id string, now time.Time) (Record, error) {
	return s.revoke(id, ReasonIdle, now, now.Add(-IdleLimit).UTC().Format(time.RFC3339))
}

func (s *RedisStore) revoke(id, reason string, now time.Time, usedSince string) (Record, error) {
	rec, err := s.Find(id)
	if err != nil {
		return Record{}, err
	}
	ctx, cancel := ctxTimeout()
	defer cancel()
	if err := revokeScript.Run(ctx, s.c, []string{redisRecord + rec.Hash}, now.UTC().Format(time.RFC3339), reason, usedSince).Err(); err != nil {
		return Record{}, fmt.Errorf("cannot revoke key %q in redis: %w", id, err)
	}
	return s.Find(id)
}

// lookup returns the record of the key with hash h; false when there is none.
func (s *RedisStore) lookup(ctx context.Context, h string) (Record, bool, error) {
	m, err := s.c.HGetAll(ctx, redisRecord+h).Result()
	if err != nil || len(m) == 0 {
		return Record{}, false, err
	}
	rec, err := recordOf(h, m)
	return rec, err == nil, err
}

// used records a use of the key with hash h at t.
func (s *RedisStore) used(ctx context.Context, h string, t time.Time) error {
	return s.c.HSet(ctx, redisRecord+h, "last_used", t.UTC().Format(time.RFC3339)).Err()
}

// recordOf reads a record's fields.
func recordOf(h string, m map[string]string) (Record, error) {
	rec := Record{ID: m["id"], Owner: m["owner"], Use: m["use"], Reason: m["revoked_reason"], Hash: h}
	for name, t := range map[string]*time.Time{"created": &rec.Created, "last_used": &rec.LastUsed, "revoked": &rec.Revoked} {
		if v := m[name]; v != "" {
			var err error
			if *t, err = time.Parse(time.RFC3339, v); err != nil {
				return Record{}, fmt.Errorf("key record %s%s: field %s: %w", redisRecord, h, name, err)
			}
		}
	}
	if rec.ID == "" {
		return Record{}, fmt.Errorf("key record %s%s has no id", redisRecord, h)
	}
	return rec, nil
}

// RedisChecker answers key checks from Redis, so a key created or revoked anywhere counts
// everywhere at the next check; each successful check writes the key's last use. While
// Redis cannot be reached, checks are answered from the last key set read (Run reads it
// every interval), with uses kept in memory until Redis answers again.
//
// The checker never creates a key store, and keeps the secret it first read: a Redis
// that comes back empty, or with another store, is logged at each Sync and checks go on
// from the last key set read until gigsd restarts. Safe for concurrent use.
type RedisChecker struct {
	c   *redis.Client
	now func() time.Time
	log *slog.Logger
	b   *shared.Breaker

	mu       sync.RWMutex
	store    *RedisStore          // nil until Redis first answered; protected by mu
	replaced bool                 // Redis holds no store or another one; protected by mu
	byHash   map[string]Record    // the last key set read, with uses made since; protected by mu
	unsent   map[string]time.Time // key hash → use not yet written; protected by mu
}

// NewRedisChecker returns a checker of the keys in the Redis server of c. Redis need not
// answer yet: until it does, keys are refused with ErrUnavailable.
func NewRedisChecker(c *redis.Client, now func() time.Time, log *slog.Logger, m *shared.Metrics) *RedisChecker {
	k := &RedisChecker{c: c, now: now, log: log, b: shared.NewBreaker("keys", log, m), unsent: map[string]time.Time{}}
	if err := k.Sync(); errors.Is(err, ErrNoRedisStore) {
		log.Info("no key store in redis yet: every key is refused until gigsctl keys init -redis makes one")
	} else if err != nil {
		log.Error("cannot read the keys from redis yet", "err", err)
	}
	return k
}

// Check returns the record of an active key, or why the key is refused, as Checker.Check.
func (k *RedisChecker) Check(key []byte) (Record, error) {
	if err := Check(key); err != nil {
		return Record{}, err
	}
	now := k.now()
	k.mu.RLock()
	s, replaced := k.store, k.replaced
	k.mu.RUnlock()
	if s == nil {
		if s = k.open(now); s == nil {
			return Record{}, ErrUnavailable
		}
	}
	h := Hash(s.secret, key)
	rec, ok, fromRedis := Record{}, false, false
	ctx, cancel := ctxTimeout()
	defer cancel()
	if !replaced && k.b.Try(now) {
		var err error
		rec, ok, err = s.lookup(ctx, h)
		switch {
		case err == nil:
			k.b.Succeeded(now)
			fromRedis = true
		case shared.IsReplyError(err):
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
		return Record{}, ErrUnknown
	}
	if err := Refusal(rec, now); err != nil {
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
// shared.ProbeEvery; nil when there is none yet.
func (k *RedisChecker) open(now time.Time) *RedisStore {
	if !k.b.Try(now) {
		return nil
	}
	s, err := OpenRedis(k.c, false)
	switch {
	case errors.Is(err, ErrNoRedisStore):
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
func (k *RedisChecker) sendUses() error {
	k.mu.Lock()
	s, pending := k.store, k.unsent
	k.unsent = map[string]time.Time{}
	k.mu.Unlock()
	if s == nil || len(pending) == 0 {
		return nil
	}
	ctx, cancel := ctxTimeout()
	defer cancel()
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for h, t := range pending {
			p.HSet(ctx, redisRecord+h, "last_used", t.UTC().Format(time.RFC3339))
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
// idle for IdleLimit and reads the key set again, the fallback of the checks while Redis
// is down.
func (k *RedisChecker) Sync() error {
	k.mu.RLock()
	s := k.store
	k.mu.RUnlock()
	cur, err := OpenRedis(k.c, false)
	if err != nil {
		if s != nil && errors.Is(err, ErrNoRedisStore) {
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
	byHash := make(map[string]Record, len(recs))
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

func (k *RedisChecker) setReplaced(v bool) {
	k.mu.Lock()
	k.replaced = v
	k.mu.Unlock()
}

// Run calls Sync every interval until ctx ends, and once more at the end.
func (k *RedisChecker) Run(ctx context.Context, every time.Duration) {
	TickUntil(ctx, every, func() {
		err := k.Sync()
		k.mu.RLock()
		opened := k.store != nil
		k.mu.RUnlock()
		switch {
		case err == nil:
		case !opened && errors.Is(err, ErrNoRedisStore):
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
