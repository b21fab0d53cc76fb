// Package fetch reads upstream documents politely: over HTTP(S) or from file URLs, with
// robots.txt honoured, per-host limits, time limits, a size cap, conditional GET, retries
// and text converted to UTF-8.
//
// # Contract of Client.Get
//
// For an http or https URL, Get, for the URL and again for every redirect target:
//
//  1. reads the host's robots.txt (RFC 9309) unless it has it: once per scheme and host per
//     Options.RobotsTTL, however many goroutines ask. Our group is the one whose User-agent
//     product token equals Options.Agent ignoring case, else "*". Longest match wins, Allow
//     on ties; '*' and a final '$' are wildcards; paths are compared percent-normalised. A
//     4xx (except 429), or more than 5 redirects, allows everything; a 5xx, a 429 or a
//     network failure disallows the whole host for Options.RobotsErrorTTL. A URL robots.txt
//     disallows is not requested: Get returns an error wrapping ErrDisallowed.
//  2. waits, honouring ctx, until the host (host:port of the URL, default port dropped; not
//     the connection, so this holds through a proxy) has fewer than Options.PerHost requests
//     in flight and Options.MinGap has passed since its last request started; a robots.txt
//     Crawl-delay (capped at Options.MaxCrawlDelay) replaces a smaller MinGap. A wait that
//     would end after ctx's deadline fails at once. The slot is held until the body is read.
//  3. sends the request: User-Agent "gigs/1 (+Contact)", Accept-Encoding gzip, and, unless
//     the caller opted out, the validators of the last 200 for this URL. Connect, TLS and
//     response-header timeouts apply, and Options.Timeout bounds each attempt from the
//     connection to the last body byte.
//  4. on a network error, 408, 429, 500, 502, 503 or 504 retries, up to Options.Retries per
//     Get, after a Retry-After (which also holds off the whole host) or else a backoff with
//     full jitter; it gives up at once, returning the last error, when the wait would pass
//     ctx's deadline or the Retry-After exceeds Options.MaxRetryAfter. ctx ending is not
//     retried; other statuses are not retried.
//  5. follows up to 5 redirects (301, 302, 303, 307, 308), dropping credentials and cookies
//     when the host changes; more fail with ErrTooManyRedirects.
//
// Every connection (robots.txt, redirects and retries included) is checked after DNS
// resolution, address by address, as it is dialed: an address Forbidden names (loopback,
// private, link-local, multicast, unspecified, CGNAT, reserved, and IPv6 forms carrying
// them) fails the Get with ErrForbiddenAddress, without a retry, unless Options.Allow
// (or Client.Allow) holds its network. A request sent through a proxy is not dialed here:
// its host is refused when it is such an address literal (in any spelling inet_aton
// reads), and a name is left to the proxy; the proxy's own address is always dialed.
//
// The answer is a Response for a 200 or a 304 and a *StatusError for any other status. A 200
// body over Options.MaxBytes (after gzip decompression) fails with ErrTooLarge; reading stops
// at the cap. A text body (text/*, XML; not JSON) is converted to UTF-8: from its byte order
// mark, else the Content-Type charset, else for HTML a <meta> declaration, else UTF-8; bytes
// that are not the UTF-8 they claim (or implied) are read as windows-1252 and
// Response.CharsetNote says so.
//
// For a file URL, Get reads the local file with the same size cap and conversion (the media
// type from the file name or sniffed); no robots, limits, caching or retries, and NotModified
// is never set.
//
// # Conditional GET
//
// The Client keeps, per URL asked for, the ETag and Last-Modified and the converted body of
// the last 200 that carried either, and a 304 returns that body with NotModified set. The
// keep is an LRU bounded by Options.CacheBytes of bodies (128 MiB) and 16384 entries; an
// entry not asked for in Options.CacheTTL (24h) is dropped. A request header
// "Cache-Control: no-store" opts a request out (paged platform APIs, whose pages shift);
// so do validators set by the caller, in which case a 304 has a nil Body.
//
// # Memory
//
// Per-host state lives while the host has requests in flight or waiting, and up to a minute
// after its next allowed start. robots.txt results (only our group's rules) live
// Options.RobotsTTL. Apart from the conditional-GET keep, a Get holds at most one body.
//
// # Lifetimes
//
// A Client is safe for concurrent use; make one per process so politeness holds across all
// its users. Get does not modify or keep its header argument and does not keep ctx after it
// returns. A Response and its Body belong to the caller, which may modify them.
//
// # Statistics
//
// Client.Stats returns a snapshot of cheap atomic counters; Stats.Sub gives a run's share.
package fetch
