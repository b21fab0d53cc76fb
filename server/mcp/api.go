package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A Reader answers GET requests of the read API: path is a /v1 path (its segments
// escaped), query its parameters, etag an ETag for If-None-Match ("" for none). It
// answers as the public API does, problems included; an error is only for a request that
// got no answer (the API cannot be reached). Safe for concurrent use.
type Reader interface {
	Read(ctx context.Context, path string, query url.Values, etag string) (*Response, error)
}

// Response is the API's answer to a Reader's request.
type Response struct {
	Status     int
	Body       []byte // identity-encoded JSON: a resource, a page or a problem; none on 304
	ETag       string
	Location   string // of a redirect (a merged gig)
	RetryAfter string // of a 429 or 503, in seconds
}

// MaxRequest caps a request to the MCP server, in bytes: a POST to /mcp, a line on
// stdio. A tool call's arguments are at most a few kilobytes (twenty alternatives of 200
// bytes in a filter or two).
const MaxRequest = 64 << 10

// MaxBody caps the body a Reader reads: the largest venue or artist detail (every
// upcoming gig of a busy venue) is a few megabytes.
const MaxBody = 64 << 20

// HTTPReader reads a gigs API over HTTP, as `gigsctl mcp -api URL` does: Base is the
// API's root ("https://gigs.example", without /v1). It follows no redirect (the tools
// do, as they do in-process) and asks for identity bodies.
type HTTPReader struct {
	Base   string
	Client *http.Client // http.DefaultClient's transport with a 30 s time limit when nil
}

// NewHTTPReader returns an HTTPReader of the API at base, an http or https URL.
func NewHTTPReader(base string) (*HTTPReader, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
		return nil, fmt.Errorf("the API's URL must be http(s)://host[:port][/prefix], not %q", base)
	}
	return &HTTPReader{Base: strings.TrimSuffix(base, "/"), Client: &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}, nil
}

// Read implements Reader.
func (r *HTTPReader) Read(ctx context.Context, path string, query url.Values, etag string) (*Response, error) {
	u := r.Base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "gigsctl-mcp")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the gigs API: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the gigs API's answer: %w", err)
	}
	if len(body) > MaxBody {
		return nil, fmt.Errorf("the gigs API's answer to %s exceeds %d bytes", path, MaxBody)
	}
	return &Response{Status: resp.StatusCode, Body: body, ETag: resp.Header.Get("ETag"),
		Location: resp.Header.Get("Location"), RetryAfter: resp.Header.Get("Retry-After")}, nil
}
