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

// AppendFold appends the search key of s to dst and returns the extended slice: letters and
// digits in lower case with accents removed (é→e, ø→o, ß→ss), every run of other characters
// turned into one space, no leading or trailing space. Names and slugs that differ only in
// case, accents or punctuation ("Motörhead", "motorhead", "MOTORHEAD!") fold to the same key,
// and a slug folds like its name ("sao-paulo" and "São Paulo" both give "sao paulo").
// ASCII input never allocates beyond dst's growth; s is not modified.
func AppendFold(dst, s []byte) []byte {
	start := len(dst)
	space := false // a separator is pending
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
		d := norm.NFD.Properties(s[i:]).Decomposition()
		if d == nil {
			d = s[i : i+size]
		}
		for j := 0; j < len(d); {
			dr, n := utf8.DecodeRune(d[j:])
			j += n
			switch {
			case unicode.Is(unicode.Mn, dr):
				// accents vanish
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
