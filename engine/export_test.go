package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/cespare/xxhash/v2"
)

// BitmapsChecksum hashes every published bitmap of s (filter indexes, day and venue
// indexes), so tests can prove that queries never modify them.
func BitmapsChecksum(s *Snapshot) uint64 {
	h := xxhash.New()
	write := func(m map[string]*roaring.Bitmap) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			_, _ = h.WriteString(k)
			_, _ = m[k].WriteTo(h)
		}
	}
	for _, m := range s.index {
		write(m)
	}
	write(s.venueIndex)
	for _, d := range s.days {
		_, _ = h.Write([]byte{byte(d), byte(d >> 8), byte(d >> 16), byte(d >> 24)})
	}
	return h.Sum64()
}

func TestBitmapsChecksumSeesMutation(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/Berlin")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s, err := Build(&Dataset{
		Cities: []City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
		Venues: []Venue{{Slug: "v", Name: "V", City: "berlin"}},
		Gigs:   []Gig{{ID: "g", Venue: "v", Start: time.Date(2026, 12, 1, 20, 0, 0, 0, loc)}},
	}, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	before := BitmapsChecksum(s)
	s.index[DimCity]["berlin"].Add(7)
	if BitmapsChecksum(s) == before {
		t.Fatal("a changed bitmap leaves the checksum unchanged")
	}
}
