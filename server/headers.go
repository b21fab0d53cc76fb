package server

import "github.com/valyala/fasthttp"

// The names of the response headers every /v1 request sets, as bytes for setHeader. They
// are canonical, and begin turns the response's normalizing off: written as they are.
var (
	keyRequestID     = []byte(hdrRequestID)
	keyNoSniff       = []byte("X-Content-Type-Options")
	keyAllowOrigin   = []byte("Access-Control-Allow-Origin")
	keyExposeHeaders = []byte("Access-Control-Expose-Headers")
	keyRatePolicy    = []byte("RateLimit-Policy")
	keyRateLimit     = []byte("RateLimit")
	keyXRateLimit    = []byte("X-RateLimit-Limit")
	keyXRateRemain   = []byte("X-RateLimit-Remaining")
	keyXRateReset    = []byte("X-RateLimit-Reset")
	keyCacheControl  = []byte("Cache-Control")
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
