package server

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// BenchmarkTypeahead measures the bench's typeahead row in memory, through the router and
// the handler: /v1/artists?q=<the three letters that begin the most words of the artists'
// names>&page_size=10 (scale.TypeaheadPrefix), at benchSizes. Its cost must not grow
// with the dataset.
func BenchmarkTypeahead(b *testing.B) {
	for _, n := range benchSizes() {
		ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: testNow})
		names := make([]string, len(ds.Artists))
		for i, a := range ds.Artists {
			names[i] = a.Name
		}
		uri := "/v1/artists?q=" + url.QueryEscape(scale.TypeaheadPrefix(names)) + "&page_size=10"
		snap, err := engine.Build(ds, engine.Options{Now: testNow})
		if err != nil {
			b.Fatal(err)
		}
		var live engine.Live
		live.Publish(snap)
		h := testServer(b, &live).Handler()
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			w := bufio.NewWriterSize(io.Discard, 16<<10) // as the server writes
			var ctx fasthttp.RequestCtx
			for b.Loop() {
				serveURI(h, &ctx, uri)
				if s := ctx.Response.StatusCode(); s != 200 {
					b.Fatalf("%s: %d", uri, s)
				}
				if err := ctx.Response.Write(w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(ctx.Response.Body())), "body-B")
		})
	}
}
