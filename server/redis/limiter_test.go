package redis_test

import (
	"errors"
	"io"
	"log/slog"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gigs/gigs/server/limit"
	"github.com/gigs/gigs/server/redis"
	"github.com/gigs/gigs/testkit/redisserver"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func key(s string) limit.Key { return limit.KeyOf(netip.MustParseAddr(s)) }

// TestLimiterSharedAcrossReplicas has two limiters, as two replicas would, share one Redis:
// a client gets the quota once across both, the 61st request is refused by either, and
// the decisions (remaining, reset, retry) are those of the in-memory limiter, which is
// what the headers report.
func TestLimiterSharedAcrossReplicas(t *testing.T) {
	srv := redisserver.Start(t)
	m := redis.NewMetrics(prometheus.NewRegistry())
	a := redis.NewLimiter(srv.Client(t), "read", 60, time.Minute, 1000, quiet, m)
	b := redis.NewLimiter(srv.Client(t), "read", 60, time.Minute, 1000, quiet, m)
	local := limit.NewMemory(60, time.Minute, 1000)
	client, other := key("192.0.2.1"), key("2001:db8::1")
	for i := range 60 {
		l := a
		if i%2 == 1 {
			l = b
		}
		now := time.Now()
		got, want := l.Take(client, now), local.Take(client, now)
		if !got.Allowed || got.Remaining != want.Remaining || got.Limit != 60 {
			t.Fatalf("request %d: %+v, the in-memory limiter gives %+v", i+1, got, want)
		}
		if d := got.Reset - want.Reset; d < -time.Second || d > time.Second {
			t.Fatalf("request %d: reset %s, the in-memory limiter gives %s", i+1, got.Reset, want.Reset)
		}
	}
	for _, l := range []*redis.Limiter{a, b, a} {
		d := l.Take(client, time.Now())
		if d.Allowed || d.Remaining != 0 || d.RetryAfter <= 0 || d.RetryAfter > time.Second+100*time.Millisecond {
			t.Fatalf("61st request: %+v, want refused, retry within a second", d)
		}
	}
	if d := b.Peek(client, time.Now()); d.Remaining != 0 || d.Allowed {
		t.Fatalf("peek of a spent quota: %+v", d)
	}
	if d := b.Take(other, time.Now()); !d.Allowed || d.Remaining != 59 {
		t.Fatalf("another client (an IPv6 /64) shares the quota: %+v", d)
	}
	if d := a.Peek(other, time.Now()); d.Remaining != 59 {
		t.Fatalf("peek spends: %+v", d)
	}
	time.Sleep(time.Second + 50*time.Millisecond) // one request's worth
	if d := b.Take(client, time.Now()); !d.Allowed {
		t.Fatalf("a request a second later: %+v", d)
	}
	if d := a.Take(client, time.Now()); d.Allowed {
		t.Fatalf("a second request a second later: %+v", d)
	}
}

// TestLimiterFallsBack kills Redis under a limiter: decisions come from the per-replica
// limiter at once (no request waits on a dead server after the first), the fallback is
// counted and logged once, and Redis is used again within ProbeEvery of its return.
func TestLimiterFallsBack(t *testing.T) {
	srv := redisserver.Start(t)
	reg := prometheus.NewRegistry()
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	l := redis.NewLimiter(srv.Client(t), "read", 5, time.Minute, 1000, log, redis.NewMetrics(reg))
	c := key("192.0.2.7")
	for range 5 {
		l.Take(c, time.Now())
	}
	if l.Take(c, time.Now()).Allowed {
		t.Fatal("the 6th request of 5 is allowed")
	}
	srv.Kill()
	other := key("192.0.2.8")
	start := time.Now()
	for i := range 7 {
		d := l.Take(other, time.Now())
		if d.Allowed != (i < 5) {
			t.Fatalf("request %d with Redis down: %+v (the per-replica limit of 5 applies)", i+1, d)
		}
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("7 decisions with Redis down took %s", took)
	}
	if v := testutil.ToFloat64(gauge(t, reg, "gigs_redis_fallback", "read-limit")); v != 1 {
		t.Fatalf("gigs_redis_fallback = %v while Redis is down", v)
	}
	if n := strings.Count(logs.String(), "redis unreachable"); n != 1 {
		t.Fatalf("logged %d times that Redis is unreachable:\n%s", n, logs.String())
	}
	srv.Restart()
	third := key("192.0.2.9")
	deadline := time.Now().Add(3 * redis.ProbeEvery)
	for testutil.ToFloat64(gauge(t, reg, "gigs_redis_fallback", "read-limit")) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still falling back %s after Redis came back", 3*redis.ProbeEvery)
		}
		l.Take(third, time.Now())
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), "redis reachable again") {
		t.Fatalf("the recovery is not logged:\n%s", logs.String())
	}
	rdb := srv.Client(t)
	keys, err := rdb.Keys(t.Context(), "gigs:limit:read:*").Result()
	if err != nil || len(keys) != 1 {
		t.Fatalf("after the recovery Redis holds %v (%v), want the one client counted there", keys, err)
	}
}

// TestLimiterClose stops a limiter's workers: decisions come from the per-replica limiter
// at once, none waits for a worker that is gone.
func TestLimiterClose(t *testing.T) {
	srv := redisserver.Start(t)
	l := redis.NewLimiter(srv.Client(t), "read", 2, time.Minute, 1000, quiet, redis.NewMetrics(prometheus.NewRegistry()))
	c := key("192.0.2.30")
	l.Take(c, time.Now())
	l.Close()
	done := make(chan [3]bool)
	go func() {
		now := time.Now()
		done <- [3]bool{l.Take(c, now).Allowed, l.Take(c, now).Allowed, l.Take(c, now).Allowed}
	}()
	select {
	case got := <-done:
		if got != [3]bool{true, true, false} {
			t.Fatalf("after Close: %v, want the per-replica limit of 2", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a decision after Close hangs")
	}
}

// TestBreaker: one probe a second while down; an answer to a call made before the last
// failure is no recovery; one made after it is.
func TestBreaker(t *testing.T) {
	reg := prometheus.NewRegistry()
	b := redis.NewBreaker("test", quiet, redis.NewMetrics(reg))
	t0 := time.Now()
	if !b.Try(t0) {
		t.Fatal("a new breaker does not try")
	}
	b.Failed(t0, errors.New("refused"))
	if b.Try(t0.Add(time.Millisecond)) || !b.Down() {
		t.Fatal("tries again at once after a failure")
	}
	b.Succeeded(t0.Add(-time.Millisecond)) // a slow answer to an earlier call
	if !b.Down() {
		t.Fatal("an answer to a call made before the failure ended the outage")
	}
	probe := t0.Add(redis.ProbeEvery)
	if !b.Try(probe) || b.Try(probe) {
		t.Fatal("not exactly one probe after ProbeEvery")
	}
	b.Succeeded(probe)
	if b.Down() || !b.Try(probe) {
		t.Fatal("a successful probe did not end the outage")
	}
}

func gauge(t *testing.T, reg *prometheus.Registry, name, use string) prometheus.Collector {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "use" && lp.GetValue() == use {
					return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "x"}, func() float64 { return m.GetGauge().GetValue() })
				}
			}
		}
	}
	t.Fatalf("no %s{use=%q}", name, use)
	return nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// BenchmarkLimiterTake measures one read-limit decision through Redis (one round trip to
// a local redis-server) against the in-memory limiter, with the median and p99 of a
// decision's time. make bench-go runs it; docs/scaling.md quotes it.
func BenchmarkLimiterTake(b *testing.B) {
	srv := redisserver.Start(b)
	for _, name := range []string{"memory", "redis"} {
		b.Run(name, func(b *testing.B) {
			var l limit.Limiter = limit.NewMemory(1<<30, time.Minute, 1<<20)
			if name == "redis" {
				l = redis.NewLimiter(srv.Client(b), "bench", 1<<30, time.Minute, 1<<20, quiet, redis.NewMetrics(prometheus.NewRegistry()))
			}
			times := make([]time.Duration, 0, 1<<16)
			var k limit.Key
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				k[15] = byte(i)
				start := time.Now()
				if !l.Take(k, start).Allowed {
					b.Fatal("refused")
				}
				if len(times) < cap(times) {
					times = append(times, time.Since(start))
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
		})
	}
	// 64 requests at once, as a busy replica has them: the workers send them in pipelines.
	b.Run("redis-64-at-once", func(b *testing.B) {
		l := redis.NewLimiter(srv.Client(b), "bench", 1<<30, time.Minute, 1<<20, quiet, redis.NewMetrics(prometheus.NewRegistry()))
		defer l.Close()
		var mu sync.Mutex
		times := make([]time.Duration, 0, 1<<16)
		b.ReportAllocs()
		b.SetParallelism(32)
		var next atomic.Uint32
		b.RunParallel(func(pb *testing.PB) {
			var k limit.Key
			id := next.Add(1)
			k[0], k[1] = byte(id), byte(id>>8)
			for i := 0; pb.Next(); i++ {
				k[15] = byte(i)
				start := time.Now()
				if !l.Take(k, start).Allowed {
					b.Fatal("refused")
				}
				d := time.Since(start)
				mu.Lock()
				if len(times) < cap(times) {
					times = append(times, d)
				}
				mu.Unlock()
			}
		})
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
		b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
	})
}

// TestLimiterAllocations: a client over its quota is refused from the replica's memory,
// with no Redis call and no allocation (make test runs the gates without -race).
func TestLimiterAllocations(t *testing.T) {
	srv := redisserver.Start(t)
	l := redis.NewLimiter(srv.Client(t), "read", 1, time.Minute, 1000, quiet, redis.NewMetrics(prometheus.NewRegistry()))
	defer l.Close()
	c := key("192.0.2.40")
	l.Take(c, time.Now())
	if l.Take(c, time.Now()).Allowed {
		t.Fatal("the second request of 1 is allowed")
	}
	if n := testing.AllocsPerRun(1000, func() {
		if l.Take(c, time.Now()).Allowed {
			t.Fatal("allowed")
		}
	}); n != 0 {
		t.Fatalf("a refused request allocates %v times", n)
	}
}
