package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// robots is what one robots.txt says to us (RFC 9309): the rules of the groups for our
// product token, else of the "*" groups. Immutable once made.
type robots struct {
	rules      []robotsRule
	crawlDelay time.Duration // from Crawl-delay in the chosen groups; 0 when absent
	// unreachable, when set, is why the file could not be read; everything is disallowed.
	unreachable string
}

// robotsRule is one Allow or Disallow line.
type robotsRule struct {
	pattern string // normalised by normalizeRobotsPath; may hold '*' and a final '$'
	allow   bool
}

var allowAll = &robots{}

// parseRobots reads a robots.txt for the product token agent. It never fails: lines it does
// not understand are skipped. body is not modified or kept.
//
// Groups start at one or more User-agent lines and run to the next User-agent line that
// follows a rule. A group is ours when a User-agent value's product token (its leading
// letters, '_' and '-') equals agent ignoring case; all our groups are combined, and only
// when there is none are all the "*" groups combined instead. Empty Allow/Disallow values are
// ignored, as are rules before the first User-agent line. Crawl-delay (seconds, fractions
// allowed) counts in the groups it appears in; the largest wins.
func parseRobots(body []byte, agent string) *robots {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	var (
		mine, star           []robotsRule
		mineSeen, starSeen   bool
		mineDelay, starDelay float64
		inAgents             bool // the previous record was a User-agent line
		forMe, forStar       bool // the current group applies to agent, to "*"
	)
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key := string(bytes.ToLower(bytes.TrimSpace(k)))
		val := string(bytes.TrimSpace(v))
		switch key {
		case "user-agent":
			if !inAgents {
				forMe, forStar, inAgents = false, false, true
			}
			if strings.HasPrefix(val, "*") {
				forStar, starSeen = true, true
			} else if tok := productToken(val); tok != "" && strings.EqualFold(tok, agent) {
				forMe, mineSeen = true, true
			}
		case "allow", "disallow":
			inAgents = false
			if val == "" {
				continue
			}
			r := robotsRule{pattern: normalizeRobotsPath(val), allow: key == "allow"}
			if forMe {
				mine = append(mine, r)
			}
			if forStar {
				star = append(star, r)
			}
		case "crawl-delay":
			inAgents = false
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(f) || f <= 0 {
				continue
			}
			f = min(f, 1e6)
			if forMe {
				mineDelay = max(mineDelay, f)
			}
			if forStar {
				starDelay = max(starDelay, f)
			}
		}
	}
	switch {
	case mineSeen:
		return &robots{rules: mine, crawlDelay: time.Duration(mineDelay * float64(time.Second))}
	case starSeen:
		return &robots{rules: star, crawlDelay: time.Duration(starDelay * float64(time.Second))}
	}
	return allowAll
}

// productToken is the leading run of letters, '_' and '-' of a User-agent value.
func productToken(v string) string {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return v[:i]
		}
	}
	return v
}

// allowed reports whether path (an escaped path with its query, as from robotsPath) may be
// fetched: the longest matching rule decides, an Allow winning a tie, and no match allows.
// /robots.txt is always allowed.
func (r *robots) allowed(path string) bool {
	if r.unreachable != "" {
		return false
	}
	if path == "/robots.txt" || len(r.rules) == 0 {
		return true
	}
	p := normalizeRobotsPath(path)
	best, allow := -1, true
	for _, rule := range r.rules {
		n := len(rule.pattern)
		if n < best || n == best && (allow || !rule.allow) {
			continue // cannot change the outcome
		}
		if robotsMatch(rule.pattern, p) {
			best, allow = n, rule.allow
		}
	}
	return allow
}

// refusal is "" when path may be fetched, else why not.
func (r *robots) refusal(path string) string {
	switch {
	case r.unreachable != "":
		return "robots.txt unreachable: " + r.unreachable
	case !r.allowed(path):
		return "path disallowed"
	}
	return ""
}

// robotsMatch reports whether pattern matches a prefix of path ('*' matching any run of
// octets), or all of it when pattern ends in '$'. Both are normalised.
func robotsMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	p, s := 0, 0
	starP, starS := -1, 0
	for {
		switch {
		case p == len(pattern):
			if !anchored || s == len(path) {
				return true
			}
		case pattern[p] == '*':
			starP, starS = p, s
			p++
			continue
		case s < len(path) && pattern[p] == path[s]:
			p++
			s++
			continue
		}
		// Mismatch: let the last '*' swallow one more octet, if there is one to swallow.
		if starP < 0 || starS >= len(path) {
			return false
		}
		starS++
		p, s = starP+1, starS
	}
}

// normalizeRobotsPath brings a path (from a URL or a rule) to the form RFC 9309 §2.2.2
// compares: octets outside printable ASCII percent-encoded, percent-encoded unreserved
// characters decoded, and other escapes in upper case. It does not allocate when there is
// nothing to change.
func normalizeRobotsPath(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = s[i] > ' ' && s[i] < 0x7f && s[i] != '%'
	}
	if clean {
		return s
	}
	const hexdigits = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(hexdigits[d>>4])
				b.WriteByte(hexdigits[d&15])
			}
			i += 2
		case c <= ' ' || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hexdigits[c>>4])
			b.WriteByte(hexdigits[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// isUnreserved reports an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// robotsPath is the part of u that robots.txt rules are matched against.
func robotsPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	return p
}

// robotsCache keeps one robots per scheme and host, fetching each once however many
// goroutines ask at the same time. Expired entries are swept every sweepEvery, so memory
// follows the hosts asked for within RobotsTTL; each entry holds only the rules of our group.
type robotsCache struct {
	now func() time.Time // immutable

	mu        sync.Mutex
	m         map[string]*robotsEntry // protected by mu
	lastSweep time.Time               // protected by mu
}

type robotsEntry struct {
	done    chan struct{} // closed once the fetch has ended
	rules   *robots       // set before done is closed; nil when the fetch was abandoned
	expires time.Time     // protected by robotsCache.mu
}

func newRobotsCache(now func() time.Time) *robotsCache {
	return &robotsCache{now: now, m: make(map[string]*robotsEntry), lastSweep: now()}
}

// get returns the robots for key, calling fetch when there is none or it expired. fetch's
// error (ctx ended) is not cached: whoever waits on it tries again.
func (rc *robotsCache) get(ctx context.Context, key string, fetch func(context.Context) (*robots, time.Duration, error)) (*robots, error) {
	for {
		rc.mu.Lock()
		now := rc.now()
		if now.Sub(rc.lastSweep) >= sweepEvery {
			for k, e := range rc.m {
				if e.rules != nil && now.After(e.expires) {
					delete(rc.m, k)
				}
			}
			rc.lastSweep = now
		}
		e := rc.m[key]
		if e != nil && e.rules != nil && now.After(e.expires) {
			e = nil
		}
		if e == nil {
			e = &robotsEntry{done: make(chan struct{})}
			rc.m[key] = e
			rc.mu.Unlock()
			rules, ttl, err := fetch(ctx)
			rc.mu.Lock()
			if err != nil {
				delete(rc.m, key)
			} else {
				e.rules, e.expires = rules, rc.now().Add(ttl)
			}
			close(e.done)
			rc.mu.Unlock()
			return rules, err
		}
		rc.mu.Unlock()
		if err := waitTurn(ctx, e.done); err != nil { // another request reads it: a turn at the host
			return nil, err
		}
		rc.mu.Lock()
		rules := e.rules
		rc.mu.Unlock()
		if rules != nil {
			return rules, nil
		}
	}
}

// robotsFor returns the robots.txt rules for u's scheme and host.
func (c *Client) robotsFor(ctx context.Context, u *url.URL) (*robots, error) {
	return c.robots.get(ctx, u.Scheme+"://"+hostKey(u), func(ctx context.Context) (*robots, time.Duration, error) {
		return c.fetchRobots(ctx, u)
	})
}

// fetchRobots reads robots.txt for u's scheme and host, as RFC 9309 §2.3.1 says: redirects
// followed up to 5 hops (more: unavailable), a 4xx (except 429) or too many redirects allow
// everything, a 5xx, a 429 or a network failure disallow everything for RobotsErrorTTL. The
// body is read up to 500 KiB; a line cut there is dropped. It fails only when ctx ends or
// its deadline comes before the host may be asked.
func (c *Client) fetchRobots(ctx context.Context, u *url.URL) (*robots, time.Duration, error) {
	c.stats.robotsFetches.Add(1)
	cur := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}
	hdr := http.Header{
		"User-Agent":      {c.userAgent},
		"Accept":          {"text/plain,*/*;q=0.5"},
		"Accept-Encoding": {"gzip"},
	}
	retries := c.retries
	unreachable := func(why string) (*robots, time.Duration, error) {
		return &robots{unreachable: why}, c.robotsErrTTL, nil
	}
	for hop := 0; ; hop++ {
		rep, err := c.exchange(ctx, cur, hdr, c.minGap, &retries, maxRobotsBytes, true)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, errStartAfterDeadline) || errors.Is(err, ErrForbiddenAddress) {
				return nil, 0, err // our ctx or our rules, not the host: ask again next time
			}
			return unreachable(err.Error())
		}
		switch s := rep.status; {
		case s >= 200 && s < 300:
			body := rep.body
			if len(body) == maxRobotsBytes {
				if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
					body = body[:i]
				}
			}
			return parseRobots(body, c.agent), c.robotsTTL, nil
		case isRedirect(s) && rep.header.Get("Location") != "":
			if hop == maxRedirects {
				return allowAll, c.robotsTTL, nil
			}
			next, err := cur.Parse(rep.header.Get("Location"))
			if err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
				return allowAll, c.robotsTTL, nil
			}
			cur = next
		case s == http.StatusTooManyRequests || s >= 500:
			return unreachable(fmt.Sprintf("status %d", s))
		case s >= 400:
			return allowAll, c.robotsTTL, nil
		default: // 1xx, 3xx without a Location
			return allowAll, c.robotsTTL, nil
		}
	}
}
