package loader

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/loader/places"
)

// Chinese, Japanese and Korean lines name a place from its largest unit down, the venue
// last, as their addresses do: "首尔 YES24 Live Hall", "首尔 CJ ENM" (Seoul, then the
// hall), "日本 大阪" (Japan, Osaka), and often with no space between the town and the
// venue: "首尔奥林匹克大厅" (Seoul's Olympic Hall), "首尔圣水洞" (Seoul's Seongsu-dong). The
// venue-first reading finds no town in them. A part whose first word is written in Han or
// Hangul letters is read so (eastAsianFirst): a country's name first is the country the
// event is in (it overrides the feed's zone: a K-pop calendar in Asia/Seoul lists the
// awards in Osaka), the word after it, or the first, the town, the rest the venue; a town
// glued to the venue's name is the longest start of the word that names a town of
// 15,000 people or more that the feed confirms (its zone or country), never a shorter
// one that happens to be a name ("中山" of "中山公园" is a park in many cities).

// maxGluedTown is the most letters a town's name glued to a venue's is looked up with.
const maxGluedTown = 4

// eastAsianFirst returns the towns a part written largest unit first may name (see above),
// most likely first; none when its first word holds no Han or Hangul letter.
func eastAsianFirst(part string) []townWithin {
	words := strings.Fields(part)
	if len(words) == 0 || !hanOrHangul(words[0]) {
		return nil
	}
	country := ""
	if code, ok := places.Country(words[0]); ok && len(words) > 1 {
		country, words = code, words[1:]
	}
	rest := func(w []string) string { return strings.Join(w, " ") }
	out := []townWithin{{town: words[0], before: rest(words[1:]), country: country}}
	if len(words) == 1 {
		// The town glued to the venue's name: its longest start first, of two letters at least.
		w := words[0]
		for n := min(maxGluedTown, utf8.RuneCountInString(w)-2); n >= 2; n-- {
			i := runeOffset(w, n)
			if streetAfter(w[i:]) {
				continue // "南京东路…", "福州路…": a street named after another town
			}
			out = append(out, townWithin{town: w[:i], before: w[i:], country: country, glued: true})
		}
	}
	return out
}

// hanOrHangul reports whether s holds a Han or Hangul letter.
func hanOrHangul(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

// runeOffset returns the byte offset of s's n-th rune (its length when s has fewer).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// streetAfter reports whether rest, what follows a glued town's name, starts with a word
// for a road or street ("路", "东路", "大街", "通り", "로", "길"): Chinese, Japanese and
// Korean towns name their streets after other towns (Shanghai's 南京路, 福州路).
func streetAfter(rest string) bool {
	for _, p := range []string{"路", "街", "道", "巷", "弄", "通", "東路", "西路", "南路", "北路", "中路", "东路", "大街", "大道", "로", "길"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}
