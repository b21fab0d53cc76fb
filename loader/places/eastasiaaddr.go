package places

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Japanese venues write their full address after their name, in brackets that are often
// full-width and need no space before them: "代官山AビルB1F（東京都渋谷区代官山町20-17）",
// "BPセントラルスペース南船場2F(大阪府大阪市中央区南船場4丁目8-6 2F)" (a Japanese idol group's
// calendar). The address runs on below its ward, to the town, its chōme and the block
// ("代官山町20-17", "南船場4丁目8-6 2F"): the city is the one its units name down to the
// ward (eastasia.go), and what follows the ward places nothing more.

// cutBracket cuts a line ending in an address in brackets into the name and the address:
// " (…)" as before, or full-width "（…）", or "(…)" with no space when what it holds is
// written with East Asian units; ok is false when the line ends in no such brackets.
func cutBracket(line string) (name, addr string, ok bool) {
	if name, addr, ok := strings.Cut(line, " ("); ok && strings.HasSuffix(addr, ")") {
		return name, strings.TrimSuffix(addr, ")"), true
	}
	for _, b := range [...][2]string{{"（", "）"}, {"(", ")"}} {
		i := strings.LastIndex(line, b[0])
		if i > 0 && strings.HasSuffix(line, b[1]) {
			if a := line[i+len(b[0]) : len(line)-len(b[1])]; eastAsianAddress(a) {
				return strings.TrimSpace(line[:i]), a, true
			}
		}
	}
	return "", "", false
}

// eastAsianAddress reports whether s is an address written with East Asian units: it
// starts with a Han letter and holds a prefecture's, a city's or a ward's unit.
func eastAsianAddress(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.Is(unicode.Han, r) && strings.ContainsAny(s, "都府県省市区區")
}

// upToWard returns an East Asian address cut after its ward ("東京都渋谷区代官山町20-17" is
// "東京都渋谷区", "大阪府大阪市中央区南船場4丁目8-6 2F" is "大阪府大阪市中央区"), or s when no
// ward's unit is followed by more.
func upToWard(s string) string {
	for _, u := range wardUnits[:3] { // the written ones: 区, 區, 구
		if i := strings.Index(s, u); i > 0 && i+len(u) < len(s) {
			return s[:i+len(u)]
		}
	}
	return s
}
