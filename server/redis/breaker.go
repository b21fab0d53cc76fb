package redis

import (
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	goredis "github.com/redis/go-redis/v9"
)

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
// its fallback and counts it with FellBack). An error Redis answered with (a goredis.Error)
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
	var r goredis.Error
	return errors.As(err, &r) && !errors.Is(err, goredis.ErrClosed)
}

// FellBack counts one decision made without Redis.
func (b *Breaker) FellBack() { b.fallbacks.Inc() }

// Down reports whether Redis was failing at the last call.
func (b *Breaker) Down() bool { return b.down.Load() }
