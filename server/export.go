package server

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/server/limit"
)

// The key problems: four distinct kinds of 401.
var (
	kindMissingKey   = kind{"missing-key", "API key required", 401, "WWW-Authenticate", wwwAuthenticate}
	kindMalformedKey = kind{"malformed-key", "Malformed API key", 401, "WWW-Authenticate", wwwAuthenticate}
	kindUnknownKey   = kind{"unknown-key", "Unknown API key", 401, "WWW-Authenticate", wwwAuthenticate}
	kindRevokedKey   = kind{"revoked-key", "Revoked API key", 401, "WWW-Authenticate", wwwAuthenticate}
	// The key store could not be read for too long to trust a key: a 503, not a 401.
	kindKeysUnavailable = kind{"keys-unavailable", "Key store unavailable", 503, "Retry-After", "60"}
)

// wwwAuthenticate names the key's header on every 401 (RFC 9110 §15.5.2).
const wwwAuthenticate = `APIKey header="X-API-Key"`

// kindRangeNotSatisfiable is a Range with no byte in the body; its Content-Range gives the
// body's size.
var kindRangeNotSatisfiable = kind{"range-not-satisfiable", "Range not satisfiable", 416, "", ""}

// download answers /v1/gigs/download: every upcoming gig in one body, for holders of a
// personal key. The client's read limit has been spent before the key is looked at, so
// guessing keys is throttled; then the key's own export limit applies. The body is served
// from bytes rendered and compressed once per snapshot, so the first byte does not wait
// for the data. A GET may ask for one range of the body in the encoding it accepts
// (RFC 9110 14), to resume a download: each encoding has its own strong ETag for If-Range.
func (s *Server) download(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	if err := noParams(ctx); err != nil {
		return err
	}
	rec, err := s.checkKey(ctx.Request.Header.Peek("X-API-Key"))
	if err != nil {
		return err
	}
	e := snap.Export()
	gz := acceptsGzip(ctx.Request.Header.Peek("Accept-Encoding"))
	size, tag := e.Size, e.Tag(gz)
	if gz {
		size = e.GzipSize
	}
	h := &ctx.Response.Header
	h.Set("Cache-Control", "private, no-store")
	h.Set("ETag", tag)
	h.SetBytesV("Last-Modified", s.lastModified(snap))
	h.Set("Vary", "Accept-Encoding")
	h.Set("Accept-Ranges", "bytes")
	sum := sha256.Sum256([]byte(rec.ID))
	k := limit.Key(sum[:16]) // the key's quota is by its id
	if notModified(&ctx.Request.Header, []byte(tag), snap.Changed(), true) {
		s.exportHeaders.set(ctx, s.exports.Peek(k, s.now(ctx)))
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		ctx.Response.SkipBody = true
		return nil // costs no export: checked before the quota is touched
	}
	first, n := 0, size
	partial := false
	if r := ctx.Request.Header.Peek("Range"); len(r) > 0 && ctx.IsGet() && ifRange(ctx.Request.Header.Peek("If-Range"), tag) {
		var ok, unsatisfiable bool
		if first, n, ok, unsatisfiable = byteRange(r, size); unsatisfiable {
			h.Set("Content-Range", "bytes */"+strconv.Itoa(size))
			return &Problem{kind: kindRangeNotSatisfiable, Detail: "the Range asks for no byte of the body, which has " + strconv.Itoa(size) + " bytes in this encoding"}
		}
		if !ok { // another unit, several ranges or a malformed value: the whole body
			first, n = 0, size
		}
		partial = ok
	}
	d := s.exports.Take(k, s.now(ctx))
	s.m.limitDecision(limitExport, d.Allowed)
	s.exportHeaders.set(ctx, d)
	if !d.Allowed {
		return tooMany(d, s.exportPolicy+" per key")
	}
	ctx.SetContentType("application/json")
	if gz {
		h.Set("Content-Encoding", "gzip")
	}
	if partial {
		ctx.SetStatusCode(fasthttp.StatusPartialContent)
		h.Set("Content-Range", "bytes "+strconv.Itoa(first)+"-"+strconv.Itoa(first+n-1)+"/"+strconv.Itoa(size))
	}
	sent := s.m.export[0]
	if gz {
		sent = s.m.export[1]
	}
	ctx.Response.SetBodyStream(&countedReader{e.Body(snap, gz, first, n), sent}, n)
	return nil
}

// countedReader adds what is read from r to sent: the bytes fasthttp hands to the
// connection as it writes them (none for a HEAD), not the body's size, so that an export
// the client stops reading counts only what it was sent.
type countedReader struct {
	r    io.Reader
	sent prometheus.Counter
}

func (c *countedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.sent.Add(float64(n))
	return n, err
}

// WriteTo hands the body's parts to w as they are, counting them as they go: the export is
// a few parts of megabytes, each written to the connection in one call, not copied through
// a buffer.
func (c *countedReader) WriteTo(w io.Writer) (int64, error) {
	return io.Copy(countedWriter{w, c.sent}, c.r)
}

type countedWriter struct {
	w    io.Writer
	sent prometheus.Counter
}

func (c countedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.sent.Add(float64(n))
	return n, err
}

// byteRange reads a Range value against a body of size bytes (RFC 9110 14.1.2): ok with
// the n bytes from first when it asks for one range of bytes that holds at least one;
// unsatisfiable when it is well-formed but none of its ranges holds one (a 416). A range
// past the end is cut at the end. Anything else (another unit, several ranges, a last byte
// before the first, a malformed value) is neither: the RFC lets a server ignore it and
// send the whole body.
func byteRange(v []byte, size int) (first, n int, ok, unsatisfiable bool) {
	unit, set, found := bytes.Cut(v, []byte{'='})
	if !found || !bytes.EqualFold(unit, []byte("bytes")) {
		return 0, 0, false, false
	}
	var spec []byte
	specs := 0
	for item := range bytes.SplitSeq(set, []byte{','}) {
		if item = bytes.Trim(item, " \t"); len(item) > 0 { // a list may hold empty items
			spec, specs = item, specs+1
		}
	}
	if specs != 1 {
		return 0, 0, false, false
	}
	a, b, found := bytes.Cut(spec, []byte{'-'})
	lo, okA := digits(a)
	hi, okB := digits(b)
	switch {
	case !found || (len(a) > 0 && !okA) || (len(b) > 0 && !okB) || (len(a) == 0 && len(b) == 0):
		return 0, 0, false, false
	case len(a) == 0: // the last hi bytes
		if hi == 0 || size == 0 {
			return 0, 0, false, true
		}
		first = max(size-hi, 0)
		return first, size - first, true, false
	case len(b) > 0 && hi < lo:
		return 0, 0, false, false
	case lo >= size:
		return 0, 0, false, true
	case len(b) == 0 || hi >= size:
		return lo, size - lo, true, false
	}
	return lo, hi - lo + 1, true, false
}

// ifRange reports whether a Range may be served given the request's If-Range value v: when
// there is none, or it is the body's strong tag itself (RFC 9110 13.1.5: a weak tag never
// matches). A date is not taken: the snapshot's Last-Modified is not a strong validator
// (two snapshots may change within one second), so a date resumes nothing and the whole
// body is sent.
func ifRange(v []byte, tag string) bool {
	return len(v) == 0 || string(v) == tag
}

// checkKey checks an X-API-Key value, in order: present, well-formed, checksum, known,
// not revoked. Its problems never repeat the key.
func (s *Server) checkKey(key []byte) (keys.Record, error) {
	rec, res, err := s.checkKeyResult(key)
	s.m.keyChecks[res].Inc()
	return rec, err
}

// checkKeyResult is checkKey, naming the result for the metrics too.
func (s *Server) checkKeyResult(key []byte) (keys.Record, keyResult, error) {
	if len(key) == 0 {
		return keys.Record{}, keyMissing, &Problem{kind: kindMissingKey, Detail: "send your personal key in the X-API-Key header; " + s.askFor("a key")}
	}
	rec, err := s.o.Keys.Check(key)
	var revoked *keys.RevokedError
	switch {
	case err == nil:
		return rec, keyValid, nil
	case errors.Is(err, keys.ErrMalformed), errors.Is(err, keys.ErrChecksum):
		return rec, keyMalformed, &Problem{kind: kindMalformedKey, Detail: "the X-API-Key value is not a gigs key (gigs_ and 58 letters and digits); check for a copying mistake"}
	case errors.Is(err, keys.ErrUnknown):
		return rec, keyUnknown, &Problem{kind: kindUnknownKey, Detail: "this key is not known; " + s.askFor("a key")}
	case errors.Is(err, keys.ErrUnavailable):
		return rec, keyUnavailable, &Problem{kind: kindKeysUnavailable, Detail: "keys cannot be checked right now; retry in a minute"}
	case errors.As(err, &revoked):
		return rec, keyRevoked, &Problem{kind: kindRevokedKey, Detail: "this key was revoked on " + revoked.When.UTC().Format(time.DateOnly) +
			" (" + revoked.Reason + ") and stays revoked; " + s.askFor("a new key")}
	}
	return rec, keyError, err // the store failed in a way it does not name: a 500
}

// tooMany is the 429 problem of a spent quota, with its Retry-After.
func tooMany(d limit.Decision, policy string) *Problem {
	wait := string(appendCeilSeconds(nil, d.RetryAfter))
	return &Problem{kind: kindRateLimited, retryAfter: wait, Detail: "more than " + policy + "; wait for Retry-After seconds (" + wait + ")"}
}

// askFor says how to ask for a key.
func (s *Server) askFor(what string) string {
	if s.o.Contact == "" {
		return "to get " + what + ", ask the operator of this API"
	}
	return "to get " + what + ", write to " + s.o.Contact
}
