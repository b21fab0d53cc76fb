package engine

import (
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
)

// BitmapsChecksum hashes every published posting of s (filter and venue indexes, lists
// and bitmaps) and the days, so tests can prove that queries never modify them.
func BitmapsChecksum(s *Snapshot) uint64 {
	h := xxhash.New()
	u32 := func(l []uint32) {
		for _, x := range l {
			_, _ = h.Write([]byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)})
		}
	}
	write := func(ps *postings) {
		_, _ = h.Write(ps.keys.arena)
		u32(ps.of)
		u32(ps.start)
		u32(ps.list)
		_, _ = h.Write(ps.packed) // what orPortable reads
		for i := range ps.views {
			_, _ = ps.views[i].WriteTo(h)
		}
	}
	for d := range s.index {
		write(&s.index[d])
	}
	write(&s.venueIndex)
	write(&s.words.words)
	write(&s.words.prefixes)
	for _, d := range s.days {
		u32([]uint32{uint32(d)})
	}
	return h.Sum64()
}

// LargePostings returns how many of dimension d's postings are bitmaps.
func LargePostings(s *Snapshot, d Dim) int { return len(s.index[d].views) }

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
	s.index[DimCity].list[0] = 7
	if BitmapsChecksum(s) == before {
		t.Fatal("a changed bitmap leaves the checksum unchanged")
	}
}

// WithoutChecksums makes the gzip bodies of s, a built snapshot, checksum their gigs'
// bytes, as a snapshot read from its file does until it has computed the gigs' checksums.
func WithoutChecksums(s *Snapshot) *Snapshot {
	s.crcReady.Store(false)
	return s
}

// VenueBytes reads b's body whole, gzip when gz is set, failing t unless the reader ends
// with the size it announced.
func VenueBytes(t testing.TB, b DetailBody, gz bool) []byte {
	t.Helper()
	r, size := b.Reader(gz)
	defer r.Close()
	got, err := io.ReadAll(r)
	if err != nil || len(got) != size {
		t.Fatalf("venue body: read %d bytes (%v), announced %d", len(got), err, size)
	}
	return got
}

// WordIndexStats returns the words index's numbers of tokens and of heavy prefixes, and
// the bytes of its arrays.
func WordIndexStats(s *Snapshot) (tokens, prefixes, size int) {
	for _, ps := range []*postings{&s.words.words, &s.words.prefixes} {
		size += len(ps.keys.arena) + 4*len(ps.keys.off) + 4*len(ps.keys.slots) + 4*len(ps.of) + 4*len(ps.start) +
			4*len(ps.list) + 4*len(ps.big) + 4*len(ps.frz) + len(ps.packed)
	}
	return s.words.words.keys.len(), s.words.prefixes.keys.len(), size
}

// TopWords returns the n tokens on most gigs, and on how many.
func TopWords(s *Snapshot, n int) []string {
	x := &s.words.words
	type kv struct {
		k string
		c uint64
	}
	var l []kv
	for i := range x.keys.len() {
		l = append(l, kv{string(x.keys.key(i)), x.posting(int(x.of[i])).card()})
	}
	slices.SortFunc(l, func(a, b kv) int { return int(b.c) - int(a.c) })
	var out []string
	for _, e := range l[:min(n, len(l))] {
		out = append(out, fmt.Sprint(e.k, ":", e.c))
	}
	return out
}

// SetWordsIndex turns the words index of the builds that follow on or off (benchmarks of
// its cost only).
func SetWordsIndex(on bool) { noWordsIndex = !on }

// IndexWords builds the words index of ds's gigs alone, as Build would at now, and
// returns how long it took.
func IndexWords(ds *Dataset, now time.Time) (time.Duration, error) {
	cat, err := newCatalog(ds)
	if err != nil {
		return 0, err
	}
	rows, err := cat.selectGigs(now)
	if err != nil {
		return 0, err
	}
	rows = cat.inOrder(rows, rowOrder(rows))
	var s Snapshot
	start := time.Now()
	err = s.indexWords(rows, cat)
	return time.Since(start), err
}

// BuildFresh builds as Build does, but renders and compresses every gig, taking nothing
// from opt.Prev but its ledger and code: what a build reusing Prev must equal.
func BuildFresh(ds *Dataset, opt Options) (*Snapshot, error) {
	opt.fresh = true
	return Build(ds, opt)
}

// ReusedGigs counts the gigs of ds a Build with opt would take whole from opt.Prev,
// unrendered.
func ReusedGigs(ds *Dataset, opt Options) (int, error) {
	cat, err := newCatalog(ds)
	if err != nil {
		return 0, err
	}
	rows, err := cat.selectGigs(opt.Now)
	if err != nil {
		return 0, err
	}
	ru := reuseOf(opt)
	ru.locate(rows, rowOrder(rows))
	renderContents(rows, newGigWriter(cat), &ru)
	n := 0
	for i := range rows {
		if rows[i].same {
			n++
		}
	}
	return n, nil
}

// IndexGone builds s's gone index anew (see calendargone.go), and returns its gigs.
func IndexGone(s *Snapshot) int {
	x := s.indexGone()
	return x.snap.Len()
}
