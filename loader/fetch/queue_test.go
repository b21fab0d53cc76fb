package fetch

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// countingQueue counts the waits a Queue is told of.
type countingQueue struct{ waits atomic.Int32 }

func (q *countingQueue) Waiting() { q.waits.Add(1) }
func (q *countingQueue) Started() {}

// TestQueueOwnGap: a request waiting for the gap after a request of its own Queue is not
// told it waits (that is its own pace, which a budget counts: a platform paging forever
// spent none of its budget before); one waiting for the gap after another Queue's request,
// or after a request made without one, is.
func TestQueueOwnGap(t *testing.T) {
	const gap = 20 * time.Millisecond
	for _, tt := range []struct {
		name  string
		first func(*countingQueue) Queue // the Queue of the request before
		waits int32
	}{
		{"its own request before", func(q *countingQueue) Queue { return q }, 0},
		{"another's request before", func(*countingQueue) Queue { return &countingQueue{} }, 1},
		{"a request without a queue before", func(*countingQueue) Queue { return nil }, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newLimiter(2, time.Now, sleepCtx)
			q := &countingQueue{}
			ctx := context.Background()
			if first := tt.first(q); first != nil {
				ctx = WithQueue(ctx, first)
			}
			h, _, err := l.acquire(ctx, "h", gap)
			if err != nil {
				t.Fatal(err)
			}
			l.release(h)
			q.waits.Store(0)
			h, waited, err := l.acquire(WithQueue(context.Background(), q), "h", gap)
			if err != nil {
				t.Fatal(err)
			}
			l.release(h)
			if waited < gap/2 {
				t.Fatalf("waited %v for a gap of %v", waited, gap)
			}
			if got := q.waits.Load(); got != tt.waits {
				t.Errorf("told of %d waits, want %d", got, tt.waits)
			}
		})
	}
}
