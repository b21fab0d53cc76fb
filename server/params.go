package server

import (
	"bytes"
	"math"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// Query parameters of /v1/gigs, in the order links write them.
const (
	pCity = iota
	pCountry
	pVenue
	pArtist
	pGenre
	pStatus
	pFrom
	pTo
	pPageSize
	pPage
	pAfter
	pNear // near, radius and sort: see geo.go
	pRadius
	pSort
	pSince // of /v1/changes
	pLimit
	pQ // search words (engine/words.go)
	numParams
)

var paramNames = [numParams]string{"city", "country", "venue", "artist", "genre", "status", "from", "to", "page_size", "page", "after", "near", "radius", "sort", "since", "limit", "q"}

var filterDims = [...]engine.Dim{pCity: engine.DimCity, pCountry: engine.DimCountry, pVenue: engine.DimVenue,
	pArtist: engine.DimArtist, pGenre: engine.DimGenre, pStatus: engine.DimStatus}

const (
	defaultPageSize = 20
	maxPageSize     = 100
	maxPage         = 10_000_000
	maxValues       = 20  // alternatives in one filter
	maxValueLen     = 200 // bytes in one alternative
)

// params is the per-request scratch of a query: raw values by parameter, problems found,
// and the canonical query string links are made from. Pooled by the server.
type params struct {
	raw     [numParams][]byte // points into the request; valid during the request only
	given   [numParams]bool
	invalid []InvalidParam
	base    []byte        // canonical query without page, each pair ending in '&'; then link URLs
	links   []engine.Link // a page's links, their URLs in base
	buf     []byte        // response assembly
	zbuf    []byte        // compression: the buffer gzip writes into
	zw      *gzip.Writer  // compression at gzip.BestSpeed, made on first use
	q       *engine.Query

	page, pageSize int
	after          bool // the page begins after a keyset token; Run sets its offset
}

func (p *params) reset() {
	p.raw, p.given = [numParams][]byte{}, [numParams]bool{}
	p.invalid, p.base, p.buf, p.links = p.invalid[:0], p.base[:0], p.buf[:0], p.links[:0]
	p.page, p.pageSize, p.after = 1, defaultPageSize, false
	p.q.Reset()
}

func (p *params) bad(name, reason string) {
	p.invalid = append(p.invalid, InvalidParam{Name: name, Reason: reason})
}

// collect reads the query string, accepting only the parameters allowed (by index into
// paramNames) and reporting unknown, repeated and empty ones.
func (p *params) collect(args *fasthttp.Args, allowed []int, accepted string) {
	for k, v := range args.All() {
		i := -1
		for _, a := range allowed {
			if string(k) == paramNames[a] {
				i = a
				break
			}
		}
		switch {
		case i < 0:
			p.bad(string(k), "unknown parameter; accepted: "+accepted)
		case p.given[i] && i <= pStatus: // a filter, which takes alternatives
			p.bad(paramNames[i], "given more than once; separate alternatives with commas")
		case p.given[i]:
			p.bad(paramNames[i], "given more than once; it takes one value")
		case len(bytes.TrimSpace(v)) == 0:
			p.given[i] = true
			p.bad(paramNames[i], "must not be empty")
		default:
			p.given[i], p.raw[i] = true, v
		}
	}
}

var (
	gigParams     = []int{pCity, pCountry, pVenue, pArtist, pGenre, pStatus, pQ, pFrom, pTo, pPageSize, pPage, pAfter, pNear, pRadius, pSort}
	gigAccepted   = "city, country, venue, artist, genre, status, q, from, to, page, page_size, after, near, radius, sort"
	venueParams   = []int{pCity, pCountry, pQ, pNear, pRadius, pPageSize, pPage}
	venueAccepted = "city, country, q, near, radius, page, page_size"
)

// parseFilters turns the filter parameters into matches on p.q and the canonical query.
func (p *params) parseFilters(only []int) {
	for _, i := range only {
		if i > pStatus || p.raw[i] == nil {
			continue
		}
		if !p.parseList(i) {
			continue
		}
		p.base = appendPair(p.base, paramNames[i], p.raw[i])
	}
}

// parseList splits one filter's comma-separated alternatives into matches.
func (p *params) parseList(i int) bool {
	rest := p.raw[i]
	for n := 1; ; n++ {
		v, after, more := bytes.Cut(rest, []byte{','})
		v = bytes.TrimSpace(v)
		switch {
		case len(v) == 0:
			p.bad(paramNames[i], "empty alternative in the comma-separated list")
			return false
		case n > maxValues:
			p.bad(paramNames[i], "at most 20 comma-separated alternatives")
			return false
		case len(v) > maxValueLen:
			p.bad(paramNames[i], "an alternative is longer than 200 bytes")
			return false
		}
		if i == pStatus && !knownStatus(v) {
			p.bad(paramNames[i], "must be statuses: scheduled, cancelled, postponed or rescheduled")
			return false
		}
		if i == pCountry {
			code, ok := engine.CountryCodeBytes(v)
			if !ok {
				p.bad(paramNames[i], "must be countries: ISO 3166-1 codes such as DE, gb or USA, or names such as Germany or UK")
				return false
			}
			v = []byte(code)
		}
		var mbid [len(engine.MBIDPrefix) + 36]byte
		if i == pArtist {
			var ok bool
			if v, ok = artistValue(mbid[:0], v); !ok {
				p.bad(paramNames[i], "mbid: must be followed by a MusicBrainz id, a UUID such as 5b11f4ce-a62d-471e-81fc-a69a8278c7da")
				return false
			}
		}
		p.q.Match(filterDims[i], v)
		if !more {
			return true
		}
		rest = after
	}
}

// parseGigs parses everything /v1/gigs accepts. now is the default lower bound.
func (p *params) parseGigs(args *fasthttp.Args, now time.Time) {
	p.collect(args, gigParams, gigAccepted)
	p.parseFilters(gigParams)
	p.parseSearch()
	p.q.From = engine.AtInstant(now)
	var ok [2]bool
	for n, i := range []int{pFrom, pTo} {
		if p.raw[i] == nil {
			continue
		}
		b, good := parseBound(p.raw[i])
		if !good {
			p.bad(paramNames[i], "must be a date YYYY-MM-DD or an RFC 3339 instant such as 2026-12-05T20:00:00+01:00")
			continue
		}
		ok[n] = true
		if i == pFrom {
			p.q.From = b
		} else {
			p.q.To = b
		}
		p.base = appendPair(p.base, paramNames[i], p.raw[i])
	}
	if ok[1] && (ok[0] || p.raw[pFrom] == nil) && p.q.From.After(p.q.To) {
		if p.raw[pFrom] == nil {
			p.bad("to", "must not be before from, which defaults to now")
		} else {
			p.bad("to", "must not be before from")
		}
	}
	p.parsePaging()
	p.parseNear() // before after, whose tokens depend on the order
	if v := p.raw[pAfter]; v != nil {
		switch {
		case p.raw[pPage] != nil:
			p.bad("after", "not with page: a page begins after a gig or at a page number")
		case len(p.invalid) > 0 && string(p.raw[pSort]) == "distance":
			// Another bad parameter left the order unset: a token by distance cannot be
			// judged, and is not the client's error to report.
		case !p.q.After(v):
			p.bad("after", "must be the after value of a page's next link")
		default:
			p.after = true
		}
	}
	p.q.Offset, p.q.Limit = (p.page-1)*p.pageSize, p.pageSize
}

// parseSearch reads q into p.q's search, and its pair into the canonical query.
func (p *params) parseSearch() {
	if v := p.raw[pQ]; v != nil {
		if err := p.q.Search(v); err != nil {
			p.bad("q", err.Error())
		} else {
			p.base = appendPair(p.base, "q", v)
		}
	}
}

// parsePaging reads page_size, into the canonical query, and page.
func (p *params) parsePaging() {
	if v := p.raw[pPageSize]; v != nil {
		if n, good := parseInt(v, maxPageSize); good {
			p.pageSize = n
			p.base = appendPair(p.base, "page_size", v)
		} else {
			p.bad("page_size", "must be an integer from 1 to 100")
		}
	}
	if v := p.raw[pPage]; v != nil {
		if n, good := parseInt(v, maxPage); good {
			p.page = n
		} else {
			p.bad("page", "must be an integer from 1 to 10000000")
		}
	}
}

// gzip compresses body into p.zbuf and returns it; body is not kept.
func (p *params) gzip(body []byte) []byte {
	out := sliceWriter{p.zbuf[:0]}
	if p.zw == nil {
		p.zw, _ = gzip.NewWriterLevel(nil, gzip.BestSpeed) // a valid level: no error
	}
	p.zw.Reset(&out)
	_, _ = p.zw.Write(body) // a sliceWriter never fails
	_ = p.zw.Close()
	return out.b
}

// sliceWriter is an io.Writer appending to a slice.
type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(b []byte) (int, error) {
	w.b = append(w.b, b...)
	return len(b), nil
}

// knownStatus reports whether v names a status, in any case.
func knownStatus(v []byte) bool {
	for _, s := range engine.Statuses {
		if bytes.EqualFold(v, []byte(s)) {
			return true
		}
	}
	return false
}

// parseInt parses a decimal integer from 1 to max, digits only.
func parseInt(v []byte, max int) (int, bool) {
	if len(v) == 0 || len(v) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n >= 1 && n <= max
}

// parseBound reads YYYY-MM-DD as a venue-local date, or an RFC 3339 instant.
func parseBound(v []byte) (engine.Bound, bool) {
	if len(v) == 10 {
		t, ok := parseDate(v)
		return engine.OnDate(t), ok
	}
	t, ok := parseInstant(v)
	return engine.AtInstant(t), ok
}

// parseDate reads the YYYY-MM-DD at the start of v: a real day of the years 1 to 9999.
func parseDate(v []byte) (time.Time, bool) {
	if len(v) < 10 || v[4] != '-' || v[7] != '-' {
		return time.Time{}, false
	}
	y, ok1 := digits(v[0:4])
	m, ok2 := digits(v[5:7])
	d, ok3 := digits(v[8:10])
	if !ok1 || !ok2 || !ok3 || y < 1 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t, int(t.Month()) == m && t.Day() == d
}

// parseInstant reads an RFC 3339 date-time strictly: hours 00-23, minutes and seconds
// 00-59 (no leap second: no instant the data holds needs one), at most nine fraction
// digits, and a Z or an offset within ±18:00 (hour 24, +24:00 and the like are refused,
// where time.Parse lets some through). T and Z may be lower case, as RFC 3339 allows.
func parseInstant(v []byte) (time.Time, bool) {
	date, ok := parseDate(v)
	if !ok || len(v) < 20 || v[10]|0x20 != 't' || v[13] != ':' || v[16] != ':' {
		return time.Time{}, false
	}
	hh, ok1 := digits(v[11:13])
	mm, ok2 := digits(v[14:16])
	ss, ok3 := digits(v[17:19])
	if !ok1 || !ok2 || !ok3 || hh > 23 || mm > 59 || ss > 59 {
		return time.Time{}, false
	}
	rest, nanos := v[19:], 0
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 1 || n > 10 {
			return time.Time{}, false
		}
		frac, _ := digits(rest[1:n])
		for range 10 - n {
			frac *= 10
		}
		rest, nanos = rest[n:], frac
	}
	offset := 0
	switch {
	case len(rest) == 1 && rest[0]|0x20 == 'z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || om > 59 || oh*60+om > 18*60 {
			return time.Time{}, false
		}
		offset = (oh*60 + om) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, false
	}
	y, m, d := date.Date()
	return time.Date(y, m, d, hh, mm, ss, nanos, time.UTC).Add(-time.Duration(offset) * time.Second), true
}

// digits reads 1*DIGIT; a value past what an int holds reads as the largest int.
func digits(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (math.MaxInt-9)/10 {
			n = math.MaxInt
			continue
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// appendPair appends name=value& with value percent-encoded; commas and colons stay
// readable.
func appendPair(dst []byte, name string, value []byte) []byte {
	dst = append(dst, name...)
	dst = append(dst, '=')
	for _, c := range value {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == ',', c == ':':
			dst = append(dst, c)
		default:
			dst = append(dst, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		}
	}
	return append(dst, '&')
}
