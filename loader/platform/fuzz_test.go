package platform

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/loader/source"
)

// The page parsers are fuzzed with the fixtures as seeds; crashers found are kept in
// testdata/fuzz/<target> and run as regression tests by go test.

func FuzzParseHAL(f *testing.F) {
	seed(f, KindHAL,
		`{"page":{"size":1,"totalElements":1,"totalPages":1,"number":0},"_embedded":{"events":[{"id":7,"name":"x",`+
			`"dates":{"start":{"localDate":"2026-01-01","localTime":"25:00:00","dateTime":"2026-01-01T00:00:00+14:00"}},`+
			`"priceRanges":[{"min":"-1","max":"1e400"}],"_embedded":{"venues":[{"location":{"latitude":"91","longitude":"NaN"}}]}}]}}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		events, drops, info, err := parseHALPage(body, fuzzRef)
		checkPage(t, err, events, drops, info, info.Count, info == halInfo{})
		if err == nil && (info.Number < 0 || info.Size < 0 || info.TotalElements < 0 || info.TotalPages < 0) {
			t.Errorf("negative page info %+v", info)
		}
	})
}

func FuzzParseMeta(f *testing.F) {
	seed(f, KindMeta,
		`{"meta":{"page":1,"per_page":1,"total":1},"events":[{"id":-0.5e3,"title":"\u00e9","time_tbd":true,`+
			`"datetime_local":"2026-02-29T03:30:00","datetime_utc":"2026-02-29T03:30:00Z","stats":{"listing_count":"0","lowest_price":"x"}}]}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		events, drops, info, err := parseMetaPage(body, fuzzRef)
		checkPage(t, err, events, drops, info, info.Count, info == numberedInfo{})
		if err == nil && (info.Page < 1 || info.PerPage < 0 || info.Total < 0) {
			t.Errorf("bad page info %+v", info)
		}
	})
}

func FuzzParseContinuation(f *testing.F) {
	seed(f, KindContinuation,
		`{"pagination":{"has_more_items":true,"continuation":"a"},"events":[{"id":"1","name":{"html":"<b>&amp;</b>"},`+
			`"start":{"local":"2026-01-01T20:00:00","utc":"2026-01-01T20:00:00.5Z"},"end":{"local":"x"},`+
			`"ticket_availability":{"minimum_ticket_price":{"major_value":"1e-400"},"is_sold_out":true}}]}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		events, drops, info, err := parseContinuationPage(body, fuzzRef)
		checkPage(t, err, events, drops, info, info.Count, info == contInfo{})
		if err == nil && (info.PageSize < 0 || info.ObjectCount < 0) {
			t.Errorf("negative page info %+v", info)
		}
	})
}

func FuzzParseBandsintown(f *testing.F) {
	seed(f, KindBandsintown, `[{"id":1,"datetime":"2026-01-01T20:00:00","on_sale_datetime":"x","lineup":["a",""],`+
		`"venue":{"latitude":"91","longitude":""},"offers":[{"type":"Tickets","url":"javascript:x","status":"sold out"}]}]`)
	f.Fuzz(func(t *testing.T, body []byte) {
		events, drops, err := parseBandsintown(body, fuzzRef)
		n := -1
		if err == nil {
			n = len(events) + len(drops)
		}
		checkPage(t, err, events, drops, nil, n, true)
	})
}

func FuzzParseSongkick(f *testing.F) {
	seed(f, KindSongkick, `{"resultsPage":{"status":"ok","page":1,"perPage":1,"totalEntries":1,"results":{"event":[`+
		`{"id":"1","displayName":"a at b (May 1, 2026)","start":{"date":"2026-05-01","time":null},"ageRestriction":"18+",`+
		`"venue":{"displayName":"b","lat":"x"},"performance":[{"billing":"support","artist":{"displayName":"c"}}]}]}}}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		events, drops, info, err := parseSongkickPage(body, fuzzRef)
		checkPage(t, err, events, drops, info, info.Count, info == numberedInfo{})
	})
}

const fuzzRef = "https://api.example/events?key=REDACTED&page=3"

// seed adds the kind's fixtures and extra bodies to f.
func seed(f *testing.F, kind Kind, extra ...string) {
	files, err := filepath.Glob(filepath.Join("testdata", string(kind)+".*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no %s fixtures: %v", kind, err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// checkPage checks what a page parser returned keeps the package's promises.
func checkPage(t *testing.T, err error, events []source.Event, drops []source.Drop, info any, count int, zeroInfo bool) {
	t.Helper()
	if err != nil {
		if events != nil || drops != nil || !zeroInfo {
			t.Fatalf("error %v came with events %v, drops %v or info %+v", err, events, drops, info)
		}
		return
	}
	if len(events)+len(drops) != count {
		t.Errorf("%d events and %d drops from %d records", len(events), len(drops), count)
	}
	for i, e := range events {
		checkEvent(t, i, e)
	}
	for _, d := range drops {
		if d.Ref != fuzzRef || d.Line < 1 || d.Line > count || d.Reason == "" {
			t.Errorf("bad drop %+v", d)
		}
		if r, _ := utf8.DecodeRuneInString(d.Reason); unicode.IsUpper(r) {
			t.Errorf("drop reason is not lowercase: %q", d.Reason)
		}
	}
	checkStrings(t, reflect.ValueOf(drops))
}

func checkEvent(t *testing.T, i int, e source.Event) {
	t.Helper()
	if e.Ref == "" || strings.TrimSpace(e.Title) == "" || e.Title != strings.TrimSpace(e.Title) {
		t.Errorf("event %d: ref %q, title %q", i, e.Ref, e.Title)
	}
	if !e.Status.Valid() {
		t.Errorf("event %d: status %q", i, e.Status)
	}
	if e.Start.IsZero() {
		t.Errorf("event %d: no start", i)
	}
	for _, w := range []source.When{e.Start, e.End} {
		if w.IsZero() {
			continue
		}
		if w.Wall.Location() != time.UTC || w.Wall.Year() < 1900 || w.Wall.Nanosecond() != 0 {
			t.Errorf("event %d: wall %v", i, w.Wall)
		}
		if w.DateOnly && (w.HasOffset || w.Wall.Hour()+w.Wall.Minute()+w.Wall.Second() != 0) {
			t.Errorf("event %d: date-only %+v", i, w)
		}
		if w.HasOffset && (w.Offset < -14*3600 || w.Offset > 14*3600) || !w.HasOffset && w.Offset != 0 {
			t.Errorf("event %d: offset %+v", i, w)
		}
	}
	if v := e.Venue; v.HasGeo && (math.Abs(v.Lat) > 90 || math.Abs(v.Lon) > 180 || v.Lat == 0 && v.Lon == 0) ||
		!v.HasGeo && (v.Lat != 0 || v.Lon != 0) {
		t.Errorf("event %d: geo %+v", i, v)
	}
	if e.URL != "" && webURL(e.URL) != e.URL {
		t.Errorf("event %d: url %q", i, e.URL)
	}
	if len(e.Offers) > 1 {
		t.Errorf("event %d: %d offers", i, len(e.Offers))
	}
	for _, o := range e.Offers {
		if o.HasPrice && (o.PriceMin < 0 || o.PriceMin > o.PriceMax || math.IsInf(o.PriceMax, 0) || math.IsNaN(o.PriceMin) || math.IsNaN(o.PriceMax)) ||
			!o.HasPrice && (o.PriceMin != 0 || o.PriceMax != 0 || o.Currency != "") {
			t.Errorf("event %d: bad prices in %+v", i, o)
		}
		switch o.Availability {
		case "", "in_stock", "sold_out":
		default:
			t.Errorf("event %d: availability %q", i, o.Availability)
		}
		if o == (source.Offer{}) {
			t.Errorf("event %d: empty offer", i)
		}
	}
	for _, list := range append([][]string{e.Genres}, performerGenres(e)...) {
		for j, g := range list {
			if g == "" || g != strings.TrimSpace(g) || genericTags[strings.ToLower(g)] {
				t.Errorf("event %d: genre %q", i, g)
			}
			for _, h := range list[:j] {
				if strings.EqualFold(g, h) {
					t.Errorf("event %d: genre %q twice", i, g)
				}
			}
		}
	}
	for _, p := range e.Performers {
		if p.Name == "" || p.Name != strings.TrimSpace(p.Name) {
			t.Errorf("event %d: performer %q", i, p.Name)
		}
	}
	checkStrings(t, reflect.ValueOf(e))
}

func performerGenres(e source.Event) [][]string {
	var out [][]string
	for _, p := range e.Performers {
		out = append(out, p.Genres)
	}
	return out
}

// checkStrings fails on any string in v that is not valid UTF-8.
func checkStrings(t *testing.T, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			t.Errorf("invalid UTF-8: %q", v.String())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			checkStrings(t, v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			checkStrings(t, v.Index(i))
		}
	}
}
