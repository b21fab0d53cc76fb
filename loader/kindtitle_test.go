package loader

import (
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestTitleNamesConcert checks titles of a Münster district's and a Tromsø culture
// aggregator's calendars (testdata/real/ical/coerde-muenster-district.ics,
// ical/tromso-culture-aggregator.ics).
func TestTitleNamesConcert(t *testing.T) {
	for _, c := range []struct {
		title string
		want  bool
	}{
		{"Kammerkonzert: Zwischen Esprit und Leidenschaft – Ein Sextette für Holzbläserquintett mit Klavier", true},
		{"Stadtteilkonzert: Sinfonieorchester Münster – Theater Münster", true},
		{"Jazziges Weihnachtskonzert mit Gedichten und Geschichten – Jeanette Lewe (Gesang) und Markus Papenberg (Saxophon)", true},
		{"Viseklubben Spelts Jubileumskonsert – 20 år", true},
		{"I år gjør me det heilt enkelt: Ein slags julekonsert med Tønes og Ingvar Hovland", true},
		{"Pink Floyd’s The Wall – in concert", true},
		{"Stumfilm konsert TIFF Junior", true},
		{"Ohmwork Releasekonsert", true},
		{"THEATERZAUBER Coerde: Babilu und die Buchstabenbande – Theater Don Kidschote aus Münster", false},
		{"Vorlese-Café im September auf Türkisch & Deutsch mit Musik", false},
		{"Georg Kreisler – sein Leben, seine Lieder – Markus von Hagen (Kabarettist) und Philip Ritter (Pianist)", false},
		{"Faszination Feuer - Kochen in und an der Flamme trifft Dutch Oven Kurs", false},
		{"", false},
	} {
		if got := titleNamesConcert(c.title); got != c.want {
			t.Errorf("titleNamesConcert(%q) = %v, want %v", c.title, got, c.want)
		}
	}
}

// TestConcertTitleOverTheatreKind checks that a concert filed under a culture house's
// theatre kinds is kept, and its plays are not (the Münster district's calendar).
func TestConcertTitleOverTheatreKind(t *testing.T) {
	kinds := []string{"Theater / Kultur / Tanz / Kinderkultur"}
	concert := event("Stadtteilkonzert: Sinfonieorchester Münster – Theater Münster", "Begegnungszentrum und Theater in der Meerwiese", "Münster", "DE", "2026-10-09T18:00")
	play := event("THEATERZAUBER Coerde: Babilu und die Buchstabenbande – Theater Don Kidschote aus Münster", "Begegnungszentrum und Theater in der Meerwiese", "Münster", "DE", "2026-09-29T09:30")
	concert.Kinds, play.Kinds = kinds, kinds
	n := newNormalizer(noon, 2)
	var sr SourceReport
	n.addAll([]source.Event{concert, play}, 0, Source{Role: RoleVenue}, &sr)
	if sr.Events != 1 || len(sr.Dropped) != 1 || sr.Dropped[0].Reason != `not music: the source classifies it as "Theater / Kultur / Tanz / Kinderkultur"` {
		t.Errorf("kept %d, dropped %+v; want the concert kept and the play dropped as not music", sr.Events, sr.Dropped)
	}
}

// TestPluralKinds checks an Amsterdam culture hall's CATEGORIES
// (testdata/real/ical/dehallen-amsterdam-allday.ics): English kinds in the plural or
// short are kinds too.
func TestPluralKinds(t *testing.T) {
	for _, c := range []struct {
		kinds []string
		want  string
	}{
		{[]string{"Families"}, "Families"},
		{[]string{"Expo"}, "Expo"},
		{[]string{"Shops"}, "Shops"},
		{[]string{"Talks & Community"}, "Talks & Community"},
		{[]string{"Workshops & Maken"}, "Workshops & Maken"},
		{[]string{"Markt"}, "Markt"},
		{[]string{"Muziek"}, ""},
		{[]string{"Families", "Muziek"}, ""},
		{[]string{"Blues"}, ""}, // no "blue" kind
	} {
		if got := notMusic(c.kinds); got != c.want {
			t.Errorf("notMusic(%q) = %q, want %q", c.kinds, got, c.want)
		}
	}
}

// A cinema's or a culture house's calendar files a concert film, a concert hall's guided
// tour or a talk before a concert under its own kinds: the title names a concert but
// the event is no gig.
func TestConcertTitleOfAFilm(t *testing.T) {
	for _, tt := range []struct{ title, kind string }{
		{"Taylor Swift | The Eras Tour (Concert Film)", "Film"},
		{"Pink Floyd at Pompeii – Concert Film", "Kino"},
		{"Stop Making Sense – The Concert Film", "Screening"},
		{"Einführung zum 3. Sinfoniekonzert", "Vortrag"},
		{"Concert Hall Guided Tour", "Führung"},
	} {
		ev := event(tt.title, "Kino Babylon", "Berlin", "DE", "2026-07-01T19:00")
		ev.Kinds = []string{tt.kind}
		n := newNormalizer(noon, 1)
		if err := n.add(&ev, 0, RoleVenue); err == nil {
			t.Errorf("%q of kind %q taken as a gig; want it dropped as not music", tt.title, tt.kind)
		}
	}
}
