package limit

import (
	"encoding/binary"
	"net/netip"
	"runtime"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func key(i uint32) Key {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], i)
	return KeyOf(netip.AddrFrom4(b))
}

func TestSixtyPerMinute(t *testing.T) {
	l := NewMemory(60, time.Minute, 1000)
	k := key(1)
	for i := range 60 {
		d := l.Take(k, t0)
		if !d.Allowed || d.Remaining != 59-i || d.Limit != 60 {
			t.Fatalf("request %d: %+v", i+1, d)
		}
	}
	d := l.Take(k, t0)
	if d.Allowed || d.RetryAfter != time.Second || d.Remaining != 0 || d.Reset != time.Minute {
		t.Fatalf("61st request: %+v", d)
	}
	if d := l.Take(k, t0.Add(999*time.Millisecond)); d.Allowed {
		t.Fatalf("allowed before the quota returned: %+v", d)
	}
	if d := l.Take(k, t0.Add(time.Second)); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("one request back after a second: %+v", d)
	}
	if d := l.Take(k, t0.Add(2*time.Minute)); !d.Allowed || d.Remaining != 59 {
		t.Fatalf("full quota after a quiet minute: %+v", d)
	}
	if d := l.Take(key(2), t0); !d.Allowed || d.Remaining != 59 {
		t.Fatalf("another client is limited by the first: %+v", d)
	}
}

func TestKeyOf(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"192.0.2.1", "::ffff:192.0.2.1", true},
		{"192.0.2.1", "192.0.2.2", false},
		{"2001:db8::1", "2001:db8::ffff:1", true},  // one /64
		{"2001:db8:0:0:1::1", "2001:db8::2", true}, // still the first /64
		{"2001:db8:0:1::1", "2001:db8::1", false},  // the next /64
		{"::ffff:10.0.0.1", "10.0.0.1", true},
	}
	for _, tt := range tests {
		if same := KeyOf(netip.MustParseAddr(tt.a)) == KeyOf(netip.MustParseAddr(tt.b)); same != tt.same {
			t.Errorf("KeyOf(%s) == KeyOf(%s) is %v, want %v", tt.a, tt.b, same, tt.same)
		}
	}
}

// TestMemoryBounded sends a million distinct clients, a thousand a second: state is held
// for about the last minute's clients only, and never beyond the cap.
func TestMemoryBounded(t *testing.T) {
	l := NewMemory(60, time.Minute, 1<<20)
	for i := range 1_000_000 {
		l.Take(key(uint32(i)), t0.Add(time.Duration(i)*time.Millisecond))
	}
	if n := l.Len(); n > 3*60_000 {
		t.Errorf("%d clients held, want about the last minute's 60,000", n)
	}
	capped := NewMemory(60, time.Minute, 10_000)
	for i := range 200_000 {
		capped.Take(key(uint32(i)), t0) // all at once: nothing expires
	}
	// At the cap a shard evicts an eighth of it at once, so that the clients after do not
	// each sweep it (a sweep per new client, under the shard's lock, cost 23 µs at gigsd's
	// cap): the shards hold between seven eighths of their cap and their cap.
	if n, per := capped.Len(), 10_000/shards; n > shards*per || n < shards*(per-per/8) || n == shards*per {
		t.Errorf("%d clients held, want at most the cap of 10,000, from evictions of an eighth of a shard", n)
	}
}

// TestTimesOutOfRange takes at the zero Time, which once overflowed the arithmetic: it
// neither allows a request past the quota nor moves the client's bucket.
func TestTimesOutOfRange(t *testing.T) {
	l := NewMemory(60, time.Minute, 1000)
	at := time.Now().Add(time.Hour) // after the limiter's epoch, as a server's times are
	k := key(1)
	for range 60 {
		l.Take(k, at)
	}
	for i := range 100 {
		d := l.Take(k, time.Time{})
		if d.Allowed || d.Remaining < 0 || d.Remaining > 60 {
			t.Fatalf("take %d at the zero time: %+v", i, d)
		}
	}
	if d := l.Take(k, at.Add(time.Second)); !d.Allowed || d.Remaining != 0 || d.Reset > time.Minute {
		t.Errorf("a second later: %+v, want the one request a second brings", d)
	}
	if d := l.Peek(key(2), time.Time{}); !d.Allowed || d.Remaining != 60 {
		t.Errorf("peek at the zero time: %+v", d)
	}
}

// BenchmarkTakeNewAtCap is a new client's Take once the limiter is at its cap.
func BenchmarkTakeNewAtCap(b *testing.B) {
	l := NewMemory(60, time.Minute, 1<<16)
	for i := range 1 << 16 {
		l.Take(key(uint32(i)), t0)
	}
	i := uint32(1 << 16)
	for b.Loop() {
		l.Take(key(i), t0)
		i++
	}
}

func TestConcurrentTakes(t *testing.T) {
	l := NewMemory(1000, time.Minute, 1000)
	var wg sync.WaitGroup
	allowed := make([]int, 8)
	for w := range 8 {
		wg.Go(func() {
			for range 500 {
				if l.Take(key(7), t0).Allowed {
					allowed[w]++
				}
			}
		})
	}
	wg.Wait()
	total := 0
	for _, n := range allowed {
		total += n
	}
	if total != 1000 {
		t.Fatalf("%d of 4000 concurrent requests allowed, want exactly the limit 1000", total)
	}
}

// BenchmarkDistinctClients takes one request for each of b.N distinct clients arriving
// 10,000 a second and reports the clients and heap held at the end.
func BenchmarkDistinctClients(b *testing.B) {
	l := NewMemory(60, time.Minute, 4<<20)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	i := 0
	for b.Loop() {
		l.Take(key(uint32(i)), t0.Add(time.Duration(i)*100*time.Microsecond))
		i++
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(l.Len()), "clients-held")
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "heap-MiB")
}

func BenchmarkTakeSameClient(b *testing.B) {
	l := NewMemory(1<<30, time.Minute, 1000)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Take(key(1), t0)
		}
	})
}

func TestTakeAllocations(t *testing.T) {
	l := NewMemory(1<<30, time.Minute, 1000)
	k := key(1)
	l.Take(k, t0)
	if n := testing.AllocsPerRun(1000, func() { l.Take(k, t0) }); n != 0 {
		t.Errorf("Take allocates %v times for a known client", n)
	}
}
