package engine

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// gigWriter renders gigs' JSON. It is written by hand because it runs once per gig per
// build (a million times at scale) and reflection-based encoding dominated the build;
// TestAppendGigMatchesEncodingJSON holds it to encoding/json's output byte for byte. What
// gigs share is rendered once, when the writer is made: per venue, its time zone, venue,
// city and country; per artist, its billing up to the headliner flag.
type gigWriter struct {
	cat                *catalog
	place, billing     []byte
	placeAt, billingAt []int // venue v's part is place[placeAt[v]:placeAt[v+1]]; artists' likewise
}

// newGigWriter renders the parts the gigs of cat share, for every venue and artist of its
// dataset.
func newGigWriter(cat *catalog) *gigWriter {
	ds := cat.ds
	w := &gigWriter{cat: cat, placeAt: make([]int, 1, len(ds.Venues)+1), billingAt: make([]int, 1, len(ds.Artists)+1)}
	for v := range ds.Venues {
		venue, city := &ds.Venues[v], &ds.Cities[cat.venueCity[v]]
		w.place = appendKey(w.place, ",timezone")
		w.place = appendString(w.place, city.Timezone)
		w.place = appendKey(w.place, ",venue")
		w.place = appendVenueRef(w.place, venue, city)
		w.place = appendKey(w.place, ",city")
		w.place = appendRef(w.place, city.Slug, city.Name)
		w.place = appendKey(w.place, ",country")
		w.place = appendString(w.place, city.Country)
		w.placeAt = append(w.placeAt, len(w.place))
	}
	for a := range ds.Artists {
		w.billing = append(w.billing, '{')
		w.billing = appendKey(w.billing, "slug")
		w.billing = appendString(w.billing, ds.Artists[a].Slug)
		w.billing = appendKey(w.billing, ",name")
		w.billing = appendString(w.billing, ds.Artists[a].Name)
		w.billing = appendKey(w.billing, ",headliner")
		w.billingAt = append(w.billingAt, len(w.billing))
	}
	return w
}

// appendGig appends the JSON object of one gig, less its times and closing brace (see
// appendGigTimes), so that its content can be hashed apart from them.
// Optional facts are left out when absent; lists are always present.
func (w *gigWriter) appendGig(b []byte, r *gigRow) []byte {
	g, cat, loc := r.g, w.cat, w.cat.loc(r)
	start := g.Start.In(loc)
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
		b = appendKey(b, ",starts_at")
		b = appendStamp(b, start, stampOffset)
	}
	b = appendTime(b, ",ends_at", g.End, loc)
	b = appendTime(b, ",doors_at", g.Doors, loc)
	b = appendTime(b, ",previous_starts_at", g.PreviousStart, loc)
	b = appendTime(b, ",on_sale_at", g.OnSale, loc)
	b = appendKey(b, ",date")
	b = appendStamp(b, start, stampDate)
	b = appendKey(b, ",time_tba")
	b = strconv.AppendBool(b, g.TimeTBA)
	b = append(b, w.place[w.placeAt[r.venue]:w.placeAt[r.venue+1]]...)
	if g.HasMinAge {
		b = appendKey(b, ",min_age")
		b = strconv.AppendInt(b, int64(g.MinAge), 10)
	}
	b = appendOptString(b, ",image_url", g.Image)

	b = appendKey(b, ",artists")
	b = append(b, '[')
	for i, a := range cat.artists(r) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, w.billing[w.billingAt[a]:w.billingAt[a+1]]...)
		b = strconv.AppendBool(b, g.Artists[i].Headliner)
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
	b = appendStamp(b, time.Unix(created, 0).UTC(), stampUTC)
	b = appendKey(b, ",updated_at")
	b = appendStamp(b, time.Unix(updated, 0).UTC(), stampUTC)
	return append(b, '}')
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

// appendTime appends key and t in loc, to the second, as offsetLayout writes it; nothing
// for a zero t.
func appendTime(b []byte, key string, t time.Time, loc *time.Location) []byte {
	if t.IsZero() {
		return b
	}
	return appendStamp(appendKey(b, key), t.In(loc), stampOffset)
}

// A stampLayout is how appendStamp writes a time.
type stampLayout uint8

const (
	stampOffset stampLayout = iota // offsetLayout
	stampUTC                       // time.RFC3339: Z for UTC
	stampDate                      // time.DateOnly
)

var stampLayouts = [...]string{stampOffset: offsetLayout, stampUTC: time.RFC3339, stampDate: time.DateOnly}

// appendStamp appends t, to the second, in its location, quoted, exactly as
// t.AppendFormat with the layout would; it computes the calendar itself for years 1970
// to 9999 and offsets under 100 hours, which time's general formatter took a tenth of the
// build to do.
func appendStamp(b []byte, t time.Time, layout stampLayout) []byte {
	local, days, offset := localClock(t)
	if local < 0 || local > maxStamp || offset <= -100*3600 || offset >= 100*3600 {
		b = append(b, '"')
		return append(t.Truncate(time.Second).AppendFormat(b, stampLayouts[layout]), '"')
	}
	// Days to a civil date: Howard Hinnant's civil_from_days, on a calendar that starts
	// each year in March so that the leap day ends it.
	z := days + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day, month, year := doy-(153*mp+2)/5+1, mp+3, yoe+era*400
	if mp >= 10 {
		month, year = mp-9, year+1
	}
	b = append(b, '"')
	b = append2(append2(b, int(year/100)), int(year%100))
	b = append2(append(b, '-'), int(month))
	b = append2(append(b, '-'), int(day))
	if layout == stampDate {
		return append(b, '"')
	}
	secs := int(local - days*86400)
	b = append2(append(b, 'T'), secs/3600)
	b = append2(append(b, ':'), secs/60%60)
	b = append2(append(b, ':'), secs%60)
	if layout == stampUTC && offset == 0 {
		return append(b, 'Z', '"')
	}
	sign, zone := byte('+'), offset/60 // minutes, truncated as time's formatter does
	if zone < 0 {
		sign, zone = '-', -zone
	}
	b = append2(append(b, sign), zone/60)
	b = append2(append(b, ':'), zone%60)
	return append(b, '"')
}

// localClock returns t's Unix seconds as a clock in its location reads them, the day
// number of that date (days since 1970-01-01, rounded down) and the location's offset
// from UTC in seconds at t.
func localClock(t time.Time) (local, day int64, offset int) {
	_, offset = t.Zone()
	local = t.Unix() + int64(offset)
	day = local / 86400
	if local%86400 < 0 {
		day-- // rounded down, not toward zero
	}
	return local, day, offset
}

// maxStamp is 9999-12-31T23:59:59 in Unix seconds.
const maxStamp = 253402300799

// append2 appends n, 0 to 99, in two digits.
func append2(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }

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

// plainWords returns how many bytes at the start of s, in whole words of 8, need no
// escaping or decoding: each is ASCII, at least 0x20, and neither a quote nor a backslash.
// Each word is tested at once with the classic word-at-a-time test for a byte below n,
// (x - n·0x0101…) &^ x & 0x8080…, which is exact for the word as a whole.
func plainWords(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	n := 0
	for ; n+8 <= len(s); n += 8 {
		w := s[n : n+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		special := (x - ones*0x20) &^ x
		special |= (quote - ones) &^ quote
		special |= (backslash - ones) &^ backslash
		if (special|x)&highs != 0 {
			break
		}
	}
	return n
}

// appendString appends s as a JSON string the way encoding/json does without HTML
// escaping: quote, backslash and control characters escaped, invalid UTF-8 as U+FFFD, and
// U+2028 and U+2029 escaped so the output is also valid JavaScript.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			if n := plainWords(s[i:]); n > 0 {
				i += n
				continue
			}
		}
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
