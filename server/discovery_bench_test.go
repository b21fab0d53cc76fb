package server

import (
	"bufio"
	"fmt"
	"io"
	"testing"

	"github.com/valyala/fasthttp"
)

// BenchmarkDiscovery measures the bench's near rows (bench/run/discovery.go) in memory,
// through the router and the handler, each run for each request as the bench asks
// (Cache-Control: no-cache, so the page memo neither answers nor keeps them): gigs within
// 25 km of the busiest city's centre (London, as the bench writes its position) over the
// next 30 days, by start and by distance, beside the same city's page run alike. At
// benchSizes; a figure that grows with the dataset is a cost to remove.
func BenchmarkDiscovery(b *testing.B) {
	to := testNow.AddDate(0, 0, 30).Format("2006-01-02")
	near := "/v1/gigs?near=51.5070%2C-0.1280&radius=25km&to=" + to
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) { benchmarkDiscovery(b, n, near, to) })
	}
}

// benchmarkDiscovery builds n gigs and runs BenchmarkDiscovery's requests on them.
func benchmarkDiscovery(b *testing.B, n int, near, to string) {
	h := scaleHandler(b, n)
	for _, tc := range []struct{ name, uri string }{
		{"city, 30 days", "/v1/gigs?city=london-0&to=" + to},
		{"near 25km, 30 days", near},
		{"near 25km, 30 days, by distance", near + "&sort=distance"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			w := bufio.NewWriterSize(io.Discard, 16<<10) // as the server writes
			var ctx fasthttp.RequestCtx
			for b.Loop() {
				ctx.Request.Reset()
				ctx.Response.Reset()
				ctx.Request.SetRequestURI(tc.uri)
				ctx.Request.Header.Set("Cache-Control", "no-cache")
				h(&ctx)
				if s := ctx.Response.StatusCode(); s != 200 {
					b.Fatalf("%s: %d", tc.uri, s)
				}
				if err := ctx.Response.Write(w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(ctx.Response.Body())), "body-B")
		})
	}
}
