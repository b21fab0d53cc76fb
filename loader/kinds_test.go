package loader

import (
	"testing"

	"github.com/gigs/gigs/loader/source"
)

func TestNotMusic(t *testing.T) {
	for _, c := range []struct {
		kinds []string
		want  string
	}{
		{nil, ""},
		{[]string{"Event"}, ""},
		{[]string{"MusicEvent"}, ""},
		{[]string{"Festival"}, ""},
		{[]string{"DanceEvent"}, ""},
		{[]string{"Music"}, ""},
		{[]string{"Miscellaneous"}, ""},
		{[]string{"concert", "music_festival"}, ""},
		{[]string{"Family", "Music"}, ""},
		{[]string{"SportsEvent"}, "SportsEvent"},
		{[]string{"Event", "TheaterEvent"}, "TheaterEvent"},
		{[]string{"Sports"}, "Sports"},
		{[]string{"Arts & Theatre"}, "Arts & Theatre"},
		{[]string{"nba", "sports", "basketball"}, "nba"},
		{[]string{"ncaa_football"}, "ncaa_football"},
		{[]string{"broadway_tickets_national", "theater"}, "broadway_tickets_national"},
		{[]string{"ChildrensEvent"}, "ChildrensEvent"},
		{[]string{"Film Festival"}, "Film Festival"},
		{[]string{"Comedy"}, "Comedy"},
		{[]string{"Sport", "Live music"}, ""},
	} {
		if got := notMusic(c.kinds); got != c.want {
			t.Errorf("notMusic(%q) = %q, want %q", c.kinds, got, c.want)
		}
	}
}

func TestNonMusicIsDroppedWithTheKind(t *testing.T) {
	n := newNormalizer(noon, 2)
	match := event("Leeds Rhinos v Wigan", "Headingley", "Leeds", "GB", "2026-12-05T19:45")
	match.Kinds = []string{"Event", "SportsEvent"}
	concert := event("Leeds Symphony", "Town Hall", "Leeds", "GB", "2026-12-06T19:30")
	concert.Kinds = []string{"Family", "Music"}
	var sr SourceReport
	n.addAll([]source.Event{match, concert}, 0, Source{Role: RoleVenue}, &sr)
	if sr.Events != 1 || len(sr.Dropped) != 1 || sr.Dropped[0].Reason != `not music: the source classifies it as "SportsEvent"` {
		t.Errorf("kept %d, dropped %+v; want the concert kept and the match dropped as not music", sr.Events, sr.Dropped)
	}
}
