package shared

import (
	"context"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"

	"github.com/gigs/gigs/server/limit"
)

// Limiter counts a rate limit in Redis, so that every replica sharing the server spends one
// quota per client: the same GCRA as limit.Limiter (Limit requests per Period, Limit at
// once at most, the same Decision), computed by go-redis/redis_rate's script on Redis's own
// clock, one round trip per allowed request.
//
// A client over its quota is remembered here until its next request is due, so a client
// hammering a replica costs Redis one call per allowed request, not one per request. While
// Redis cannot be reached, decisions come from a per-replica limit.Limiter (see Breaker).
// Safe for concurrent use.
type Limiter struct {
	rate   *redis_rate.Limiter
	prefix string
	lim    redis_rate.Limit
	local  *limit.Limiter
	b      *Breaker
	denied denyCache
}

// NewLimiter returns a Limiter of n requests per period for the quota named name ("read",
// "export"), keeping state for at most maxClients clients in its fallback and its cache of
// denied clients.
func NewLimiter(c *redis.Client, name string, n int, period time.Duration, maxClients int, log *slog.Logger, m *Metrics) *Limiter {
	l := &Limiter{rate: redis_rate.NewLimiter(c), prefix: "gigs:limit:" + name + ":",
		lim: redis_rate.Limit{Rate: n, Burst: n, Period: period}, local: limit.New(n, period, maxClients),
		b: NewBreaker(name+"-limit", log, m)}
	l.denied.init(max(maxClients/len(l.denied.shards), 64))
	return l
}

// Limit returns the number of requests allowed per Period.
func (l *Limiter) Limit() int { return l.lim.Rate }

// Period returns the window of the limit.
func (l *Limiter) Period() time.Duration { return l.lim.Period }

// Take spends one request of k's quota at now, if there is one left.
func (l *Limiter) Take(k limit.Key, now time.Time) limit.Decision {
	if d, ok := l.denied.get(k, now); ok {
		d.Limit = l.lim.Rate
		return d
	}
	d, ok := l.call(k, now, 1)
	if !ok {
		return l.local.Take(k, now)
	}
	if !d.Allowed {
		l.denied.put(k, now, d)
	}
	return d
}

// Peek returns k's quota at now without spending any of it.
func (l *Limiter) Peek(k limit.Key, now time.Time) limit.Decision {
	if d, ok := l.denied.get(k, now); ok {
		d.Limit = l.lim.Rate
		return d
	}
	if d, ok := l.call(k, now, 0); ok {
		return d
	}
	return l.local.Peek(k, now)
}

// call runs the script for cost requests; false when Redis is not to be used or failed.
func (l *Limiter) call(k limit.Key, now time.Time, cost int) (limit.Decision, bool) {
	if !l.b.Try(now) {
		l.b.FellBack()
		return limit.Decision{}, false
	}
	var b [64]byte
	key := string(hex.AppendEncode(append(b[:0], l.prefix...), k[:]))
	res, err := l.rate.AllowN(context.Background(), key, l.lim, cost)
	if err != nil {
		l.b.Failed(now, err)
		l.b.FellBack()
		return limit.Decision{}, false
	}
	l.b.Succeeded()
	d := limit.Decision{Allowed: res.Allowed > 0 || (cost == 0 && res.RetryAfter < 0), Limit: l.lim.Rate,
		Remaining: res.Remaining, Reset: max(res.ResetAfter, 0)}
	if !d.Allowed {
		d.RetryAfter = res.RetryAfter
	}
	return d, true
}

// denyCache remembers clients over their quota until their next request is due.
type denyCache struct {
	maxPer int
	shards [64]struct {
		mu sync.Mutex
		m  map[limit.Key][2]int64 // retry at, reset at (unix ns); protected by mu
	}
}

func (c *denyCache) init(maxPer int) {
	c.maxPer = maxPer
	for i := range c.shards {
		c.shards[i].m = map[limit.Key][2]int64{}
	}
}

func (c *denyCache) shard(k limit.Key) int {
	h := uint32(2166136261)
	for _, b := range k {
		h = (h ^ uint32(b)) * 16777619
	}
	return int(h % uint32(len(c.shards)))
}

// get returns the refusal of a client still over its quota at now.
func (c *denyCache) get(k limit.Key, now time.Time) (limit.Decision, bool) {
	s := &c.shards[c.shard(k)]
	t := now.UnixNano()
	s.mu.Lock()
	e, ok := s.m[k]
	if ok && e[0] <= t {
		delete(s.m, k)
		ok = false
	}
	s.mu.Unlock()
	if !ok {
		return limit.Decision{}, false
	}
	return limit.Decision{RetryAfter: time.Duration(e[0] - t), Reset: time.Duration(max(e[1]-t, 0))}, true
}

// put remembers refusal d made at now; when the shard is full, expired entries are swept
// and, if it is still full, d is not remembered (Redis is asked again next time).
func (c *denyCache) put(k limit.Key, now time.Time, d limit.Decision) {
	s := &c.shards[c.shard(k)]
	t := now.UnixNano()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.m) >= c.maxPer {
		for k, e := range s.m {
			if e[0] <= t {
				delete(s.m, k)
			}
		}
		if len(s.m) >= c.maxPer {
			return
		}
	}
	s.m[k] = [2]int64{t + int64(d.RetryAfter), t + int64(d.Reset)}
}
