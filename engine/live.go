package engine

import (
	"sync/atomic"
	"time"
)

// Live holds the snapshot being served and the time of the next scheduled refresh. The
// loader publishes; request handlers load the snapshot once per request and use only that
// one. The zero Live has no snapshot yet. Safe for concurrent use.
type Live struct {
	snap atomic.Pointer[Snapshot]
	next atomic.Int64 // Unix nanoseconds of the next refresh; 0 when not scheduled
}

// Load returns the current snapshot, or nil before the first publish.
func (l *Live) Load() *Snapshot { return l.snap.Load() }

// Publish makes s the current snapshot.
func (l *Live) Publish(s *Snapshot) { l.snap.Store(s) }

// SetNextRefresh records when the data is next due to change.
func (l *Live) SetNextRefresh(t time.Time) { l.next.Store(t.UnixNano()) }

// NextRefresh returns when the data is next due to change; zero when unknown.
func (l *Live) NextRefresh() time.Time {
	n := l.next.Load()
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}
