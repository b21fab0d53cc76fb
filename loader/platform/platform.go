package platform

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/source"
)

// Kind names a feed shape.
type Kind string

// The feed shapes this package reads.
const (
	KindHAL          Kind = "hal"
	KindMeta         Kind = "meta"
	KindContinuation Kind = "continuation"
	KindBandsintown  Kind = "bandsintown"
	KindSongkick     Kind = "songkick"
)

// Kinds lists every Kind.
var Kinds = []Kind{KindHAL, KindMeta, KindContinuation, KindBandsintown, KindSongkick}

// Defaults for Config's zero fields.
const (
	DefaultHorizon     = 365 * 24 * time.Hour
	DefaultMaxRequests = 2000
	DefaultMaxEvents   = 200_000
)

// Getter reads one document; *fetch.Client is one.
type Getter interface {
	Get(ctx context.Context, url string, header http.Header) (*fetch.Response, error)
}

// Config is one platform as the operator configures it.
type Config struct {
	Name string // the source name; required
	Kind Kind
	URL  string // the events endpoint, e.g. "http://api.tixhub.example/v2/events"; http or https
	// Artists are the artists a bandsintown endpoint is read for, each put in place of
	// "{artist}" in URL's path; such an endpoint needs at least one.
	Artists    []string
	Credential string           // API key or token, read from the environment by the caller; required
	Horizon    time.Duration    // how far ahead to read; 0 means DefaultHorizon
	Now        func() time.Time // nil means time.Now
	// MaxRequests bounds the requests of one Fetch, window splits and pages together;
	// 0 means DefaultMaxRequests.
	MaxRequests int
	// MaxEvents bounds the events of one Fetch: a feed with more fails as a whole, and
	// paging stops as soon as it is passed; 0 means DefaultMaxEvents.
	MaxEvents int
}

// PageError is a page that failed: its request could not be made or answered, its body did
// not parse, or it broke the paging contract. Fetch returns it (wrapped) and no events.
type PageError struct {
	Page int    // 1-based count of the request within the Fetch
	URL  string // the page's URL with the credential replaced by "REDACTED"
	Err  error

	raw    string // the URL as requested, credential included; never shown
	secret string // the credential; never shown
}

func (e *PageError) Error() string {
	msg := e.Err.Error()
	if e.raw != "" {
		msg = strings.ReplaceAll(msg, e.raw, e.URL)
	}
	// The credential may still show, in a redirect target for one; keys are long enough
	// that replacing them cannot garble the message.
	if len(e.secret) >= 6 {
		msg = strings.ReplaceAll(msg, e.secret, "REDACTED")
		msg = strings.ReplaceAll(msg, url.QueryEscape(e.secret), "REDACTED")
	}
	return fmt.Sprintf("cannot read page %d %q: %s", e.Page, e.URL, msg)
}

func (e *PageError) Unwrap() error { return e.Err }

// credentialParam is the query parameter that carries the credential, per kind; the
// continuation kind sends it in an Authorization header instead.
var credentialParam = map[Kind]string{KindHAL: "apikey", KindMeta: "client_id", KindContinuation: "",
	KindBandsintown: "app_id", KindSongkick: "apikey"}

// New returns the adapter for cfg.Kind. It checks cfg and makes no request. get must be safe
// for concurrent use if the Source's Fetch is called concurrently; the adapter keeps no state
// between fetches.
func New(cfg Config, get Getter) (source.Source, error) {
	param, ok := credentialParam[cfg.Kind]
	if !ok {
		return nil, fmt.Errorf("platform %q: unknown kind %q (known: %v)", cfg.Name, cfg.Kind, Kinds)
	}
	if cfg.Name == "" {
		return nil, errors.New("platform: no source name")
	}
	if get == nil {
		return nil, fmt.Errorf("platform %q: no getter", cfg.Name)
	}
	u, err := url.Parse(strings.ReplaceAll(cfg.URL, "{artist}", "artist"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
		return nil, fmt.Errorf("platform %q: bad url %q: want an absolute http(s) url without a fragment", cfg.Name, cfg.URL)
	}
	if cfg.Credential == "" {
		return nil, fmt.Errorf("platform %q: kind %q needs a credential", cfg.Name, cfg.Kind)
	}
	if cfg.Kind == KindBandsintown && strings.Contains(cfg.URL, "{artist}") && len(cfg.Artists) == 0 {
		return nil, fmt.Errorf("platform %q: %w", cfg.Name, errNoArtists)
	}
	for _, p := range []string{"apikey", "client_id", "client_secret", "token", "app_id"} {
		if u.Query().Has(p) {
			return nil, fmt.Errorf("platform %q: bad url: put the credential in Credential, not in the %q query parameter", cfg.Name, p)
		}
	}
	if cfg.Horizon <= 0 {
		cfg.Horizon = DefaultHorizon
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxRequests <= 0 {
		cfg.MaxRequests = DefaultMaxRequests
	}
	if cfg.MaxEvents <= 0 {
		cfg.MaxEvents = DefaultMaxEvents
	}
	a := &adapter{cfg: cfg, get: get, base: u, param: param}
	switch cfg.Kind {
	case KindHAL:
		a.pager = (*run).pageHAL
	case KindMeta:
		a.pager = (*run).pageMeta
	case KindContinuation:
		a.pager = (*run).pageContinuation
	case KindBandsintown:
		a.pager = (*run).pageBandsintown
	case KindSongkick:
		a.pager = (*run).pageSongkick
	}
	return a, nil
}

// adapter is one configured platform. Every field is immutable after New.
type adapter struct {
	cfg   Config
	get   Getter
	base  *url.URL // the endpoint; copied, never modified
	param string   // query parameter for the credential, "" for the Authorization header
	pager func(r *run, from, to time.Time) error
}

func (a *adapter) Name() string { return a.cfg.Name }

// Fetch reads every page for [now, now+Horizon]. On error it returns no events at all, so
// the caller never takes a partial feed for a complete one.
func (a *adapter) Fetch(ctx context.Context) (source.Batch, error) {
	now := a.cfg.Now().UTC()
	from := now.Truncate(time.Second)
	to := now.Add(a.cfg.Horizon).Truncate(time.Second)
	r := &run{ctx: ctx, a: a, seen: make(map[string]bool)}
	if err := a.pager(r, from, to); err != nil {
		return source.Batch{}, fmt.Errorf("platform %q: %w", a.cfg.Name, err)
	}
	if a.cfg.Kind == KindHAL {
		r.events = oneListingPerShow(r.events)
	}
	return source.Batch{Events: r.events, Dropped: r.drops}, nil
}

// run is the state of one Fetch; not shared between goroutines.
type run struct {
	ctx      context.Context
	a        *adapter
	requests int
	events   []source.Event
	drops    []source.Drop
	seen     map[string]bool // event refs kept so far
}

// page is one requested page.
type page struct {
	n      int    // 1-based request count
	ref    string // redacted URL, used in drops and errors
	raw    string // URL as requested
	secret string // the credential, to keep it out of errors
	body   []byte
}

// fail makes a PageError for p.
func (p *page) fail(format string, args ...any) error {
	return &PageError{Page: p.n, URL: p.ref, Err: fmt.Errorf(format, args...), raw: p.raw, secret: p.secret}
}

// get requests u with the credential added. u is not modified.
func (r *run) get(u *url.URL) (*page, error) {
	v := *u
	q := v.Query()
	if r.a.param != "" {
		q.Set(r.a.param, r.a.cfg.Credential)
	}
	v.RawQuery = q.Encode()
	p := &page{raw: v.String(), secret: r.a.cfg.Credential}
	if r.a.param != "" {
		q.Set(r.a.param, "REDACTED")
		v.RawQuery = q.Encode()
	}
	p.ref = v.String()
	if err := r.ctx.Err(); err != nil {
		return nil, fmt.Errorf("stopped before %q: %w", p.ref, err)
	}
	if r.requests >= r.a.cfg.MaxRequests {
		return nil, fmt.Errorf("stopped before %q: over %d requests in one fetch", p.ref, r.a.cfg.MaxRequests)
	}
	r.requests++
	p.n = r.requests
	// Pages shift between runs, so a cached body must never stand in for one (no-store
	// opts out of the Getter's conditional GET).
	h := http.Header{"Accept": {"application/json"}, "Cache-Control": {"no-store"}}
	if r.a.param == "" {
		h.Set("Authorization", "Bearer "+r.a.cfg.Credential)
	}
	resp, err := r.a.get.Get(r.ctx, p.raw, h)
	if err != nil {
		var se *fetch.StatusError
		if errors.As(err, &se) && (se.Code == http.StatusUnauthorized || se.Code == http.StatusForbidden) {
			err = fmt.Errorf("credential refused: %w", err)
		}
		return nil, &PageError{Page: p.n, URL: p.ref, Err: err, raw: p.raw, secret: p.secret}
	}
	if resp == nil {
		return nil, p.fail("no response")
	}
	p.body = resp.Body
	return p, nil
}

// keep adds the events and drops of one window or feed, skipping events whose ref was
// kept already (offset paging repeats an event when the list shifts between pages).
func (r *run) keep(events []source.Event, drops []source.Drop) {
	for _, e := range events {
		if r.seen[e.Ref] {
			continue
		}
		r.seen[e.Ref] = true
		e.Source = r.a.cfg.Name
		r.events = append(r.events, e)
	}
	r.drops = append(r.drops, drops...)
}

// within fails once the events kept and pending (read in the window being paged) pass
// Config.MaxEvents.
func (r *run) within(pending int) error {
	if n := len(r.events) + pending; n > r.a.cfg.MaxEvents {
		return fmt.Errorf("%w: more than %d (max_events), paging stopped after %d requests", source.ErrTooManyEvents, r.a.cfg.MaxEvents, r.requests)
	}
	return nil
}

// isStatus reports whether err is an HTTP answer with the given code.
func isStatus(err error, code int) bool {
	var se *fetch.StatusError
	return errors.As(err, &se) && se.Code == code
}

// ParseDocument reads one response of a platform of the given kind, saved or served as a
// single document (one page of a paged feed, or an unpaged list), without paging: its
// events, the records it dropped with their reasons, or an error when body is not such a
// response.
func ParseDocument(kind Kind, body []byte, ref string) ([]source.Event, []source.Drop, error) {
	var events []source.Event
	var drops []source.Drop
	var err error
	switch kind {
	case KindHAL:
		events, drops, _, err = parseHALPage(body, ref)
		events = oneListingPerShow(events)
	case KindMeta:
		events, drops, _, err = parseMetaPage(body, ref)
	case KindContinuation:
		events, drops, _, err = parseContinuationPage(body, ref)
	case KindBandsintown:
		events, drops, err = parseBandsintown(body, ref)
	case KindSongkick:
		events, drops, _, err = parseSongkickPage(body, ref)
	default:
		err = fmt.Errorf("unknown kind %q (known: %v)", kind, Kinds)
	}
	return events, drops, err
}
