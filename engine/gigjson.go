package engine

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendGig appends the JSON object of one gig, less its times and closing brace (see
// appendGigTimes), so that its content can be hashed apart from them. It is written by hand because it runs once
// per gig per build (a million times at scale) and reflection-based encoding dominated the
// build; TestAppendGigMatchesEncodingJSON holds it to encoding/json's output byte for byte.
// Optional facts are left out when absent; lists are always present.
func appendGig(b []byte, r *gigRow, cat *catalog) []byte {
	g, loc := r.g, cat.loc(r)
	city, venue := &cat.ds.Cities[r.city], &cat.ds.Venues[r.venue]
	b = append(b, '{')
	b = appendKey(b, "id")
	b = appendString(b, g.ID)
	b = appendKey(b, ",title")
	b = appendString(b, g.Title)
	b = appendKey(b, ",status")
	status := g.Status
	if status == "" {
		status = StatusScheduled
	}
	b = appendString(b, string(status))
	if !g.TimeTBA {
		b = appendTime(b, ",starts_at", g.Start, loc)
	}
	b = appendTime(b, ",ends_at", g.End, loc)
	b = appendTime(b, ",doors_at", g.Doors, loc)
	b = appendTime(b, ",previous_starts_at", g.PreviousStart, loc)
	b = appendTime(b, ",on_sale_at", g.OnSale, loc)
	b = appendKey(b, ",date")
	b = append(b, '"')
	b = g.Start.In(loc).AppendFormat(b, time.DateOnly)
	b = append(b, '"')
	b = appendKey(b, ",time_tba")
	b = strconv.AppendBool(b, g.TimeTBA)
	b = appendKey(b, ",timezone")
	b = appendString(b, city.Timezone)
	b = appendKey(b, ",venue")
	b = appendRef(b, venue.Slug, venue.Name)
	b = appendKey(b, ",city")
	b = appendRef(b, city.Slug, city.Name)
	b = appendKey(b, ",country")
	b = appendString(b, city.Country)
	if g.HasMinAge {
		b = appendKey(b, ",min_age")
		b = strconv.AppendInt(b, int64(g.MinAge), 10)
	}
	b = appendOptString(b, ",image_url", g.Image)

	b = appendKey(b, ",artists")
	b = append(b, '[')
	artists := cat.artists(r)
	for i, a := range g.Artists {
		b = appendItemStart(b, i)
		b = appendKey(b, "slug")
		b = appendString(b, a.Artist)
		b = appendKey(b, ",name")
		b = appendString(b, cat.ds.Artists[artists[i]].Name)
		b = appendKey(b, ",headliner")
		b = strconv.AppendBool(b, a.Headliner)
		b = append(b, '}')
	}
	b = append(b, ']')

	b = appendKey(b, ",genres")
	b = append(b, '[')
	for i, s := range g.Genres {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	b = append(b, ']')

	b = appendKey(b, ",tickets")
	b = append(b, '[')
	for i, t := range g.Tickets {
		b = appendItemStart(b, i)
		b = appendKey(b, "url")
		b = appendString(b, t.URL)
		b = appendOptString(b, ",source", t.Source)
		b = appendOptFloat(b, ",price_min", t.PriceMin)
		b = appendOptFloat(b, ",price_max", t.PriceMax)
		b = appendOptString(b, ",currency", t.Currency)
		b = appendOptString(b, ",availability", t.Availability)
		b = append(b, '}')
	}
	b = append(b, ']')

	b = appendKey(b, ",sources")
	b = append(b, '[')
	for i, a := range g.Sources {
		b = appendItemStart(b, i)
		b = appendKey(b, "name")
		b = appendString(b, a.Name)
		b = appendOptString(b, ",url", a.URL)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendGigTimes ends a gig's object appendGig began: its created_at and updated_at,
// Unix seconds written in UTC.
func appendGigTimes(b []byte, created, updated int64) []byte {
	b = appendKey(b, ",created_at")
	b = append(b, '"')
	b = time.Unix(created, 0).UTC().AppendFormat(b, time.RFC3339)
	b = appendKey(append(b, '"'), ",updated_at")
	b = append(b, '"')
	b = time.Unix(updated, 0).UTC().AppendFormat(b, time.RFC3339)
	return append(b, `"}`...)
}

// appendKey appends a key and its colon; a leading ',' in key is written before the quote.
// Keys are plain ASCII and need no escaping.
func appendKey(b []byte, key string) []byte {
	if key[0] == ',' {
		b = append(b, ',')
		key = key[1:]
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// appendItemStart opens the i-th object of a list.
func appendItemStart(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return append(b, '{')
}

func appendRef(b []byte, slug, name string) []byte {
	b = append(b, '{')
	b = appendKey(b, "slug")
	b = appendString(b, slug)
	b = appendKey(b, ",name")
	b = appendString(b, name)
	return append(b, '}')
}

func appendTime(b []byte, key string, t time.Time, loc *time.Location) []byte {
	if t.IsZero() {
		return b
	}
	b = appendKey(b, key)
	b = append(b, '"')
	b = t.In(loc).Truncate(time.Second).AppendFormat(b, offsetLayout)
	return append(b, '"')
}

func appendOptString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(appendKey(b, key), s)
}

// appendOptFloat writes a number as encoding/json does; Build refuses non-finite prices.
func appendOptFloat(b []byte, key string, f *float64) []byte {
	if f == nil {
		return b
	}
	b = appendKey(b, key)
	format := byte('f')
	if abs := math.Abs(*f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, *f, format, -1, 64)
	if format == 'e' { // e-07 → e-7, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does without HTML
// escaping: quote, backslash and control characters escaped, invalid UTF-8 as U+FFFD, and
// U+2028 and U+2029 escaped so the output is also valid JavaScript.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
