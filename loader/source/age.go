package source

import (
	"strconv"
	"strings"
)

// ParseAge reads an age restriction as sources write it: "18+", "21 and over", "Over 18s",
// "16 years and older", schema.org's typicalAgeRange "18-" or "18-99", "All Ages" and
// "all-ages". It returns the youngest age admitted (0 for all ages) and whether s said one.
// Ages over 99 and texts without an age are not restrictions.
func ParseAge(s string) (int, bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return 0, false
	}
	if strings.Contains(t, "all age") || strings.Contains(t, "all-age") || t == "aa" {
		return 0, true
	}
	// The first number in the text is the age: "18+", "ages 21+", "over 18s", "18-".
	i := strings.IndexFunc(t, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return 0, false
	}
	j := i
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(t[i:j])
	if err != nil || n > 99 || j-i > 2 {
		return 0, false
	}
	return n, true
}
