package source

import (
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
)

func TestMBID(t *testing.T) {
	const id = "b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d"
	for _, tt := range []struct{ in, want string }{
		{id, id},
		{" B10BBBFC-CF9E-42E0-BE17-E2C3E1D2600D\n", id},
		{"https://musicbrainz.org/artist/" + id, id},
		{"http://musicbrainz.org/artist/" + id, id},
		{"https://www.musicbrainz.org/artist/" + id + "/", id},
		{"HTTPS://MusicBrainz.org/artist/" + id + "?tab=events", id},
		{"https://musicbrainz.org/artist/" + id + "#top", id},
		{"https://musicbrainz.org/artist/" + id + "/releases", ""},    // another page
		{"https://musicbrainz.org/release/" + id, ""},                 // a release's id
		{"https://musicbrainz.org.evil.example/artist/" + id, ""},     // another host
		{"https://evil.example/musicbrainz.org/artist/" + id, ""},     // another host
		{"ftp://musicbrainz.org/artist/" + id, ""},                    // another scheme
		{"https://musicbrainz.org/artist/" + id[:35], ""},             // short
		{"https://musicbrainz.org/artist/" + id + "0", ""},            // long
		{"https://musicbrainz.org/artist/" + strings.ToUpper(id), id}, // case
		{"musicbrainz.org/artist/" + id, ""},                          // no scheme
		{"mbid:" + id, ""},
		{"", ""},
		{"null", ""},
		{"{" + id + "}", ""},
		{"https://musicbrainz.org/artist/b10bbbfc-cf9e-42e0-be17-e2c3e1d2600\u00e9", ""},
	} {
		if got := MBID(tt.in); got != tt.want {
			t.Errorf("MBID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzMBID: an MBID read from anything is canonical, and comes from the input's UUID.
func FuzzMBID(f *testing.F) {
	for _, s := range []string{"b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d", "https://musicbrainz.org/artist/b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d/",
		"http://www.musicbrainz.org/artist/B10BBBFC-CF9E-42E0-BE17-E2C3E1D2600D?x", "https://musicbrainz.org/artist/", "https://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := MBID(s)
		if m == "" {
			return
		}
		if c, ok := engine.ParseMBID(m); !ok || c != m {
			t.Fatalf("MBID(%q) = %q, not canonical", s, m)
		}
		if !strings.Contains(strings.ToLower(s), m) {
			t.Fatalf("MBID(%q) = %q, not the input's", s, m)
		}
	})
}
