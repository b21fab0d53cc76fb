package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
)

// SourceConfig is one entry of the sources configuration file.
type SourceConfig struct {
	Name string `json:"name"` // unique; letters, digits, '-', '_' and '.'
	Kind string `json:"kind"` // "jsonld": a venue page with schema.org JSON-LD
	URL  string `json:"url"`  // http(s) or file URL, or a path relative to the file
}

// Config is the sources configuration file:
//
//	{"sources": [{"name": "venue-x", "kind": "jsonld", "url": "https://x.example/events"}]}
type Config struct {
	Sources []SourceConfig `json:"sources"`
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// Kinds lists the source kinds this build understands.
var Kinds = []string{"jsonld"}

// ReadConfig reads and checks a sources configuration file. Relative URLs are resolved
// against the file's directory and become file URLs.
func ReadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read sources configuration: %w", err)
	}
	var cfg Config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("cannot parse sources configuration %q: %w", path, err)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range cfg.Sources {
		s := &cfg.Sources[i]
		where := fmt.Sprintf("%s: source %d (%q)", path, i+1, s.Name)
		if !nameRE.MatchString(s.Name) {
			return nil, fmt.Errorf("%s: name must be 1-100 letters, digits, '.', '_' or '-'", where)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("%s: duplicate name", where)
		}
		seen[s.Name] = true
		if s.Kind != "jsonld" {
			return nil, fmt.Errorf("%s: unknown kind %q (known: %v)", where, s.Kind, Kinds)
		}
		u, err := url.Parse(s.URL)
		if err != nil || s.URL == "" {
			return nil, fmt.Errorf("%s: bad url %q", where, s.URL)
		}
		switch u.Scheme {
		case "http", "https", "file":
		case "":
			p := s.URL
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			s.URL = (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
		default:
			return nil, fmt.Errorf("%s: unsupported url scheme %q", where, u.Scheme)
		}
	}
	if len(cfg.Sources) == 0 {
		return nil, fmt.Errorf("%s: no sources", path)
	}
	return &cfg, nil
}
