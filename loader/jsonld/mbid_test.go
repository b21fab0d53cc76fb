package jsonld

import (
	"testing"
)

// TestPerformerMBIDs reads a performer's MusicBrainz id from its sameAs links: a URL or a
// list of URLs (or objects naming one by @id), of which the first link to a MusicBrainz
// artist page counts; any other link, or a malformed one, states none. The pages are
// written for the test after the shapes venue sites publish.
func TestPerformerMBIDs(t *testing.T) {
	const id = "b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d"
	event := func(performer string) string {
		return `<script type="application/ld+json">{"@context":"https://schema.org","@type":"MusicEvent","name":"Show",
			"startDate":"2026-12-05T20:00","location":{"@type":"Place","name":"Hall","address":"1 Road, Oslo, Norway"},
			"performer":` + performer + `}</script>`
	}
	for _, tt := range []struct {
		name, page string
		want       []string // per performer
	}{
		{"one link", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":"https://musicbrainz.org/artist/` + id + `"}`), []string{id}},
		{"a list, the first MusicBrainz link", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":["https://en.wikipedia.org/wiki/The_Beatles",
			"https://musicbrainz.org/artist/` + id + `/","https://musicbrainz.org/artist/00000000-0000-0000-0000-000000000000"]}`), []string{id}},
		{"an object by @id", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":{"@id":"https://musicbrainz.org/artist/` + id + `"}}`), []string{id}},
		{"upper case", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":"HTTPS://musicbrainz.org/artist/B10BBBFC-CF9E-42E0-BE17-E2C3E1D2600D"}`), []string{id}},
		{"another site", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":"https://www.discogs.com/artist/82730"}`), []string{""}},
		{"a release", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":"https://musicbrainz.org/release/` + id + `"}`), []string{""}},
		{"malformed", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":"https://musicbrainz.org/artist/` + id[:30] + `"}`), []string{""}},
		{"a control character", event(`{"@type":"MusicGroup","name":"The Beatles","sameAs":"https://musicbrainz.org/artist/b10bbbfc-cf9e-42e0-be17-e2c3e1d2\u00000600d"}`), []string{""}},
		{"two performers", event(`[{"@type":"MusicGroup","name":"A","sameAs":"https://musicbrainz.org/artist/` + id + `"},{"@type":"Person","name":"B"}]`), []string{id, ""}},
		{"text", event(`"The Beatles"`), []string{""}},
		{"an act's page", `<script type="application/ld+json">{"@context":"https://schema.org","@type":"MusicGroup","name":"The Beatles",
			"sameAs":["https://musicbrainz.org/artist/` + id + `"],"event":[{"@type":"MusicEvent","startDate":"2026-12-05T20:00",
			"location":{"@type":"Place","name":"Hall","address":"1 Road, Oslo, Norway"}}]}</script>`, []string{id}},
	} {
		events, drops := Parse([]byte(tt.page), "https://venue.example/")
		if len(events) != 1 || len(drops) != 0 {
			t.Fatalf("%s: %d events, drops %v", tt.name, len(events), drops)
		}
		var got []string
		for _, p := range events[0].Performers {
			got = append(got, p.MBID)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: performers %+v", tt.name, events[0].Performers)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: performer %d: MBID %q, want %q", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}
