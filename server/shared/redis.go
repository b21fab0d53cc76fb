// Package shared is the state gigsd's replicas share through Redis: the client every
// shared part uses (Dial), the rate limits counted in Redis (Limiter), and the Breaker that
// has each of them fall back to per-replica state while Redis cannot be reached, and go
// back to Redis on its own once it answers again.
//
// Redis is never on the critical path of an answer: a failed or slow Redis call costs the
// request that made it at most the client's timeouts, and then, until Redis answers a
// probe, none at all.
package shared

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// Timeouts of a Redis call unless the URL sets its own (dial_timeout, read_timeout,
// write_timeout, pool_timeout): short, because a request waits for them.
const (
	DialTimeout = 250 * time.Millisecond
	CallTimeout = 200 * time.Millisecond
)

// Dial returns a client of the Redis server at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS), with the timeouts above, no retries (a failed call falls back at
// once) and a pool sized for a busy server. It does not connect until first used.
func Dial(url string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis URL: %w", err)
	}
	if opt.DialTimeout == 0 {
		opt.DialTimeout = DialTimeout
	}
	if opt.ReadTimeout == 0 {
		opt.ReadTimeout = CallTimeout
	}
	if opt.WriteTimeout == 0 {
		opt.WriteTimeout = CallTimeout
	}
	if opt.PoolTimeout == 0 {
		opt.PoolTimeout = CallTimeout
	}
	if opt.PoolSize == 0 {
		opt.PoolSize = 128
	}
	opt.MaxRetries = -1
	opt.DisableIdentity = true // CLIENT SETINFO is Redis 7.2's; older servers answer an error
	return redis.NewClient(opt), nil
}

// go-redis logs to the standard logger; a Breaker logs what an operator needs, once.
func init() { redis.SetLogger(silent{}) }

type silent struct{}

func (silent) Printf(context.Context, string, ...any) {}

// Ping reports whether the server answers, within the call timeout.
func Ping(c *redis.Client) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*CallTimeout)
	defer cancel()
	return c.Ping(ctx).Err()
}

// Metrics count the fallbacks of every shared part, by use ("read-limit",
// "export-limit", "keys").
type Metrics struct {
	fallingBack *prometheus.GaugeVec
	fallbacks   *prometheus.CounterVec
}

// NewMetrics registers the metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		fallingBack: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gigs_redis_fallback",
			Help: "1 while a shared part cannot reach Redis and answers from per-replica state (limits counted per replica, keys from the last key set read), by use.",
		}, []string{"use"}),
		fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gigs_redis_fallbacks_total",
			Help: "Decisions made from per-replica state because Redis could not be reached, by use.",
		}, []string{"use"}),
	}
	reg.MustRegister(m.fallingBack, m.fallbacks)
	return m
}

// ProbeEvery is how often a part that fell back tries Redis again.
const ProbeEvery = time.Second

// Breaker tracks whether one shared part can use Redis. While Redis fails, one call per
// ProbeEvery tries it (Try reports true to that caller only) and every other call goes
// to the fallback at once. The first failure and the recovery are logged, once each.
// Safe for concurrent use; Try, Failed and Succeeded do not allocate.
type Breaker struct {
	use       string
	log       *slog.Logger
	down      atomic.Bool
	probeAt   atomic.Int64 // unix nanoseconds of the next probe while down
	failedAt  atomic.Int64 // unix nanoseconds of the last failure
	gauge     prometheus.Gauge
	fallbacks prometheus.Counter
}

// NewBreaker returns the breaker of a part named use, which starts out trusting Redis.
func NewBreaker(use string, log *slog.Logger, m *Metrics) *Breaker {
	b := &Breaker{use: use, log: log, gauge: m.fallingBack.WithLabelValues(use), fallbacks: m.fallbacks.WithLabelValues(use)}
	b.gauge.Set(0)
	return b
}

// Try reports whether the caller should call Redis now: always while Redis is up, and
// for one caller per ProbeEvery while it is down. A caller told false uses its fallback
// and counts it with FellBack.
func (b *Breaker) Try(now time.Time) bool {
	if !b.down.Load() {
		return true
	}
	at, t := b.probeAt.Load(), now.UnixNano()
	return t >= at && b.probeAt.CompareAndSwap(at, t+int64(ProbeEvery))
}

// Failed records a Redis call that could not be made or answered (the caller then uses
// its fallback and counts it with FellBack). An error Redis answered with (a redis.Error)
// is not a failure of the connection: see IsReplyError.
func (b *Breaker) Failed(now time.Time, err error) {
	b.failedAt.Store(now.UnixNano())
	b.probeAt.Store(now.Add(ProbeEvery).UnixNano())
	if !b.down.Swap(true) {
		b.gauge.Set(1)
		b.log.Error("redis unreachable: falling back to per-replica state", "use", b.use, "err", err)
	}
}

// Succeeded records a Redis call started at start that was answered. A call started
// before the last failure says nothing about Redis now, and changes nothing: a slow
// answer arriving after a timeout does not flip the breaker back.
func (b *Breaker) Succeeded(start time.Time) {
	if b.down.Load() && start.UnixNano() >= b.failedAt.Load() && b.down.Swap(false) {
		b.gauge.Set(0)
		b.log.Info("redis reachable again: shared state back in use", "use", b.use)
	}
}

// IsReplyError reports whether err is an error Redis answered with (a script error, a
// wrong type), which says Redis is reachable, rather than a failed connection.
func IsReplyError(err error) bool {
	var r redis.Error
	return errors.As(err, &r) && !errors.Is(err, redis.ErrClosed)
}

// FellBack counts one decision made without Redis.
func (b *Breaker) FellBack() { b.fallbacks.Inc() }

// Down reports whether Redis was failing at the last call.
func (b *Breaker) Down() bool { return b.down.Load() }
