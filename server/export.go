package server

import (
	"crypto/sha256"
	"errors"
	"time"

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

var ()

// download answers /v1/gigs/download: every upcoming gig in one body, for holders of a
// personal key. The client's read limit has been spent before the key is looked at, so
// guessing keys is throttled; then the key's own export limit applies. The body is served
// from bytes rendered and compressed once per snapshot, so the first byte does not wait
// for the data.
func (s *Server) download(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	if err := noParams(ctx); err != nil {
		return err
	}
	rec, err := s.checkKey(ctx.Request.Header.Peek("X-API-Key"))
	if err != nil {
		return err
	}
	e := snap.Export()
	h := &ctx.Response.Header
	h.Set("Cache-Control", "private, no-store")
	h.Set("ETag", e.ETag)
	h.SetBytesV("Last-Modified", s.lastModified(snap))
	h.Set("Vary", "Accept-Encoding")
	sum := sha256.Sum256([]byte(rec.ID))
	k := limit.Key(sum[:16]) // the key's quota is by its id
	if notModified(&ctx.Request.Header, []byte(e.ETag), snap.Changed(), true) {
		s.exportHeaders.set(ctx, s.exports.Peek(k, s.now(ctx)))
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		ctx.Response.SkipBody = true
		return nil // costs no export: checked before the quota is touched
	}
	d := s.exports.Take(k, s.now(ctx))
	s.m.limitDecision(limitExport, d.Allowed)
	s.exportHeaders.set(ctx, d)
	if !d.Allowed {
		return tooMany(d, s.exportPolicy+" per key")
	}
	ctx.SetContentType("application/json")
	if acceptsGzip(ctx.Request.Header.Peek("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		ctx.Response.SetBodyStream(e.GzipReader(), e.GzipSize)
		if !ctx.IsHead() {
			s.m.export[1].Add(float64(e.GzipSize))
		}
		return nil
	}
	ctx.Response.SetBodyStream(e.Reader(snap), e.Size)
	if !ctx.IsHead() {
		s.m.export[0].Add(float64(e.Size))
	}
	return nil
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
