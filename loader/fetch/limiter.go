package fetch

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// sweepEvery is how often idle host state is dropped; an idle host keeps its state at most
// this long after its next allowed start, so memory follows the hosts active in the last
// minute or so (plus their gap).
const sweepEvery = time.Minute

// errStartAfterDeadline is acquire's error when the host's next start comes after ctx's
// deadline: the request is not made, and nothing is learnt about the host.
var errStartAfterDeadline = fmt.Errorf("next start on the host is after the deadline: %w", context.DeadlineExceeded)

// limiter keeps per-host politeness: at most perHost requests in flight and a minimum gap
// between request starts on each host.
type limiter struct {
	perHost int                                        // immutable
	now     func() time.Time                           // immutable
	sleep   func(context.Context, time.Duration) error // immutable

	mu        sync.Mutex
	hosts     map[string]*hostState // protected by mu
	lastSweep time.Time             // protected by mu
}

// hostState is one host's politeness state.
type hostState struct {
	slots chan struct{} // capacity perHost; a send takes a slot; immutable
	refs  int           // goroutines holding or waiting for a slot; protected by limiter.mu
	next  time.Time     // earliest start of this host's next request; protected by limiter.mu
	// lastBy is the Queue of the request that took the last start (nil: none); a request
	// of the same Queue waits for its own gap. Protected by limiter.mu.
	lastBy Queue
}

func newLimiter(perHost int, now func() time.Time, sleep func(context.Context, time.Duration) error) *limiter {
	return &limiter{perHost: perHost, now: now, sleep: sleep, hosts: make(map[string]*hostState), lastSweep: now()}
}

// acquire waits for a free slot of host key and then for the host's next allowed start,
// which it moves gap past its own start. It returns how long it waited. A wait that would
// end after ctx's deadline fails at once with errStartAfterDeadline. Every successful
// acquire must be followed by release. ctx's Queue (WithQueue), if any, is told of the
// waits behind other requests: for a slot, and for the gap after another Queue's start
// (or a request made without one); the gap after its own request is its own time.
func (l *limiter) acquire(ctx context.Context, key string, gap time.Duration) (*hostState, time.Duration, error) {
	began := l.now()
	l.mu.Lock()
	if began.Sub(l.lastSweep) >= sweepEvery {
		l.sweepLocked(began)
	}
	h := l.hosts[key]
	if h == nil {
		h = &hostState{slots: make(chan struct{}, l.perHost)}
		l.hosts[key] = h
	}
	h.refs++
	l.mu.Unlock()
	q, _ := ctx.Value(queueKey{}).(Queue)

	select {
	case h.slots <- struct{}{}:
	default:
		if q != nil {
			q.Waiting()
		}
		var err error
		select {
		case h.slots <- struct{}{}:
		case <-ctx.Done():
			l.mu.Lock()
			h.refs--
			l.mu.Unlock()
			err = ctx.Err()
		}
		if q != nil {
			q.Started()
		}
		if err != nil {
			return nil, 0, err
		}
	}

	// Take the host's next start once it has come. The start is decided under mu, at the
	// moment of going, so starts are at least gap apart however late a sleeper wakes.
	var awaited time.Time // the start we slept until; still ours if nobody took it meanwhile
	for {
		l.mu.Lock()
		now, start := l.now(), h.next
		if !start.After(now) || start.Equal(awaited) {
			h.next = laterOf(now, start).Add(gap)
			h.lastBy = q
			l.mu.Unlock()
			return h, l.now().Sub(began), nil
		}
		behind := q != nil && h.lastBy != q
		l.mu.Unlock()
		if dl, ok := ctx.Deadline(); ok && start.After(dl) {
			l.release(h)
			return nil, 0, errStartAfterDeadline
		}
		if behind {
			q.Waiting()
		}
		err := l.sleep(ctx, start.Sub(now))
		if behind {
			q.Started()
		}
		if err != nil {
			l.release(h)
			return nil, 0, err
		}
		awaited = start
	}
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// release gives back a slot taken by acquire.
func (l *limiter) release(h *hostState) {
	<-h.slots
	l.mu.Lock()
	h.refs--
	l.mu.Unlock()
}

// holdOff keeps every request to host key from starting before until (a Retry-After).
func (l *limiter) holdOff(key string, until time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.hosts[key]
	if h == nil {
		h = &hostState{slots: make(chan struct{}, l.perHost)}
		l.hosts[key] = h
	}
	if until.After(h.next) {
		h.next = until
	}
}

// sweepLocked drops the state of hosts nobody uses whose next start has passed.
func (l *limiter) sweepLocked(now time.Time) {
	for k, h := range l.hosts {
		if h.refs == 0 && !h.next.After(now) {
			delete(l.hosts, k)
		}
	}
	l.lastSweep = now
}

// size is the number of hosts with state, for tests.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hosts)
}
