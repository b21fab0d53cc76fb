package server

import (
	"bytes"
	"math"

	"github.com/gigs/gigs/engine"
)

// Gigs near a point: near=LAT,LON in decimal degrees, radius=a number and a unit (km, mi
// or m; 25km when not given, at most engine.MaxRadiusKm), sort=starts_at (the default) or
// distance (only with near).

const (
	defaultRadiusKm = 25
	kmPerMile       = 1.609344
)

// parseNear reads near, radius and sort into p.q, and their pairs into the canonical query.
func (p *params) parseNear() {
	byDistance := false
	if v := p.raw[pSort]; v != nil {
		switch string(v) {
		case "starts_at":
		case "distance":
			byDistance = true
			if p.raw[pNear] == nil {
				p.bad("sort", "distance needs near: the distance from where?")
			}
		default:
			p.bad("sort", "must be starts_at or distance")
		}
	}
	lat, lon, km, ok := p.readNear()
	if p.raw[pNear] == nil {
		if byDistance || p.raw[pSort] == nil {
			return
		}
		p.base = appendPair(p.base, "sort", p.raw[pSort])
		return
	}
	if !ok || len(p.invalid) > 0 {
		return
	}
	p.q.Near(lat, lon, km, byDistance)
	for _, i := range []int{pNear, pRadius, pSort} {
		if p.raw[i] != nil {
			p.base = appendPair(p.base, paramNames[i], p.raw[i])
		}
	}
}

// readNear reads near and radius; ok is true when near is given and both are good.
func (p *params) readNear() (lat, lon, km float64, ok bool) {
	km, radiusOK := float64(defaultRadiusKm), true
	if v := p.raw[pRadius]; v != nil {
		var reason string
		km, reason = parseRadius(v)
		if radiusOK = reason == ""; !radiusOK {
			p.bad("radius", reason)
		} else if p.raw[pNear] == nil {
			p.bad("radius", "only with near: the radius around which point?")
			radiusOK = false
		}
	}
	v := p.raw[pNear]
	if v == nil {
		return 0, 0, 0, false
	}
	lat, lon, reason := parseNearValue(v)
	if reason != "" {
		p.bad("near", reason)
		return 0, 0, 0, false
	}
	return lat, lon, km, radiusOK
}

// parseNearValue reads LAT,LON; reason says what is wrong, "" when nothing is.
func parseNearValue(v []byte) (lat, lon float64, reason string) {
	const form = "must be latitude,longitude in decimal degrees, such as 52.52,13.405"
	a, b, ok := bytes.Cut(v, []byte{','})
	if !ok {
		return 0, 0, form
	}
	lat, ok1 := parseDecimal(bytes.TrimSpace(a))
	lon, ok2 := parseDecimal(bytes.TrimSpace(b))
	switch {
	case !ok1 || !ok2:
		return 0, 0, form
	case engine.ValidPosition(lat, lon):
		return lat, lon, ""
	case engine.ValidPosition(lon, lat):
		return 0, 0, "the latitude must be within -90 and 90, the longitude within -180 and 180; the order is latitude first (near=LAT,LON), and swapped the two would fit"
	}
	return 0, 0, "the latitude must be within -90 and 90, the longitude within -180 and 180"
}

// parseRadius reads a radius: a positive decimal number and a unit, km, mi or m, at
// most engine.MaxRadiusKm. It returns the radius in kilometres, or the reason it is not one.
func parseRadius(v []byte) (km float64, reason string) {
	n := 0
	for n < len(v) && (v[n] >= '0' && v[n] <= '9' || v[n] == '.' || v[n] == '-' || v[n] == '+') {
		n++
	}
	x, ok := parseDecimal(v[:n])
	unit := bytes.TrimSpace(v[n:])
	if !ok || len(unit) == 0 {
		return 0, "must be a number and a unit, such as 25km, 15mi or 800m"
	}
	switch string(unit) {
	case "km":
		km = x
	case "mi":
		km = x * kmPerMile
	case "m":
		km = x / 1000
	default:
		return 0, "the unit must be km, mi or m, such as 25km, 15mi or 800m"
	}
	switch {
	case km <= 0:
		return 0, "must be greater than 0"
	case km > engine.MaxRadiusKm:
		return 0, "must be at most 500km (310mi)"
	}
	return km, ""
}

// parseDecimal reads [+-]digits[.digits] (at most 15 digits in all), exactly rounded.
func parseDecimal(v []byte) (float64, bool) {
	if len(v) > 0 && (v[0] == '-' || v[0] == '+') {
		x, ok := parseDecimal(v[1:])
		if v[0] == '-' {
			x = -x
		}
		return x, ok && (len(v) < 2 || v[1] != '-' && v[1] != '+')
	}
	var mant int64
	digits, frac, dot := 0, 0, false
	for _, c := range v {
		switch {
		case c == '.' && !dot:
			dot = true
		case c >= '0' && c <= '9':
			mant = mant*10 + int64(c-'0')
			digits++
			if dot {
				frac++
			}
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 || v[len(v)-1] == '.' || v[0] == '.' {
		return 0, false
	}
	// mant < 2^53 and 10^frac exact: the quotient is correctly rounded.
	return float64(mant) / math.Pow10(frac), true
}
