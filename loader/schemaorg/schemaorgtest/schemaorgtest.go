// Package schemaorgtest holds what the tests of the schema.org adapters (JSON-LD,
// microdata) share: fixture pages with their expected events and drops, field-by-field
// comparison, and the promises every Parse result must keep, for the fuzz targets.
package schemaorgtest

import (
	"bytes"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/source"
)

// ParseFunc is an adapter's Parse.
type ParseFunc func(page []byte, ref string) ([]source.Event, []source.Drop)

// Fixture is a page in a fixture folder and what parsing it must yield. A *.good.html page
// must yield events and no drops, a *.bad.html page must show its problems as drops.
type Fixture struct {
	File   string
	Events []source.Event
	Drops  []Drop
}

// Drop is an expected drop: its line, and its reason or, for reasons that quote another
// library's error text, the start of it. Every drop's Ref must be the page's.
type Drop struct {
	Line   int
	Reason string
}

// PageRef is the ref a fixture is parsed with.
func PageRef(file string) string { return "https://venue.example/" + file }

// ISO is source.ParseISO for values known to be valid.
func ISO(s string) source.When {
	w, err := source.ParseISO(s)
	if err != nil {
		panic(err)
	}
	return w
}

// Pages returns the *.html pages of dir, by name.
func Pages(tb testing.TB, dir string) map[string][]byte {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fixtures in %s: %v", dir, err)
	}
	pages := map[string][]byte{}
	for _, f := range files {
		page, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		pages[filepath.Base(f)] = page
	}
	return pages
}

// RunFixtures parses every fixture with parse and compares what it yields; every page in dir
// must have its entry.
func RunFixtures(t *testing.T, dir string, parse ParseFunc, fixtures []Fixture) {
	pages := Pages(t, dir)
	for _, tt := range fixtures {
		page, ok := pages[tt.File]
		if !ok {
			t.Errorf("fixture %s is not in %s", tt.File, dir)
			continue
		}
		delete(pages, tt.File)
		t.Run(tt.File, func(t *testing.T) {
			orig := bytes.Clone(page)
			events, drops := parse(page, PageRef(tt.File))
			if !bytes.Equal(page, orig) {
				t.Error("Parse modified its input")
			}
			switch {
			case strings.HasSuffix(tt.File, ".good.html") && (len(events) == 0 || len(drops) > 0):
				t.Errorf("a good page must yield events and no drops: %d events, drops %+v", len(events), drops)
			case strings.HasSuffix(tt.File, ".bad.html") && len(drops) == 0:
				t.Error("a bad page must yield drops")
			}
			CompareEvents(t, events, tt.Events)
			CompareDrops(t, drops, tt.Drops, PageRef(tt.File))
		})
	}
	for file := range pages {
		t.Errorf("fixture %s has no entry in the test table", file)
	}
}

// CompareEvents reports every field in which got differs from want.
func CompareEvents(t testing.TB, got, want []source.Event) {
	t.Helper()
	for i := range max(len(got), len(want)) {
		if i >= len(got) {
			t.Errorf("missing event %d: %+v", i, want[i])
			continue
		}
		if i >= len(want) {
			t.Errorf("unexpected event %d: %+v", i, got[i])
			continue
		}
		g, w := reflect.ValueOf(got[i]), reflect.ValueOf(want[i])
		for f := range g.NumField() {
			if gf, wf := g.Field(f).Interface(), w.Field(f).Interface(); !reflect.DeepEqual(gf, wf) {
				t.Errorf("event %d (%s): %s = %+v, want %+v", i, want[i].Title, g.Type().Field(f).Name, gf, wf)
			}
		}
	}
}

// CompareDrops reports the drops that differ from want, or whose Ref is not ref.
func CompareDrops(t testing.TB, got []source.Drop, want []Drop, ref string) {
	t.Helper()
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			t.Errorf("missing drop %d: %+v", i, want[i])
		case i >= len(want):
			t.Errorf("unexpected drop %d: %+v", i, got[i])
		case got[i].Ref != ref || got[i].Line != want[i].Line || !strings.HasPrefix(got[i].Reason, want[i].Reason):
			t.Errorf("drop %d = %+v, want line %d, reason %q", i, got[i], want[i].Line, want[i].Reason)
		}
	}
}

// Fuzz seeds f with the pages of dir and checks that parse never panics, gives the same
// result twice, and keeps its promises (see CheckPromises); each of more, when given, checks
// the page as well. Crashers found are kept in testdata/fuzz of the calling package.
func Fuzz(f *testing.F, dir string, parse ParseFunc, more ...func(t *testing.T, page []byte)) {
	pages := Pages(f, dir)
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		f.Add(pages[name])
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		const ref = "https://venue.example/page"
		events, drops := parse(page, ref)
		again, againDrops := parse(page, ref)
		if !reflect.DeepEqual(events, again) || !reflect.DeepEqual(drops, againDrops) {
			t.Error("two parses of the page differ")
		}
		CheckPromises(t, events, drops, ref)
		for _, check := range more {
			check(t, page)
		}
	})
}

// Benchmark parses the pages of dir, one after the other as one page, with parse.
func Benchmark(b *testing.B, dir string, parse ParseFunc) {
	pages := Pages(b, dir)
	var page []byte
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		page = append(page, pages[name]...)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		parse(page, "https://venue.example/all.html")
	}
}

// LimitPages write, in an adapter's syntax, the pages CheckLimits parses.
type LimitPages struct {
	// Events returns a page with n events, each named "N" and starting on 2026-01-01, all on
	// line 1 but the last, which is on line 2.
	Events func(n int) string
	// Long returns a page with one event whose identity, name and startDate are all s.
	Long func(s string) string
}

// CheckLimits checks the limits every adapter keeps: at most schemaorg.MaxEvents events from
// a page, with a drop for the rest, and drop reasons that stay short when they quote long
// page values.
func CheckLimits(t *testing.T, parse ParseFunc, pages LimitPages) {
	t.Run("events per page", func(t *testing.T) {
		events, drops := parse([]byte(pages.Events(schemaorg.MaxEvents+1)), "p")
		if len(events) != schemaorg.MaxEvents {
			t.Errorf("got %d events, want %d", len(events), schemaorg.MaxEvents)
		}
		want := []source.Drop{{Ref: "p", Line: 2, Reason: "more than 10000 events on the page: the rest are ignored"}}
		if !reflect.DeepEqual(drops, want) {
			t.Errorf("drops = %+v, want %+v", drops, want)
		}
	})
	t.Run("long values", func(t *testing.T) {
		_, drops := parse([]byte(pages.Long(strings.Repeat("x", 10*schemaorg.MaxQuote))), "p")
		if len(drops) != 1 || len(drops[0].Reason) > 4*schemaorg.MaxQuote+100 {
			t.Errorf("drops = %+v, want one with a short reason", drops)
		}
	})
}

// CheckShared checks what Parse returned for a page with two events that refer to the same
// venue, performer (named "Band", with the genres "rock" and "pop") and offers: the first
// event must be want, and changing its performer's genres must leave the second event's
// alone.
func CheckShared(t testing.TB, events []source.Event, drops []source.Drop, want source.Event) {
	t.Helper()
	if len(events) != 2 || len(drops) > 0 {
		t.Fatalf("got %d events, drops %+v; want 2 events", len(events), drops)
	}
	CompareEvents(t, events[:1], []source.Event{want})
	events[0].Performers[0].Genres[0] = "changed"
	if g := events[1].Performers[0].Genres[0]; g != "rock" {
		t.Errorf("events share a genre array: the second event's first genre is %q", g)
	}
}

// CheckPromises fails when what Parse returned for ref breaks a promise of the adapters:
// every event has a Ref, a title of at most schemaorg.MaxText bytes, a start and a line;
// coordinates and prices are in range; every drop has the page's Ref, a line and a
// lowercase reason; and every string is valid UTF-8 without control characters.
func CheckPromises(t testing.TB, events []source.Event, drops []source.Drop, ref string) {
	t.Helper()
	for i, e := range events {
		if e.Ref == "" || e.Title == "" || e.Start.IsZero() {
			t.Errorf("event %d has no ref, title or start: %+v", i, e)
		}
		if len(e.Title) > schemaorg.MaxText || e.Line < 1 {
			t.Errorf("event %d: title of %d bytes, line %d", i, len(e.Title), e.Line)
		}
		if e.Venue.HasGeo && (math.Abs(e.Venue.Lat) > 90 || math.Abs(e.Venue.Lon) > 180) {
			t.Errorf("event %d: geo out of range: %+v", i, e.Venue)
		}
		for _, o := range e.Offers {
			if o.PriceMin < 0 || o.PriceMin > o.PriceMax || math.IsInf(o.PriceMax, 0) {
				t.Errorf("event %d: bad prices in %+v", i, o)
			}
		}
		CheckStrings(t, reflect.ValueOf(e))
	}
	for _, d := range drops {
		if d.Ref != ref || d.Line < 1 || d.Reason == "" {
			t.Errorf("bad drop %+v", d)
		}
		if r, _ := utf8.DecodeRuneInString(d.Reason); unicode.IsUpper(r) {
			t.Errorf("drop reason is not lowercase: %q", d.Reason)
		}
		CheckStrings(t, reflect.ValueOf(d))
	}
}

// CheckStrings fails t when a string in v (an event or a drop, any adapter's) is not
// valid UTF-8 or holds a control character.
func CheckStrings(t testing.TB, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8: %q", s)
		}
		for _, r := range s {
			if unicode.IsControl(r) {
				t.Errorf("control character in %q", s)
				break
			}
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[source.When]() {
			return
		}
		for i := range v.NumField() {
			CheckStrings(t, v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			CheckStrings(t, v.Index(i))
		}
	}
}
