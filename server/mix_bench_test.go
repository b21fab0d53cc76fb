package server

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/mix"
	"github.com/gigs/gigs/testkit/scale"
)

// BenchmarkMix replays the bench's request mix (testkit/mix) through the router and
// handlers in memory, whole and kind by kind, at 10k and 100k gigs (1M too with
// GIGS_BENCH_1M=1): a figure of a kind that grows with the dataset is a cost to remove.
// One op is one request.
func BenchmarkMix(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) { benchmarkMix(b, n) })
	}
}

// benchSizes are the dataset sizes of the benchmarks that say so: 10k and 100k gigs, 1M
// too with GIGS_BENCH_1M=1.
func benchSizes() []int {
	if os.Getenv("GIGS_BENCH_1M") != "" {
		return []int{10_000, 100_000, 1_000_000}
	}
	return []int{10_000, 100_000}
}

// benchmarkMix builds n gigs and replays their mix, whole and by kind.
func benchmarkMix(b *testing.B, n int) {
	h := scaleHandler(b, n)
	var ctx fasthttp.RequestCtx
	set, err := mix.Paths(func(path string) (int, []byte) {
		serveURI(h, &ctx, path)
		return ctx.Response.StatusCode(), ctx.Response.Body()
	}, uint64(n), testNow)
	if err != nil {
		b.Fatal(err)
	}
	byKind := map[string][]string{"all": set.All}
	kinds := []string{"all"}
	for i, k := range set.Kinds {
		if byKind[k] == nil {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], set.All[i])
	}
	for _, k := range kinds {
		paths := byKind[k]
		b.Run(k, func(b *testing.B) {
			b.ReportAllocs()
			w := bufio.NewWriterSize(io.Discard, 16<<10) // as the server writes
			i := 0
			for b.Loop() {
				serveURI(h, &ctx, paths[i])
				if s := ctx.Response.StatusCode(); s != 200 {
					b.Fatalf("%s: %d", paths[i], s)
				}
				if err := ctx.Response.Write(w); err != nil {
					b.Fatal(err)
				}
				i = (i + 1) % len(paths)
			}
		})
	}
}

// scaleHandler returns the handler of a test server of the synthetic dataset of n gigs.
func scaleHandler(b *testing.B, n int) fasthttp.RequestHandler {
	snap, err := engine.Build(scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: testNow}), engine.Options{Now: testNow})
	if err != nil {
		b.Fatal(err)
	}
	var live engine.Live
	live.Publish(snap)
	return testServer(b, &live).Handler()
}

// serveURI answers a GET of uri with h into ctx, reset first.
func serveURI(h fasthttp.RequestHandler, ctx *fasthttp.RequestCtx, uri string) {
	ctx.Request.Reset()
	ctx.Response.Reset()
	ctx.Request.SetRequestURI(uri)
	h(ctx)
}
