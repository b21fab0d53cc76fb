package redis

import (
	"context"
	"encoding/hex"
	"log/slog"
	"strconv"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gigs/gigs/server/limit"
)

// gcra is the generic cell rate algorithm of limit.Memory as one atomic step of Redis, on
// Redis's clock (so replicas' clocks need not agree): KEYS[1] holds the client's
// theoretical arrival time in microseconds, expiring when its bucket is full again;
// ARGV are the cost of one request and the period, in microseconds, and the requests to
// spend (1, or 0 to look). It answers {allowed, reset, retry after}, times in
// microseconds from now. (A request costs whole microseconds, at least one: a limit over
// 60 million a minute counts as that.)
var gcra = goredis.NewScript(`
local t = redis.call('TIME')
local now = t[1] * 1000000 + t[2]
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local interval, period, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if tat + interval - now > period then
  return {0, tat - now, tat + interval - now - period}
end
if cost == 0 then
  return {1, tat - now, 0}
end
local nxt = tat + interval
redis.call('SET', KEYS[1], nxt, 'PX', math.max(1, math.ceil((nxt - now) / 1000)))
return {1, nxt - now, 0}`)

// Limiter counts a rate limit in Redis, so that every replica sharing the server spends one
// quota per client: the same GCRA as limit.Memory (Limit requests per Period, Limit at
// once at most, the same Decision), each decision one atomic script run in Redis.
//
// Requests do not call Redis themselves: they hand their decision to a few workers, which
// send whatever is waiting as one pipeline, so a busy replica pays one round trip for
// many requests, and a request allocates nothing. A client over its quota is remembered
// here until its next request is due, so a client hammering a replica costs Redis nothing
// more. While Redis cannot be reached, decisions come from a per-replica limit.Memory
// (see Breaker). Safe for concurrent use.
type Limiter struct {
	c        *goredis.Client
	prefix   string
	n        int
	period   time.Duration
	interval time.Duration
	local    *limit.Memory
	b        *Breaker
	denied   denyCache

	queue chan *waiter
	quit  chan struct{}
	once  sync.Once
	pool  sync.Pool // of *waiter
}

// waiter is one decision handed to the workers.
type waiter struct {
	k    limit.Key
	cost int
	d    limit.Decision
	ok   bool
	done chan struct{}
}

// Workers send pipelines concurrently, each of at most maxBatch decisions.
const (
	workers  = 4
	maxBatch = 256
)

// NewLimiter returns a Limiter of n requests per period for the quota named name ("read",
// "export"), keeping state for at most maxClients clients in its fallback and its cache of
// denied clients. Close stops its workers.
func NewLimiter(c *goredis.Client, name string, n int, period time.Duration, maxClients int, log *slog.Logger, m *Metrics) *Limiter {
	interval := max((period / time.Duration(n)).Truncate(time.Microsecond), time.Microsecond) // as Redis counts it
	l := &Limiter{c: c, prefix: "gigs:limit:" + name + ":", n: n, period: period, interval: interval,
		local: limit.NewMemory(n, period, maxClients), b: NewBreaker(name+"-limit", log, m),
		queue: make(chan *waiter, 4*maxBatch), quit: make(chan struct{})}
	l.pool.New = func() any { return &waiter{done: make(chan struct{}, 1)} }
	l.denied.init(max(maxClients/len(l.denied.shards), 64))
	for range workers {
		go l.work()
	}
	return l
}

// Close stops the workers; decisions waiting and made after it come from the per-replica
// limiter.
func (l *Limiter) Close() { l.once.Do(func() { close(l.quit) }) }

// Limit returns the number of requests allowed per Period.
func (l *Limiter) Limit() int { return l.n }

// Period returns the window of the limit.
func (l *Limiter) Period() time.Duration { return l.period }

// Take spends one request of k's quota at now, if there is one left.
func (l *Limiter) Take(k limit.Key, now time.Time) limit.Decision {
	if d, ok := l.denied.get(k, now); ok {
		d.Limit = l.n
		return d
	}
	d, ok := l.decide(k, now, 1)
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
		d.Limit = l.n
		return d
	}
	if d, ok := l.decide(k, now, 0); ok {
		return d
	}
	return l.local.Peek(k, now)
}

// decide has the workers ask Redis; false when Redis is not to be used or failed.
func (l *Limiter) decide(k limit.Key, now time.Time, cost int) (limit.Decision, bool) {
	if !l.b.Try(now) {
		l.b.FellBack()
		return limit.Decision{}, false
	}
	w := l.pool.Get().(*waiter)
	w.k, w.cost = k, cost
	select {
	case l.queue <- w:
	case <-l.quit:
		l.pool.Put(w)
		return limit.Decision{}, false
	}
	select {
	case <-w.done:
	case <-l.quit:
		return limit.Decision{}, false // a worker may still answer w: it is not reused
	}
	d, ok := w.d, w.ok
	l.pool.Put(w)
	if !ok {
		l.b.FellBack()
	}
	return d, ok
}

// work sends the waiting decisions as pipelines until Close. Every decision taken from
// the queue is answered.
func (l *Limiter) work() {
	batch := make([]*waiter, 0, maxBatch)
	cmds := make([]*goredis.Cmd, 0, maxBatch)
	args := [3]any{strconv.FormatInt(l.interval.Microseconds(), 10), strconv.FormatInt(l.period.Microseconds(), 10), nil}
	var key []byte
	for {
		select {
		case w := <-l.queue:
			batch = append(batch[:0], w)
		case <-l.quit:
			return
		}
	fill:
		for len(batch) < maxBatch {
			select {
			case w := <-l.queue:
				batch = append(batch, w)
			default:
				break fill
			}
		}
		run := func(p goredis.Pipeliner, load bool) {
			cmds = cmds[:0]
			for _, w := range batch {
				key = hex.AppendEncode(append(key[:0], l.prefix...), w.k[:])
				a := args
				a[2] = w.cost
				if load {
					cmds = append(cmds, gcra.Eval(context.Background(), p, []string{string(key)}, a[:]...))
				} else {
					cmds = append(cmds, gcra.EvalSha(context.Background(), p, []string{string(key)}, a[:]...))
				}
			}
		}
		start := time.Now()
		_, err := l.c.Pipelined(context.Background(), func(p goredis.Pipeliner) error { run(p, false); return nil })
		if err != nil && goredis.HasErrorPrefix(err, "NOSCRIPT") { // a new or restarted server: send the script itself
			_, err = l.c.Pipelined(context.Background(), func(p goredis.Pipeliner) error { run(p, true); return nil })
		}
		// A command Redis answered with an error falls back alone; a failed connection
		// sends every decision to the fallback for a while.
		if err == nil || IsReplyError(err) {
			l.b.Succeeded(start)
		} else {
			l.b.Failed(time.Now(), err)
		}
		for i, w := range batch {
			w.d, w.ok = l.decision(cmds[i])
			w.done <- struct{}{}
		}
	}
}

// decision reads a script's answer; false when there is none.
func (l *Limiter) decision(c *goredis.Cmd) (limit.Decision, bool) {
	v, err := c.Int64Slice()
	if err != nil || len(v) != 3 {
		return limit.Decision{}, false
	}
	us := func(i int) time.Duration { return time.Duration(max(v[i], 0)) * time.Microsecond }
	d := limit.Decision{Allowed: v[0] == 1, Limit: l.n, Reset: us(1)}
	if d.Allowed {
		d.Remaining = int((l.period - d.Reset) / l.interval)
	} else {
		d.RetryAfter = us(2)
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
