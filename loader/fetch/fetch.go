package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options configure a Client. Zero fields take the defaults shown; where a negative value
// means something else, it says so.
type Options struct {
	UserAgent string        // "gigs/1 (+Contact)"
	Contact   string        // operator's contact for the User-Agent; empty only in tests
	MaxBytes  int64         // 8 MiB: larger documents are refused with ErrTooLarge
	Timeout   time.Duration // 30s for one attempt at a request: connect to last body byte
	// Proxy chooses a proxy per request, as http.Transport.Proxy; nil uses the
	// HTTP_PROXY/HTTPS_PROXY/NO_PROXY environment.
	Proxy func(*http.Request) (*url.URL, error)
	// Allow lists the networks that fetches may reach although Forbidden refuses them
	// (loopback, private, link-local, ...); empty: none. Client.Allow replaces it.
	Allow []netip.Prefix

	// Agent is the product token looked up in robots.txt User-agent lines, case-insensitively;
	// "gigs".
	Agent string
	// PerHost caps the requests in flight to one host (the URL's host:port, default port
	// dropped), across all goroutines using the Client; 2.
	PerHost int
	// MinGap is the least time between the starts of two requests to one host; 250ms.
	// Negative: no gap. A robots.txt Crawl-delay larger than MinGap replaces it for its host.
	MinGap time.Duration
	// MaxCrawlDelay caps a robots.txt Crawl-delay; 30s.
	MaxCrawlDelay time.Duration
	// RobotsTTL is how long a robots.txt is reused per scheme and host; 12h.
	RobotsTTL time.Duration
	// RobotsErrorTTL is how long a robots.txt that could not be read (5xx, 429, network
	// failure) keeps its host disallowed before it is asked for again; 10m.
	RobotsErrorTTL time.Duration

	ConnectTimeout time.Duration // 5s to open a TCP connection
	TLSTimeout     time.Duration // 5s for a TLS handshake
	HeaderTimeout  time.Duration // 10s from the request written to the response headers

	// Retries is how many times one Get retries after a network error or a 408, 429, 500,
	// 502, 503 or 504; 2. Negative: none.
	Retries       int
	RetryBase     time.Duration // 500ms: the first backoff ceiling; it doubles per retry
	RetryMax      time.Duration // 30s: the largest backoff ceiling
	MaxRetryAfter time.Duration // 60s: a longer Retry-After ends the Get with its StatusError

	// CacheBytes caps the bodies kept for conditional GET (plus at most 16384 entries);
	// 128 MiB. Negative: no conditional GET.
	CacheBytes int64
	// CacheTTL drops a kept body not asked for in this long; 2×RobotsTTL (24h).
	CacheTTL time.Duration
}

// Response is a document as read. It belongs to the caller.
type Response struct {
	URL  string // the URL asked for
	Body []byte // the document, converted to UTF-8 when it is text
	// NotModified is set when the server answered 304 to a conditional request; Body is then
	// the body cached from the last 200 for this URL (nil when the caller sent its own
	// validators).
	NotModified bool

	FinalURL string // the URL that answered, after redirects; URL when there were none
	// ContentType is the media type, lower case and without parameters, as declared or, when
	// the server declared none, as sniffed.
	ContentType string
	// Charset is the WHATWG name of the encoding Body was converted from ("utf-8",
	// "windows-1252", "shift_jis", ...); empty when the body is not text (JSON, images).
	Charset string
	// CharsetNote is set when Charset is not what the document declared, for the refresh
	// report: e.g. `declared "utf-8" but not valid utf-8; read as windows-1252`.
	CharsetNote string
	// Header holds the response headers of the answer (of the 304 when NotModified).
	Header http.Header
}

// StatusError is an HTTP answer other than 200 or 304.
type StatusError struct {
	URL        string
	Code       int
	RetryAfter time.Duration // from Retry-After, 0 when absent
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("cannot fetch %q: status %d %s", e.URL, e.Code, http.StatusText(e.Code))
}

// maxHeaderBytes caps an answer's header block; maxValidatorBytes caps the validators
// (ETag and Last-Modified together) of an answer kept for conditional GET: longer ones are
// not kept, so the cache's uncounted per-entry overhead stays small.
const (
	maxHeaderBytes    = 64 << 10
	maxValidatorBytes = 1 << 10
)

// ErrTooLarge is returned (wrapped) for documents over Options.MaxBytes.
var ErrTooLarge = errors.New("document too large")

// ErrDisallowed is returned (wrapped) for URLs that robots.txt keeps us from; they are not
// requested. A robots.txt that cannot be read (5xx, 429, network failure) disallows its whole
// host for Options.RobotsErrorTTL.
var ErrDisallowed = errors.New("disallowed by robots.txt")

// ErrTooManyRedirects is returned (wrapped) when a URL redirects more than 5 times.
var ErrTooManyRedirects = errors.New("too many redirects")

const (
	maxRedirects   = 5
	maxRobotsBytes = 500 << 10 // RFC 9309 §2.5: parse at least 500 KiB
	drainBytes     = 4 << 10   // read from an error answer so its connection can be reused
)

// Client reads documents. Safe for concurrent use. All fields are immutable after New except
// the state types, which guard themselves.
type Client struct {
	client    *http.Client
	transport *http.Transport
	userAgent string
	agent     string
	maxBytes  int64
	timeout   time.Duration

	minGap        time.Duration
	maxCrawlDelay time.Duration
	robotsTTL     time.Duration
	robotsErrTTL  time.Duration

	retries       int
	retryBase     time.Duration
	retryMax      time.Duration
	maxRetryAfter time.Duration

	guard  *guard
	hosts  *limiter
	robots *robotsCache
	cache  *condCache // nil when conditional GET is off
	stats  counters

	now   func() time.Time
	sleep func(context.Context, time.Duration) error // tests replace it
}

// New returns a Client. An empty Contact (with no UserAgent) is allowed only in tests: the
// operator's address is what lets a venue reach us instead of blocking us.
func New(o Options) *Client {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	if o.UserAgent == "" {
		o.UserAgent = "gigs/1 (+" + o.Contact + ")"
	}
	if o.Agent == "" {
		o.Agent = "gigs"
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 8 << 20
	}
	if o.PerHost <= 0 {
		o.PerHost = 2
	}
	if o.Proxy == nil {
		o.Proxy = http.ProxyFromEnvironment
	}
	def(&o.Timeout, 30*time.Second)
	def(&o.MinGap, 250*time.Millisecond)
	def(&o.MaxCrawlDelay, 30*time.Second)
	def(&o.RobotsTTL, 12*time.Hour)
	def(&o.RobotsErrorTTL, 10*time.Minute)
	def(&o.ConnectTimeout, 5*time.Second)
	def(&o.TLSTimeout, 5*time.Second)
	def(&o.HeaderTimeout, 10*time.Second)
	def(&o.RetryBase, 500*time.Millisecond)
	def(&o.RetryMax, 30*time.Second)
	def(&o.MaxRetryAfter, 60*time.Second)
	def(&o.CacheTTL, 2*o.RobotsTTL)
	if o.MinGap < 0 {
		o.MinGap = 0
	}
	switch {
	case o.Retries == 0:
		o.Retries = 2
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.CacheBytes == 0 {
		o.CacheBytes = 128 << 20
	}

	g := newGuard(o.Allow)
	tr := &http.Transport{
		Proxy:                 g.proxy(o.Proxy),
		DialContext:           g.dialer(o.ConnectTimeout),
		TLSHandshakeTimeout:   o.TLSTimeout,
		ResponseHeaderTimeout: o.HeaderTimeout,
		ExpectContinueTimeout: time.Second,
		// Through one proxy every plain-HTTP host shares the proxy's connection pool, so the
		// pool is sized for hundreds of hosts; politeness is the limiter's job, not the pool's.
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 512,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
		DisableCompression:  true, // we ask for gzip ourselves, to count bytes on the wire
		// No upstream needs more; Go's default (10 MiB) let one header be kept in the
		// conditional-GET cache and sent back at every refresh.
		MaxResponseHeaderBytes: maxHeaderBytes,
	}
	c := &Client{
		client: &http.Client{
			Transport:     tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		transport:     tr,
		guard:         g,
		userAgent:     o.UserAgent,
		agent:         o.Agent,
		maxBytes:      o.MaxBytes,
		timeout:       o.Timeout,
		minGap:        o.MinGap,
		maxCrawlDelay: o.MaxCrawlDelay,
		robotsTTL:     o.RobotsTTL,
		robotsErrTTL:  o.RobotsErrorTTL,
		retries:       o.Retries,
		retryBase:     o.RetryBase,
		retryMax:      o.RetryMax,
		maxRetryAfter: o.MaxRetryAfter,
		now:           time.Now,
		sleep:         sleepCtx,
	}
	c.hosts = newLimiter(o.PerHost, c.now, func(ctx context.Context, d time.Duration) error { return c.sleep(ctx, d) })
	c.robots = newRobotsCache(c.now)
	if o.CacheBytes > 0 {
		c.cache = newCondCache(o.CacheBytes, maxCacheEntries, o.CacheTTL, c.now)
	}
	return c
}

// Allow replaces Options.Allow for the requests that start from now on.
func (c *Client) Allow(networks []netip.Prefix) { c.guard.setAllow(networks) }

// CloseIdleConnections closes the connections the Client keeps open for reuse.
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// Get reads the document at rawURL, sending header (which may be nil; it is neither modified
// nor kept) with the request. ctx bounds the whole call, waiting and retries included, and is
// not kept after return.
//
// A header "Cache-Control: no-store" opts this request out of conditional GET: no validators
// are sent and the body is not kept. A header carrying the caller's own If-None-Match or
// If-Modified-Since does the same, and a 304 then comes back with a nil Body.
// User-Agent and Accept-Encoding are set by the Client.
func (c *Client) Get(ctx context.Context, rawURL string, header http.Header) (*Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("cannot parse url %q: %w", rawURL, err)
	}
	switch u.Scheme {
	case "file":
		return c.getFile(ctx, rawURL, u)
	case "http", "https":
	default:
		return nil, fmt.Errorf("cannot fetch %q: unsupported scheme %q", rawURL, u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("cannot fetch %q: no host", rawURL)
	}

	hdr := make(http.Header, len(header)+4)
	for k, v := range header {
		ck := http.CanonicalHeaderKey(k)
		hdr[ck] = append(hdr[ck][:len(hdr[ck]):len(hdr[ck])], v...)
	}
	hdr.Set("User-Agent", c.userAgent)
	hdr.Set("Accept-Encoding", "gzip")
	if hdr.Get("Accept") == "" {
		hdr.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	}
	useCache := c.cache != nil && !hasDirective(hdr.Values("Cache-Control"), "no-store") &&
		hdr.Get("If-None-Match") == "" && hdr.Get("If-Modified-Since") == ""
	var kept *condEntry
	if useCache {
		if kept = c.cache.get(rawURL); kept != nil {
			if kept.etag != "" {
				hdr.Set("If-None-Match", kept.etag)
			}
			if kept.lastModified != "" {
				hdr.Set("If-Modified-Since", kept.lastModified)
			}
		}
	}

	retries := c.retries
	for hop := 0; ; hop++ {
		rules, err := c.robotsFor(ctx, u)
		if err != nil {
			return nil, fmt.Errorf("cannot fetch %q: reading robots.txt: %w", u, err)
		}
		if why := rules.refusal(robotsPath(u)); why != "" {
			c.stats.robotsRefusals.Add(1)
			return nil, fmt.Errorf("cannot fetch %q: %w (%s)", u, ErrDisallowed, why)
		}
		gap := max(c.minGap, min(rules.crawlDelay, c.maxCrawlDelay))
		rep, err := c.exchange(ctx, u, hdr, gap, &retries, c.maxBytes, false)
		if err != nil {
			return nil, err
		}
		switch {
		case rep.status == http.StatusOK:
			return c.ok(rawURL, u, rep, useCache), nil
		case rep.status == http.StatusNotModified:
			c.stats.notModified.Add(1)
			r := &Response{URL: rawURL, NotModified: true, FinalURL: u.String(), Header: rep.header}
			if kept != nil {
				r.Body = bytes.Clone(kept.body)
				r.ContentType, r.Charset, r.CharsetNote = kept.contentType, kept.charset, kept.note
			}
			return r, nil
		case isRedirect(rep.status) && rep.header.Get("Location") != "":
			if hop == maxRedirects {
				return nil, fmt.Errorf("cannot fetch %q: %w (more than %d)", rawURL, ErrTooManyRedirects, maxRedirects)
			}
			next, err := u.Parse(rep.header.Get("Location"))
			if err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
				return nil, fmt.Errorf("cannot fetch %q: bad redirect to %q", u, rep.header.Get("Location"))
			}
			next.Fragment, next.RawFragment = "", ""
			if !sameOrigin(next, u) {
				for _, k := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2", "Www-Authenticate"} {
					hdr.Del(k)
				}
			}
			c.stats.redirects.Add(1)
			u = next
		default:
			return nil, &StatusError{URL: u.String(), Code: rep.status, RetryAfter: rep.retryAfter}
		}
	}
}

// ok turns a 200 into a Response and keeps its body for conditional GET when it can.
func (c *Client) ok(rawURL string, u *url.URL, rep *reply, useCache bool) *Response {
	d := decodeBody(rep.body, rep.header.Get("Content-Type"))
	if d.fallback {
		c.stats.charsetFallbacks.Add(1)
	}
	c.stats.bytesBody.Add(int64(len(d.body)))
	r := &Response{URL: rawURL, Body: d.body, FinalURL: u.String(), ContentType: d.mediaType,
		Charset: d.charset, CharsetNote: d.note, Header: rep.header}
	if useCache {
		etag, lm := rep.header.Get("ETag"), rep.header.Get("Last-Modified")
		if (etag != "" || lm != "") && len(etag)+len(lm) <= maxValidatorBytes && !hasDirective(rep.header.Values("Cache-Control"), "no-store") {
			c.cache.put(&condEntry{url: rawURL, etag: etag, lastModified: lm, body: bytes.Clone(d.body),
				contentType: d.mediaType, charset: d.charset, note: d.note})
		} else {
			c.cache.remove(rawURL)
		}
	}
	return r
}

// reply is one HTTP answer: the status and headers, and the body of a 200 (decompressed).
type reply struct {
	status     int
	header     http.Header
	body       []byte
	retryAfter time.Duration
}

// exchange asks for u until it gets an answer that is not worth retrying, retries run out
// (*retries is shared by the calls of one Get), or the next wait would pass ctx's deadline;
// it then returns the last answer or error. Bodies are read for 200s only, up to limit bytes:
// beyond that ErrTooLarge, or with truncate the first limit bytes.
func (c *Client) exchange(ctx context.Context, u *url.URL, hdr http.Header, gap time.Duration, retries *int, limit int64, truncate bool) (*reply, error) {
	key := hostKey(u)
	for n := 0; ; n++ {
		rep, retryable, err := c.attempt(ctx, u, key, hdr, gap, limit, truncate)
		var wait time.Duration
		switch {
		case err != nil:
			if !retryable || ctx.Err() != nil {
				return nil, err
			}
			wait = c.backoff(n)
		case retryableStatus(rep.status):
			if rep.retryAfter > c.maxRetryAfter {
				c.hosts.holdOff(key, c.now().Add(c.maxRetryAfter))
				return rep, nil
			}
			if rep.retryAfter > 0 {
				wait = rep.retryAfter
				c.hosts.holdOff(key, c.now().Add(wait))
			} else {
				wait = c.backoff(n)
			}
		default:
			return rep, nil
		}
		if *retries <= 0 {
			return rep, err
		}
		if dl, ok := ctx.Deadline(); ok && c.now().Add(wait).After(dl) {
			return rep, err
		}
		*retries--
		c.stats.retries.Add(1)
		if c.sleep(ctx, wait) != nil {
			return rep, err
		}
	}
}

// queueKey is the context key of WithQueue's Queue.
type queueKey struct{}

// A Queue is told when a request waits its turn at its host and when it has it (see
// WithQueue). Its methods must be safe for concurrent use.
type Queue interface {
	Waiting() // a request begins waiting for its host's slot and next start
	Started() // that request has them (or gave up waiting), and goes on
}

// WithQueue returns ctx carrying q, which a Get made with it tells of every request's wait
// for its turn at its host (robots.txt's included, and the wait for another request's read
// of it), so that the caller can leave the time spent behind other requests out of a
// budget. The wait for the gap after a request made with q itself is not a turn but q's
// own pace: a source that pages forever spends its budget however politely it is paced.
// q must be comparable (a pointer).
func WithQueue(ctx context.Context, q Queue) context.Context {
	return context.WithValue(ctx, queueKey{}, q)
}

// waitTurn waits for done or the end of ctx, telling ctx's Queue, if any, that it waits.
func waitTurn(ctx context.Context, done <-chan struct{}) error {
	if q, _ := ctx.Value(queueKey{}).(Queue); q != nil {
		q.Waiting()
		defer q.Started()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// attempt makes one request while holding a slot of u's host. retryable reports an error
// that a later attempt might not meet (the network, a timeout of this attempt).
func (c *Client) attempt(ctx context.Context, u *url.URL, key string, hdr http.Header, gap time.Duration, limit int64, truncate bool) (rep *reply, retryable bool, err error) {
	slot, waited, err := c.hosts.acquire(ctx, key, gap)
	if err != nil {
		return nil, false, fmt.Errorf("cannot fetch %q: waiting for host %s: %w", u, key, err)
	}
	defer c.hosts.release(slot)
	c.stats.politeWait.Add(int64(waited))

	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, false, fmt.Errorf("cannot make request for %q: %w", u, err)
	}
	req.Header = hdr // read only from here on
	c.stats.requests.Add(1)
	resp, err := c.client.Do(req)
	if err != nil {
		c.stats.netErrors.Add(1)
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if ctx.Err() != nil || errors.Is(err, ErrForbiddenAddress) {
			return nil, false, fmt.Errorf("cannot fetch %q: %w", u, err)
		}
		if actx.Err() != nil {
			return nil, true, fmt.Errorf("cannot fetch %q: no answer within %s: %w", u, c.timeout, err)
		}
		return nil, true, fmt.Errorf("cannot fetch %q: %w", u, err)
	}
	defer resp.Body.Close()
	c.stats.countStatus(resp.StatusCode)
	rep = &reply{status: resp.StatusCode, header: resp.Header}
	if resp.StatusCode != http.StatusOK {
		n, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, drainBytes))
		c.stats.bytesWire.Add(n)
		rep.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), c.now())
		return rep, false, nil
	}
	rep.body, retryable, err = c.readBody(resp, u, limit, truncate)
	if err != nil {
		if ctx.Err() != nil {
			retryable = false
		}
		return nil, retryable, err
	}
	return rep, false, nil
}

// readBody reads a 200's body, decompressing gzip, up to limit bytes.
func (c *Client) readBody(resp *http.Response, u *url.URL, limit int64, truncate bool) (b []byte, retryable bool, err error) {
	gz := strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip")
	if !truncate && resp.ContentLength > limit && !gz {
		c.stats.tooLarge.Add(1)
		return nil, false, fmt.Errorf("cannot read %q: %w (%d bytes, over %d)", u, ErrTooLarge, resp.ContentLength, limit)
	}
	cr := &countingReader{r: resp.Body}
	defer func() { c.stats.bytesWire.Add(cr.n) }()
	var r io.Reader = cr
	if gz {
		zr, err := gzip.NewReader(cr)
		if err != nil {
			if cr.err != nil && cr.err != io.EOF {
				return nil, true, fmt.Errorf("cannot read %q: %w", u, cr.err)
			}
			return nil, false, fmt.Errorf("cannot decompress %q: %w", u, err)
		}
		r = zr
		resp.Header.Del("Content-Encoding") // the caller sees the body as it is handed over
		resp.Header.Del("Content-Length")
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 && !gz {
		buf.Grow(int(min(resp.ContentLength, limit)) + 1)
	}
	_, err = buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		if cr.err != nil && cr.err != io.EOF {
			return nil, true, fmt.Errorf("cannot read %q: %w", u, cr.err)
		}
		return nil, false, fmt.Errorf("cannot read %q: %w", u, err)
	}
	b = buf.Bytes()
	if int64(len(b)) > limit {
		if truncate {
			return b[:limit], false, nil
		}
		c.stats.tooLarge.Add(1)
		return nil, false, fmt.Errorf("cannot read %q: %w (over %d bytes)", u, ErrTooLarge, limit)
	}
	return b, false, nil
}

// getFile reads a local file with the same size cap; text is converted as for HTTP, with the
// media type taken from the file name or sniffed.
func (c *Client) getFile(ctx context.Context, rawURL string, u *url.URL) (*Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cannot open %q: %w", u.Path, err)
	}
	c.stats.files.Add(1)
	fh, err := os.Open(u.Path)
	if err != nil {
		return nil, fmt.Errorf("cannot open %q: %w", u.Path, err)
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, c.maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %w", u.Path, err)
	}
	if int64(len(b)) > c.maxBytes {
		c.stats.tooLarge.Add(1)
		return nil, fmt.Errorf("cannot read %q: %w (over %d bytes)", u.Path, ErrTooLarge, c.maxBytes)
	}
	mt, _, _ := strings.Cut(mime.TypeByExtension(filepath.Ext(u.Path)), ";") // no charset guesses
	d := decodeBody(b, mt)
	if d.fallback {
		c.stats.charsetFallbacks.Add(1)
	}
	c.stats.bytesBody.Add(int64(len(d.body)))
	return &Response{URL: rawURL, Body: d.body, FinalURL: rawURL, ContentType: d.mediaType,
		Charset: d.charset, CharsetNote: d.note}, nil
}

// backoff is the wait before retry n (0-based): full jitter under a ceiling that doubles
// from RetryBase up to RetryMax.
func (c *Client) backoff(n int) time.Duration {
	ceil := c.retryMax
	if n < 30 && c.retryBase<<n < c.retryMax {
		ceil = c.retryBase << n
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
		http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date. 0 when absent,
// unreadable or in the past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if v[0] >= '0' && v[0] <= '9' {
		var secs int64
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return 0
			}
			if secs < 1<<31 {
				secs = secs*10 + int64(v[i]-'0')
			}
		}
		return time.Duration(min(secs, 1<<31)) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil || !t.After(now) {
		return 0
	}
	return t.Sub(now)
}

// hasDirective reports whether one of the Cache-Control values holds directive.
func hasDirective(values []string, directive string) bool {
	for _, v := range values {
		for d := range strings.SplitSeq(v, ",") {
			name, _, _ := strings.Cut(d, "=")
			if strings.EqualFold(strings.TrimSpace(name), directive) {
				return true
			}
		}
	}
	return false
}

// sameOrigin reports whether a and b are one origin (RFC 6454: scheme, host and port):
// credentials follow a redirect only within one, so an https upstream that redirects to
// http never has a platform's key sent in clear text.
func sameOrigin(a, b *url.URL) bool { return a.Scheme == b.Scheme && hostKey(a) == hostKey(b) }

// hostKey is what politeness is keyed on: the URL's host:port in lower case, without the
// scheme's default port, so http://a and https://a:443 are the same host.
func hostKey(u *url.URL) string {
	h := strings.ToLower(u.Host)
	switch {
	case u.Scheme == "http" && strings.HasSuffix(h, ":80"):
		h = h[:len(h)-3]
	case u.Scheme == "https" && strings.HasSuffix(h, ":443"):
		h = h[:len(h)-4]
	}
	return h
}

type countingReader struct {
	r   io.Reader
	n   int64
	err error // the last error from r
}

func (cr *countingReader) Read(p []byte) (int, error) {
	n, err := cr.r.Read(p)
	cr.n += int64(n)
	if err != nil {
		cr.err = err
	}
	return n, err
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
