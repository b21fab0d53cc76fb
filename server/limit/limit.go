package limit

import (
	"net/netip"
	"sync"
	"time"
)

// Key identifies a client: an IPv4 address, or the /64 network of an IPv6 address (one
// subscriber usually holds a whole /64, so single IPv6 addresses would be free buckets).
type Key [16]byte

// KeyOf returns the key of an address.
func KeyOf(a netip.Addr) Key {
	a = a.Unmap()
	if a.Is4() {
		return Key(netip.AddrFrom4(a.As4()).As16())
	}
	k := Key(a.As16())
	clear(k[8:])
	return k
}

// Decision is the outcome of one Take, with what the rate-limit headers report.
type Decision struct {
	Allowed    bool
	Limit      int           // requests per period
	Remaining  int           // requests left now
	Reset      time.Duration // until the full quota is back
	RetryAfter time.Duration // until the next request is allowed; zero when Allowed
}

// Limiter counts a rate limit per client Key: Limit requests per Period to each key,
// Limit of them at once at most. Memory is one, and so is the limiter in Redis that
// replicas share. Implementations are safe for concurrent use; Take and Peek must not
// allocate, as the server's allocation gates require.
type Limiter interface {
	// Take spends one request of k's quota at now, if there is one left.
	Take(k Key, now time.Time) Decision
	// Peek returns k's quota at now without spending any of it.
	Peek(k Key, now time.Time) Decision
	// Limit and Period give the quota: Limit requests per Period.
	Limit() int
	Period() time.Duration
}

const shards = 64

// Memory is the in-memory Limiter: GCRA state per client in this process, bounded as the
// package comment says.
type Memory struct {
	limit    int
	period   int64     // nanoseconds
	interval int64     // period / limit: the cost of one request
	maxPer   int       // entries per shard before eviction
	epoch    time.Time // times are kept as nanoseconds since epoch: monotonic, immune to clock steps
	shards   [shards]shard
}

type shard struct {
	mu      sync.Mutex
	tat     map[Key]int64 // theoretical arrival time, ns since the epoch; protected by mu
	sweepAt int           // sweep expired entries when the map reaches this size; protected by mu
}

// NewMemory returns a Memory limiter allowing limit requests per period and keeping state for at most
// maxClients clients (at least a few thousand are kept whatever maxClients says).
func NewMemory(limit int, period time.Duration, maxClients int) *Memory {
	l := &Memory{limit: limit, period: int64(period), interval: max(int64(period)/int64(limit), 1),
		maxPer: max(maxClients/shards, 64), epoch: time.Now()}
	for i := range l.shards {
		l.shards[i].tat = map[Key]int64{}
		l.shards[i].sweepAt = 64
	}
	return l
}

// Limit returns the number of requests allowed per Period.
func (l *Memory) Limit() int { return l.limit }

// Period returns the window of the limit.
func (l *Memory) Period() time.Duration { return time.Duration(l.period) }

func (l *Memory) shard(k Key) *shard {
	h := uint32(2166136261)
	for _, b := range k {
		h = (h ^ uint32(b)) * 16777619
	}
	return &l.shards[h%shards]
}

// horizon bounds the times Take and Peek compute with, as nanoseconds from the epoch
// (some 73 years either way), so that no time given (the zero Time, say) overflows their
// arithmetic: a time beyond it is taken as the horizon.
const horizon = 1 << 61

// since returns now as nanoseconds since the epoch, within the horizon.
func (l *Memory) since(now time.Time) int64 {
	return min(max(int64(now.Sub(l.epoch)), -horizon), horizon)
}

// Take spends one request of k's quota at now, if there is one left.
func (l *Memory) Take(k Key, now time.Time) Decision {
	t := l.since(now)
	s := l.shard(k)
	s.mu.Lock()
	tat, ok := s.tat[k]
	if !ok || tat < t {
		tat = t
	}
	next := tat + l.interval
	d := Decision{Limit: l.limit}
	if next-t > l.period {
		s.mu.Unlock()
		d.RetryAfter = time.Duration(next - t - l.period)
		d.Reset = time.Duration(tat - t)
		return d
	}
	if !ok {
		s.grow(t, l.maxPer)
	}
	s.tat[k] = next
	s.mu.Unlock()
	d.Allowed = true
	d.Remaining = int((l.period - (next - t)) / l.interval)
	d.Reset = time.Duration(next - t)
	return d
}

// grow makes room for one more entry: expired entries (full buckets, which carry no
// information) are swept once the map has doubled since the last sweep, and when the shard
// is at its cap, arbitrary entries are evicted, an eighth of the cap at once, so that the
// clients after them do not sweep the shard again each: those clients start afresh.
func (s *shard) grow(now int64, maxPer int) {
	if len(s.tat) < s.sweepAt && len(s.tat) < maxPer {
		return
	}
	for k, tat := range s.tat {
		if tat <= now {
			delete(s.tat, k)
		}
	}
	if len(s.tat) >= maxPer {
		for k := range s.tat {
			if len(s.tat) < maxPer-maxPer/8 {
				break
			}
			delete(s.tat, k)
		}
	}
	s.sweepAt = max(2*len(s.tat), 64)
}

// Len returns the number of clients with state.
func (l *Memory) Len() int {
	n := 0
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		n += len(s.tat)
		s.mu.Unlock()
	}
	return n
}

// Peek returns k's quota at now without spending any of it.
func (l *Memory) Peek(k Key, now time.Time) Decision {
	t := l.since(now)
	s := l.shard(k)
	s.mu.Lock()
	tat, ok := s.tat[k]
	s.mu.Unlock()
	if !ok || tat < t {
		tat = t
	}
	return Decision{Allowed: tat+l.interval-t <= l.period, Limit: l.limit,
		Remaining: int((l.period - (tat - t)) / l.interval), Reset: time.Duration(tat - t)}
}
