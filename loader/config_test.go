package loader

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConfig(t *testing.T) {
	cfg, err := ReadConfig(filepath.Join("testdata", "sources", "all-kinds.good.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Platforms) != 3 || len(cfg.Venues) != 3 || !cfg.Platforms[0].Primary {
		t.Fatalf("read %+v", cfg)
	}
	abs, _ := filepath.Abs(filepath.Join("testdata", "sources", "feeds", "lighthouse.ics"))
	if got := cfg.Venues[2].URL; got != "file://"+filepath.ToSlash(abs) {
		t.Errorf("relative url became %q, want a file url beside the configuration", got)
	}
	if fmt.Sprint(cfg.Allow) != "[192.0.2.0/24 fd12::7/128]" {
		t.Errorf("allowed networks %v", cfg.Allow)
	}
	if h := cfg.Venues[2].Venue; h == nil || h.Zone != "America/Argentina/Ushuaia" || h.Country != "Argentina" {
		t.Errorf("venue hint %+v", h)
	}

	bad := map[string]string{
		"unknown-field.bad.json":      `unknown-field.bad.json:1:76: json: unknown field "colour"`,
		"duplicate-name.bad.json":     `venues[1] ("a"): duplicate name`,
		"bad-name.bad.json":           `name must be 1-100 letters`,
		"unknown-kind.bad.json":       `platforms[0] ("p"): unknown kind "graphql"`,
		"relative-platform.bad.json":  `url "/events.json" is not an absolute http(s) url`,
		"bad-credential-env.bad.json": `credential_env "MY KEY" is not an environment variable name`,
		"unknown-format.bad.json":     `unknown format "rss" (known: [bandsintown continuation hal ical jsonld meta microdata songkick tribe])`,
		"bad-scheme.bad.json":         `unsupported url scheme "ftp"`,
		"unknown-country.bad.json":    `venue: unknown country "Atlantis"`,
		"unknown-zone.bad.json":       `venue: unknown zone "Mars/Olympus"`,
		"empty.bad.json":              `no sources`,
		"syntax.bad.json":             `syntax.bad.json:2:16: invalid character '}'`,
		"bad-network.bad.json":        `allow_networks[0]: "10.0.0.0/33" is neither a network`,
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "sources", "*.bad.json"))
	if len(files) != len(bad) {
		t.Errorf("%d bad fixtures, %d expected errors", len(files), len(bad))
	}
	for _, f := range files {
		want := bad[filepath.Base(f)]
		if _, err := ReadConfig(f); err == nil || want == "" || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", filepath.Base(f), err, want)
		}
	}
	if _, err := ReadConfig(filepath.Join(t.TempDir(), "missing.json")); err == nil || !os.IsNotExist(errUnwrapAll(err)) {
		t.Errorf("missing file: %v", err)
	}
}

func errUnwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

// TestUnknownFieldNeverMisplaced: a key unknown where it stands but valid elsewhere ("format"
// in a platform) is reported without a position rather than at its valid use.
func TestUnknownFieldNeverMisplaced(t *testing.T) {
	cfg := `{
  "venues": [
    {"name": "a", "format": "jsonld", "url": "https://a.example/"}
  ],
  "platforms": [
    {"name": "p", "kind": "songkick", "url": "https://api.songkick.example/events.json",
     "format": "json"}
  ]
}
`
	path := filepath.Join(t.TempDir(), "sources.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadConfig(path)
	if err == nil || !strings.Contains(err.Error(), `sources.json: json: unknown field "format"`) {
		t.Errorf("error %v, want it without a position", err)
	}
}
