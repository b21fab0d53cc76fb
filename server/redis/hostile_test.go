package redis_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gigs/gigs/server/redis"
)

// garbageRedis listens on a real TCP port and answers every connection's first bytes
// with reply, repeated forever when repeat is set; it returns the redis:// URL.
func garbageRedis(t *testing.T, reply []byte, repeat bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				if _, err := c.Read(buf); err != nil {
					return
				}
				go func() { _, _ = io.Copy(io.Discard, c) }()
				for {
					if _, err := c.Write(reply); err != nil || !repeat {
						break
					}
				}
				time.Sleep(time.Second) // what the client does next is its own
			}()
		}
	}()
	return "redis://" + ln.Addr().String()
}

// TestGarbageRedisCostsNoMemory points a limiter at servers that answer garbage on a
// real socket, with the process's memory limit set: every decision comes from the
// per-replica fallback at once, and what the replies cost stays within redis.ReplyBudget.
func TestGarbageRedisCostsNoMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(4 * redis.ReplyBudget))
	random := make([]byte, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	for _, tc := range []struct {
		name   string
		reply  []byte
		repeat bool
	}{
		{"an array of four billion", []byte("*4294967296\r\n"), false},
		{"a bulk string of 2^63-1 bytes", []byte("$9223372036854775807\r\n"), false},
		{"a map of two billion pairs", []byte("%2147483648\r\n"), false},
		{"arrays nested without end", bytes.Repeat([]byte("*2\r\n"), 1<<16), true},
		{"a bulk string that never ends", append([]byte("$1048576\r\n"), bytes.Repeat([]byte{'x'}, 1<<16)...), true},
		{"a large array then elements without end", append([]byte("*1000000\r\n"), bytes.Repeat([]byte(":1\r\n"), 1<<14)...), true},
		{"random bytes", random, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := redis.Dial(garbageRedis(t, tc.reply, tc.repeat))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			reg := prometheus.NewRegistry()
			l := redis.NewLimiter(c, "read", 5, time.Minute, 1000, quiet, redis.NewMetrics(reg))
			defer l.Close()
			peak, stop := heapPeak()
			runtime.GC()
			before := heapNow()
			start := time.Now()
			for i := range 7 {
				if d := l.Take(key("192.0.2.7"), time.Now()); d.Allowed != (i < 5) {
					t.Fatalf("request %d: %+v (the per-replica limit of 5 applies)", i+1, d)
				}
			}
			if err := redis.Ping(c); err == nil {
				t.Fatal("PING answered")
			}
			stop()
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("7 decisions and a ping took %s", took)
			}
			if v := testutil.ToFloat64(gauge(t, reg, "gigs_redis_fallback", "read-limit")); v != 1 {
				t.Errorf("gigs_redis_fallback = %v with a server answering garbage", v)
			}
			if grew := int64(peak.Load()) - int64(before); grew > 2*redis.ReplyBudget {
				t.Errorf("the heap grew by %d MiB (ReplyBudget is %d MiB)", grew>>20, redis.ReplyBudget>>20)
			}
		})
	}
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// heapPeak samples the heap every millisecond until stop is called, keeping the peak.
func heapPeak() (peak *atomic.Uint64, stop func()) {
	peak = new(atomic.Uint64)
	done, quit := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			if h := heapNow(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-quit:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return peak, func() { close(quit); <-done }
}
