package loader

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/ical"
	"github.com/gigs/gigs/loader/jsonld"
	"github.com/gigs/gigs/loader/microdata"
	"github.com/gigs/gigs/loader/platform"
	"github.com/gigs/gigs/loader/source"
	"github.com/gigs/gigs/loader/tribe"
)

// Source is one upstream of a refresh with its role, which decides whose facts win when
// listings merge.
type Source struct {
	source.Source
	Role Role
	// Home is a venue site's venue hint, which names its own venue when it has a name
	// (see normalizer.home); nil for platforms. A venue site speaks with authority only for
	// events at its home.
	Home *VenueHint
	// Timeout bounds its fetch within a refresh, but for the time its requests wait their
	// turns at their hosts behind other sources' requests (see budget); 0 leaves only the
	// refresh's Deadline. Sources makes it the configured timeout, else DefaultTimeout, so
	// that one slow or hostile source (robots.txt and redirects across hosts, each slow; a
	// platform that pages forever) fails alone, saying so, and never holds every refresh
	// for the whole Deadline.
	Timeout time.Duration
}

// DefaultTimeout is a source's Timeout when its configuration sets none.
const DefaultTimeout = 2 * time.Minute

// timeout is the Timeout of a source configured with d.
func timeout(d Duration) time.Duration {
	if d == 0 {
		return DefaultTimeout
	}
	return time.Duration(d)
}

// Sources makes the configured sources, venue sites first, fetching with get. A
// platform's credential is read with getenv from the variable its configuration names;
// a named variable that is empty is an error.
func Sources(cfg *Config, get platform.Getter, getenv func(string) string, now func() time.Time) ([]Source, error) {
	out := make([]Source, 0, len(cfg.Venues)+len(cfg.Platforms))
	for _, v := range cfg.Venues {
		parse := parsers[v.Format]
		if parse == nil {
			return nil, fmt.Errorf("source %q: unknown format %q", v.Name, v.Format)
		}
		limit := v.MaxEvents
		if limit == 0 {
			limit = DefaultVenueMaxEvents
		}
		role, home := RoleVenue, v.Venue
		if slices.Contains(platform.Kinds, platform.Kind(v.Format)) {
			role, home = RolePlatform, nil // a platform's document speaks as the platform
		}
		out = append(out, Source{Role: role, Home: home, Timeout: timeout(v.Timeout), Source: &pageSource{name: v.Name, url: v.URL, get: get, hint: v.Venue,
			maxEvents: limit, next: nexts[v.Format],
			parse: func(page []byte, ref string) ([]source.Event, []source.Drop, error) {
				return parse(page, ref, parseOptions{now: now(), maxEvents: limit + 1})
			}}})
	}
	for _, p := range cfg.Platforms {
		var cred string
		if p.CredentialEnv != "" {
			if cred = getenv(p.CredentialEnv); cred == "" {
				return nil, fmt.Errorf("source %q: environment variable %s (its credential) is not set", p.Name, p.CredentialEnv)
			}
		}
		src, err := platform.New(platform.Config{Name: p.Name, Kind: p.Kind, URL: p.URL, Artists: p.Artists, Credential: cred, Now: now, MaxEvents: p.MaxEvents}, get)
		if err != nil {
			return nil, fmt.Errorf("source %q: %w", p.Name, err)
		}
		role := RolePlatform
		if p.Primary {
			role = RolePrimary
		}
		out = append(out, Source{Source: src, Role: role, Timeout: timeout(p.Timeout)})
	}
	return out, nil
}

// parseOptions bound a parse: now places recurring events, and a parser that can stop
// early stops after maxEvents (pages hold as many events as their bytes allow; a feed's
// recurrences could hold far more).
type parseOptions struct {
	now       time.Time
	maxEvents int
}

// parsers read one venue page or feed by format: the venue site formats, and every
// platform's response shape for a platform's document served or saved whole (read as one
// page, without paging). An error means the document is not of the format at all.
var parsers = withPlatforms(map[string]func(page []byte, ref string, o parseOptions) ([]source.Event, []source.Drop, error){
	"jsonld": func(page []byte, ref string, _ parseOptions) ([]source.Event, []source.Drop, error) {
		events, drops := jsonld.Parse(page, ref)
		return events, drops, nil
	},
	"microdata": func(page []byte, ref string, _ parseOptions) ([]source.Event, []source.Drop, error) {
		events, drops := microdata.Parse(page, ref)
		return events, drops, nil
	},
	"tribe": func(page []byte, ref string, o parseOptions) ([]source.Event, []source.Drop, error) {
		return tribe.Parse(page, ref, tribe.Options{MaxEvents: o.maxEvents})
	},
	"ical": func(feed []byte, ref string, o parseOptions) ([]source.Event, []source.Drop, error) {
		events, drops := ical.Parse(feed, ref, ical.Options{Now: o.now, Horizon: horizon, MaxEvents: o.maxEvents})
		return events, drops, nil
	},
})

// withPlatforms adds a parser per platform kind to m and returns it.
func withPlatforms(m map[string]func([]byte, string, parseOptions) ([]source.Event, []source.Drop, error)) map[string]func([]byte, string, parseOptions) ([]source.Event, []source.Drop, error) {
	for _, k := range platform.Kinds {
		m[string(k)] = func(doc []byte, ref string, _ parseOptions) ([]source.Event, []source.Drop, error) {
			return platform.ParseDocument(k, doc, ref)
		}
	}
	return m
}

// nexts give, for the formats whose documents are paged, the URL of the page after a
// document ("" after the last).
var nexts = map[string]func(doc []byte) string{"tribe": tribe.Next}

// MaxPages caps the pages one fetch of a paged venue feed reads (a tribe feed's 50 events
// a page make DefaultVenueMaxEvents in 40): a feed with more fails as a whole.
const MaxPages = 40

// pageSource is one venue page or feed read by a parser. Fetch must not be called
// concurrently: it keeps the last parse for conditional requests.
type pageSource struct {
	name, url string
	get       platform.Getter
	parse     func(page []byte, ref string) ([]source.Event, []source.Drop, error)
	hint      *VenueHint
	maxEvents int                     // a page with more events fails
	next      func(doc []byte) string // the next page's URL, for a paged feed; nil for one document
	last      *source.Batch           // the parse of the last page read, reused when it is unchanged
}

func (p *pageSource) Name() string { return p.name }

// Fetch reads the page, or reuses the last parse when the server says it is unchanged.
func (p *pageSource) Fetch(ctx context.Context) (source.Batch, error) {
	resp, err := p.get.Get(ctx, p.url, nil)
	if err != nil {
		return source.Batch{}, err
	}
	if resp.NotModified && p.last != nil {
		return *p.last, nil
	}
	events, dropped, err := p.parse(resp.Body, p.url)
	if err != nil {
		p.last = nil
		return source.Batch{}, fmt.Errorf("%q: %w", p.url, err)
	}
	if p.next != nil {
		if events, dropped, err = p.more(ctx, resp.Body, events, dropped); err != nil {
			p.last = nil
			return source.Batch{}, err
		}
	}
	if len(events) > p.maxEvents {
		p.last = nil
		return source.Batch{}, fmt.Errorf("%q: %w: more than %d (max_events)", p.url, source.ErrTooManyEvents, p.maxEvents)
	}
	for i := range events {
		ev := &events[i]
		ev.Source = p.name
		ev.Positional = positional(ev.Ref, p.url)
		if h := p.hint; h != nil {
			fill(&ev.Venue.Name, h.Name)
			fill(&ev.Venue.Locality, h.City)
			fill(&ev.Venue.Country, h.Country)
			if strings.EqualFold(ev.Venue.Locality, h.City) {
				fill(&ev.Venue.Zone, h.Zone) // the zone is the hinted city's
			}
		}
	}
	b := source.Batch{Events: events, Dropped: dropped}
	if resp.CharsetNote != "" {
		b.Notes = []string{resp.CharsetNote}
	}
	p.last = &b
	return b, nil
}

// more reads the pages after doc, the first, on the same site (sameSite), adding their
// events and drops; it fails when there are more than MaxPages or more than maxEvents events, or
// when a page does not answer or does not read (a partial list would look like
// cancellations). Pages after the first skip the conditional GET: pages shift.
func (p *pageSource) more(ctx context.Context, doc []byte, events []source.Event, dropped []source.Drop) ([]source.Event, []source.Drop, error) {
	first, _ := url.Parse(p.url)
	seen := map[string]bool{p.url: true}
	for pages := 1; ; pages++ {
		next := p.next(doc)
		if next == "" || len(events) > p.maxEvents {
			return events, dropped, nil
		}
		u, err := url.Parse(next)
		if err != nil || !sameSite(first, u) {
			return nil, nil, fmt.Errorf("%q: page %d names a next page on another site: %q", p.url, pages, next)
		}
		u.Scheme, u.Host = first.Scheme, first.Host
		next = u.String()
		switch {
		case seen[next]:
			return nil, nil, fmt.Errorf("%q: page %d names a page read before as the next one", p.url, pages)
		case pages >= MaxPages:
			return nil, nil, fmt.Errorf("%q: %w: more than %d pages", p.url, source.ErrTooManyEvents, MaxPages)
		}
		seen[next] = true
		resp, err := p.get.Get(ctx, next, http.Header{"Cache-Control": {"no-store"}})
		if err != nil {
			return nil, nil, fmt.Errorf("page %d: %w", pages+1, err)
		}
		doc = resp.Body
		evs, drops, err := p.parse(doc, next)
		if err != nil {
			return nil, nil, fmt.Errorf("%q: %w", next, err)
		}
		events, dropped = append(events, evs...), append(dropped, drops...)
	}
}

// sameSite reports whether a next page's URL u is on the site of the first page's, first:
// the same host but for a leading "www." and either scheme of the web. WordPress writes
// next_rest_url with the site's own address, which is often not the one the operator
// configured ("https://www.club.example" for "https://club.example", "http://" for a site
// served over https); the next page is read at the first page's scheme and host.
func sameSite(first, u *url.URL) bool {
	web := func(s string) bool { return s == "http" || s == "https" }
	host := func(h string) string { return strings.TrimPrefix(strings.ToLower(h), "www.") }
	return web(first.Scheme) && web(u.Scheme) && u.Host != "" && host(u.Host) == host(first.Host)
}

// positional reports whether ref is only a record's position in the document at url: the
// adapters' "URL#index" for records without an identity of their own.
func positional(ref, url string) bool {
	rest, ok := strings.CutPrefix(ref, url+"#")
	if !ok {
		return false
	}
	_, err := strconv.Atoi(rest)
	return err == nil
}

// ProxyFunc returns a proxy chooser for fetch.Options that sends every request through the
// HTTP proxy at raw, or nil (the environment's HTTP_PROXY) when raw is empty.
func ProxyFunc(raw string) (func(*http.Request) (*url.URL, error), error) {
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) proxy url", raw)
	}
	return http.ProxyURL(u), nil
}
