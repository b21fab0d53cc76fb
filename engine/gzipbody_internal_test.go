package engine

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/gigs/gigs/engine/internal/crc"
)

func TestCommaCRC(t *testing.T) {
	gig := []byte(`{"id":"g1"}`)
	if want := crc32.ChecksumIEEE(append([]byte{','}, gig...)); commaCRC(gig) != want {
		t.Fatalf("commaCRC %08x, want %08x", commaCRC(gig), want)
	}
}

// TestListFragments checks a gzip member of list items, whose checksum is combined from
// the items' kept checksums or, for an item too long to combine, computed from its bytes,
// with the standard library's reader (which verifies the checksum and the size).
func TestListFragments(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	item := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(r.IntN(26))
		}
		return b
	}
	const maxCombined = crc.MaxCombined
	for _, sizes := range [][]int{{1}, {700, 3}, {10, maxCombined - 1, 5}, {10, maxCombined, 7}, {maxCombined + 300, 2, 3 * maxCombined}} {
		w := newGzipWriter(nil)
		w.raw(pageOpen)
		want := append([]byte{}, pageOpen...)
		for i, n := range sizes {
			gig := item(n)
			var z gzipWriter // the gig's bytes as stored blocks: a fragment as valid as any
			z.stored(gig)
			if i == 0 {
				w.fragment(z.dst, gig)
			} else {
				w.listFragment(z.dst, gig, commaCRC(gig), i%2 == 1) // both ways
				want = append(want, ',')
			}
			want = append(want, gig...)
		}
		w.raw(closing)
		want = append(want, closing...)
		zr, err := gzip.NewReader(bytes.NewReader(w.finish()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("items of %v bytes: read %d bytes (%v), want %d", sizes, len(got), err, len(want))
		}
	}
}
