package jsonld

import (
	"encoding/json"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	maxText  = 500  // bytes kept of a name or other text
	maxLink  = 2000 // bytes of a URL or @id; longer ones are ignored
	maxQuote = 64   // bytes of a page value quoted in a drop reason
)

// str returns the text of a JSON-LD value: a string or number as written, the first
// non-empty text of an array, or an object's "@value" (a value object) or "@id" (an IRI).
// The result is raw page text.
func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	case []any:
		for _, x := range v {
			if s := str(x); s != "" {
				return s
			}
		}
	case *object:
		if s := str(v.get("@value")); s != "" {
			return s
		}
		return str(v.get("@id"))
	}
	return ""
}

// text returns the human-readable text of v: HTML entities unescaped, control characters
// dropped, white space collapsed and trimmed, valid UTF-8, at most maxText bytes.
func text(v any) string {
	s := html.UnescapeString(strings.ToValidUTF8(str(v), "\uFFFD"))
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case unicode.IsControl(r) || r == '\uFEFF':
		default:
			n := utf8.RuneLen(r)
			if space {
				n++
			}
			if b.Len()+n > maxText {
				return b.String()
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// token returns v as a machine-readable token: valid UTF-8, without control characters,
// trimmed, otherwise as written.
func token(v any) string {
	s := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\uFEFF' {
			return -1
		}
		return r
	}, strings.ToValidUTF8(str(v), "\uFFFD"))
	return strings.TrimSpace(s)
}

// term returns the last segment of an IRI or compact IRI, lower-cased:
// "https://schema.org/SoldOut", "schema:SoldOut" and "SoldOut" all give "soldout".
func term(v any) string {
	s := token(v)
	return strings.ToLower(s[strings.LastIndexAny(s, "/#:")+1:])
}

// clip shortens s to about n bytes on a rune boundary, for quoting page text in a reason.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// price reads a price given as a JSON number or as text; see priceText.
func price(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		return nonNegative(string(v))
	case string:
		return priceText(v)
	}
	return 0, false
}

// priceText reads a price written as text: "25", "25.00", "€25", "EUR 1,234.50",
// "1.234,50", "25,50", "25,-" or "free". A single '.' is a decimal point, as schema.org
// asks; a single ',' is one unless three digits follow it. Text with a minus sign before
// the number, or with more than one number ("25 - 30"), is not a price.
func priceText(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "free") {
		return 0, true
	}
	const digits = "0123456789"
	start := strings.IndexAny(s, digits)
	if start < 0 || strings.ContainsAny(s[:start], "-\u2212") {
		return 0, false
	}
	end := start
	for end < len(s) && (strings.IndexByte(digits, s[end]) >= 0 || s[end] == '.' || s[end] == ',') {
		end++
	}
	if strings.ContainsAny(s[end:], digits) {
		return 0, false
	}
	num := strings.TrimRight(s[start:end], ".,")
	dot, comma := strings.LastIndexByte(num, '.'), strings.LastIndexByte(num, ',')
	switch {
	case dot >= 0 && comma >= 0: // the last separator is the decimal one
		sep := max(dot, comma)
		num = strings.NewReplacer(".", "", ",", "").Replace(num[:sep]) + "." + num[sep+1:]
	case comma >= 0 && strings.Count(num, ",") == 1 && len(num)-comma-1 != 3: // "25,50"
		num = num[:comma] + "." + num[comma+1:]
	case comma >= 0: // "1,234"
		num = strings.ReplaceAll(num, ",", "")
	case strings.Count(num, ".") > 1: // "1.234.567"
		num = strings.ReplaceAll(num, ".", "")
	}
	return nonNegative(num)
}

// nonNegative parses a finite, non-negative number.
func nonNegative(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false
	}
	return math.Abs(f), true // no -0
}

// coord reads a latitude or longitude given as a number or as text, within ±limit degrees.
// Text may use a decimal comma ("52,52").
func coord(v any, limit float64) (float64, bool) {
	var s string
	switch v := v.(type) {
	case json.Number:
		s = string(v)
	case string:
		s = strings.TrimSpace(v)
		if !strings.Contains(s, ".") {
			s = strings.Replace(s, ",", ".", 1)
		}
	default:
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.Abs(f) > limit {
		return 0, false
	}
	return f, true
}
