package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Different hosts behind one proxy run in parallel while each host sees at most PerHost
// requests at once, measured on the server side.
func TestPerHostConcurrencyThroughProxy(t *testing.T) {
	for _, perHost := range []int{1, 2} {
		t.Run(fmt.Sprint("perHost=", perHost), func(t *testing.T) {
			w := newWorld(t)
			hosts := []string{"a.example", "b.example", "c.example:8080", "d.example"}
			for _, h := range hosts {
				w.handle(h, "/", func(rw http.ResponseWriter, r *http.Request) {
					time.Sleep(10 * time.Millisecond)
					fmt.Fprintf(rw, "page %s", r.URL.Path)
				})
			}
			c := w.client(t, Options{PerHost: perHost})
			var wg sync.WaitGroup
			for i := range 6 * len(hosts) {
				wg.Go(func() {
					u := fmt.Sprintf("http://%s/p%d", hosts[i%len(hosts)], i)
					r, err := c.Get(context.Background(), u, nil)
					if err != nil {
						t.Error(err)
						return
					}
					if want := fmt.Sprintf("page /p%d", i); string(r.Body) != want {
						t.Errorf("%s: body %q, want %q", u, r.Body, want)
					}
				})
			}
			wg.Wait()
			peak, allPeak := w.peaks()
			for _, h := range hosts {
				if p := peak[h]; p != perHost {
					t.Errorf("%s: peak %d in flight, want %d", h, p, perHost)
				}
			}
			if allPeak < 2*perHost {
				t.Errorf("peak %d in flight over all hosts: hosts did not run in parallel", allPeak)
			}
			if s := c.Stats(); s.RobotsFetches != int64(len(hosts)) {
				t.Errorf("%d robots.txt fetches, want one per host (%d)", s.RobotsFetches, len(hosts))
			}
		})
	}
}

// MinGap, or a larger Crawl-delay, separates request starts on one host (server side).
func TestMinGapAndCrawlDelay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		minGap time.Duration
		robots string
		want   time.Duration
	}{
		{"min gap", 30 * time.Millisecond, "", 30 * time.Millisecond},
		{"crawl-delay larger", 5 * time.Millisecond, "User-agent: *\nCrawl-delay: 0.04\n", 40 * time.Millisecond},
		{"crawl-delay smaller", 30 * time.Millisecond, "User-agent: *\nCrawl-delay: 0.001\n", 30 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			if tc.robots != "" {
				w.robots("gap.example", tc.robots)
			}
			w.handle("gap.example", "/", func(rw http.ResponseWriter, r *http.Request) {})
			c := w.client(t, Options{MinGap: tc.minGap, PerHost: 2})
			var wg sync.WaitGroup
			for i := range 4 {
				wg.Go(func() {
					if _, err := c.Get(context.Background(), fmt.Sprintf("http://gap.example/%d", i), nil); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			checkGaps(t, w.startsOf("gap.example"), tc.want)
		})
	}
}

func TestRobots(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /\n\nUser-agent: Gigs\nDisallow: /private\nAllow: /private/ok\n"
	for _, tc := range []struct {
		name    string
		robots  http.HandlerFunc // nil: 404
		path    string
		allowed bool
	}{
		{"allowed path", text(rules), "/public", true},
		{"disallowed path", text(rules), "/private/x", false},
		{"allow overrides", text(rules), "/private/ok", true},
		{"404 allows all", nil, "/private/x", true},
		{"403 allows all", status(403), "/private/x", true},
		{"410 allows all", status(410), "/x", true},
		{"500 disallows all", status(500), "/public", false},
		{"503 disallows all", status(503), "/public", false},
		{"429 disallows all", status(429), "/public", false},
		{"network failure disallows all", breakConn, "/public", false},
		{"redirect followed", redirect("/robots-real.txt"), "/private/x", false},
		{"redirect loop allows all", redirect("/robots.txt"), "/private/x", true},
		{"star only", text("User-agent: *\nDisallow: /\n"), "/x", false},
		{"other agent only", text("User-agent: otherbot\nDisallow: /\n"), "/x", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			const host = "venue.example"
			if tc.robots != nil {
				w.handle(host, "/robots.txt", tc.robots)
			}
			w.handle(host, "/robots-real.txt", text(rules))
			w.handle(host, "/", func(rw http.ResponseWriter, r *http.Request) { rw.Write([]byte("ok")) })
			c := w.client(t, Options{})
			for range 2 { // the second Get uses the cached robots.txt
				_, err := c.Get(context.Background(), "http://"+host+tc.path, nil)
				if tc.allowed && err != nil {
					t.Fatalf("Get: %v", err)
				}
				if !tc.allowed && !errors.Is(err, ErrDisallowed) {
					t.Fatalf("Get = %v, want ErrDisallowed", err)
				}
			}
			hits := w.hitCount(host + tc.path)
			if tc.allowed && hits != 2 || !tc.allowed && hits != 0 {
				t.Errorf("%s requested %d times", tc.path, hits)
			}
			s := c.Stats()
			if s.RobotsFetches != 1 {
				t.Errorf("%d robots.txt fetches, want 1", s.RobotsFetches)
			}
			if !tc.allowed && s.RobotsRefusals != 2 {
				t.Errorf("%d robots refusals, want 2", s.RobotsRefusals)
			}
		})
	}
}

// An unreadable robots.txt is asked for again after RobotsErrorTTL, a good one after RobotsTTL;
// many goroutines asking at once share one fetch.
func TestRobotsCaching(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	code := 503
	w.handle("r.example", "/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		rw.WriteHeader(code)
	})
	w.handle("r.example", "/", func(rw http.ResponseWriter, r *http.Request) {})
	c := w.client(t, Options{Retries: -1, RobotsErrorTTL: time.Minute, RobotsTTL: time.Hour})
	var cmu sync.Mutex
	now := time.Now()
	c.robots = newRobotsCache(func() time.Time { cmu.Lock(); defer cmu.Unlock(); return now })
	advance := func(d time.Duration) { cmu.Lock(); now = now.Add(d); cmu.Unlock() }

	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := c.Get(context.Background(), "http://r.example/x", nil); !errors.Is(err, ErrDisallowed) {
				t.Errorf("Get = %v, want ErrDisallowed", err)
			}
		})
	}
	wg.Wait()
	if n := w.hitCount("r.example/robots.txt"); n != 1 {
		t.Fatalf("robots.txt asked for %d times by 20 concurrent Gets, want 1", n)
	}
	mu.Lock()
	code = 404
	mu.Unlock()
	advance(59 * time.Second)
	if _, err := c.Get(context.Background(), "http://r.example/x", nil); !errors.Is(err, ErrDisallowed) {
		t.Fatalf("Get within RobotsErrorTTL = %v, want ErrDisallowed", err)
	}
	advance(2 * time.Second)
	if _, err := c.Get(context.Background(), "http://r.example/x", nil); err != nil {
		t.Fatalf("Get after RobotsErrorTTL: %v", err)
	}
	advance(59 * time.Minute)
	c.Get(context.Background(), "http://r.example/x", nil)
	if n := w.hitCount("r.example/robots.txt"); n != 2 {
		t.Fatalf("robots.txt asked for %d times, want 2", n)
	}
	advance(2 * time.Minute)
	c.Get(context.Background(), "http://r.example/x", nil)
	if n := w.hitCount("r.example/robots.txt"); n != 3 {
		t.Fatalf("robots.txt asked for %d times after RobotsTTL, want 3", n)
	}
}

func TestConditionalGet(t *testing.T) {
	const lastMod = "Mon, 02 Jan 2006 15:04:05 GMT"
	for _, tc := range []struct {
		name        string
		etag, lm    string
		header      http.Header
		want304     bool
		wantBody    string // of the second Get
		wantSentINM string
		wantSentIMS string
	}{
		{name: "etag", etag: `"v1"`, want304: true, wantBody: "café v1", wantSentINM: `"v1"`},
		{name: "last-modified", lm: lastMod, want304: true, wantBody: "café v1", wantSentIMS: lastMod},
		{name: "both", etag: `W/"v1"`, lm: lastMod, want304: true, wantBody: "café v1", wantSentINM: `W/"v1"`, wantSentIMS: lastMod},
		{name: "no validators", wantBody: "café v1"},
		{name: "validator too long to keep", etag: `"` + strings.Repeat("v", maxValidatorBytes) + `"`, wantBody: "café v1"},
		{name: "opt out", etag: `"v1"`, header: http.Header{"Cache-Control": {"no-store"}}, wantBody: "café v1"},
		{name: "caller's validators", etag: `"v1"`, header: http.Header{"If-None-Match": {`"v1"`}}, want304: true, wantSentINM: `"v1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.handle("c.example", "/page", func(rw http.ResponseWriter, r *http.Request) {
				if tc.etag != "" {
					rw.Header().Set("ETag", tc.etag)
				}
				if tc.lm != "" {
					rw.Header().Set("Last-Modified", tc.lm)
				}
				inm, ims := r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
				if (inm != "" && inm == tc.etag) || (inm == "" && ims != "" && ims == tc.lm) {
					rw.WriteHeader(http.StatusNotModified)
					return
				}
				rw.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
				rw.Write([]byte("caf\xe9 v1"))
			})
			c := w.client(t, Options{})
			r1, err := c.Get(context.Background(), "http://c.example/page", tc.header)
			if err != nil {
				t.Fatal(err)
			}
			if tc.header.Get("If-None-Match") == "" && (r1.NotModified || string(r1.Body) != "café v1") {
				t.Fatalf("first Get: NotModified %v, body %q", r1.NotModified, r1.Body)
			}
			if len(r1.Body) > 0 {
				r1.Body[0] = 'X' // the caller owns the body; the kept copy must not change
			}
			r2, err := c.Get(context.Background(), "http://c.example/page", tc.header)
			if err != nil {
				t.Fatal(err)
			}
			if r2.NotModified != tc.want304 || string(r2.Body) != tc.wantBody {
				t.Errorf("second Get: NotModified %v, body %q; want %v, %q", r2.NotModified, r2.Body, tc.want304, tc.wantBody)
			}
			if tc.want304 && tc.wantBody != "" && r2.Charset != "windows-1252" {
				t.Errorf("304: charset %q, want the kept windows-1252", r2.Charset)
			}
			sent := w.requests("c.example/page")[1].Header
			if got := sent.Get("If-None-Match"); got != tc.wantSentINM {
				t.Errorf("sent If-None-Match %q, want %q", got, tc.wantSentINM)
			}
			if got := sent.Get("If-Modified-Since"); got != tc.wantSentIMS {
				t.Errorf("sent If-Modified-Since %q, want %q", got, tc.wantSentIMS)
			}
			want := 0
			if tc.want304 {
				want = 1
				if tc.header.Get("If-None-Match") != "" {
					want = 2
				}
			}
			if s := c.Stats(); s.NotModified != int64(want) {
				t.Errorf("Stats.NotModified = %d, want %d", s.NotModified, want)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	future := time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
	for _, tc := range []struct {
		name      string
		answers   []http.HandlerFunc // one per request; the last repeats
		retries   int
		wantHits  int
		wantCode  int             // 0: success
		wantSleep []time.Duration // exact sleeps; nil: any
		wantAfter time.Duration
	}{
		{name: "503 with Retry-After then success", answers: []http.HandlerFunc{retryAfter(503, "1"), retryAfter(503, "2"), text("ok")},
			wantHits: 3, wantSleep: []time.Duration{time.Second, 2 * time.Second}},
		{name: "429 with HTTP date", answers: []http.HandlerFunc{retryAfter(429, future), text("ok")}, wantHits: 2},
		{name: "404 not retried", answers: []http.HandlerFunc{status(404)}, wantHits: 1, wantCode: 404},
		{name: "403 not retried", answers: []http.HandlerFunc{status(403)}, wantHits: 1, wantCode: 403},
		{name: "501 not retried", answers: []http.HandlerFunc{status(501)}, wantHits: 1, wantCode: 501},
		{name: "500 until retries run out", answers: []http.HandlerFunc{status(500)}, wantHits: 3, wantCode: 500},
		{name: "no retries", answers: []http.HandlerFunc{status(502)}, retries: -1, wantHits: 1, wantCode: 502},
		{name: "five retries", answers: []http.HandlerFunc{status(504)}, retries: 5, wantHits: 6, wantCode: 504},
		{name: "408 then success", answers: []http.HandlerFunc{status(408), text("ok")}, wantHits: 2},
		{name: "network error then success", answers: []http.HandlerFunc{breakConn, text("ok")}, wantHits: 2},
		{name: "Retry-After over the cap gives up", answers: []http.HandlerFunc{retryAfter(503, "3600")}, wantHits: 1, wantCode: 503,
			wantSleep: []time.Duration{}, wantAfter: time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			var mu sync.Mutex
			n := 0
			w.handle("r.example", "/doc", func(rw http.ResponseWriter, r *http.Request) {
				mu.Lock()
				h := tc.answers[min(n, len(tc.answers)-1)]
				n++
				mu.Unlock()
				h(rw, r)
			})
			c := w.client(t, Options{Retries: tc.retries})
			var slept []time.Duration
			c.hosts.sleep = func(context.Context, time.Duration) error { return nil }
			c.sleep = func(ctx context.Context, d time.Duration) error {
				mu.Lock()
				slept = append(slept, d)
				mu.Unlock()
				return nil
			}
			r, err := c.Get(context.Background(), "http://r.example/doc", nil)
			if hits := w.hitCount("r.example/doc"); hits != tc.wantHits {
				t.Errorf("%d requests, want %d", hits, tc.wantHits)
			}
			if tc.wantCode == 0 {
				if err != nil || string(r.Body) != "ok" {
					t.Fatalf("Get = %v, %v", r, err)
				}
			} else {
				var se *StatusError
				if !errors.As(err, &se) || se.Code != tc.wantCode || se.RetryAfter != tc.wantAfter {
					t.Fatalf("Get error %v, want StatusError %d with RetryAfter %v", err, tc.wantCode, tc.wantAfter)
				}
			}
			if s := c.Stats(); s.Retries != int64(tc.wantHits-1) {
				t.Errorf("Stats.Retries = %d, want %d", s.Retries, tc.wantHits-1)
			}
			if tc.wantSleep != nil {
				if fmt.Sprint(slept) != fmt.Sprint(tc.wantSleep) {
					t.Errorf("slept %v, want %v", slept, tc.wantSleep)
				}
			}
		})
	}
}

// A retry whose wait would pass the deadline is not made: the last error comes back at once.
// A request cut by ctx is not retried.
func TestGiveUpAtDeadline(t *testing.T) {
	w := newWorld(t)
	w.handle("d.example", "/busy", retryAfter(503, "5"))
	// Another host: the 503's Retry-After holds d.example off for 5s.
	w.handle("e.example", "/slow", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := w.client(t, Options{})

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := c.Get(ctx, "http://d.example/busy", nil)
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 503 || se.RetryAfter != 5*time.Second {
		t.Fatalf("Get = %v, want the 503", err)
	}
	if d := time.Since(began); d > 250*time.Millisecond {
		t.Errorf("gave up after %v, want at once", d)
	}
	if n := w.hitCount("d.example/busy"); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Get(ctx, "http://e.example/slow", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Get = %v, want context.DeadlineExceeded", err)
	}
	if n := w.hitCount("e.example/slow"); n != 1 {
		t.Errorf("%d requests after ctx ended, want 1", n)
	}
}

func TestSizeCap(t *testing.T) {
	const limit = 1000
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	small := bytes.Repeat([]byte("a"), 600)
	var gzSmall bytes.Buffer
	zw = gzip.NewWriter(&gzSmall)
	zw.Write(small)
	zw.Close()
	for _, tc := range []struct {
		name    string
		h       http.HandlerFunc
		tooBig  bool
		wantLen int
	}{
		{"exactly the cap", text(strings.Repeat("a", limit)), false, limit},
		{"content-length over", text(strings.Repeat("a", limit+1)), true, 0},
		{"chunked over", func(rw http.ResponseWriter, r *http.Request) {
			for range 5 {
				rw.Write(bytes.Repeat([]byte("a"), 400))
				rw.(http.Flusher).Flush()
			}
		}, true, 0},
		{"endless", func(rw http.ResponseWriter, r *http.Request) {
			chunk := bytes.Repeat([]byte("a"), 4096)
			for r.Context().Err() == nil {
				if _, err := rw.Write(chunk); err != nil {
					return
				}
			}
		}, true, 0},
		{"gzip bomb", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Encoding", "gzip")
			rw.Write(gz.Bytes())
		}, true, 0},
		{"gzip under", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Encoding", "gzip")
			rw.Header().Set("Content-Type", "text/plain")
			rw.Write(gzSmall.Bytes())
		}, false, len(small)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.handle("big.example", "/", tc.h)
			c := w.client(t, Options{MaxBytes: limit})
			r, err := c.Get(context.Background(), "http://big.example/doc", nil)
			if tc.tooBig {
				if !errors.Is(err, ErrTooLarge) {
					t.Fatalf("Get = %v, want ErrTooLarge", err)
				}
				if n := w.hitCount("big.example/doc"); n != 1 {
					t.Errorf("%d requests, want 1 (not retried)", n)
				}
				if s := c.Stats(); s.TooLarge != 1 || s.BytesWire > 1<<20 {
					t.Errorf("stats %+v", s)
				}
				return
			}
			if err != nil || len(r.Body) != tc.wantLen {
				t.Fatalf("Get = %d bytes, %v; want %d", len(r.Body), err, tc.wantLen)
			}
			if ce := r.Header.Get("Content-Encoding"); ce != "" {
				t.Errorf("Content-Encoding %q on a decompressed body", ce)
			}
		})
	}
}

func TestCharsets(t *testing.T) {
	const jpHTML = "<p>\x93\xfa\x96\x7b</p>" // 日本 in Shift_JIS
	for _, tc := range []struct {
		name, contentType, body string
		want, charset           string
		note                    bool
	}{
		{"latin-1 declared", "text/html; charset=iso-8859-1", "caf\xe9", "café", "windows-1252", false},
		{"latin-1 claiming utf-8", "text/html; charset=UTF-8", "caf\xe9", "café", "windows-1252", true},
		{"latin-1 claiming nothing", "text/html", "caf\xe9", "café", "windows-1252", true},
		{"meta charset", "text/html", `<meta charset="iso-8859-1"><p>caf` + "\xe9", `<meta charset="iso-8859-1"><p>café`, "windows-1252", false},
		{"meta http-equiv", "text/html", `<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">caf` + "\xe9",
			`<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">café`, "windows-1252", false},
		{"header beats meta", "text/html; charset=utf-8", `<meta charset="iso-8859-1">café`, `<meta charset="iso-8859-1">café`, "utf-8", false},
		{"meta utf-8 but latin-1", "text/html", `<meta charset="utf-8">caf` + "\xe9", `<meta charset="utf-8">café`, "windows-1252", true},
		{"utf-8 undeclared", "text/html", "café", "café", "utf-8", false},
		{"shift_jis", "text/html; charset=Shift_JIS", jpHTML, "<p>日本</p>", "shift_jis", false},
		{"utf-8 bom dropped", "text/calendar", "\xef\xbb\xbfBEGIN:VCALENDAR", "BEGIN:VCALENDAR", "utf-8", false},
		{"utf-16le bom", "text/plain", "\xff\xfeh\x00i\x00", "hi", "utf-16le", false},
		{"ical latin-1", "text/calendar", "SUMMARY:Caf\xe9", "SUMMARY:Café", "windows-1252", true},
		// ical4j's 1106817412.ics: Japanese in UTF-8 with a corrupted byte; and a UTF-8 page
		// with a line pasted from a windows-1252 one. Only the stray bytes are windows-1252.
		{"utf-8 with a stray byte", "text/calendar", "SUMMARY:日本国際\x8d覧会", "SUMMARY:日本国際\uFFFD覧会", "utf-8", true},
		{"utf-8 with a pasted latin-1 word", "text/html", "<p>Motörhead, Björk</p><p>Caf\xe9</p>", "<p>Motörhead, Björk</p><p>Café</p>", "utf-8", true},
		{"utf-8 with one pasted latin-1 word", "text/html", "Mø & Björk at Caf\xe9 Oto", "Mø & Björk at Café Oto", "utf-8", true},
		// English pages: no accented letter, but curly quotes, dashes and emoji.
		{"utf-8 punctuation and a pasted latin-1 word", "text/html", "<p>Don’t miss it – doors at 7pm — at Caf\xe9 Oto</p>", "<p>Don’t miss it – doors at 7pm — at Café Oto</p>", "utf-8", true},
		// French windows-1252: "é", a no-break space and "»" are valid UTF-8 (U+983B) by chance.
		{"latin-1 with a chance three-byte character", "text/html", "Ros\xe9\xa0\xbb \x96 Concert", "Rosé\u00a0» – Concert", "windows-1252", true},
		{"utf-8 emoji and a pasted latin-1 word", "text/html", "<p>🎸 Live music 🎤 tonight at Caf\xe9</p>", "<p>🎸 Live music 🎤 tonight at Café</p>", "utf-8", true},
		{"latin-1 with one pair that is utf-8", "text/html", "D\xe9j\xe0 vu \xc3\xa9t\xe9", "Déjà vu Ã©té", "windows-1252", true},
		// French from Word: a no-break space before the colon, after "É", is a valid pair.
		{"latin-1 with pairs that are utf-8", "text/calendar", "SUMMARY:ANNUL\xc9\xa0: Zaz\nSUMMARY:ANNUL\xc9\xa0: Zaz\nSUMMARY:REPORT\xc9\xa0: Ang\xe8le",
			"SUMMARY:ANNULÉ\u00a0: Zaz\nSUMMARY:ANNULÉ\u00a0: Zaz\nSUMMARY:REPORTÉ\u00a0: Angèle", "windows-1252", true},
		{"unknown charset", "text/html; charset=x-klingon", "café", "café", "utf-8", true},
		{"json untouched", "application/json", `{"a":"caf` + "\xe9" + `"}`, `{"a":"caf` + "\xe9" + `"}`, "", false},
		{"ld+json untouched", "application/ld+json", "\xe9", "\xe9", "", false},
		{"binary untouched", "image/png", "\x89PNG\xe9", "\x89PNG\xe9", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.handle("cs.example", "/", func(rw http.ResponseWriter, r *http.Request) {
				rw.Header().Set("Content-Type", tc.contentType)
				rw.Write([]byte(tc.body))
			})
			c := w.client(t, Options{})
			r, err := c.Get(context.Background(), "http://cs.example/doc", nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Body) != tc.want || r.Charset != tc.charset || (r.CharsetNote != "") != tc.note {
				t.Errorf("got %q as %q (note %q); want %q as %q (note %v)", r.Body, r.Charset, r.CharsetNote, tc.want, tc.charset, tc.note)
			}
		})
	}
}

func TestCharsetNoteText(t *testing.T) {
	d := decodeBody([]byte("caf\xe9"), "text/html; charset=utf-8")
	if want := `declared "utf-8" but not valid utf-8; read as windows-1252`; d.note != want {
		t.Errorf("note %q, want %q", d.note, want)
	}
	d = decodeBody([]byte("Björk, Sigur Rós, Motörhead, Mø, caf\xe9"), "text/html; charset=utf-8")
	if want := `declared "utf-8" but not valid utf-8: 1 stray bytes read as windows-1252`; d.note != want || !d.fallback {
		t.Errorf("note %q (fallback %v), want %q", d.note, d.fallback, want)
	}
}

func TestTimeouts(t *testing.T) {
	stall := func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	for _, tc := range []struct {
		name string
		o    Options
		h    http.HandlerFunc
	}{
		{"response headers", Options{HeaderTimeout: 50 * time.Millisecond}, stall},
		{"whole request", Options{Timeout: 80 * time.Millisecond}, func(rw http.ResponseWriter, r *http.Request) {
			rw.Write([]byte("first bytes"))
			rw.(http.Flusher).Flush()
			stall(rw, r)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.handle("slow.example", "/", tc.h)
			tc.o.Retries = 1
			c := w.client(t, tc.o)
			began := time.Now()
			_, err := c.Get(context.Background(), "http://slow.example/doc", nil)
			if err == nil {
				t.Fatal("Get succeeded")
			}
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				t.Errorf("Get = %v, want a timeout", err)
			}
			if d := time.Since(began); d > time.Second {
				t.Errorf("took %v", d)
			}
			if n := w.hitCount("slow.example/doc"); n != 2 {
				t.Errorf("%d requests, want 2 (a timeout is retried)", n)
			}
		})
	}
}

func TestConnectTimeoutConfigured(t *testing.T) {
	c := New(Options{ConnectTimeout: time.Second, TLSTimeout: 2 * time.Second, HeaderTimeout: 3 * time.Second})
	if c.transport.TLSHandshakeTimeout != 2*time.Second || c.transport.ResponseHeaderTimeout != 3*time.Second {
		t.Errorf("transport timeouts %v, %v", c.transport.TLSHandshakeTimeout, c.transport.ResponseHeaderTimeout)
	}
	if c.transport.MaxConnsPerHost != 0 || c.transport.MaxIdleConnsPerHost < 256 {
		t.Errorf("transport pool: MaxConnsPerHost %d, MaxIdleConnsPerHost %d", c.transport.MaxConnsPerHost, c.transport.MaxIdleConnsPerHost)
	}
	d := New(Options{ConnectTimeout: 20 * time.Millisecond, Retries: -1, Proxy: func(*http.Request) (*url.URL, error) { return nil, nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	// 192.0.2.0/24 is TEST-NET-1, never routed: the connect hangs until the connect timeout,
	// or fails at once where there is no route at all. Either way Get fails fast.
	began := time.Now()
	_, err := d.Get(ctx, "http://192.0.2.1:81/x", nil)
	if err == nil {
		t.Fatal("Get succeeded")
	}
	if el := time.Since(began); el > time.Second {
		t.Errorf("connect took %v with a 20ms connect timeout", el)
	}
}

func TestRedirects(t *testing.T) {
	w := newWorld(t)
	w.handle("a.example", "/old", redirect("http://b.example/new"))
	w.handle("a.example", "/same", redirect("/target"))
	w.handle("a.example", "/target", echoAuth)
	w.handle("a.example", "/to-private", redirect("http://p.example/private"))
	w.handle("a.example", "/loop", redirect("/loop"))
	w.handle("a.example", "/five/", func(rw http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/five/%d", &n)
		if n < 5 {
			http.Redirect(rw, r, fmt.Sprintf("/five/%d", n+1), http.StatusFound)
			return
		}
		rw.Write([]byte("five"))
	})
	w.handle("b.example", "/new", echoAuth)
	w.robots("p.example", "User-agent: *\nDisallow: /private\n")
	c := w.client(t, Options{})
	auth := http.Header{"Authorization": {"Bearer s3cret"}}

	r, err := c.Get(context.Background(), "http://a.example/old", auth)
	if err != nil {
		t.Fatal(err)
	}
	if r.URL != "http://a.example/old" || r.FinalURL != "http://b.example/new" || string(r.Body) != "auth=" {
		t.Errorf("cross-host redirect: %+v body %q (credentials must be dropped)", r, r.Body)
	}
	r, err = c.Get(context.Background(), "http://a.example/same", auth)
	if err != nil || string(r.Body) != "auth=Bearer s3cret" {
		t.Errorf("same-host redirect: %q, %v", r.Body, err)
	}
	if _, err := c.Get(context.Background(), "http://a.example/to-private", nil); !errors.Is(err, ErrDisallowed) {
		t.Errorf("redirect to a disallowed URL: %v", err)
	}
	if w.hitCount("p.example/private") != 0 {
		t.Error("disallowed redirect target was requested")
	}
	if _, err := c.Get(context.Background(), "http://a.example/loop", nil); !errors.Is(err, ErrTooManyRedirects) {
		t.Errorf("loop: %v", err)
	}
	if n := w.hitCount("a.example/loop"); n != 6 {
		t.Errorf("loop requested %d times, want 6", n)
	}
	if r, err := c.Get(context.Background(), "http://a.example/five/0", nil); err != nil || string(r.Body) != "five" {
		t.Errorf("five redirects: %v", err)
	}
	if h := w.requests("a.example/old")[0].Header; h.Get("User-Agent") != "gigs/1 (+ops@gigs.example)" {
		t.Errorf("User-Agent %q", h.Get("User-Agent"))
	}
}

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://api.example/events", "https://api.example/other?page=2", true},
		{"https://api.example/", "https://API.example:443/", true},
		{"http://api.example/", "http://api.example:80/", true},
		{"https://api.example/", "http://api.example/", false}, // a downgrade: no credentials in clear text
		{"http://api.example/", "https://api.example/", false},
		{"https://api.example/", "https://api.example:8443/", false},
		{"https://api.example/", "https://cdn.api.example/", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := sameOrigin(a, b); got != tc.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestHeaderBlockCapped: an answer whose headers are over maxHeaderBytes fails, rather than
// being read (Go's default allows 10 MiB) and its validators kept.
func TestHeaderBlockCapped(t *testing.T) {
	w := newWorld(t)
	w.handle("h.example", "/big", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("ETag", `"`+strings.Repeat("e", maxHeaderBytes)+`"`)
		rw.Write([]byte("{}"))
	})
	w.handle("h.example", "/fine", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("X-Padding", strings.Repeat("p", maxHeaderBytes/2))
		rw.Write([]byte("{}"))
	})
	c := w.client(t, Options{Retries: -1})
	if r, err := c.Get(context.Background(), "http://h.example/big", nil); err == nil {
		t.Errorf("a %d-byte ETag was read: %d bytes of body", maxHeaderBytes, len(r.Body))
	}
	if _, err := c.Get(context.Background(), "http://h.example/fine", nil); err != nil {
		t.Errorf("headers under the cap: %v", err)
	}
}

func TestRequestHeaders(t *testing.T) {
	w := newWorld(t)
	w.handle("h.example", "/", text("{}"))
	c := w.client(t, Options{})
	header := http.Header{"user-agent": {"mine/1"}, "Accept": {"application/json"}, "X-Api-Key": {"k"}}
	before := fmt.Sprint(header)
	if _, err := c.Get(context.Background(), "http://h.example/api", header); err != nil {
		t.Fatal(err)
	}
	if after := fmt.Sprint(header); after != before {
		t.Errorf("caller's header changed: %s, was %s", after, before)
	}
	sent := w.requests("h.example/api")[0].Header
	if ua := sent.Values("User-Agent"); len(ua) != 1 || ua[0] != "gigs/1 (+ops@gigs.example)" {
		t.Errorf("User-Agent %q", ua)
	}
	if sent.Get("Accept") != "application/json" || sent.Get("X-Api-Key") != "k" || sent.Get("Accept-Encoding") != "gzip" {
		t.Errorf("sent %v", sent)
	}
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return "file://" + p
	}
	c := New(Options{MaxBytes: 100})
	for _, tc := range []struct {
		name, url, want string
		err             error
	}{
		{"html", write("a.html", "<p>caf\xe9"), "<p>café", nil},
		{"json", write("a.json", `{"x":1}`), `{"x":1}`, nil},
		{"too large", write("big.txt", strings.Repeat("x", 101)), "", ErrTooLarge},
		{"missing", "file://" + filepath.Join(dir, "nope"), "", os.ErrNotExist},
	} {
		r, err := c.Get(context.Background(), tc.url, nil)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || string(r.Body) != tc.want || r.NotModified {
			t.Errorf("%s: %+v, %v", tc.name, r, err)
		}
	}
}

func TestBadURLs(t *testing.T) {
	c := New(Options{})
	for _, u := range []string{"ftp://x.example/a", "http:///nohost", "://bad"} {
		if _, err := c.Get(context.Background(), u, nil); err == nil {
			t.Errorf("Get(%q) succeeded", u)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"0", 0},
		{"7", 7 * time.Second},
		{" 120 ", 2 * time.Minute},
		{"-1", 0},
		{"1.5", 0},
		{"99999999999999999999", 0}, // checked below: capped, no overflow
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"soon", 0},
	} {
		got := parseRetryAfter(tc.in, now)
		if tc.in == "99999999999999999999" {
			if got <= 0 || got < time.Hour {
				t.Errorf("parseRetryAfter(%q) = %v, want huge and positive", tc.in, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestStatsSub(t *testing.T) {
	w := newWorld(t)
	w.handle("s.example", "/", text("hello"))
	c := w.client(t, Options{})
	before := c.Stats()
	for range 3 {
		if _, err := c.Get(context.Background(), "http://s.example/x", nil); err != nil {
			t.Fatal(err)
		}
	}
	run := c.Stats().Sub(before)
	want := Stats{Requests: 4, Responses2xx: 3, Responses4xx: 1, RobotsFetches: 1, BytesWire: run.BytesWire, BytesBody: 15, PoliteWait: run.PoliteWait}
	if run != want {
		t.Errorf("run stats %+v\nwant %+v", run, want)
	}
	if run.BytesWire < 15 {
		t.Errorf("BytesWire %d", run.BytesWire)
	}
	if again := c.Stats().Sub(c.Stats()); again != (Stats{}) {
		t.Errorf("snapshot minus itself: %+v", again)
	}
}

func TestCondCacheBounds(t *testing.T) {
	now := time.Unix(1e9, 0)
	cc := newCondCache(100, 3, time.Hour, func() time.Time { return now })
	put := func(url string, n int) { cc.put(&condEntry{url: url, etag: "x", body: make([]byte, n)}) }
	put("a", 40)
	put("b", 40)
	cc.get("a")  // a is now the most recently used
	put("c", 40) // over 100 bytes: b goes
	if cc.get("b") != nil || cc.get("a") == nil || cc.get("c") == nil {
		t.Error("LRU by bytes: want a and c kept, b dropped")
	}
	put("d", 1)
	put("e", 1) // over 3 entries: the least recently used goes
	if n, _ := cc.len(); n != 3 {
		t.Errorf("%d entries, want 3", n)
	}
	put("huge", 101)
	if cc.get("huge") != nil {
		t.Error("a body larger than the cache was kept")
	}
	now = now.Add(2 * time.Hour)
	if cc.get("e") != nil {
		t.Error("entry unused for longer than the TTL was kept")
	}
	if n, b := cc.len(); n != 0 || b != 0 {
		t.Errorf("%d entries, %d bytes after expiry", n, b)
	}
}

func text(body string) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) { rw.Write([]byte(body)) }
}

func status(code int) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(code) }
}

func retryAfter(code int, v string) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", v)
		rw.WriteHeader(code)
	}
}

func redirect(to string) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, to, http.StatusFound) }
}

func echoAuth(rw http.ResponseWriter, r *http.Request) {
	fmt.Fprintf(rw, "auth=%s", r.Header.Get("Authorization"))
}
