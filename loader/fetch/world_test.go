package fetch

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// world is one test server acting as the HTTP proxy for many fake hosts, routing on the Host
// header as the demo's fixture server does. It measures, server side, what each host sees.
type world struct {
	proxy *httptest.Server
	url   *url.URL

	mu       sync.Mutex
	muxes    map[string]*http.ServeMux // protected by mu
	robotsOK map[string]bool           // hosts that serve a robots.txt; protected by mu
	inflight map[string]int            // by host; protected by mu
	peak     map[string]int            // by host; protected by mu
	all      int                       // protected by mu
	allPeak  int                       // protected by mu
	starts   map[string][]time.Time    // by host, robots.txt excluded; protected by mu
	hits     map[string]int            // by host+path; protected by mu
	reqs     map[string][]*http.Request
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{
		muxes: map[string]*http.ServeMux{}, robotsOK: map[string]bool{}, inflight: map[string]int{}, peak: map[string]int{},
		starts: map[string][]time.Time{}, hits: map[string]int{}, reqs: map[string][]*http.Request{},
	}
	w.proxy = httptest.NewServer(w)
	t.Cleanup(w.proxy.Close)
	w.url, _ = url.Parse(w.proxy.URL)
	return w
}

// handle serves pattern (a ServeMux pattern without method or host) on host. robots.txt is
// 404 unless its pattern is "/robots.txt".
func (w *world) handle(host, pattern string, h http.HandlerFunc) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if pattern == "/robots.txt" {
		w.robotsOK[host] = true
	}
	m := w.muxes[host]
	if m == nil {
		m = http.NewServeMux()
		w.muxes[host] = m
	}
	m.HandleFunc(pattern, h)
}

// robots serves body as host's robots.txt.
func (w *world) robots(host, body string) {
	w.handle(host, "/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/plain")
		rw.Write([]byte(body))
	})
}

func (w *world) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	host := strings.ToLower(r.Host)
	w.mu.Lock()
	key := host + r.URL.Path
	w.hits[key]++
	w.reqs[key] = append(w.reqs[key], r)
	if r.URL.Path != "/robots.txt" {
		w.starts[host] = append(w.starts[host], time.Now())
	}
	w.inflight[host]++
	w.all++
	w.peak[host] = max(w.peak[host], w.inflight[host])
	w.allPeak = max(w.allPeak, w.all)
	m := w.muxes[host]
	if r.URL.Path == "/robots.txt" && !w.robotsOK[host] {
		m = nil
	}
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.inflight[host]--
		w.all--
		w.mu.Unlock()
	}()
	if m == nil {
		http.NotFound(rw, r)
		return
	}
	m.ServeHTTP(rw, r)
}

func (w *world) hitCount(hostPath string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hits[hostPath]
}

func (w *world) peaks() (map[string]int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.peak), w.allPeak
}

func (w *world) startsOf(host string) []time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.starts[host])
}

func (w *world) requests(hostPath string) []*http.Request {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reqs[hostPath]
}

// client returns a Client that reaches every host through w. Unless o says otherwise it has
// no gap and retries after a millisecond, so tests run fast.
func (w *world) client(t *testing.T, o Options) *Client {
	t.Helper()
	o.Proxy = http.ProxyURL(w.url)
	if o.Contact == "" {
		o.Contact = "ops@gigs.example"
	}
	if o.MinGap == 0 {
		o.MinGap = -1
	}
	if o.RetryBase == 0 {
		o.RetryBase = time.Millisecond
	}
	c := New(o)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// breakConn answers with a truncated body and drops the connection: a network failure the
// transport cannot retry on its own.
func breakConn(rw http.ResponseWriter, _ *http.Request) {
	conn, buf, err := http.NewResponseController(rw).Hijack()
	if err != nil {
		panic(err)
	}
	buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
	buf.Flush()
	conn.Close()
}
