package engine

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"
)

// TestCRCCombine checks combined checksums against the standard library's over the
// bytes back to back: every length up to a few hundred bytes, random lengths up to the
// table's end, and the bound past which it declines.
func TestCRCCombine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, maxCombined+10)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	check := func(a, b []byte) {
		t.Helper()
		got, ok := crcCombine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), len(b))
		want := crc32.ChecksumIEEE(append(append([]byte{}, a...), b...))
		if !ok || got != want {
			t.Fatalf("len(a) %d, len(b) %d: combined %08x (ok %v), want %08x", len(a), len(b), got, ok, want)
		}
	}
	for n := range 300 {
		check(data[:r.IntN(100)], data[100:100+n])
	}
	for range 200 {
		n := r.IntN(maxCombined)
		check(data[:r.IntN(50)], data[10:10+n])
	}
	check(nil, data[:maxCombined-1])
	if _, ok := crcCombine(0, 0, maxCombined); ok {
		t.Fatal("a part of maxCombined bytes was combined")
	}
	gig := []byte(`{"id":"g1"}`)
	if want := crc32.ChecksumIEEE(append([]byte{','}, gig...)); commaCRC(gig) != want {
		t.Fatalf("commaCRC %08x, want %08x", commaCRC(gig), want)
	}
}

// TestMulmod checks the table-driven product against the bit-serial one of zlib's
// multmodp, on random words and on the edges (zero, one, x^31).
func TestMulmod(t *testing.T) {
	serial := func(a, b uint32) uint32 {
		var p uint32
		for m := uint32(1) << 31; m != 0; m >>= 1 {
			if a&m != 0 {
				p ^= b
			}
			b = b>>1 ^ crcPoly&-(b&1)
		}
		return p
	}
	tab := crcTables()
	r := rand.New(rand.NewPCG(3, 4))
	words := []uint32{0, 1, 1 << 31, 0xffffffff, crcPoly}
	for range 2000 {
		words = append(words, r.Uint32())
	}
	for i, a := range words {
		b := words[(i*7+3)%len(words)]
		if got, want := tab.mulmod(a, b), serial(a, b); got != want {
			t.Fatalf("mulmod(%08x, %08x) = %08x, want %08x", a, b, got, want)
		}
	}
}

// FuzzCRCCombine checks any two parts against the checksum of both.
func FuzzCRCCombine(f *testing.F) {
	f.Add([]byte("{\"data\":["), []byte(`,{"id":"g1"}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		got, ok := crcCombine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), len(b))
		if want := crc32.ChecksumIEEE(bytes.Join([][]byte{a, b}, nil)); ok && got != want {
			t.Fatalf("combined %08x, want %08x", got, want)
		}
	})
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
