// Package fetch reads upstream documents politely: over HTTP(S) or from file URLs, with
// time limits and a size cap.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"
)

// Options configure a Client. Zero fields take the defaults shown.
type Options struct {
	UserAgent string        // "gigs/1 (+Contact)"
	Contact   string        // operator's contact for the User-Agent
	MaxBytes  int64         // 8 MiB: larger documents are refused
	Timeout   time.Duration // 30s for a whole request, body included
	// Proxy chooses a proxy per request, as http.Transport.Proxy; nil uses the
	// HTTP_PROXY/HTTPS_PROXY/NO_PROXY environment.
	Proxy func(*http.Request) (*url.URL, error)
}

// Response is a document as read.
type Response struct {
	URL  string // the URL asked for
	Body []byte // the document, converted to UTF-8 when it is text
	// NotModified is set when the server answered 304 to a conditional request; Body is then
	// the body cached from the last 200 for this URL.
	NotModified bool
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

// ErrTooLarge is returned (wrapped) for documents over Options.MaxBytes.
var ErrTooLarge = errors.New("document too large")

// Client reads documents. Safe for concurrent use.
type Client struct {
	client    *http.Client
	userAgent string
	maxBytes  int64
	timeout   time.Duration
}

// New returns a Client.
func New(o Options) *Client {
	if o.UserAgent == "" {
		o.UserAgent = "gigs/1 (+" + o.Contact + ")"
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 8 << 20
	}
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Proxy == nil {
		o.Proxy = http.ProxyFromEnvironment
	}
	tr := &http.Transport{
		Proxy:                 o.Proxy,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Client{client: &http.Client{Transport: tr}, userAgent: o.UserAgent, maxBytes: o.MaxBytes, timeout: o.Timeout}
}

// Get reads the document at rawURL, sending header (which may be nil) with the request.
func (c *Client) Get(ctx context.Context, rawURL string, header http.Header) (*Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("cannot parse url %q: %w", rawURL, err)
	}
	if u.Scheme == "file" {
		fh, err := os.Open(u.Path)
		if err != nil {
			return nil, fmt.Errorf("cannot open %q: %w", u.Path, err)
		}
		defer fh.Close()
		b, err := c.readCapped(fh, rawURL)
		if err != nil {
			return nil, err
		}
		return &Response{URL: rawURL, Body: b}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot make request for %q: %w", rawURL, err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", c.userAgent)
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot fetch %q: %w", rawURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{URL: rawURL, Code: resp.StatusCode}
	}
	b, err := c.readCapped(resp.Body, rawURL)
	if err != nil {
		return nil, err
	}
	return &Response{URL: rawURL, Body: b}, nil
}

func (c *Client) readCapped(r io.Reader, ref string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, c.maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %w", ref, err)
	}
	if int64(len(b)) > c.maxBytes {
		return nil, fmt.Errorf("cannot read %q: %w (over %d bytes)", ref, ErrTooLarge, c.maxBytes)
	}
	return b, nil
}
