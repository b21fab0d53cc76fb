package server

import (
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"
)

// kind is a problem type: a URI per kind, a fixed title and a status, and the one header
// (name and value) every problem of the kind carries, if any.
type kind struct {
	slug        string
	title       string
	status      int
	header, val string
}

// The problem kinds. Their type URIs are relative references, /problems/<slug>.
var (
	kindInvalidParam     = kind{"invalid-parameter", "Invalid parameter", 400, "", ""}
	kindNotFound         = kind{"not-found", "Not found", 404, "", ""}
	kindMethodNotAllowed = kind{"method-not-allowed", "Method not allowed", 405, "Allow", allowMethods}
	kindNotReady         = kind{"not-ready", "Not ready", 503, "Retry-After", "5"}
	kindRateLimited      = kind{"rate-limited", "Too many requests", 429, "", ""} // Retry-After varies: Problem.retryAfter
	kindInternal         = kind{"internal", "Internal error", 500, "", ""}
	kindBadRequest       = kind{"bad-request", "Bad request", 400, "", ""}
	kindRequestTimeout   = kind{"request-timeout", "Request timeout", 408, "", ""}
	kindHeadersTooLarge  = kind{"headers-too-large", "Request headers too large", 431, "", ""}
	kindBodyTooLarge     = kind{"body-too-large", "Request body too large", 413, "", ""}
	kindGone             = kind{"gone", "Gig removed", 410, "", ""}
	kindCursorExpired    = kind{"cursor-expired", "Cursor expired", 410, "", ""}
)

// InvalidParam names one bad query parameter and says why.
type InvalidParam struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Problem is an error a handler returns to answer with a problem body. It owns the
// response's headers beyond those every response carries: its kind's, and Retry-After
// when retryAfter is set.
type Problem struct {
	kind       kind
	Detail     string
	Invalid    []InvalidParam // at most maxInvalid
	More       int            // bad parameters beyond Invalid
	retryAfter string         // whole seconds; "" for none, or the kind's own
	tombstone  *tombstoneJSON // of a removed gig, written into the body
}

// tombstoneJSON is a removed gig's tombstone, as a gone problem carries it.
type tombstoneJSON struct {
	ID         string `json:"id"`
	RemovedAt  string `json:"removed_at"`
	Reason     string `json:"reason"`
	MergedInto string `json:"merged_into,omitempty"`
}

// maxInvalid caps the bad parameters a problem lists: a request with thousands of them
// gets the first ones and their count, not a body the size of its query.
const maxInvalid = 20

func (p *Problem) Error() string { return p.kind.title + ": " + p.Detail }

func notFound(format string, args ...any) *Problem {
	return &Problem{kind: kindNotFound, Detail: fmt.Sprintf(format, args...)}
}

// invalidParams is the problem for bad query parameters, naming the first maxInvalid of
// them; nil when there are none.
func invalidParams(list []InvalidParam) error {
	if len(list) == 0 {
		return nil
	}
	more := max(len(list)-maxInvalid, 0)
	list = list[:len(list)-more]
	names := make([]string, len(list))
	for i, p := range list {
		names[i] = p.Name
	}
	detail := "invalid query parameters: " + strings.Join(names, ", ")
	if more > 0 {
		detail += fmt.Sprintf(" and %d more", more)
	}
	return &Problem{kind: kindInvalidParam, Detail: detail, Invalid: list, More: more}
}

type problemJSON struct {
	Type          string         `json:"type"`
	Title         string         `json:"title"`
	Status        int            `json:"status"`
	Detail        string         `json:"detail,omitempty"`
	Instance      string         `json:"instance"`
	RequestID     string         `json:"request_id"`
	InvalidParams []InvalidParam `json:"invalid_params,omitempty"`
	More          int            `json:"more_invalid_params,omitempty"`
	*tombstoneJSON
}

// problemOwned are the headers a problem answer sets itself, or leaves out: whatever a
// handler or the router set of them before the problem is dropped.
var problemOwned = []string{"Cache-Control", "ETag", "Last-Modified", "Link", "Vary", "Content-Encoding",
	"Content-Security-Policy", "Allow", "Retry-After", "WWW-Authenticate", "Accept-Ranges"}

// writeProblem replaces the response with a problem body and the headers the problem owns
// (see Problem); the headers every response carries (request id, CORS, nosniff, the
// rate limit's) stay.
func writeProblem(ctx *fasthttp.RequestCtx, p *Problem) {
	h := &ctx.Response.Header
	for _, k := range problemOwned {
		h.Del(k)
	}
	h.Set("Cache-Control", "no-store")
	if p.kind.header != "" {
		h.Set(p.kind.header, p.kind.val)
	}
	if p.retryAfter != "" {
		h.Set("Retry-After", p.retryAfter)
	}
	body, err := json.MarshalWithOption(problemJSON{
		Type:          "/problems/" + p.kind.slug,
		Title:         p.kind.title,
		Status:        p.kind.status,
		Detail:        p.Detail,
		Instance:      string(appendURIPath(nil, ctx.URI().PathOriginal())), // as sent: routes match the raw path
		RequestID:     string(h.Peek(hdrRequestID)),
		InvalidParams: p.Invalid,
		More:          p.More,
		tombstoneJSON: p.tombstone,
	}, json.DisableHTMLEscape())
	if err != nil { // cannot happen for these types; never leave the client without an answer
		body = []byte(`{"type":"/problems/internal","title":"Internal error","status":500}`)
	}
	ctx.SetStatusCode(p.kind.status)
	ctx.SetContentType("application/problem+json")
	ctx.SetBody(body)
}

// appendURIPath appends path, as a request sent it, as a URI reference's path (RFC 3986
// 3.3): bytes a path may not hold ("<", a space, a quote, a byte of no ASCII character),
// a "%" that begins no escape, a ":" before the first "/" (it would read as a scheme) and
// the second "/" of a path that begins with two (they would begin an authority) are
// percent-encoded; the rest is kept, escapes too.
func appendURIPath(dst, path []byte) []byte {
	const hex = "0123456789ABCDEF"
	slash := false
	for i, c := range path {
		slash = slash || c == '/'
		switch {
		case c == '/' && i == 1 && path[0] == '/':
			dst = append(dst, "%2F"...)
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~!$&'()*+,;=@/", c) >= 0,
			c == ':' && slash, c == '%' && i+2 < len(path) && isHex(path[i+1]) && isHex(path[i+2]):
			dst = append(dst, c)
		default:
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		}
	}
	return dst
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
