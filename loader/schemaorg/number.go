package schemaorg

import (
	"math"
	"strconv"
	"strings"
)

// priceProps are the Offer properties that state a price, in the order Prices reads them.
var priceProps = [...]string{"price", "lowPrice", "highPrice"}

// Prices reads an offer's price, lowPrice and highPrice with price, which returns the named
// property's price and whether it was given and readable: the offer spans the lowest to the
// highest of those.
func Prices(price func(prop string) (float64, bool)) (lo, hi float64, ok bool) {
	for _, prop := range priceProps {
		f, has := price(prop)
		if !has {
			continue
		}
		if !ok || f < lo {
			lo = f
		}
		if !ok || f > hi {
			hi = f
		}
		ok = true
	}
	return lo, hi, ok
}

// Price reads a price written as text: "25", "25.00", "€25", "EUR 1,234.50",
// "1.234,50", "25,50", "25,-" or "free". A single '.' is a decimal point, as schema.org
// asks; a single ',' is one unless three digits follow it. Text with a minus sign before
// the number, or with more than one number ("25 - 30"), is not a price.
func Price(s string) (float64, bool) {
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
	return Amount(num)
}

// Amount reads a price written as a plain number, as JSON writes one: it must be finite and
// not negative.
func Amount(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false
	}
	return math.Abs(f), true // no -0
}

// Coord reads a latitude or longitude written as a number, within ±limit degrees. Surrounding
// white space is ignored and a decimal comma ("52,52") is read as a point.
func Coord(s string, limit float64) (float64, bool) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.Abs(f) > limit {
		return 0, false
	}
	return f, true
}
