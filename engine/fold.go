package engine

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// foldTable maps letters that carry no Unicode decomposition to their search spelling.
var foldTable = map[rune]string{
	'ø': "o", 'Ø': "o", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ß': "ss", 'ẞ': "ss",
	'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ı': "i",
}

// voicedKana[k][m] is kana 0x3040+k composed with the voiced (m 0) or semi-voiced (m 1)
// sound mark (カ and ゛ are ガ), or 0.
var voicedKana = func() (t [0xc0][2]rune) {
	for k := range t {
		for m := range t[k] {
			c := []rune(norm.NFC.String(string([]rune{rune(0x3040 + k), rune(0x3099 + m)})))
			if len(c) == 1 {
				t[k][m] = c[0]
			}
		}
	}
	return t
}()

// AppendFold appends the search key of s to dst and returns the extended slice: letters and
// digits in lower case with accents removed (é→e, ø→o, ß→ss), every run of other characters
// turned into one space, no leading or trailing space. Names and slugs that differ only in
// case, accents or punctuation ("Motörhead", "motorhead", "MOTORHEAD!") fold to the same key,
// and a slug folds like its name ("sao-paulo" and "São Paulo" both give "sao paulo").
// ASCII input never allocates beyond dst's growth; s is not modified.
func AppendFold(dst, s []byte) []byte { return appendFold(dst, s, false, true) }

// AppendFoldWords appends the search text of s to dst, for the words index (see
// words.go): as AppendFold, and also folding compatibility forms (full-width ｍｕｎｉｃｈ,
// half-width ｶﾀｶﾅ, ligatures, superscripts: Unicode's NFKD), case by simple case folding
// rather than lower case alone (Greek final ς and σ are one letter), and keeping spacing
// combining marks (the vowel signs of Indic scripts) inside their word rather than
// splitting it. It allocates nothing beyond dst's growth; s is not modified. Names keep
// AppendFold: their slugs must not change.
func AppendFoldWords(dst, s []byte) []byte { return appendFold(dst, s, true, false) }

// FoldWords returns the search text of s; see AppendFoldWords.
func FoldWords(s string) string { return string(AppendFoldWords(nil, []byte(s))) }

// appendFold folds s for names (AppendFold) or, with words, for text (AppendFoldWords);
// paged takes the folds of runes beyond ASCII from their pages (pagedFold).
func appendFold(dst, s []byte, words, paged bool) []byte {
	start := len(dst)
	space := false // a separator is pending
	// composeKana composes the last rune of done, a kana, with mark, a (semi-)voiced mark.
	composeKana := func(done []byte, mark rune) bool {
		last, n := utf8.DecodeLastRune(done)
		if n == 0 || space || last < 0x3040 || last > 0x30ff {
			return false
		}
		r := voicedKana[last-0x3040][mark-0x3099]
		if r == 0 {
			return false
		}
		dst = utf8.AppendRune(dst[:len(dst)-n], r)
		return true
	}
	emit := func(r rune) {
		if space && len(dst) > start {
			dst = append(dst, ' ')
		}
		space = false
		dst = utf8.AppendRune(dst, r)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				emit(rune(c))
			case 'A' <= c && c <= 'Z':
				emit(rune(c + 'a' - 'A'))
			case c == '\'':
				// "Guns N' Roses" and "guns n roses" are one name.
			default:
				space = true
			}
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if paged {
			if f, ok := pagedFold(r, size); ok {
				for _, fr := range f {
					if fr == ' ' {
						space = true
					} else {
						emit(fr)
					}
				}
				i += size
				continue
			}
		}
		if f, ok := foldTable[r]; ok {
			for _, fr := range f {
				emit(fr)
			}
			i += size
			continue
		}
		if r == '’' || r == 'ʼ' {
			i += size
			continue
		}
		form := norm.NFD
		if words {
			form = norm.NFKD
		}
		d := form.Properties(s[i:]).Decomposition()
		if d == nil {
			d = s[i : i+size]
		}
		for j := 0; j < len(d); {
			dr, n := utf8.DecodeRune(d[j:])
			j += n
			switch {
			case words && (dr == 0x3099 || dr == 0x309a) && composeKana(dst[start:], dr):
				// ガ, パ (and half-width ｶﾞ) stay whole: a sound, not an accent
			case unicode.Is(unicode.Mn, dr):
				// accents vanish
			case words && dr < utf8.RuneSelf: // from a compatibility form: ｍ, ①, ﬁ
				switch c := byte(dr); {
				case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
					emit(dr)
				case 'A' <= c && c <= 'Z':
					emit(dr + 'a' - 'A')
				case c == '\'':
				default:
					space = true
				}
			case words && (unicode.IsLetter(dr) || unicode.IsDigit(dr) || unicode.Is(unicode.Mc, dr)):
				if f, ok := foldTable[dr]; ok {
					for _, fr := range f {
						emit(fr)
					}
					continue
				}
				emit(unicode.ToLower(unicode.ToUpper(dr))) // simple case folding: ς, σ and Σ alike
			case unicode.IsLetter(dr) || unicode.IsDigit(dr):
				emit(unicode.ToLower(dr))
			default:
				space = true
			}
		}
		i += size
	}
	return dst
}

// Fold returns the search key of s; see AppendFold.
func Fold(s string) string { return string(AppendFold(nil, []byte(s))) }

// Slugify returns the URL slug for a name: its search key with hyphens for spaces.
func Slugify(s string) string {
	b := AppendFold(nil, []byte(s))
	for i, c := range b {
		if c == ' ' {
			b[i] = '-'
		}
	}
	return string(b)
}
