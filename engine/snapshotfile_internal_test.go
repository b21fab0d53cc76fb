package engine

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
)

// twoCities builds a snapshot of gigs in two cities: with gigs > bigPosting, one large
// enough for a serialized bitmap and a small one.
func twoCities(t testing.TB, gigs int) *Snapshot {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ds := &Dataset{
		Cities: []City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"},
			{Slug: "lima", Name: "Lima", Country: "PE", Timezone: "America/Lima"}},
		Venues:  []Venue{{Slug: "big", Name: "Big", City: "berlin"}, {Slug: "small", Name: "Small", City: "lima"}},
		Artists: []Artist{{Slug: "a", Name: "A", Genres: []string{"rock"}}},
		Genres:  []Genre{{Slug: "rock", Name: "Rock"}},
	}
	for i := range gigs {
		v := "big"
		if i%500 == 0 || i == 1 {
			v = "small"
		}
		ds.Gigs = append(ds.Gigs, Gig{ID: fmt.Sprintf("g%d", i), Venue: v, Start: now.Add(time.Duration(i) * time.Hour),
			Artists: []Billing{{Artist: "a"}}, Genres: []string{"rock"}})
	}
	s, err := Build(ds, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if gigs > bigPosting && (len(s.index[DimCity].views) == 0 || len(s.index[DimCity].list) == 0) {
		t.Fatal("the dataset has no serialized bitmap or no list")
	}
	return s
}

// placed returns a snapshot of gigs at two venues with coordinates: two points of the
// geo index, their gigs in lists.
func placed(t testing.TB) *Snapshot {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ds := &Dataset{
		Cities: []City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
		Venues: []Venue{{Slug: "big", Name: "Big", City: "berlin", Lat: 52.5, Lon: 13.4, HasGeo: true},
			{Slug: "small", Name: "Small", City: "berlin", Lat: 52.6, Lon: 13.2, HasGeo: true}},
	}
	for i := range 40 {
		ds.Gigs = append(ds.Gigs, Gig{ID: fmt.Sprintf("g%d", i), Venue: []string{"big", "small"}[i%2], Start: now.Add(time.Duration(i+1) * time.Hour)})
	}
	s, err := Build(ds, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.geo.lat) != 2 {
		t.Fatalf("%d points in the geo index, want 2", len(s.geo.lat))
	}
	return s
}

// withTombstone returns a snapshot of gigs g1 and g2 built after one of g0 to g2: it
// holds a tombstone of g0, whose id is as long as the gigs'.
func withTombstone(t testing.TB) *Snapshot {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ds := func(ids ...string) *Dataset {
		d := &Dataset{
			Cities: []City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
			Venues: []Venue{{Slug: "big", Name: "Big", City: "berlin"}},
		}
		for i, id := range ids {
			d.Gigs = append(d.Gigs, Gig{ID: id, Venue: "big", Start: now.Add(time.Duration(i+1) * time.Hour)})
		}
		return d
	}
	prev, err := Build(ds("g0", "g1", "g2"), Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Build(ds("g1", "g2"), Options{Now: now.Add(time.Minute), Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	if s.tomb.len() != 1 || string(s.tomb.ids.key(0)) != "g0" {
		t.Fatalf("%d tombstones, want the one of g0", s.tomb.len())
	}
	return s
}

// TestInconsistentSnapshotFiles checks files whose checksum matches but whose indexes
// point outside what they index: each is refused, not served to fail at the first query.
func TestInconsistentSnapshotFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(s *Snapshot)
		of     func(testing.TB) *Snapshot // what damage is done to; nil: twoCities with serialized bitmaps
	}{
		// Without serialized bitmaps no index's day tables can be refused for their length.
		{"day window negative", func(s *Snapshot) { s.dayN = -1 }, func(t testing.TB) *Snapshot { return twoCities(t, 3) }},
		{"day window too long", func(s *Snapshot) { s.dayN = maxDayWindow + 1 }, func(t testing.TB) *Snapshot { return twoCities(t, 3) }},
		{"a tombstone of a gig held", func(s *Snapshot) { copy(s.ids.arena[s.ids.off[0]:], s.tomb.ids.key(0)) }, withTombstone},
		{"position out of range", func(s *Snapshot) { s.index[DimCity].list[0] = 1 << 30 }, nil},
		{"list not sorted", func(s *Snapshot) { l := s.index[DimCity].list; l[0], l[1] = l[1], l[0] }, nil},
		{"gig offsets not ascending", func(s *Snapshot) { s.off[3] = s.off[2] }, nil},
		{"gig offsets past the arena", func(s *Snapshot) { s.off[len(s.off)-1] += 10 }, nil},
		{"days missing", func(s *Snapshot) { s.days = s.days[:1] }, nil},
		{"start times not sorted", func(s *Snapshot) { s.keys[0] = s.keys[len(s.keys)-1] + 1 }, nil},
		{"ids missing", func(s *Snapshot) { s.ids.off = s.ids.off[:2] }, nil},
		{"an id twice", func(s *Snapshot) { copy(s.ids.arena[s.ids.off[1]:], s.ids.key(0)) }, nil}, // "g1" made "g0"
		{"key names no posting", func(s *Snapshot) { s.index[DimArtist].of[0] = 999 }, nil},
		{"status unknown", func(s *Snapshot) { s.status[0] = 9 }, nil},
		{"feed not in order", func(s *Snapshot) { s.feed[0], s.feed[1] = s.feed[1], s.feed[0] }, nil},
		{"feed entry out of range", func(s *Snapshot) { s.feed[0] = 1 << 30 }, nil},
		{"change times missing", func(s *Snapshot) { s.updated = s.updated[1:] }, nil},
		{"posting names no bitmap", func(s *Snapshot) { s.index[DimCity].big[0] = 7 }, nil},
		{"list bounds", func(s *Snapshot) { s.venueIndex.start[1] = 1000 }, nil},
		{"venue entry bounds", func(s *Snapshot) { s.venueOff[1] = 1 << 20 }, nil},
		{"venue ETag bounds", func(s *Snapshot) { s.venueDetail.tagAt[1] = 1 << 20 }, nil},
		{"venue gig out of range", func(s *Snapshot) { s.venueDetail.pos[0] = 1 << 30 }, nil},
		{"artist ETag bounds", func(s *Snapshot) { s.artistDetail.tagAt[1] = 1 << 20 }, nil},
		{"artist gig out of range", func(s *Snapshot) { s.artistDetail.pos[0] = 1 << 30 }, nil},
		{"artist pages missing", func(s *Snapshot) { s.artistDetail.headAt = s.artistDetail.headAt[:1] }, nil},
		{"a near gig filed under no point", func(s *Snapshot) {
			eachPosition(s.geo.post.posting(0), func(p uint32) bool { s.geo.of[p] = noPoint; return false })
		}, placed},
		{"a near gig filed under another point", func(s *Snapshot) {
			eachPosition(s.geo.post.posting(0), func(p uint32) bool { s.geo.of[p] = 1; return false })
		}, placed},
		{"serialized bitmap damaged", func(s *Snapshot) {
			ps := &s.index[DimCity]
			ps.packed[ps.frz[1]-1] ^= 0xff // its header's last byte
		}, nil},
		{"serialized bitmap misaligned", func(s *Snapshot) {
			ps := &s.index[DimCity]
			ps.packed = append(make([]byte, 8), ps.packed...)
			for i := range ps.frz {
				ps.frz[i] += 8
			}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			of := tc.of
			if of == nil {
				of = func(t testing.TB) *Snapshot { return twoCities(t, bigPosting+100) }
			}
			s := of(t)
			tc.damage(s)
			path := filepath.Join(t.TempDir(), "snapshot")
			if err := s.WriteFile(path); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadSnapshotFile(path); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("got %v, want an error naming the file", err)
			}
		})
	}
}

// FuzzSnapshotFile feeds the reader files that pass the checksum (the fuzzer's bytes with
// their checksum fixed): it must refuse them or give a snapshot every lookup and query of
// which works. Its seed is small, so that the fuzzer mutates and minimizes quickly; packed
// bitmaps are roaring's to validate, and TestInconsistentSnapshotFiles damages them.
func FuzzSnapshotFile(f *testing.F) {
	s := twoCities(f, 3)
	path := filepath.Join(f.TempDir(), "snapshot")
	if err := s.WriteFile(path); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= 8 {
			binary.LittleEndian.PutUint64(data[len(data)-8:], xxhash.Sum64(data[:len(data)-8]))
		}
		s, err := decodeSnapshot(data, nil)
		if err != nil {
			return
		}
		for _, id := range []string{"g0", "g7", ""} {
			s.GigByID(id)
		}
		if b, ok := s.Venue("big"); ok {
			for _, gz := range []bool{false, true} {
				r, _ := b.Reader(gz)
				_, _ = io.Copy(io.Discard, r)
				r.Close()
			}
		}
		for i := range s.counts.Venues {
			s.VenueItem(i)
		}
		for _, v := range []string{"berlin", "lima", "de", "a", "rock", "big"} {
			for d := range numDims {
				q := AcquireQuery()
				q.Match(d, []byte(v))
				q.Match(DimGenre, []byte("rock"))
				q.Limit = 20
				s.Run(q)
				for _, p := range q.Page {
					s.GigJSON(p)
				}
				ReleaseQuery(q)
			}
		}
		q := AcquireQuery()
		q.Match(DimCity, []byte("berlin"))
		s.FilterVenues(q)
		ReleaseQuery(q)
	})
}

// TestFragmentsCarried rebuilds with the previous snapshot, from memory and from its file,
// with some gigs changed: every gig's deflate fragment inflates to its body (its gzip body
// to its identity body), whether it was copied from the previous snapshot or made anew.
func TestFragmentsCarried(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ds := &Dataset{
		Cities:  []City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
		Venues:  []Venue{{Slug: "big", Name: "Big", City: "berlin"}},
		Artists: []Artist{{Slug: "a", Name: "A", Genres: []string{"rock"}}},
		Genres:  []Genre{{Slug: "rock", Name: "Rock"}},
	}
	for i := range 3000 {
		ds.Gigs = append(ds.Gigs, Gig{ID: fmt.Sprintf("g%d", i), Title: fmt.Sprintf("Night %d", i), Venue: "big",
			Start: now.Add(time.Duration(i) * time.Hour), Artists: []Billing{{Artist: "a"}}, Genres: []string{"rock"}})
	}
	first, err := Build(ds, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	fromFile := readBack(t, first)
	for i := 0; i < len(ds.Gigs); i += 7 {
		ds.Gigs[i].Title += " (changed)"
	}
	for name, prev := range map[string]*Snapshot{"in memory": first, "from its file": fromFile} {
		next, err := Build(ds, Options{Now: now.Add(time.Hour), Prev: prev})
		if err != nil {
			t.Fatal(err)
		}
		for i := range next.Len() {
			id := string(next.ids.key(i))
			identity, _, _ := next.AppendGig(nil, id, false)
			gz, _, _ := next.AppendGig(nil, id, true)
			zr, err := gzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				t.Fatal(err)
			}
			if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, identity) {
				t.Fatalf("%s: the fragment of gig %d is not its body's (%v)", name, i, err)
			}
		}
	}
}

// TestRefusesOlderFormat reads a snapshot file of format version 4
// (testdata/snapshot-0b59237: twoCities(t, 120) written by WriteFile at commit 0b59237),
// before the geo index and the venues' positions in gig bodies: it is refused, so that a
// restart after the upgrade builds anew rather than serving gigs without positions.
func TestRefusesOlderFormat(t *testing.T) {
	_, err := ReadSnapshotFile(filepath.Join("testdata", "snapshot-0b59237"))
	if err == nil || !strings.Contains(err.Error(), "format version 4") {
		t.Fatalf("got %v, want a refusal of format version 4", err)
	}
}

// TestChecksumsOfReadSnapshots checks that a snapshot read from its file computes the
// gigs' checksums, which the file does not hold, in the background, the same as its build.
func TestChecksumsOfReadSnapshots(t *testing.T) {
	built := twoCities(t, 9000)
	read := readBack(t, built)
	for deadline := time.Now().Add(time.Minute); !read.crcReady.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the checksums of a read snapshot were not ready after a minute")
		}
	}
	if !built.crcReady.Load() || !slices.Equal(read.gigCRC, built.gigCRC) || len(built.gigCRC) != built.Len() {
		t.Fatalf("read snapshot's checksums differ from its build's (%d and %d)", len(read.gigCRC), len(built.gigCRC))
	}
}

// readBack writes s to a snapshot file and reads it.
func readBack(t testing.TB, s *Snapshot) *Snapshot {
	t.Helper()
	path := filepath.Join(t.TempDir(), "snapshot")
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	read, err := ReadSnapshotFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return read
}
