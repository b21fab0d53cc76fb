package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/platform"
)

// Config is the sources configuration file, edited by the operator:
//
//	{
//	  "platforms": [{"name": "tixhub", "kind": "hal", "url": "https://api.tixhub.example/v2/events.json",
//	                 "credential_env": "GIGS_TIXHUB_KEY", "primary": true}],
//	  "venues": [{"name": "the-garage", "format": "jsonld", "url": "https://thegarage.example/whats-on",
//	              "venue": {"name": "The Garage", "city": "London", "country": "GB", "zone": "Europe/London"}}]
//	}
//
// Names are unique across both lists. Credentials never appear in the file: a platform
// names the environment variable that holds its key.
//
// Fetches never reach loopback, private, link-local, multicast, CGNAT or other internal
// addresses (see fetch.Forbidden) unless "allow_networks" names their network: a list
// of networks or addresses, such as ["127.0.0.1/32"] for a fixture server on this machine.
type Config struct {
	AllowNetworks []string         `json:"allow_networks,omitempty"`
	Platforms     []PlatformConfig `json:"platforms"`
	Venues        []VenueConfig    `json:"venues"`

	// Allow is AllowNetworks as read.
	Allow []netip.Prefix `json:"-"`
}

// PlatformConfig is one ticketing platform.
type PlatformConfig struct {
	Name          string        `json:"name"`
	Kind          platform.Kind `json:"kind"` // one of platform.Kinds
	URL           string        `json:"url"`  // the events endpoint
	CredentialEnv string        `json:"credential_env,omitempty"`
	// Artists are the artists a bandsintown endpoint with "{artist}" in its path is read for.
	Artists []string `json:"artists,omitempty"`
	// Primary marks a platform that sells the venue's own tickets: its cancellations win.
	Primary bool `json:"primary,omitempty"`
	// MaxEvents caps the events one fetch of the platform yields (platform.DefaultMaxEvents
	// when zero): a feed with more fails as a whole and keeps its last good events.
	MaxEvents int `json:"max_events,omitempty"`
	// Timeout is the platform's time budget in a refresh (DefaultTimeout when zero).
	Timeout Duration `json:"timeout,omitempty"`
}

// VenueConfig is one venue website or feed.
type VenueConfig struct {
	Name   string     `json:"name"`
	Format string     `json:"format"` // one of Formats
	URL    string     `json:"url"`    // http(s) or file URL, or a path relative to the file
	Venue  *VenueHint `json:"venue,omitempty"`
	// MaxEvents caps the events one fetch of the page or feed yields, recurring events'
	// occurrences included (DefaultVenueMaxEvents when zero): a document with more fails
	// as a whole and keeps its last good events.
	MaxEvents int `json:"max_events,omitempty"`
	// Timeout is the page's or feed's time budget in a refresh (DefaultTimeout when zero).
	Timeout Duration `json:"timeout,omitempty"`
}

// Duration is a duration written as Go writes one ("90s", "5m"), read from a JSON string.
type Duration time.Duration

// UnmarshalJSON reads a JSON string that time.ParseDuration reads.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf(`a duration is a string such as "90s" or "5m"`)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf(`%q is not a duration such as "90s" or "5m"`, s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as UnmarshalJSON reads it.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// checkTimeout says what is wrong with a source's timeout, when something is.
func checkTimeout(d Duration) error {
	if d != 0 && (d < Duration(time.Second) || d > Duration(time.Hour)) {
		return fmt.Errorf("timeout %v must be from 1s to 1h", time.Duration(d))
	}
	return nil
}

// DefaultVenueMaxEvents is a venue site's cap on events when its configuration sets none:
// years of nightly shows, far below what a hostile document could make.
const DefaultVenueMaxEvents = 2000

// VenueHint names the venue a venue site speaks for (a site without a Name speaks for
// none: see normalizer.home) and says where its events happen, for pages and feeds that do
// not say it themselves (an iCalendar LOCATION is one line of text). A hint fills what an
// event leaves empty; it never overrides what the event states.
type VenueHint struct {
	Name    string `json:"name,omitempty"`
	City    string `json:"city,omitempty"`
	Country string `json:"country,omitempty"` // ISO code or English name
	Zone    string `json:"zone,omitempty"`    // IANA zone, for a city the gazetteer lacks
}

// Formats lists the venue page formats this build reads, in order.
var Formats = slices.Sorted(maps.Keys(parsers))

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// ReadConfig reads and checks a sources configuration file. Relative venue URLs are
// resolved against the file's directory and become file URLs.
func ReadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read sources configuration: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig reads and checks data as the sources configuration file at path would be
// (ReadConfig): errors name path, with the line and column where the JSON is broken.
func ParseConfig(path string, data []byte) (*Config, error) {
	var cfg Config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("cannot parse sources configuration %s: %w", where(path, data, err), err)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	for i, n := range cfg.AllowNetworks {
		p, err := fetch.ParseNetwork(n)
		if err != nil {
			return nil, fmt.Errorf("%s: allow_networks[%d]: %w", path, i, err)
		}
		cfg.Allow = append(cfg.Allow, p)
	}
	seen := map[string]bool{}
	name := func(list string, i int, n string) (string, error) {
		where := fmt.Sprintf("%s: %s[%d] (%q)", path, list, i, n)
		if !nameRE.MatchString(n) {
			return where, fmt.Errorf("%s: name must be 1-100 letters, digits, '.', '_' or '-'", where)
		}
		if seen[n] {
			return where, fmt.Errorf("%s: duplicate name", where)
		}
		seen[n] = true
		return where, nil
	}
	for i := range cfg.Platforms {
		p := &cfg.Platforms[i]
		where, err := name("platforms", i, p.Name)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(platform.Kinds, p.Kind) {
			return nil, fmt.Errorf("%s: unknown kind %q (known: %v)", where, p.Kind, platform.Kinds)
		}
		if u, err := url.Parse(strings.ReplaceAll(p.URL, "{artist}", "artist")); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			return nil, fmt.Errorf("%s: url %q is not an absolute http(s) url", where, p.URL)
		}
		if p.CredentialEnv != "" && !envRE.MatchString(p.CredentialEnv) {
			return nil, fmt.Errorf("%s: credential_env %q is not an environment variable name", where, p.CredentialEnv)
		}
		if p.MaxEvents < 0 {
			return nil, fmt.Errorf("%s: max_events must not be negative", where)
		}
		if err := checkTimeout(p.Timeout); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if strings.Contains(p.URL, "{artist}") != (len(p.Artists) > 0) {
			return nil, fmt.Errorf(`%s: artists go with a url that has "{artist}" in its path, and only with one`, where)
		}
		if i := slices.IndexFunc(p.Artists, func(a string) bool { return strings.TrimSpace(a) == "" }); i >= 0 {
			return nil, fmt.Errorf("%s: artists[%d] is empty", where, i)
		}
	}
	for i := range cfg.Venues {
		v := &cfg.Venues[i]
		where, err := name("venues", i, v.Name)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(Formats, v.Format) {
			return nil, fmt.Errorf("%s: unknown format %q (known: %v)", where, v.Format, Formats)
		}
		if v.URL, err = resolveURL(v.URL, dir); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if err := v.Venue.check(); err != nil {
			return nil, fmt.Errorf("%s: venue: %w", where, err)
		}
		if v.MaxEvents < 0 {
			return nil, fmt.Errorf("%s: max_events must not be negative", where)
		}
		if err := checkTimeout(v.Timeout); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	if len(cfg.Platforms)+len(cfg.Venues) == 0 {
		return nil, fmt.Errorf("%s: no sources", path)
	}
	return &cfg, nil
}

// where names the place in data that a JSON decoding error points at: "path:line:column",
// or the path alone when the error has no offset.
func where(path string, data []byte, err error) string {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	default:
		// An unknown field's error carries no offset: its use as a key, when the file uses
		// that key once (a key valid elsewhere, "format" in a platform, is not told apart).
		// Byte off-1 must be the one in error, as for a syntax error: the key's opening quote.
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if m := regexp.MustCompile(regexp.QuoteMeta(name)+`\s*:`).FindAllIndex(data, 2); len(m) == 1 {
				off = int64(m[0][0]) + 1
			}
		}
	}
	if off < 1 || off > int64(len(data)) {
		return path
	}
	before := data[:off-1] // a syntax error's offset counts the byte in error; a type error's ends its value
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}

var envRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func resolveURL(raw, dir string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return "", fmt.Errorf("bad url %q", raw)
	}
	switch u.Scheme {
	case "http", "https", "file":
		return raw, nil
	case "":
		p := raw
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String(), nil
	}
	return "", fmt.Errorf("unsupported url scheme %q", u.Scheme)
}

func (h *VenueHint) check() error {
	if h == nil {
		return nil
	}
	if h.Country != "" {
		if _, ok := places.Country(h.Country); !ok {
			return fmt.Errorf("unknown country %q", h.Country)
		}
	}
	if h.Zone != "" {
		if _, err := time.LoadLocation(h.Zone); err != nil {
			return fmt.Errorf("unknown zone %q", h.Zone)
		}
	}
	return nil
}
