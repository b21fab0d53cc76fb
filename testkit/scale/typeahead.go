package scale

import (
	"strings"
	"unicode"
)

// TypeaheadPrefix returns the three letters (lower case) that begin the most words of
// names, the first in byte order of those that tie, or "" when no word has three letters:
// the typeahead query with the most work to do, which the bench's typeahead row and the
// typeahead benchmarks ask /v1/artists for. Words are runs of letters.
func TypeaheadPrefix(names []string) string {
	counts, best := map[string]int{}, ""
	for _, n := range names {
		for _, w := range strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return !unicode.IsLetter(r) }) {
			r := []rune(w)
			if len(r) < 3 {
				continue
			}
			p := string(r[:3])
			counts[p]++
			if counts[p] > counts[best] || counts[p] == counts[best] && p < best {
				best = p
			}
		}
	}
	return best
}
