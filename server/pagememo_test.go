package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestPageMemoAnswersAlike checks that a server with a page memo answers every request as
// one without, byte for byte and header for header, while the clock moves on and another
// snapshot is swapped in.
func TestPageMemoAnswersAlike(t *testing.T) {
	live, snap := liveSnapshot(t)
	memo, withMemo, without, clock := memoPair(t, live)

	longFilter := make([]string, 12)
	for i := range longFilter {
		longFilter[i] = fmt.Sprintf("artist-%03d-%s", i, strings.Repeat("x", 150))
	}
	paths := []string{
		"/v1/gigs?city=london&from=2026-12-01",
		"/v1/gigs?city=london&from=2026-12-01&to=2026-12-31&page=2",
		"/v1/gigs?country=gb,de&genre=rock&from=2026-12-01&to=2027-01-10&page_size=100",
		"/v1/gigs?from=2026-11-22T15:00:00Z&page_size=1",
		"/v1/gigs?from=2026-11-22T15:00:00%2B01:00&page_size=3",
		"/v1/gigs?page_size=7&from=2026-11-25", // the same query written in another order is another key
		"/v1/gigs?from=2026-11-25&page_size=7",
		"/v1/gigs?from=2026-11-22&after=" + url.QueryEscape(string(snap.AppendKeyset(nil, 30))),
		"/v1/gigs?from=2026-11-22&after=" + url.QueryEscape(string(snap.AppendKeyset(nil, 3))) + "&page_size=2",
		"/v1/gigs?from=2026-11-22&artist=" + strings.Join(longFilter, ","), // no Link header: too long
		// Ranges from now: answered anew once the clock passes a gig's start.
		"/v1/gigs?city=london",
		"/v1/gigs?city=london&page=2&page_size=5",
		"/v1/gigs?to=2026-12-20",
		"/v1/gigs?to=2026-11-23T20:00:00Z", // a problem once the clock passes it
		"/v1/gigs?country=gb,de&genre=rock&page_size=100",
		"/v1/gigs?near=51.507,-0.128&radius=40km&sort=distance",
		"/v1/gigs?q=hall",
		"/v1/gigs?fr%6Fm=2026-12-01",
		"/v1/gigs",
		// Problems are never kept.
		"/v1/gigs?from=2026-12-01&from=2026-12-02",
		"/v1/gigs?from=soon",
		"/v1/gigs?from=2026-12-01&page=0",
		"/v1/gigs?from=2026-12-01&after=nonsense",
	}
	for i := range 10 {
		paths = append(paths, fmt.Sprintf("/v1/gigs?from=2026-11-22&page=%d&page_size=5", i+1))
	}
	var changed []string
	first := map[string]string{}
	const rounds = 6
	for round := range rounds {
		switch round {
		case 2, 3, 4: // the clock moves: a minute (before the next gig starts), then past the first gigs
			clock.set(clock.now().Add([]time.Duration{time.Minute, 5 * time.Hour, 72 * time.Hour}[round-2]))
		case rounds - 1: // another snapshot
			ds := scale.Generate(scale.Config{Gigs: 300, Seed: 7, Now: testNow, Days: 60})
			next, err := engine.Build(ds, engine.Options{Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			live.Publish(next)
		}
		for _, path := range paths {
			for _, method := range []string{"GET", "HEAD"} {
				for _, h := range []map[string]string{nil, {"Accept-Encoding": "gzip"}, {"Cache-Control": "no-cache"}} {
					want := do(t, method, without+path, h)
					got := do(t, method, withMemo+path, h)
					name := fmt.Sprintf("round %d: %s %s %v", round, method, path, h)
					sameResponse(t, name, got, want)
					if method == "GET" && h == nil {
						if f, ok := first[path]; !ok {
							first[path] = string(want.body)
						} else if round == rounds-1 && f != string(want.body) {
							changed = append(changed, path)
						}
					}
					// A revalidation with the tag is a 304 from the memo too.
					if etag := want.header.Get("ETag"); etag != "" && want.status == 200 {
						hh := map[string]string{"If-None-Match": etag}
						for k, v := range h {
							hh[k] = v
						}
						sameResponse(t, name+" revalidated", do(t, method, withMemo+path, hh), do(t, method, without+path, hh))
					}
				}
			}
		}
	}
	if len(changed) < len(paths)/2 {
		t.Errorf("only %d of %d answers changed across the rounds: the test proves little", len(changed), len(paths))
	}
	if hits, stored := testutil.ToFloat64(memo.m.memoHit), testutil.ToFloat64(memo.m.memoStored); hits == 0 || stored == 0 {
		t.Errorf("memo hits %v, stored %v: the memo was not used", hits, stored)
	}
}

// testClock is a clock tests move, from testNow.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// memoPair serves live on two real listeners, with the page memo (large enough to keep
// every answer; TestPageMemo fills one) and without, both on the clock returned, and
// returns the first server and both base URLs.
func memoPair(t *testing.T, live *engine.Live) (memo *Server, withMemo, without string, clock *testClock) {
	clock = &testClock{t: testNow}
	newServer := func(size int) *Server {
		return New(Options{Live: live, Now: clock.now, ReadLimit: 1 << 30, PageMemo: size,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
	memo = newServer(0)
	return memo, listen(t, memo), listen(t, newServer(-1)), clock
}

// sameResponse fails when two responses differ in status, body or a header other than
// those of the request itself (its date, id and rate-limit counts).
func sameResponse(t *testing.T, name string, got, want response) {
	t.Helper()
	if got.status != want.status || !bytes.Equal(requestIDRE.ReplaceAll(got.body, nil), requestIDRE.ReplaceAll(want.body, nil)) {
		t.Errorf("%s: %d with %d bytes, want %d with %d bytes", name, got.status, len(got.body), want.status, len(want.body))
		return
	}
	for _, h := range []http.Header{got.header, want.header} {
		for k := range h {
			switch {
			case k == "Date" || k == "X-Request-Id" || strings.HasPrefix(k, "Ratelimit") || strings.HasPrefix(k, "X-Ratelimit"):
			case strings.Join(got.header[k], "\n") != strings.Join(want.header[k], "\n"):
				t.Errorf("%s: %s: %q, want %q", name, k, got.header[k], want.header[k])
			}
		}
	}
}

func TestPageMemo(t *testing.T) {
	snap := testSnapshot(t)
	m := newPageMemo(snap, 0) // 64 KiB
	body := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i) }
	key := func(i int, gz bool) memoKey {
		return memoKey{query: fmt.Appendf(nil, "city=c%d&from=2026-12-01", i), gz: gz, start: -1}
	}
	if sl := m.get(key(1, false)); sl.hash != 0 {
		t.Fatal("found in an empty memo")
	}
	n := 0
	for ; ; n++ {
		kept, full := m.put(newSlot(key(n, n%2 == 1), []byte("<link>"), body(n), engine.Tag(n)))
		if full {
			break
		}
		if !kept {
			t.Fatalf("entry %d not kept", n)
		}
	}
	if n < 30 || n > 64 {
		t.Errorf("a 64 KiB memo kept %d entries of about 1 KB", n)
	}
	for i := range n {
		sl := m.get(key(i, i%2 == 1))
		if e := sl.entry(); sl.hash == 0 || !bytes.Equal(e.body, body(i)) || string(e.link) != "<link>" || e.tag != engine.Tag(i) {
			t.Fatalf("entry %d: %d bytes, tag %d", i, len(e.body), e.tag)
		}
		if m.get(key(i, i%2 == 0)).hash != 0 {
			t.Errorf("entry %d found in the other encoding", i)
		}
		other := key(i, i%2 == 1)
		other.start = 7
		if m.get(other).hash != 0 {
			t.Errorf("entry %d found for a range from now", i)
		}
	}
	one := newPageMemo(snap, 0)
	one.put(newSlot(key(0, false), nil, body(0), 0))
	if kept, full := one.put(newSlot(key(0, false), nil, body(1), 1)); kept || full {
		t.Errorf("a key kept again: kept %v, full %v", kept, full)
	}
	if kept, full := newPageMemo(snap, 0).put(newSlot(key(0, false), nil, make([]byte, 9<<10), 0)); kept || full {
		t.Errorf("an entry larger than an eighth of the memo: kept %v, full %v", kept, full)
	}

	// keep renews a full memo; the bytes handed out before stay as they were.
	var live engine.Live
	live.Publish(snap)
	ms := memos{size: 128 << 10, live: &live}
	old := ms.forSnapshot(snap)
	kept := map[int][]byte{}
	for i := range 3 * n {
		cur := ms.forSnapshot(snap)
		if !ms.keep(cur, key(i, false), nil, body(i), engine.Tag(i)) {
			t.Fatalf("entry %d not kept", i)
		}
		e, ok := ms.get(ms.forSnapshot(snap), key(i, false))
		if !ok {
			t.Fatalf("entry %d not found after keep", i)
		}
		kept[i] = e.body
	}
	if ms.forSnapshot(snap) == old {
		t.Error("a full memo was not renewed")
	}
	for i, b := range kept {
		if !bytes.Equal(b, body(i)) {
			t.Fatalf("entry %d's bytes changed after a renewal", i)
		}
	}
	// After a swap the live snapshot gets a new memo; a request still on the snapshot
	// replaced may use that snapshot's memo while it is current, then has none, and
	// replaces nothing.
	other := testSnapshot(t)
	live.Publish(other)
	if m := ms.forSnapshot(snap); m == nil || m.snap.Value() != snap {
		t.Error("a request on the snapshot just replaced lost its memo before another was made")
	}
	m = ms.forSnapshot(other)
	if m == nil || m.snap.Value() != other || m.old.Load() != nil {
		t.Fatal("no memo of its own for the live snapshot after a swap")
	}
	if ms.forSnapshot(snap) != nil || ms.keep(old, key(0, false), nil, body(0), 0) || ms.cur.Load() != m {
		t.Error("a request on a snapshot no longer live used or replaced the live snapshot's memo")
	}
	off := memos{live: &live}
	if off.forSnapshot(other) != nil {
		t.Error("a memo of size 0")
	}
	if a, b := newPageMemo(snap, 0), newPageMemo(snap, 0); a.hash(key(0, false)) == b.hash(key(0, false)) {
		t.Error("two memos hash a key alike: their hash is not seeded")
	}
}

// TestPageMemoGenerations: answers asked for again and again stay in the memo however
// many others pass through it, those not asked for again leave it, and its two
// generations never hold more than its size.
func TestPageMemoGenerations(t *testing.T) {
	snap := testSnapshot(t)
	var live engine.Live
	live.Publish(snap)
	const size = 256 << 10
	ms := memos{size: size, live: &live}
	body := func(i int) []byte { return bytes.Repeat(fmt.Appendf(nil, "%d;", i), 300) } // 1 to 2 KB
	key := func(i int) memoKey { return memoKey{query: fmt.Appendf(nil, "q=%d", i), start: 3} }
	const hot = 20
	rotations := 0
	last := ms.forSnapshot(snap)
	for i := range 5000 { // the cold keys fill about 30 generations
		m := ms.forSnapshot(snap)
		if m != last {
			rotations++
			last = m
		}
		if old := m.old.Load(); m.bytes+memoBytes(old) > size {
			t.Fatalf("request %d: the generations hold %d + %d bytes, more than %d", i, m.bytes, memoBytes(old), size)
		}
		k := hot + i // a cold key, asked once
		if i%2 == 0 {
			k = i / 2 % hot
		}
		if e, ok := ms.get(m, key(k)); ok {
			if !bytes.Equal(e.body, body(k)) {
				t.Fatalf("key %d: another answer", k)
			}
			if k >= hot {
				t.Fatalf("cold key %d found", k)
			}
			continue
		}
		if k < hot && i > 2*hot {
			t.Errorf("request %d: hot key %d not found", i, k)
		}
		ms.keep(m, key(k), nil, body(k), 0)
	}
	if rotations < 10 {
		t.Errorf("%d generations: the test proves little", rotations)
	}
	if _, ok := ms.get(ms.forSnapshot(snap), key(hot)); ok {
		t.Error("the first cold key is still kept")
	}
}

// memoBytes returns the bytes m keeps, 0 when m is nil.
func memoBytes(m *pageMemo) int {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

func TestNoCache(t *testing.T) {
	for _, c := range []struct {
		cc, pragma string
		want       bool
	}{
		{"", "", false},
		{"no-cache", "", true},
		{"No-Store", "", true},
		{"max-age=0, no-cache", "", true},
		{`no-cache="x"`, "", true},
		{"max-age=0", "", false},
		{"no-cachex", "", false},
		{"", "no-cache", true},
		{"max-age=60", "no-cache", false}, // Cache-Control present: Pragma is ignored
		{"", "x-no-cache", false},
	} {
		var h fasthttp.RequestHeader
		if c.cc != "" {
			h.Set("Cache-Control", c.cc)
		}
		if c.pragma != "" {
			h.Set("Pragma", c.pragma)
		}
		if got := noCache(&h); got != c.want {
			t.Errorf("Cache-Control %q, Pragma %q: %v, want %v", c.cc, c.pragma, got, c.want)
		}
	}
}

func TestHasFrom(t *testing.T) {
	for q, want := range map[string]bool{
		"from=2026-12-01":             true,
		"city=london&from=2026-12-01": true,
		"from=":                       true, // a problem: never kept
		"":                            false,
		"city=london":                 false,
		"xfrom=2026-12-01":            false,
		"city=from=2026":              false,
		"fr%6Fm=2026-12-01":           false,
		"to=2026-12-01&from":          false,
	} {
		if got := hasFrom([]byte(q)); got != want {
			t.Errorf("hasFrom(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestPageMemoSwapRace runs a request that began on a snapshot against one that begins on
// its replacement, at every moment of the first's path: the live snapshot's memo never
// holds the old snapshot's answer.
func TestPageMemoSwapRace(t *testing.T) {
	s1 := testSnapshot(t)
	s2, err := engine.Build(scale.Generate(scale.Config{Gigs: 300, Seed: 7, Now: testNow, Days: 60}), engine.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	const uri = "/v1/gigs?from=2026-11-22&page_size=5"
	answer := func(s *Server, snap *engine.Snapshot) []byte {
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI(uri)
		if err := s.gigs(&ctx, snap); err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(ctx.Response.Body())
	}
	var ref engine.Live
	ref.Publish(s2)
	noMemo := testServer(t, &ref)
	noMemo.memos.size = 0
	want := answer(noMemo, s2)
	if bytes.Equal(want, answer(noMemo, s1)) {
		t.Fatal("both snapshots answer alike: the test proves nothing")
	}
	for i := range 500 {
		var live engine.Live
		live.Publish(s1)
		s := testServer(t, &live)
		var wg sync.WaitGroup
		start := make(chan struct{})
		wg.Go(func() { <-start; answer(s, s1) }) // it loaded s1 before the swap
		wg.Go(func() {
			<-start
			for range (i % 50) * 100 { // the swap at another moment of the other's path
				runtime.Gosched()
			}
			live.Publish(s2)
			answer(s, s2)
		})
		close(start)
		wg.Wait()
		if got := answer(s, s2); !bytes.Equal(got, want) {
			t.Fatalf("round %d: the live snapshot answered with the old one's page", i)
		}
	}
}

// TestPageMemoMadeOnce: requests that find the memo another snapshot's, all at once,
// make one memo between them.
func TestPageMemoMadeOnce(t *testing.T) {
	s1, s2 := testSnapshot(t), testSnapshot(t)
	var live engine.Live
	live.Publish(s2)
	ms := memos{size: 16 << 20, live: &live}
	ms.cur.Store(newPageMemo(s1, 0))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	newPageMemo(s2, ms.size/2)
	runtime.ReadMemStats(&after)
	one := after.TotalAlloc - before.TotalAlloc
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 16 {
		wg.Go(func() { <-start; ms.forSnapshot(s2) })
	}
	close(start)
	wg.Wait()
	runtime.ReadMemStats(&after)
	if n := float64(after.TotalAlloc-before.TotalAlloc) / float64(one); n > 1.5 {
		t.Errorf("16 requests made %.1f memos", n)
	}
}

// TestPageMemoConcurrent runs puts, renewals and gets together (under -race in make test):
// every answer found is the one kept for its key.
func TestPageMemoConcurrent(t *testing.T) {
	snap := testSnapshot(t)
	var live engine.Live
	live.Publish(snap)
	ms := memos{size: 64 << 10, live: &live}
	body := func(k int) []byte { return bytes.Repeat(fmt.Appendf(nil, "%d;", k), 200) }
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				k := (i*7 + w) % 300
				key := fmt.Appendf(nil, "k=%d", k)
				m := ms.forSnapshot(snap)
				if e, ok := ms.get(m, memoKey{query: key, start: w % 2}); ok {
					if !bytes.Equal(e.body, body(k)) || e.tag != engine.Tag(k) {
						t.Errorf("key %d: another answer", k)
						return
					}
					continue
				}
				ms.keep(m, memoKey{query: key, start: w % 2}, nil, body(k), engine.Tag(k))
			}
		})
	}
	wg.Wait()
}

// TestReplacedSnapshotFreed: once another snapshot is published, the one replaced is
// garbage, whatever the server answered from it (its page memo, its Last-Modified) and
// whether or not a request came since.
func TestReplacedSnapshotFreed(t *testing.T) {
	var live engine.Live
	old := testSnapshot(t)
	live.Publish(old)
	live.SetNextRefresh(nextLoad)
	s := testServer(t, &live)
	h := s.Handler()
	for _, uri := range []string{"/v1/gigs?from=2026-12-01", "/v1/gigs?city=london", "/v1/cities"} {
		handlerCtx(new(fasthttp.RequestCtx), h, uri)()
	}
	if m := s.memos.cur.Load(); m == nil || s.changed.Load() == nil {
		t.Fatal("no memo or Last-Modified kept: the test proves nothing")
	}
	freed := make(chan struct{})
	runtime.AddCleanup(old, func(c chan struct{}) { close(c) }, freed)
	old = nil
	live.Publish(testSnapshot(t))
	defer runtime.KeepAlive(s) // the server serves on
	for range 10 {
		runtime.GC()
		select {
		case <-freed:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Error("the replaced snapshot is still alive")
}

// TestPageMemoFromNow: a query whose range starts now is answered from the memo while no
// gig starts, anew (and as a server without a memo answers it) once the first one has,
// and never from the memo when the request asks for no stored answer.
func TestPageMemoFromNow(t *testing.T) {
	live, _ := liveSnapshot(t)
	memo, withMemo, without, clock := memoPair(t, live)
	const path = "/v1/gigs?page_size=3" // its first gig is the next to start
	hits := func() float64 { return testutil.ToFloat64(memo.m.memoHit) }
	get := func(h map[string]string) response {
		t.Helper()
		got, want := do(t, "GET", withMemo+path, h), do(t, "GET", without+path, h)
		sameResponse(t, fmt.Sprint(clock.now(), h), got, want)
		return got
	}
	var page struct {
		Data []struct {
			StartsAt time.Time `json:"starts_at"`
		}
	}
	first := get(nil)
	if err := json.Unmarshal(first.body, &page); err != nil || len(page.Data) == 0 {
		t.Fatalf("%s: %v, %d gigs", path, err, len(page.Data))
	}
	start := page.Data[0].StartsAt
	for _, c := range []struct {
		at     time.Time
		header map[string]string
		hit    bool
	}{
		{testNow, nil, true},
		{start.Add(-time.Second), nil, true}, // no gig has started yet
		{start.Add(-time.Second), map[string]string{"Cache-Control": "no-cache"}, false},
		{start.Add(time.Second), nil, false}, // the first gig has started
		{start.Add(time.Second), nil, true},
	} {
		clock.set(c.at)
		before := hits()
		r := get(c.header)
		if hit := hits() > before; hit != c.hit {
			t.Errorf("at %s, %v: hit %v, want %v", c.at, c.header, hit, c.hit)
		}
		if same := bytes.Equal(r.body, first.body); same != c.at.Before(start) {
			t.Errorf("at %s: the same body as at first %v", c.at, same)
		}
	}
}

// TestPageMemoRoutes: one query string asked of /v1/gigs and of /v1/gigs.ics names two
// answers; "/v1/gigs?ics?…" once named the feed's (a review case).
func TestPageMemoRoutes(t *testing.T) {
	live, _ := liveSnapshot(t)
	_, withMemo, without, _ := memoPair(t, live)
	for _, path := range []string{
		"/v1/gigs.ics?country=GB&from=2026-01-01",
		"/v1/gigs?ics?country=GB&from=2026-01-01",
		"/v1/gigs?country=GB&from=2026-01-01",
		"/v1/gigs.ics?country=GB&from=2026-01-01",
	} {
		for range 2 { // the second from the memo
			got, want := do(t, "GET", withMemo+path, nil), do(t, "GET", without+path, nil)
			if got.status != want.status || want.status == 200 && !bytes.Equal(got.body, want.body) { // a problem names its request
				t.Fatalf("%s: with the memo %d %.60q, without %d %.60q", path, got.status, got.body, want.status, want.body)
			}
		}
	}
}
