package mix

import (
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server"
	"github.com/gigs/gigs/testkit/scale"
)

// TestPaths makes the mix from a real server's answers: 1,000 paths in the kinds'
// proportions, each answered 200, the same for the same seed and another for another.
func TestPaths(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	snap, err := engine.Build(scale.Generate(scale.Config{Gigs: 3000, Seed: 1, Now: now}), engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(snap)
	h := server.New(server.Options{Live: &live, Now: func() time.Time { return now }, ReadLimit: 1 << 30,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).Handler()
	var ctx fasthttp.RequestCtx
	get := func(path string) (int, []byte) {
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.SetRequestURI(path)
		h(&ctx)
		return ctx.Response.StatusCode(), ctx.Response.Body()
	}
	set, err := Paths(get, 1, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.All) != 1000 || len(set.Kinds) != 1000 {
		t.Fatalf("%d paths and %d kinds, want 1,000", len(set.All), len(set.Kinds))
	}
	count := map[string]int{}
	for i, p := range set.All {
		count[set.Kinds[i]]++
		if status, body := get(p); status != 200 {
			t.Errorf("%s (%s): %d %.200s", p, set.Kinds[i], status, body)
		}
	}
	for _, tc := range []struct {
		kind string
		n    int
	}{{"city", 250}, {"city range", 150}, {"country genre", 100}, {"countries genres range", 50}, {"genre deep page", 100},
		{"deep page", 50}, {"gigs", 50}, {"gig", 170}, {"venue", 50}, {"cities", 20}, {"genres", 10}} {
		if count[tc.kind] != tc.n {
			t.Errorf("%d paths of kind %q, want %d", count[tc.kind], tc.kind, tc.n)
		}
	}
	if !strings.Contains(set.Page, "city="+set.City) || !strings.Contains(set.PageRun, "city="+set.City) || strings.Contains(set.PageRun, "from=") {
		t.Errorf("page %q, page run %q for city %q", set.Page, set.PageRun, set.City)
	}
	if again, _ := Paths(get, 1, now); !slices.Equal(again.All, set.All) {
		t.Error("the same seed made another mix")
	}
	if other, _ := Paths(get, 2, now); slices.Equal(other.All, set.All) {
		t.Error("another seed made the same mix")
	}
}
