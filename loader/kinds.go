package loader

import (
	"strings"

	"github.com/gigs/gigs/engine"
)

// What an event is, by the words sources classify it with. Each kind a source states is
// folded to its words ("Arts & Theatre" → "arts", "theatre"; "SportsEvent" → "sports",
// "event"; "ncaa_football" → "ncaa", "football"). A kind with a music word makes the event
// music whatever else is said (a family concert, a festival of music and film); an event
// that states no music kind but one with a word below is not music, and is dropped with the
// kind as the reason. An event whose source states nothing, or only words neither list
// holds ("Event", "Festival", "DanceEvent", "Undefined"), is taken as music: the source
// lists gigs. Ticketmaster's "Miscellaneous" segment (tours, parking, food) is not music.
// A title that names a concert keeps the event whatever its kinds say (kindtitle.go). The
// English words below are matched in the plural too ("Families", "Talks & Community").

// musicWords mark a music event.
var musicWords = wordSet("music musicevent concert concerts gig gigs band bands clubbing nightlife " +
	"dj djs rave classical opera orchestra symphony choir jazz blues rock pop punk metal hiphop rap " +
	"electronic techno folk indie")

// otherWords mark an event that is not music: sports and their leagues, the stage that is
// not a concert, screen, family, learning, business and trade.
var otherWords = wordSet("sport sports sportsevent athletics football soccer baseball basketball hockey " +
	"tennis golf boxing mma ufc wrestling racing motorsport motorsports speedway rugby cricket " +
	"volleyball handball esports rodeo equestrian horse cycling marathon nba nfl mlb nhl mls wnba " +
	"ncaa nascar f1 theatre theater theaterevent play plays musical musicals broadway ballet " +
	"comedy comedyevent standup circus magic cirque family children childrens " +
	"childrensevent kids film films movie movies cinema screening screeningevent education " +
	"educationevent lecture lectures seminar seminars workshop workshops course class classes " +
	"conference business businessevent exhibition exhibitionevent museum literary literaryevent " +
	"book reading food foodevent tasting market sale saleevent hackathon meeting fair miscellaneous " +
	"parking expo talk shop")

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// notMusic returns the kind that says an event is not music, or "" when none does or one
// says it is (see above).
func notMusic(kinds []string) string {
	other := ""
	for _, k := range kinds {
		for _, w := range kindWords(k) {
			if musicWord(w) {
				return ""
			}
			if other == "" && otherWord(w) {
				other = strings.TrimSpace(k)
			}
		}
	}
	return other
}

// kindWords splits a kind into folded words at spaces, punctuation and camel case, with
// "Event" suffixes kept whole too: "SportsEvent" gives "sportsevent", "sports", "event".
func kindWords(k string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, engine.Fold(string(cur)))
			cur = cur[:0]
		}
	}
	whole := engine.Fold(k)
	for i, r := range k {
		switch {
		case r >= 'A' && r <= 'Z' && i > 0 && len(cur) > 0:
			flush()
			cur = append(cur, r)
		case r == ' ' || r == '_' || r == '-' || r == '&' || r == '/' || r == ',' || r == '.' || r == ':' || r == '(' || r == ')':
			flush()
		default:
			cur = append(cur, r)
		}
	}
	flush()
	if !strings.ContainsAny(whole, " _-&/,.:()") {
		words = append(words, whole)
	}
	return words
}
