package keys

import (
	"errors"
	"io"
	"log/slog"
	"maps"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gigs/gigs/server/shared"
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
	if _, err := OpenRedis(srv.Client(t), false); !errors.Is(err, ErrNoRedisStore) {
		t.Fatalf("opening an empty Redis without create: %v, want ErrNoRedisStore", err)
	}
	clk := &clock{t: day0}
	metrics := shared.NewMetrics(prometheus.NewRegistry())
	a := NewRedisChecker(srv.Client(t), clk.Now, quiet, metrics)
	if _, err := a.Check([]byte(NewKey())); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a check before any key store exists: %v, want ErrUnavailable", err)
	}
	store, err := OpenRedis(srv.Client(t), true)
	if err != nil {
		t.Fatal(err)
	}
	again, err := OpenRedis(srv.Client(t), true)
	if err != nil || string(again.secret) != string(store.secret) {
		t.Fatalf("a second create replaced the secret (%v)", err)
	}
	key, rec, err := store.Create("ops@example.org", "mirror", clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := store.Create("old@example.org", "forgotten", clk.Now().Add(-IdleLimit-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// An idle key used (by another replica) after the sync read it is not revoked.
	_, usedRec, err := store.Create("busy@example.org", "just used", clk.Now().Add(-IdleLimit-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := store.revokeIdle(usedRec.ID, clk.Now()); err != nil || r.State() != "revoked" {
		t.Fatalf("revoking an idle key: %+v, %v", r, err)
	}
	_, lateRec, err := store.Create("late@example.org", "used since", clk.Now().Add(-IdleLimit-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.used(t.Context(), lateRec.Hash, clk.Now()); err != nil {
		t.Fatal(err)
	}
	if r, err := store.revokeIdle(lateRec.ID, clk.Now()); err != nil || r.State() != "active" {
		t.Fatalf("an idle-looking key used since: %+v, %v (want it kept)", r, err)
	}
	b := NewRedisChecker(srv.Client(t), clk.Now, quiet, metrics)
	if err := a.Sync(); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*RedisChecker{"a": a, "b": b} {
		if got, err := c.Check([]byte(key)); err != nil || got.ID != rec.ID {
			t.Fatalf("checker %s: %+v, %v", name, got, err)
		}
		var revoked *RevokedError
		if _, err := c.Check([]byte(old)); !errors.As(err, &revoked) || revoked.Reason != ReasonIdle {
			t.Fatalf("checker %s, a key unused for 90 days: %v", name, err)
		}
		if _, err := c.Check([]byte(NewKey())); !errors.Is(err, ErrUnknown) {
			t.Fatalf("checker %s, an unknown key: %v", name, err)
		}
		if _, err := c.Check([]byte("gigs_nonsense")); !errors.Is(err, ErrMalformed) {
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
	want := map[string]string{"ops@example.org": "active ", "old@example.org": "revoked " + ReasonIdle,
		"busy@example.org": "revoked " + ReasonIdle, "late@example.org": "active "}
	if !maps.Equal(states, want) {
		t.Fatalf("after a sync: %v, want %v (the idle key revoked in Redis)", states, want)
	}

	// Redis goes away: the last key set read answers, revocations included.
	srv.Kill()
	clk.Add(time.Hour)
	if got, err := a.Check([]byte(key)); err != nil || got.ID != rec.ID {
		t.Fatalf("with Redis down: %+v, %v", got, err)
	}
	var revoked *RevokedError
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
	if err := a.Sync(); !errors.Is(err, ErrNoRedisStore) {
		t.Fatalf("a sync against an empty Redis: %v, want ErrNoRedisStore", err)
	}
	time.Sleep(shared.ProbeEvery)
	if _, err := a.Check([]byte(key)); err != nil {
		t.Fatalf("after Redis came back empty: %v", err)
	}
	// A new store there (another secret) is not taken for the old one.
	if _, err := OpenRedis(srv.Client(t), true); err != nil {
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
	store, err := OpenRedis(srv.Client(t), true)
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := store.Create("ops@example.org", "mirror", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	metrics := shared.NewMetrics(prometheus.NewRegistry())
	checkers := []*RedisChecker{NewRedisChecker(srv.Client(t), time.Now, quiet, metrics),
		NewRedisChecker(srv.Client(t), time.Now, quiet, metrics)}
	for _, c := range checkers {
		if _, err := c.Check([]byte(key)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.Revoke(rec.ID, "leaked", time.Now()); err != nil {
		t.Fatal(err)
	}
	for i, c := range checkers {
		var revoked *RevokedError
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
