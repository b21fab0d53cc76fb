package server

import "github.com/valyala/fasthttp"

// The names of the headers every /v1 request reads (peek) and sets (setHeader), as bytes.
// They are canonical: fasthttp normalizes the names of the request headers it reads, and
// begin turns the response's normalizing off, so they are found and written as they are.
var (
	keyAcceptEncoding  = []byte("Accept-Encoding")
	keyIfNoneMatch     = []byte("If-None-Match")
	keyIfModifiedSince = []byte("If-Modified-Since")
	keyPragma          = []byte("Pragma")

	keyRequestID     = []byte(hdrRequestID)
	keyNoSniff       = []byte("X-Content-Type-Options")
	keyAllowOrigin   = []byte("Access-Control-Allow-Origin")
	keyExposeHeaders = []byte("Access-Control-Expose-Headers")
	keyRatePolicy    = []byte("RateLimit-Policy")
	keyRateLimit     = []byte("RateLimit")
	keyXRateLimit    = []byte("X-RateLimit-Limit")
	keyXRateRemain   = []byte("X-RateLimit-Remaining")
	keyXRateReset    = []byte("X-RateLimit-Reset")
	keyCacheControl  = []byte("Cache-Control") // read too
	keyETag          = []byte("ETag")
	keyLastModified  = []byte("Last-Modified")
	keyVary          = []byte("Vary")
	keyLink          = []byte("Link")
	keyEncoding      = []byte("Content-Encoding")

	valNoSniff       = []byte("nosniff")
	valAnyOrigin     = []byte("*")
	valExposeHeaders = []byte(exposedHeaders)
	valVaryEncoding  = []byte("Accept-Encoding")
	valGzip          = []byte("gzip")
)

// setHeader sets the response header key, a canonical name such as the key* variables
// hold, to value: the same bytes as ResponseHeader.Set and SetBytesV write, at less cost
// on every request. Those copy the name and look for line breaks in it (and Set in the
// value twice); SetCanonical takes the name as it is and removes line breaks from the
// value once. key is not modified.
func setHeader(h *fasthttp.ResponseHeader, key, value []byte) { h.SetCanonical(key, value) }

// peek returns the value of the request header key, a canonical name: as
// RequestHeader.Peek does, without copying and normalizing the name first.
func peek(h *fasthttp.RequestHeader, key []byte) []byte { return h.PeekCanonical(key) }
