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
		{[]string{"Miscellaneous"}, "Miscellaneous"},
		{[]string{"Undefined"}, ""},
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

func TestPlainEventsAmongTypedConcerts(t *testing.T) {
	mk := func(title string, kinds ...string) source.Event {
		ev := event(title, "Drom", "Toronto", "CA", "2026-12-05T20:00")
		ev.Ref, ev.Kinds = title, kinds
		return ev
	}
	for _, c := range []struct {
		name   string
		events []source.Event
		kept   int
	}{
		{"two concerts typed, a fundraiser plain", []source.Event{mk("A", "MusicEvent"), mk("B", "MusicEvent"), mk("Funds", "Event")}, 2},
		{"one concert typed: no pattern", []source.Event{mk("A", "MusicEvent"), mk("Funds", "Event")}, 2},
		{"all plain", []source.Event{mk("A", "Event"), mk("B", "Event")}, 2},
		{"microdata's lower case", []source.Event{mk("A", "musicevent"), mk("B", "musicevent"), mk("C", "event")}, 2},
	} {
		n := newNormalizer(noon, len(c.events))
		var sr SourceReport
		n.addAll(c.events, 0, Source{Role: RolePlatform}, &sr)
		if sr.Events != c.kept {
			t.Errorf("%s: kept %d, want %d (dropped %+v)", c.name, sr.Events, c.kept, sr.Dropped)
		}
	}
}
