package crc

import (
	"bytes"
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCombine checks combined checksums against the standard library's over the bytes
// back to back: every length up to a few hundred bytes, random lengths up to the table's
// end, and the bound past which it declines.
func TestCombine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, MaxCombined+10)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	check := func(a, b []byte) {
		t.Helper()
		got, ok := Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), len(b))
		want := crc32.ChecksumIEEE(append(append([]byte{}, a...), b...))
		if !ok || got != want {
			t.Fatalf("len(a) %d, len(b) %d: combined %08x (ok %v), want %08x", len(a), len(b), got, ok, want)
		}
	}
	for n := range 300 {
		check(data[:r.IntN(100)], data[100:100+n])
	}
	for range 200 {
		n := r.IntN(MaxCombined)
		check(data[:r.IntN(50)], data[10:10+n])
	}
	check(nil, data[:MaxCombined-1])
	if _, ok := Combine(0, 0, MaxCombined); ok {
		t.Fatal("a part of MaxCombined bytes was combined")
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
			b = b>>1 ^ poly&-(b&1)
		}
		return p
	}
	tab := tables()
	r := rand.New(rand.NewPCG(3, 4))
	words := []uint32{0, 1, 1 << 31, 0xffffffff, poly}
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

// FuzzCombine checks any two parts against the checksum of both.
func FuzzCombine(f *testing.F) {
	f.Add([]byte("{\"data\":["), []byte(`,{"id":"g1"}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		got, ok := Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), len(b))
		if want := crc32.ChecksumIEEE(bytes.Join([][]byte{a, b}, nil)); ok && got != want {
			t.Fatalf("combined %08x, want %08x", got, want)
		}
	})
}

func TestTrim(t *testing.T) {
	for _, s := range []string{"", "a", "}", `{"id":"g1"}`, "\x00\xff\x7d"} {
		for _, b := range []byte{'}', 0, 0xff} {
			ab := crc32.ChecksumIEEE(append([]byte(s), b))
			if got, want := Trim(ab, b), crc32.ChecksumIEEE([]byte(s)); got != want {
				t.Errorf("Trim(crc(%q‖%#x)) = %#x, want %#x", s, b, got, want)
			}
		}
	}
}
