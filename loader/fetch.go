package loader

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

// Fetcher reads documents over HTTP(S) or from file URLs, with time limits and a size cap.
// Safe for concurrent use.
type Fetcher struct {
	client    *http.Client
	userAgent string
	maxBytes  int64
	timeout   time.Duration
}

// FetchOptions configure a Fetcher. Zero fields take the defaults shown.
type FetchOptions struct {
	UserAgent string        // "gigs/1 (+Contact)"
	Contact   string        // operator's contact for the User-Agent
	MaxBytes  int64         // 8 MiB: larger documents are refused
	Timeout   time.Duration // 30s for a whole request, body included
}

// NewFetcher returns a Fetcher.
func NewFetcher(o FetchOptions) *Fetcher {
	if o.UserAgent == "" {
		o.UserAgent = "gigs/1 (+" + o.Contact + ")"
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 8 << 20
	}
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		MaxConnsPerHost:       2,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Fetcher{client: &http.Client{Transport: tr}, userAgent: o.UserAgent, maxBytes: o.MaxBytes, timeout: o.Timeout}
}

// Get reads the document at rawURL.
func (f *Fetcher) Get(ctx context.Context, rawURL string) ([]byte, error) {
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
		return f.readCapped(fh, rawURL)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot make request for %q: %w", rawURL, err)
	}
	req.Header.Set("User-Agent", f.userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot fetch %q: %w", rawURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("cannot fetch %q: status %s", rawURL, resp.Status)
	}
	return f.readCapped(resp.Body, rawURL)
}

var errTooLarge = errors.New("document too large")

func (f *Fetcher) readCapped(r io.Reader, ref string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, f.maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %w", ref, err)
	}
	if int64(len(b)) > f.maxBytes {
		return nil, fmt.Errorf("cannot read %q: %w (over %d bytes)", ref, errTooLarge, f.maxBytes)
	}
	return b, nil
}
