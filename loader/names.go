package loader

import (
	"slices"
	"strings"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// Name keys: what is left of an act's or a venue's name once the ways sources dress it up
// are taken away, so that one act listed by several sources has one key. Keys are folded
// (case, accents, the fold table for ø æ ß ł œ; see engine.Fold), "&" reads "and", a
// leading "The" goes, as do status words ("SOLD OUT", "CANCELLED:"), bracketed remarks
// ("(DJ set)", "[UK]") and guests ("feat. X").

// statusWords are what sources write before or after a name to say something about the
// show, not the act. Matched case-insensitively as whole words.
var statusWords = []string{
	"sold out", "cancelled", "canceled", "postponed", "rescheduled", "new date", "moved",
	"last tickets", "few tickets left", "low tickets", "free entry", "upgraded",
}

// guestSeps start the guests of a name: "X feat. Y" is X's show.
var guestSeps = []string{" feat. ", " feat ", " ft. ", " ft ", " featuring "}

// billSeps end the headliner within an event title: "X + Y", "X w/ Y", "X – Live",
// "X: World Tour 2027", "X | Club Night", "X/ Y/ Z" (not "AC/DC").
var billSeps = []string{
	" + ", " w/ ", " w/", " with special guests ", " with special guest ", " with ", " support ", " support: ",
	" – ", " — ", " - ", ": ", " | ", ", ", " / ", "/ ",
}

// artistKey returns the key of an act's name, "" when nothing is left.
func artistKey(name string) string {
	return key(cutAt(bare(name), guestSeps))
}

// lineup returns an event's performers without the event itself: a festival's listing
// may name the festival as its first performer, before its lineup (Ticketmaster's pages:
// "Soundside Music Festival", then Foo Fighters, Noah Kahan, ...). A first performer whose
// name is the title, or begins it ("Palm Tree Music Festival" of "Palm Tree Music Festival
// Dana Point"), is taken for the event when it is named like a festival and at least
// minLineup acts follow it, or when a festival's lineup does (bigLineup: "EDC Orlando",
// then 97 acts); otherwise it is the headliner a show is named after ("Slipknot", with four
// supports; Wu-Tang Clan, with its members), and always when the title goes on to name the
// second performer (Songkick's "Stormzy, Catfish and the Bottlemen, … and 34 more").
func lineup(performers []source.Performer, title string) []source.Performer {
	if len(performers) <= minLineup {
		return performers
	}
	p, t := key(bare(performers[0].Name)), key(bare(title))
	if p == "" || !(t == p || strings.HasPrefix(t, p+" ")) || !(festivalName(p) || len(performers) > bigLineup) {
		return performers
	}
	if next := key(bare(performers[1].Name)); next != "" {
		rest := strings.TrimSpace(strings.TrimPrefix(t, p))
		for _, w := range lineupJoins {
			rest = strings.TrimPrefix(rest, w)
		}
		if strings.HasPrefix(key(rest)+" ", next+" ") {
			return performers // the title lists the acts, the first of them first
		}
	}
	return performers[1:]
}

// lineupJoins are the words a title may join its acts with after the first: "Stormzy and
// Catfish and the Bottlemen" (see lineup). Each is trimmed in turn, in this order.
var lineupJoins = []string{"and ", "with ", "plus "}

// Lineups (see lineup): the acts that must follow a first performer named like its event
// and like a festival for it to be taken for the event, and those that must follow one
// named like its event alone.
const (
	minLineup = 4
	bigLineup = 20
)

// festivalWords name a festival: whole words of a key, not a word's end (Manifest and
// Infest are bands).
var festivalWords = []string{"festival", "festivals", "festivalen", "fest", "weekender", "open air"}

// festivalName reports whether key k names a festival by one of festivalWords.
func festivalName(k string) bool { return hasPhrase(k, festivalWords) }

// hasPhrase reports whether one of phrases is whole words of k, a folded name or key.
func hasPhrase(k string, phrases []string) bool {
	for _, w := range phrases {
		if strings.Contains(" "+k+" ", " "+w+" ") {
			return true
		}
	}
	return false
}

// titleKey returns the key of the headliner an event title names, for events whose
// source lists no performers: "SOLD OUT: The Xs + Support (DJ set)" → "xs". venue and
// city are the event's place, which the title may name after its act.
func titleKey(title, venue, city string) string { return key(titleHeadliner(title, venue, city)) }

// placeSeps end the headliner when the place follows them: "X at The Garage", "X @ The
// Garage", "X live in London", "X live at The Garage", "X live@ Kajak", "X in London" (an act called
// "Panic! at the Disco" stays whole unless it plays a venue called the Disco).
var placeSeps = []string{" live in ", " live at ", " live@ ", " live @ ", " at ", " @ ", " in ", " – live in ", " - live in "}

// titleHeadliner returns the headliner an event title names, as written: "SOLD OUT: The
// Xs + Support (DJ set)", "The Xs Live", "The Xs at The Garage", "The Xs live in London"
// and "The Xs – The Long Tour" → "The Xs". venue and city are the event's place. The title
// goes through headlinerRules in order, each taking away what is not the headliner.
func titleHeadliner(title, venue, city string) string {
	t := title
	for _, r := range headlinerRules {
		t = r.apply(t, venue, city)
	}
	return t
}

// titleRule is a step of titleHeadliner: apply returns what is left of title t of an event
// at venue in city.
type titleRule struct {
	name  string
	apply func(t, venue, city string) string
}

// headlinerRules are the steps of titleHeadliner, in order; the cases are the lines of
// testdata/titles.txt, and a new case is a row here or in a word table and a line there.
var headlinerRules = []titleRule{
	{"status words and bracketed remarks go", func(t, _, _ string) string { return bare(t) }},       // "SOLD OUT: X (DJ set)"
	{"the event's place after the act goes", cutPlace},                                              // "X at The Garage"
	{"a presenter before the act goes", func(t, _, _ string) string { return cutPresenter(t) }},     // "Club X presents: Y"
	{"an occasion before a colon goes", func(t, _, _ string) string { return cutOccasion(t) }},      // "WXPN Welcomes: Y"
	{"guests go", func(t, _, _ string) string { return cutAt(t, guestSeps) }},                       // "X feat. Y"
	{"the rest of the bill goes", func(t, _, _ string) string { return clean(cutAt(t, billSeps)) }}, // "X + Y", "X – The Long Tour"
	{"a last Live goes", func(t, _, _ string) string { return cutLive(t) }},                         // "X Live"
}

// cutPresenter returns the act a title presents: "Club X presents: Y" and "Club X presents
// Y" are Y's show. Else t.
func cutPresenter(t string) string {
	if i := indexFold(t, " presents"); i >= 0 {
		if rest := strings.TrimLeft(t[i+len(" presents"):], ": "); rest != "" {
			return rest
		}
	}
	return t
}

// cutLive returns h without a last " Live": "X Live" is X's show, as "X – Live" and "X
// (Live)" are; an act called Live stays.
func cutLive(h string) string {
	if n := len(h) - len(" live"); n > 0 && strings.EqualFold(h[n:], " live") {
		return h[:n]
	}
	return h
}

// occasions end what a title names before a colon when the act follows it: "Penelope Tour:
// Small Crush", "WXPN 88.5 Welcomes: Waxahatchee", "An Evening with: Owen", "EP Release:
// Pouty", "10th Anniversary: Slothrust", "Listening Party: X". "party" and "show" end acts'
// names too (Bloc Party, Old Crow Medicine Show): only with the word before them.
var occasions = []string{
	"tour", "welcomes", "welcome", "evening with", "night with", "afternoon with",
	"release", "release show", "release party", "listening party", "farewell show",
	"anniversary", "anniversary show", "celebration", "release celebration", "showcase", "residency", "series",
}

// actIntros introduce the act after an occasion's colon ("Album Release Show: w/ Pouty"),
// and go; the first that matches, in this order.
var actIntros = []string{"w/ ", "w/", "with "}

// cutOccasion returns the act after the first ": " of t when what comes before it is made
// of occasions and dates set off by separators ("WXPN 88.5 Welcomes | Album Release
// Celebration: Restorations", "Thursday, March 5 - Album Release Show: Pouty") or a
// volume's number ("Vol. 3: Stingray"), and what follows is not a tour ("Bloc Party: Silent
// Alarm 20th Anniversary Tour"); a "w/" or "with" before the act goes. An act named "The"
// and an occasion ("The Anniversary: …") keeps its name. Else t.
func cutOccasion(t string) string {
	prefix, rest, ok := strings.Cut(t, ": ")
	rest = strings.TrimSpace(rest)
	if !ok || prefix == "" || rest == "" || !actLike(rest) {
		return t
	}
	segs := []string{prefix}
	for _, sep := range billSeps {
		if sep == ": " {
			continue
		}
		var next []string
		for _, seg := range segs {
			next = append(next, splitFold(seg, sep)...)
		}
		segs = next
	}
	found := 0
	for i, seg := range segs {
		switch {
		case occasion(seg) && !strings.HasPrefix(engine.Fold(strings.TrimSpace(seg)), "the "):
			found++
		case dateWords(seg, true):
		case dateWords(seg, false) && (i+1 < len(segs) && dateWords(segs[i+1], true) || i > 0 && dateWords(segs[i-1], true)): // "Thursday, March 5, 2026"
		default:
			return t // the act came first: "Muse - Simulation Theory World Tour: Special Guests", "Thursday - … Anniversary: …"
		}
	}
	if found == 0 {
		return t
	}
	for _, w := range actIntros {
		if len(rest) > len(w) && strings.EqualFold(rest[:len(w)], w) {
			rest = strings.TrimSpace(rest[len(w):])
			break
		}
	}
	return rest
}

// splitFold splits s at every sep, matched ignoring ASCII case.
func splitFold(s, sep string) []string {
	var out []string
	for {
		i := indexFold(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out, s = append(out, s[:i]), s[i+len(sep):]
	}
}

// monthNames and weekdayNames are the words of a date, folded; a title may write them
// shortened to three letters or more ("Mar", "Thu").
var (
	monthNames   = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	weekdayNames = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)

// ordinalLetters end a day's or an anniversary's ordinal ("12th", "1st", "2nd", "3rd").
const ordinalLetters = "stndrh"

// abbreviates reports whether w begins one of names.
func abbreviates(w string, names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, w) })
}

// dateWords reports whether s names a day: weekdays, months, days of the month, ordinals,
// years and numeric dates ("Thursday", "March 5, 2026", "Sat 12th", "Thu 3/5"); with month,
// only one that says the day by more than a weekday. A number alone is no date ("311" is
// a band), nor a weekday, a day or a year alone ("Thursday" is one too) unless month is
// false (then one beside a date: "Thursday, March 5", "March 5, 2026").
func dateWords(s string, month bool) bool {
	words := strings.Fields(engine.Fold(s))
	var named, weekday, day, year bool
	for _, w := range words {
		w = strings.Trim(w, ".,")
		d := strings.TrimRight(w, ordinalLetters)
		switch {
		case isNumber(d) && len(d) <= 2:
			day = true
		case isNumber(w) && len(w) == 4 && (w[:2] == "19" || w[:2] == "20"):
			year = true
		case strings.Count(w, "/") > 0 && isNumber(strings.ReplaceAll(w, "/", "")):
			named = true // "3/5", "12/05/2026"
		case len(w) >= 3 && abbreviates(w, monthNames):
			named = true
		case len(w) >= 3 && abbreviates(w, weekdayNames):
			weekday = true
		default:
			return false
		}
	}
	return named || weekday && (day || !month) || !month && !weekday && (day || year)
}

// actLike reports whether what follows an occasion's colon may name an act: whether none
// of notActs matches it.
func actLike(rest string) bool {
	k := engine.Fold(rest)
	words := strings.Fields(k)
	for _, r := range notActs {
		if r.match(rest, k, words) {
			return false
		}
	}
	return true
}

// notActs are what follows an occasion's colon and is not an act: each rule gets what
// follows as written, folded, and as folded words.
var notActs = []struct {
	name  string
	match func(rest, k string, words []string) bool
}{
	// "Bloc Party: Silent Alarm 20th Anniversary Tour"
	{"a tour", func(_, k string, _ []string) bool { return strings.HasSuffix(" "+k, " tour") }},
	// "Celebration: Album Release Show"; "WXPN Welcomes: Celebration" is a band's
	{"an occasion alone", func(_, _ string, words []string) bool { return len(words) > 1 && onlyOccasion(words) }},
	// "Pom Pom Squad Residency: Week 1", "…: Set 1", "…: Doors 7pm"
	{"a part of the show with its number", func(rest, _ string, words []string) bool {
		return len(words) > 1 && hasDigit(rest) && slices.Contains(showParts, words[0])
	}},
}

// showParts are the parts of a residency or a show that a number follows: "Week 1", "Night
// 2", "Set 1", "Doors 7pm".
var showParts = []string{"week", "night", "day", "part", "set", "show", "doors"}

// hasDigit reports whether s holds an ASCII digit.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// releaseWords say what an occasion is of, before it: "Album Release Show", "10 Year
// Anniversary".
var releaseWords = []string{"album", "ep", "single", "record", "year"}

// onlyOccasion reports whether folded words say an occasion and nothing else: what a
// release is of, ordinals and years, then an occasion ("Album Release Show", "10th
// Anniversary"); not "The Anniversary" or "Sweet Release", which are acts.
func onlyOccasion(words []string) bool {
	for len(words) > 1 {
		w := words[0]
		if !slices.Contains(releaseWords, w) && !isNumber(strings.TrimRight(w, ordinalLetters)) {
			break
		}
		words = words[1:]
	}
	return len(words) > 0 && slices.Contains(occasions, strings.Join(words, " "))
}

// volumeWords number a series' nights: "Something To Talk About Vol. 3".
var volumeWords = []string{"vol", "vol.", "volume"}

// occasion reports whether s ends with an occasion or a volume's number.
func occasion(s string) bool {
	words := strings.Fields(engine.Fold(s))
	for len(words) > 0 && strings.Trim(words[len(words)-1], "!.?*") == "" {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return false
	}
	words[len(words)-1] = strings.Trim(words[len(words)-1], "!.?*")
	end := " " + strings.Join(words, " ")
	for _, w := range occasions {
		if strings.HasSuffix(end, " "+w) {
			return true
		}
	}
	n := len(words)
	return n >= 2 && isNumber(words[n-1]) && slices.Contains(volumeWords, words[n-2])
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// displayName returns an act's name for display: status words and bracketed remarks go,
// the rest is kept as written.
func displayName(name string) string { return clean(bare(name)) }

// isTribute reports whether a name or title announces a tribute act, which is never the
// act it pays tribute to.
func isTribute(s string) bool {
	k := engine.Fold(s)
	return k != "tribute" && hasPhrase(k, tributeWords) // an act called Tribute is none
}

// tributeWords announce a tribute act: "Oasish – a tribute to Oasis", "The Music of Queen".
var tributeWords = []string{"tribute", "tribute to", "music of", "salute to", "celebrating", "plays the hits of"}

// venueKey returns the key of a venue's name within its city: "The Garage London" and
// "Garage (London)" are "garage" in London.
func venueKey(name, city string) string {
	k := key(bare(name))
	if c := engine.Fold(city); c != "" && k != c {
		k = strings.TrimSuffix(k, " "+c)
	}
	return k
}

// bare strips status words at either end and every bracketed remark.
func bare(s string) string {
	s = stripBrackets(s)
	for changed := true; changed; {
		changed = false
		s = strings.Trim(s, " \t"+separatorMarks)
		for _, w := range statusWords {
			if len(s) > len(w) && strings.EqualFold(s[:len(w)], w) && !isWordByte(s[len(w)]) {
				s, changed = s[len(w):], true
			}
			if len(s) > len(w) && strings.EqualFold(s[len(s)-len(w):], w) && !isWordByte(s[len(s)-len(w)-1]) {
				s, changed = s[:len(s)-len(w)], true
			}
		}
	}
	return s
}

// statusTags are the status words a title may begin or end with, each with the gig status
// that says the same ("" for sold out, which the tickets say), in a fixed order.
var statusTags = []struct {
	word   string
	status engine.Status
}{
	{"cancelled", engine.StatusCancelled}, {"canceled", engine.StatusCancelled},
	{"postponed", engine.StatusPostponed}, {"rescheduled", engine.StatusRescheduled},
	{"new date", engine.StatusRescheduled}, {"sold out", ""},
}

// untagged returns a gig's title without the status words at its start or end that its
// status (or, for "sold out", its tickets) already say, set off by a separator (marks with
// a space on the title's side: see cutSeparator): "CANCELLED - Typhoon with Radiation City"
// of a cancelled gig is "Typhoon with Radiation City", "Wham! - CANCELLED" is "Wham!". A
// word the gig does not bear out stays, and so do "Cancelled Plans" and a title that is
// nothing else.
func untagged(title string, status engine.Status, soldOut bool) string {
	s := strings.Trim(title, " \t")
	for changed := true; changed; {
		changed = false
		for _, tag := range statusTags {
			w := tag.word
			if tag.status == "" && !soldOut || tag.status != "" && tag.status != status || len(s) <= len(w) {
				continue
			}
			if strings.EqualFold(s[:len(w)], w) {
				if rest, ok := cutSeparator(s[len(w):], false); ok {
					s, changed = rest, true
				}
			} else if strings.EqualFold(s[len(s)-len(w):], w) {
				if rest, ok := cutSeparator(s[:len(s)-len(w)], true); ok {
					s, changed = rest, true
				}
			}
		}
	}
	return s
}

// separatorMarks set status words and titles' parts apart: "SOLD OUT: X", "CANCELLED - X",
// "X | Club Night", "X · Y".
const separatorMarks = ":;-–—|!*·"

// cutSeparator returns s without the separator at its start (at its end when atEnd):
// groups of marks between spaces ("-", "- -", "-- |"), with a space between the last marks
// and what is left, so that an act's own marks stay ("Wham! - " leaves "Wham!"). ok is false
// when s has no such separator or nothing else.
func cutSeparator(s string, atEnd bool) (string, bool) {
	trim := strings.TrimLeft
	if atEnd {
		trim = strings.TrimRight
	}
	t, cut := trim(s, " \t"), false
	for {
		u := trim(t, separatorMarks)
		v := trim(u, " \t")
		if len(u) == len(t) || v == "" || len(v) == len(u) { // no marks, nothing left, or marks touching it
			break
		}
		t, cut = v, true
	}
	return t, cut
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// stripBrackets removes every "(…)" and "[…]" group; an unclosed one is kept.
func stripBrackets(s string) string {
	for _, p := range [][2]byte{{'(', ')'}, {'[', ']'}} {
		for {
			i := strings.IndexByte(s, p[0])
			if i < 0 {
				break
			}
			j := strings.IndexByte(s[i:], p[1])
			if j < 0 {
				break
			}
			s = s[:i] + " " + s[i+j+1:]
		}
	}
	return s
}

// cutAt returns s up to the first of seps (matched case-insensitively), or all of s.
// cutPlace cuts the title before a placeSep that the venue's or the city's name follows.
func cutPlace(t, venue, city string) string {
	for _, sep := range placeSeps {
		i := indexFold(t, sep)
		if i <= 0 {
			continue
		}
		rest := engine.Fold(t[i+len(sep):])
		for _, place := range []string{venue, city, venueKey(venue, city)} {
			p := engine.Fold(place)
			if p == "" {
				continue
			}
			if rest == p || strings.HasPrefix(rest, p+" ") || strings.HasPrefix("the "+rest, p) && len(rest) > 2 {
				return t[:i]
			}
			// "X at The Troubadour", of a venue named without its "The"; only after "at" or
			// "@" ("Lost in the Trees" at Trees stays whole).
			if r := strings.TrimPrefix(rest, "the "); r != rest && (sep == " at " || sep == " @ ") && (r == p || strings.HasPrefix(r, p+" ")) {
				return t[:i]
			}
		}
		if strings.HasPrefix(strings.TrimSpace(sep), "live") {
			return t[:i] // "X live in Y": Y is a place whatever its name
		}
	}
	return t
}

func cutAt(s string, seps []string) string {
	end := len(s)
	for _, sep := range seps {
		if i := indexFold(s, sep); i > 0 && i < end {
			end = i
		}
	}
	return s[:end]
}

// indexFold is strings.Index ignoring ASCII case; seps are ASCII.
func indexFold(s, sep string) int {
	for i := 0; i+len(sep) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sep)], sep) {
			return i
		}
	}
	return -1
}

// key folds a name, reads "&" as "and", drops a leading "the" and joins initials
// ("R.E.M." and "REM" are "rem").
func key(s string) string {
	words := strings.Fields(engine.Fold(strings.ReplaceAll(s, "&", " and ")))
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	out := make([]string, 0, len(words))
	for i, w := range words {
		if len(w) == 1 && i > 0 && len(words[i-1]) == 1 {
			out[len(out)-1] += w
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}
