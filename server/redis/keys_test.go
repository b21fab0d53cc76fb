package redis_test

import (
	"errors"
	"io"
	"log/slog"
	"maps"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/server/redis"
	"github.com/gigs/gigs/testkit/redisserver"
)

// TestRedisKeys runs the key operations against a real Redis as two replicas and gigsctl
// would: a key created through one client is accepted by checkers on others, each check
// writes its use, a revocation is refused by every checker at its next check, a key
// idle for 90 days is refused and then revoked in Redis, and a checker that loses Redis
// answers from the last key set read, and comes back to Redis on its own.
func TestRedisKeys(t *testing.T) {
	srv := redisserver.Start(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, err := redis.OpenKeyStore(srv.Client(t), false); !errors.Is(err, redis.ErrNoKeyStore) {
		t.Fatalf("opening an empty Redis without create: %v, want redis.ErrNoKeyStore", err)
	}
	day0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	now := day0 // the checkers' clock, which only this goroutine reads and moves
	clock := func() time.Time { return now }
	metrics := redis.NewMetrics(prometheus.NewRegistry())
	a := redis.NewKeyChecker(srv.Client(t), clock, quiet, metrics)
	if _, err := a.Check([]byte(keys.NewKey())); !errors.Is(err, keys.ErrUnavailable) {
		t.Fatalf("a check before any key store exists: %v, want keys.ErrUnavailable", err)
	}
	store, err := redis.OpenKeyStore(srv.Client(t), true)
	if err != nil {
		t.Fatal(err)
	}
	again, err := redis.OpenKeyStore(srv.Client(t), true)
	if err != nil || !redis.SameSecret(again, store) {
		t.Fatalf("a second create replaced the secret (%v)", err)
	}
	key, rec, err := store.Create("ops@example.org", "mirror", now)
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := store.Create("old@example.org", "forgotten", now.Add(-keys.IdleLimit-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// An idle key used (by another replica) after the sync read it is not revoked.
	_, usedRec, err := store.Create("busy@example.org", "just used", now.Add(-keys.IdleLimit-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := redis.RevokeIdle(store, usedRec.ID, now); err != nil || r.State() != "revoked" {
		t.Fatalf("revoking an idle key: %+v, %v", r, err)
	}
	_, lateRec, err := store.Create("late@example.org", "used since", now.Add(-keys.IdleLimit-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if err := redis.MarkUsed(store, t.Context(), lateRec.Hash, now); err != nil {
		t.Fatal(err)
	}
	if r, err := redis.RevokeIdle(store, lateRec.ID, now); err != nil || r.State() != "active" {
		t.Fatalf("an idle-looking key used since: %+v, %v (want it kept)", r, err)
	}
	b := redis.NewKeyChecker(srv.Client(t), clock, quiet, metrics)
	if err := a.Sync(); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*redis.KeyChecker{"a": a, "b": b} {
		if got, err := c.Check([]byte(key)); err != nil || got.ID != rec.ID {
			t.Fatalf("checker %s: %+v, %v", name, got, err)
		}
		var revoked *keys.RevokedError
		if _, err := c.Check([]byte(old)); !errors.As(err, &revoked) || revoked.Reason != keys.ReasonIdle {
			t.Fatalf("checker %s, a key unused for 90 days: %v", name, err)
		}
		if _, err := c.Check([]byte(keys.NewKey())); !errors.Is(err, keys.ErrUnknown) {
			t.Fatalf("checker %s, an unknown key: %v", name, err)
		}
		if _, err := c.Check([]byte("gigs_nonsense")); !errors.Is(err, keys.ErrMalformed) {
			t.Fatalf("checker %s, a malformed key: %v", name, err)
		}
	}
	if got, err := store.Find(rec.ID); err != nil || !got.LastUsed.Equal(day0) {
		t.Fatalf("last use in Redis: %+v, %v", got, err)
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	recs, err := store.Read()
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, r := range recs {
		states[r.Owner] = r.State() + " " + r.Reason
	}
	want := map[string]string{"ops@example.org": "active ", "old@example.org": "revoked " + keys.ReasonIdle,
		"busy@example.org": "revoked " + keys.ReasonIdle, "late@example.org": "active "}
	if !maps.Equal(states, want) {
		t.Fatalf("after a sync: %v, want %v (the idle key revoked in Redis)", states, want)
	}

	// Redis goes away: the last key set read answers, revocations included.
	srv.Kill()
	now = now.Add(time.Hour)
	if got, err := a.Check([]byte(key)); err != nil || got.ID != rec.ID {
		t.Fatalf("with Redis down: %+v, %v", got, err)
	}
	var revoked *keys.RevokedError
	if _, err := a.Check([]byte(old)); !errors.As(err, &revoked) {
		t.Fatalf("with Redis down, a revoked key: %v", err)
	}
	if a.Sync() == nil {
		t.Fatal("a sync with Redis down reports no error")
	}
	if _, err := a.Check([]byte(key)); err != nil {
		t.Fatalf("after a failed sync: %v", err)
	}
	// It comes back empty (no persistence): the checker keeps the keys it knows, and says why.
	srv.Restart()
	if err := a.Sync(); !errors.Is(err, redis.ErrNoKeyStore) {
		t.Fatalf("a sync against an empty Redis: %v, want redis.ErrNoKeyStore", err)
	}
	time.Sleep(redis.ProbeEvery)
	if _, err := a.Check([]byte(key)); err != nil {
		t.Fatalf("after Redis came back empty: %v", err)
	}
	// A new store there (another secret) is not taken for the old one.
	if _, err := redis.OpenKeyStore(srv.Client(t), true); err != nil {
		t.Fatal(err)
	}
	if err := a.Sync(); err == nil {
		t.Fatal("a sync against a replaced store reports no error")
	}
	if _, err := a.Check([]byte(key)); err != nil {
		t.Fatalf("after the store was replaced: %v", err)
	}
}

// TestRedisRevocationEverywhere revokes a key through one client while two checkers use
// it: both refuse it at their next check, with no sync in between.
func TestRedisRevocationEverywhere(t *testing.T) {
	srv := redisserver.Start(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := redis.OpenKeyStore(srv.Client(t), true)
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := store.Create("ops@example.org", "mirror", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	metrics := redis.NewMetrics(prometheus.NewRegistry())
	checkers := []*redis.KeyChecker{redis.NewKeyChecker(srv.Client(t), time.Now, quiet, metrics),
		redis.NewKeyChecker(srv.Client(t), time.Now, quiet, metrics)}
	for _, c := range checkers {
		if _, err := c.Check([]byte(key)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.Revoke(rec.ID, "leaked", time.Now()); err != nil {
		t.Fatal(err)
	}
	for i, c := range checkers {
		var revoked *keys.RevokedError
		if _, err := c.Check([]byte(key)); !errors.As(err, &revoked) || revoked.Reason != "leaked" {
			t.Fatalf("checker %d after the revocation: %v", i, err)
		}
	}
	if got, err := store.Revoke(rec.ID, "again", time.Now()); err != nil || got.Reason != "leaked" {
		t.Fatalf("revoking twice: %+v, %v (want the first reason kept)", got, err)
	}
	if _, err := store.Revoke("key_nosuch", "x", time.Now()); err == nil {
		t.Fatal("revoking an unknown id succeeds")
	}
}
