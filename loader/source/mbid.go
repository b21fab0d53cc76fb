package source

import (
	"strings"

	"github.com/gigs/gigs/engine"
)

// MBID returns the MusicBrainz id a source states for an artist, in canonical form (see
// engine.ParseMBID), or "" when s is not one: a UUID alone, as the platforms give it (an
// mbid field), or a link to the artist's MusicBrainz page, as a page's schema.org data
// gives it (sameAs: http or https, musicbrainz.org with or without www., /artist/<uuid>,
// then nothing, a slash, a query or a fragment). Anything else, a near miss included, is
// no MBID: the id of another kind of entity (a release's, a recording's) is not an
// artist's, and nothing is guessed.
func MBID(s string) string {
	s = strings.TrimSpace(s)
	if m, ok := engine.ParseMBID(s); ok {
		return m
	}
	rest, ok := cutPrefixFold(s, "https://")
	if !ok {
		if rest, ok = cutPrefixFold(s, "http://"); !ok {
			return ""
		}
	}
	if r, ok := cutPrefixFold(rest, "www."); ok {
		rest = r
	}
	if rest, ok = cutPrefixFold(rest, "musicbrainz.org/artist/"); !ok || len(rest) < 36 {
		return ""
	}
	if tail := rest[36:]; tail != "" && tail != "/" && tail[0] != '?' && tail[0] != '#' {
		return ""
	}
	m, _ := engine.ParseMBID(rest[:36])
	return m
}

// cutPrefixFold is strings.CutPrefix with the prefix (ASCII) in any case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}
