package deflate

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/gigs/gigs/engine/internal/crc"
)

// TestListFragments checks a gzip member of list items, whose checksum is combined from
// the items' kept checksums or, for an item too long to combine, computed from its bytes,
// with the standard library's reader (which verifies the checksum and the size); its
// size is what StoredSize and the header's and end's sizes say.
func TestListFragments(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	item := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(r.IntN(26))
		}
		return b
	}
	open, sep, closing := []byte(`{"data":[`), []byte{','}, []byte("]}}")
	const maxCombined = crc.MaxCombined
	for _, sizes := range [][]int{{1}, {700, 3}, {10, maxCombined - 1, 5}, {10, maxCombined, 7}, {maxCombined + 300, 2, 3 * maxCombined}} {
		w := NewGzipWriter(nil)
		w.Raw(open)
		want := append([]byte{}, open...)
		size := GzipHeaderSize + StoredSize(len(open)) + StoredSize(len(closing)) + GzipEndSize
		for i, n := range sizes {
			it := item(n)
			var z GzipWriter // the item's bytes as stored blocks: a fragment as valid as any
			z.stored(it)
			if i == 0 {
				w.Fragment(z.Dst, it)
			} else {
				sum := crc32.Update(crc32.ChecksumIEEE(sep), crc32.IEEETable, it)
				w.ListFragment(sep, z.Dst, it, sum, i%2 == 1) // both ways
				want = append(want, sep...)
			}
			want = append(want, it...)
			size += len(z.Dst)
			if i > 0 {
				size += StoredSize(len(sep))
			}
		}
		w.Raw(closing)
		want = append(want, closing...)
		body := w.Finish()
		if len(body) != size {
			t.Fatalf("items of %v bytes: a member of %d bytes, not the %d its parts' sizes add up to", sizes, len(body), size)
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("items of %v bytes: read %d bytes (%v), want %d", sizes, len(got), err, len(want))
		}
	}
}

// TestSpliced checks items with bytes spliced before their last byte, from fragments of a
// Coder, their checksums combined or not, and the refusal of a fragment that does not
// end in its last byte stored.
func TestSpliced(t *testing.T) {
	items := [][]byte{[]byte(`{"id":"g1","title":"A night, a night"}`), []byte(`{}`), []byte(`}`),
		bytes.Repeat([]byte(`{"a":"bbbbbbbbbbbbbbbbbbbbb"}`), 40)}
	coder := NewCoder(items)
	var m Matcher
	sep, insert := []byte{','}, []byte(`,"distance_km":12.3`)
	w := NewGzipWriter(nil)
	w.Raw([]byte{'['})
	want := []byte{'['}
	for i, it := range items {
		z := coder.AppendFragment(nil, it, &m)
		s := sep
		if i == 0 {
			s = nil
		}
		sum := crc32.Update(crc32.ChecksumIEEE(s), crc32.IEEETable, it)
		if !w.Spliced(s, z, it, insert, sum, i%2 == 0) {
			t.Fatalf("item %d: not spliced", i)
		}
		want = append(append(append(append(want, s...), it[:len(it)-1]...), insert...), it[len(it)-1])
	}
	var stored GzipWriter
	stored.stored(items[0])
	if w.Spliced(sep, stored.Dst, items[0], insert, 0, false) {
		t.Fatal("a fragment of stored blocks was spliced")
	}
	w.Raw([]byte{']'})
	want = append(want, ']')
	zr, err := gzip.NewReader(bytes.NewReader(w.Finish()))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %q (%v), want %q", got, err, want)
	}
}
