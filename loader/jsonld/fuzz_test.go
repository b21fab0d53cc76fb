package jsonld

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/loader/source"
)

// FuzzParse checks that Parse never panics and that what it returns keeps its promises.
// It is seeded with the fixtures; crashers found are kept in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.html"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	for _, file := range files {
		page, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(page)
	}
	f.Add([]byte(`<script type=application/ld+json>{"@type":"Event","name":"&#0;x","startDate":"2026-01-01T19:00",` +
		`"doorTime":"18:00","offers":{"offers":{"offers":{"price":"1,5"}}},"location":[{"@id":"#p"}],` +
		`"performer":{"@id":"#p"}},{"@id":"#p","name":"P","geo":{"latitude":"1","longitude":"2"}}</script>`))
	f.Add([]byte("<script type=application/ld+json>\uFEFF[{\"@type\":\"Event\",\"name\":\"a\nb\",},]</script>"))
	f.Fuzz(func(t *testing.T, page []byte) {
		const ref = "https://venue.example/page"
		events, drops := Parse(page, ref)
		for i, e := range events {
			if e.Title == "" || e.Start.IsZero() {
				t.Errorf("event %d has no title or start: %+v", i, e)
			}
			if len(e.Title) > maxText || e.Line < 1 {
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
			checkStrings(t, reflect.ValueOf(e))
		}
		for _, d := range drops {
			if d.Ref != ref || d.Line < 1 || d.Reason == "" {
				t.Errorf("bad drop %+v", d)
			}
			if r, _ := utf8.DecodeRuneInString(d.Reason); unicode.IsUpper(r) {
				t.Errorf("drop reason is not lowercase: %q", d.Reason)
			}
			checkStrings(t, reflect.ValueOf(d))
		}
	})
}

// checkStrings fails when a string in v is not valid UTF-8 or holds a control character.
func checkStrings(t *testing.T, v reflect.Value) {
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
			checkStrings(t, v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			checkStrings(t, v.Index(i))
		}
	}
}
