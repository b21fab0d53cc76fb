package fetch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestLimiterPerHost(t *testing.T) {
	for _, perHost := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(perHost), func(t *testing.T) {
			l := newLimiter(perHost, time.Now, sleepCtx)
			var mu sync.Mutex
			inflight, peak := map[string]int{}, map[string]int{}
			all, allPeak := 0, 0
			var wg sync.WaitGroup
			for i := range 40 {
				host := fmt.Sprintf("h%d", i%4)
				wg.Go(func() {
					h, _, err := l.acquire(context.Background(), host, 0)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					inflight[host]++
					all++
					peak[host] = max(peak[host], inflight[host])
					allPeak = max(allPeak, all)
					mu.Unlock()
					time.Sleep(2 * time.Millisecond)
					mu.Lock()
					inflight[host]--
					all--
					mu.Unlock()
					l.release(h)
				})
			}
			wg.Wait()
			for host, p := range peak {
				if p > perHost {
					t.Errorf("%s: %d in flight, limit %d", host, p, perHost)
				}
			}
			if allPeak <= perHost {
				t.Errorf("at most %d in flight over all hosts: hosts did not run in parallel", allPeak)
			}
			if n := l.size(); n != 4 {
				t.Errorf("%d hosts with state, want 4 until swept", n)
			}
		})
	}
}

func TestLimiterGap(t *testing.T) {
	const gap = 15 * time.Millisecond
	l := newLimiter(4, time.Now, sleepCtx)
	var mu sync.Mutex
	var starts []time.Time
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			h, _, err := l.acquire(context.Background(), "h", gap)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			starts = append(starts, time.Now())
			mu.Unlock()
			l.release(h)
		})
	}
	wg.Wait()
	checkGaps(t, starts, gap)
}

func TestLimiterWaitHonoursContext(t *testing.T) {
	l := newLimiter(1, time.Now, sleepCtx)
	h, _, err := l.acquire(context.Background(), "h", time.Hour)
	if err != nil {
		t.Fatal(err)
	}

	// Waiting for the slot: cancellation ends the wait.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(5 * time.Millisecond); cancel() }()
	if _, _, err := l.acquire(ctx, "h", 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("acquire = %v, want context.Canceled", err)
	}
	l.release(h)

	// The next start is an hour away: a deadline before it fails at once.
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	began := time.Now()
	if _, _, err := l.acquire(ctx, "h", 0); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, errStartAfterDeadline) {
		t.Fatalf("acquire = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(began); d > 500*time.Millisecond {
		t.Errorf("acquire waited %v for a start past the deadline", d)
	}
}

func TestLimiterSweep(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1e9, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	l := newLimiter(2, clock, func(context.Context, time.Duration) error { return nil })
	for i := range 100 {
		h, _, err := l.acquire(context.Background(), fmt.Sprint(i), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		l.release(h)
	}
	held, _, _ := l.acquire(context.Background(), "busy", time.Second)
	l.holdOff("later", now.Add(time.Hour))
	advance(2 * sweepEvery)
	h, _, _ := l.acquire(context.Background(), "new", 0)
	l.release(h)
	if n := l.size(); n != 3 { // busy (held), later (held off), new
		t.Errorf("%d hosts with state after sweep, want 3", n)
	}
	l.release(held)
}

// checkGaps checks starts (in any order) are gap apart. Timers and the network delay each
// start a little, and a loaded machine more, so single gaps get slack; the span from first to
// last start, which only its two ends' delays blur, is held tighter.
func checkGaps(t *testing.T, starts []time.Time, gap time.Duration) {
	t.Helper()
	if len(starts) < 2 {
		t.Fatalf("%d starts", len(starts))
	}
	starts = slices.Clone(starts)
	slices.SortFunc(starts, time.Time.Compare)
	for i := 1; i < len(starts); i++ {
		if d := starts[i].Sub(starts[i-1]); d < gap/2 {
			t.Errorf("start %d came %v after the previous one, want %v", i, d, gap)
		}
	}
	if span, want := starts[len(starts)-1].Sub(starts[0]), time.Duration(len(starts)-1)*gap; span < want-5*time.Millisecond {
		t.Errorf("%d starts spread over %v, want at least %v", len(starts), span, want)
	}
}
