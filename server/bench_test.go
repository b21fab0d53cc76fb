package server

import (
	"sync/atomic"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// BenchmarkHandler measures whole requests through the router and handlers, in memory
// (no sockets): parameter parsing, the query, page assembly, headers.
func BenchmarkHandler(b *testing.B) {
	var live engine.Live
	snap := testSnapshot(b)
	live.Publish(snap)
	live.SetNextRefresh(nextLoad)
	h := testServer(b, &live).Handler()
	id := string(snap.GigJSON(0)[7:15]) // {"id":"g0000370",...
	for _, tc := range []struct{ name, uri, accept string }{
		{"gigs", "/v1/gigs", ""},
		{"gigs filtered", "/v1/gigs?country=gb,de&genre=rock&from=2026-12-01&to=2027-01-10", ""},
		{"gig", "/v1/gigs/" + id, ""},
		{"artists gzip", "/v1/artists", "gzip"},
		{"bad params", "/v1/gigs?page=0&colour=red", ""},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var size atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				var ctx fasthttp.RequestCtx
				for pb.Next() {
					ctx.Request.Reset()
					ctx.Response.Reset()
					ctx.Request.SetRequestURI(tc.uri)
					if tc.accept != "" {
						ctx.Request.Header.Set("Accept-Encoding", tc.accept)
					}
					h(&ctx)
					size.Store(int64(len(ctx.Response.Body())))
				}
			})
			b.SetBytes(size.Load())
		})
	}
}
