package tribe

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gigs/gigs/loader/schemaorg/schemaorgtest"
)

// FuzzParse checks that Parse never panics, is deterministic and keeps the adapters'
// promises. It is seeded with the real responses and the test page; crashers found are
// kept in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(realDir, "*.json"))
	for _, file := range files {
		doc, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Add([]byte(page))
	f.Fuzz(func(t *testing.T, doc []byte) {
		const ref = "https://venue.example/wp-json/tribe/events/v1/events"
		events, drops, err := Parse(doc, ref, Options{MaxEvents: 50})
		again, againDrops, againErr := Parse(doc, ref, Options{MaxEvents: 50})
		if !reflect.DeepEqual(events, again) || !reflect.DeepEqual(drops, againDrops) || (err == nil) != (againErr == nil) {
			t.Error("two parses differ")
		}
		if len(events) > 50 {
			t.Errorf("%d events, more than the cap", len(events))
		}
		schemaorgtest.CheckPromises(t, events, drops, ref)
		Next(doc)
	})
}
