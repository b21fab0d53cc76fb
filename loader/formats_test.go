package loader

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/source"
)

// TestStoredFormatsV1 reads files of the current formats, checked in under
// testdata/store/v1, so that a change in Go (a renamed field, a new layout) that would
// lose what is stored on disk fails here rather than in an operator's data directory.
func TestStoredFormatsV1(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "store", "v1"), dir)

	ids, err := OpenIDStore(filepath.Join(dir, "gig-ids"))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"3f7440726a687f651fc935dd": "gqwyfbflcfy2w", "f2c9daf2a01ee13f8e9713a1": "gqwyfbflcfy2w",
		"3dbf7797778e22f49a32091f": "qv7vqyjxvuny4", "b0ef4c75c733668df44987d6": "qv7vqyjxvuny4",
	} {
		var k idKey
		hex.Decode(k[:], []byte(key))
		if e, ok := ids.entries[k]; !ok || e.id.String() != want || e.seen != 20779 {
			t.Errorf("gig-ids: %s holds %+v, want id %s seen on day 20779", key, e, want)
		}
	}
	if ids.Len() != 4 {
		t.Errorf("gig-ids holds %d entries, want 4", ids.Len())
	}

	lg, err := OpenLastGood(filepath.Join(dir, "last-good"))
	if err != nil {
		t.Fatal(err)
	}
	got, errs := lg.load([]string{"venue-a"}, time.Now())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")
	want.Source, want.Ref, want.URL, want.Line = "venue-a", "wet-leg", "https://thegarage.example/wet-leg", 12
	want.Performers = []source.Performer{{Name: "Wet Leg", Genres: []string{"indie"}}}
	want.Status = "postponed"
	want.Venue.Street, want.Venue.PostalCode, want.Venue.Zone = "20 Highbury Corner", "N5 1RD", "Europe/London"
	want.Venue.Lat, want.Venue.Lon, want.Venue.HasGeo = 51.546, -0.103, true
	want.Offers = []source.Offer{{URL: "https://thegarage.example/t", PriceMin: 20, PriceMax: 25, HasPrice: true, Currency: "GBP", Availability: "in_stock"}}
	want.Genres = []string{"rock"}
	want.End, _ = source.ParseISO("2026-12-05T23:00+00:00")
	a := got["venue-a"]
	if !a.at.Equal(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)) || len(a.events) != 1 || !reflect.DeepEqual(a.events[0], want) {
		t.Errorf("last good events of venue-a, fetched %s:\n%+v\nwant\n%+v", a.at, a.events, want)
	}
}

// copyTree copies the regular files of src, one level of folders deep, into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}
