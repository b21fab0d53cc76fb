package jsonld

import (
	"encoding/json"
	"html"
	"strings"

	"github.com/gigs/gigs/loader/schemaorg"
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

// text returns the human-readable text of v: HTML entities unescaped, then cleaned as
// schemaorg.Text does.
func text(v any) string {
	return schemaorg.Text(html.UnescapeString(strings.ToValidUTF8(str(v), "\uFFFD")))
}

// token returns v as a machine-readable token; see schemaorg.Token.
func token(v any) string { return schemaorg.Token(str(v)) }

// term returns the last segment of an IRI or compact IRI, lower-cased; see schemaorg.Term.
func term(v any) string { return schemaorg.Term(str(v)) }

// price reads a price given as a JSON number or as text; see schemaorg.Price.
func price(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		return schemaorg.Amount(string(v))
	case string:
		return schemaorg.Price(v)
	}
	return 0, false
}

// coord reads a latitude or longitude given as a number or as text, within ±limit degrees;
// see schemaorg.Coord.
func coord(v any, limit float64) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		return schemaorg.Coord(string(v), limit)
	case string:
		return schemaorg.Coord(v, limit)
	}
	return 0, false
}
