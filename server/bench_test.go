package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/testkit/scale"
)

// BenchmarkHandler measures whole requests through the router and handlers, in memory
// (no sockets): parameter parsing, the query, page assembly, headers.
func BenchmarkHandler(b *testing.B) {
	live, snap := liveSnapshot(b)
	h := testServer(b, live).Handler()
	id := string(snap.GigJSON(0)[7:15]) // {"id":"g0000370",...
	for _, tc := range []struct{ name, uri, accept string }{
		{"gigs", "/v1/gigs", ""},
		{"gigs gzip", "/v1/gigs", "gzip"},
		{"gigs 100", "/v1/gigs?page_size=100", ""},
		{"gigs 100 gzip", "/v1/gigs?page_size=100", "gzip"},
		{"gigs filtered", "/v1/gigs?country=gb,de&genre=rock&from=2026-12-01&to=2027-01-10", ""},
		{"gigs city", "/v1/gigs?city=london", ""},
		{"gigs q+city", "/v1/gigs?q=ka&city=london", ""},
		{"gig", "/v1/gigs/" + id, ""},
		{"gig gzip", "/v1/gigs/" + id, "gzip"},
		{"artists gzip", "/v1/artists", "gzip"},
		{"venue", "/v1/venues/venue-0", ""},
		{"venue gzip", "/v1/venues/venue-0", "gzip"},
		{"artist", "/v1/artists/artist-0", ""},
		{"artist gzip", "/v1/artists/artist-0", "gzip"},
		{"artists typeahead", "/v1/artists?q=ka&page_size=10", ""},
		{"artists typeahead gzip", "/v1/artists?q=ka&page_size=10", "gzip"},
		{"venues near", "/v1/venues?near=51.507,-0.128&radius=40km", ""},
		{"bad params", "/v1/gigs?page=0&colour=red", ""},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var size atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				var ctx fasthttp.RequestCtx
				w := bufio.NewWriterSize(io.Discard, 16<<10) // as the server writes
				for pb.Next() {
					ctx.Request.Reset()
					ctx.Response.Reset()
					ctx.Request.SetRequestURI(tc.uri)
					if tc.accept != "" {
						ctx.Request.Header.Set("Accept-Encoding", tc.accept)
					}
					h(&ctx)
					size.Store(int64(ctx.Response.Header.ContentLength()))
					if err := ctx.Response.Write(w); err != nil {
						b.Error(err)
					}
					if err := w.Flush(); err != nil {
						b.Error(err)
					}
				}
			})
			b.SetBytes(size.Load())
		})
	}
}

// BenchmarkExport downloads the export over loopback from a real listener and reports the
// mean time to its first byte next to the throughput: the first byte must not wait for
// the data, however large. 10k gigs; 1M too with GIGS_BENCH_1M=1.
func BenchmarkExport(b *testing.B) {
	sizes := []int{10_000}
	if os.Getenv("GIGS_BENCH_1M") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		snap, err := engine.Build(scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: testNow}), engine.Options{Now: testNow})
		if err != nil {
			b.Fatal(err)
		}
		var live engine.Live
		live.Publish(snap)
		store, err := keys.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		key, _, _ := store.Create("bench@example.org", "bench", testNow)
		checker, err := keys.NewFileChecker(store, func() time.Time { return testNow }, nil)
		if err != nil {
			b.Fatal(err)
		}
		addr := strings.TrimPrefix(listen(b, New(Options{Live: &live, Now: func() time.Time { return testNow },
			Keys: checker, ReadLimit: 1 << 30, ExportLimit: 1 << 30})), "http://")
		for _, enc := range []string{"gzip", "identity"} {
			b.Run(fmt.Sprintf("gigs=%d/%s", n, enc), func(b *testing.B) {
				var first time.Duration
				var size int64
				for b.Loop() {
					c, err := net.Dial("tcp", addr)
					if err != nil {
						b.Fatal(err)
					}
					start := time.Now()
					fmt.Fprintf(c, "GET /v1/gigs/download HTTP/1.1\r\nHost: bench\r\nX-API-Key: %s\r\nAccept-Encoding: %s\r\nConnection: close\r\n\r\n", key, enc)
					r := bufio.NewReaderSize(c, 1<<20)
					if _, err := r.Peek(1); err != nil {
						b.Fatal(err)
					}
					first += time.Since(start)
					if size, err = io.Copy(io.Discard, r); err != nil {
						b.Fatal(err)
					}
					c.Close()
				}
				b.SetBytes(size)
				b.ReportMetric(float64(first.Microseconds())/float64(b.N), "first-byte-µs")
			})
		}
	}
}
