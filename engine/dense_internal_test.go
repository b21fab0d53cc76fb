package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestDenseMembersMatchList checks a dense set's rank, at and each against the same
// positions as a sorted list, for ranges that start and end inside words and on their
// edges, with bits set outside the range that the set must not count.
func TestDenseMembersMatchList(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 3 << 16
	for _, tc := range []struct{ lo, hi int }{{0, n}, {1, n - 1}, {64, 128}, {63, 65}, {100, 70_000}, {65_535, 65_537}, {131_000, 131_100}, {5, 2 << 16}, {64, 1 << 16}} {
		words := make([]uint64, n/64)
		var list []uint32
		for p := 0; p < n; p++ {
			if r.IntN(3) == 0 {
				words[p>>6] |= 1 << (p & 63)
				if p >= tc.lo && p < tc.hi {
					list = append(list, uint32(p))
				}
			}
		}
		var cum []int32
		dense, _ := finishDense(words, &cum, tc.lo, tc.hi) // clears the bits outside the range
		want := members{list: list}
		for _, x := range []int{0, tc.lo - 1, tc.lo, tc.lo + 1, (tc.lo + tc.hi) / 2, tc.hi - 1, tc.hi, tc.hi + 1, n} {
			if got, exp := dense.rank(x), want.rank(x); got != exp {
				t.Errorf("[%d, %d): rank(%d) = %d, want %d", tc.lo, tc.hi, x, got, exp)
			}
		}
		for _, k := range []int{0, 1, len(list) / 2, len(list) - 1} {
			if k >= 0 && k < len(list) && dense.at(k) != want.at(k) {
				t.Errorf("[%d, %d): at(%d) = %d, want %d", tc.lo, tc.hi, k, dense.at(k), want.at(k))
			}
		}
		for _, from := range []int{0, tc.lo + 1, (tc.lo + tc.hi) / 2} {
			var got, exp []int
			dense.each(nil, from, n, func(p int) bool { got = append(got, p); return true })
			want.each(nil, from, n, func(p int) bool { exp = append(exp, p); return true })
			if !slices.Equal(got, exp) {
				t.Errorf("[%d, %d): each from %d gave %d positions, want %d", tc.lo, tc.hi, from, len(got), len(exp))
			}
		}
	}
}

// TestOrPortableMatchesRoaring checks orPortable against roaring's own WriteDenseTo on
// bitmaps of every container kind, with and without run containers and with fewer
// containers than carry offsets, over ranges of words that start and end inside
// containers: the words in range must be roaring's, and no other word written. It checks
// andPortable the same way: the words in range keep the bitmap's bits alone, and no other
// word of dst or of its scratch is written.
func TestOrPortableMatchesRoaring(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	shapes := map[string]func() *roaring.Bitmap{
		"arrays, few containers": func() *roaring.Bitmap { return randomBitmap(r, 2, 0.01, false) },
		"arrays":                 func() *roaring.Bitmap { return randomBitmap(r, 5, 0.01, false) },
		"bitmaps":                func() *roaring.Bitmap { return randomBitmap(r, 5, 0.4, false) },
		"runs, few containers":   func() *roaring.Bitmap { return randomBitmap(r, 2, 0.3, true) },
		"runs, four containers":  func() *roaring.Bitmap { return randomBitmap(r, 4, 0.3, true) },
		"runs and the rest": func() *roaring.Bitmap {
			b := randomBitmap(r, 7, 0.3, false)
			b.AddRange(3<<16+101, 3<<16+9000)
			b.AddRange(5<<16, 6<<16)
			b.RunOptimize()
			return b
		},
	}
	for name, shape := range shapes {
		for range 20 {
			b := shape()
			buf, err := b.ToBytes()
			if err != nil {
				t.Fatal(err)
			}
			if runs := strings.HasPrefix(name, "runs"); runs != (buf[0] == cookieRuns&0xff) {
				t.Fatalf("%s: a bitmap without runs, or with runs where none should be", name)
			}
			want := make([]uint64, 8<<10)
			b.WriteDenseTo(want)
			for range 20 {
				wlo := r.IntN(len(want))
				whi := wlo + r.IntN(len(want)-wlo+1)
				// Words out of the range hold a mark that must stay; in it, zeros or (unclean)
				// bits the bitmap's must be ORed with.
				clean := r.IntN(2) == 0
				got, exp := make([]uint64, len(want)), make([]uint64, len(want))
				for w := range got {
					switch {
					case w < wlo || w >= whi:
						got[w], exp[w] = 0xdead, 0xdead
					case clean:
						exp[w] = want[w]
					default:
						got[w] = r.Uint64() & r.Uint64()
						exp[w] = want[w] | got[w]
					}
				}
				orPortable(got, buf, wlo, whi, clean)
				for w := range got {
					if got[w] != exp[w] {
						t.Fatalf("%s, words [%d, %d), clean %v: word %d is %x, want %x", name, wlo, whi, clean, w, got[w], exp[w])
					}
				}
				// andPortable: in the range, random words keep the bitmap's bits; out of it,
				// in dst and in scratch alike, the marks stay.
				scratch := make([]uint64, len(want))
				for w := range got {
					got[w], exp[w], scratch[w] = 0xdead, 0xdead, 0xbeef
					if w >= wlo && w < whi {
						got[w] = r.Uint64() | r.Uint64()
						exp[w], scratch[w] = want[w]&got[w], r.Uint64()
					}
				}
				andPortable(got, scratch, buf, wlo, whi)
				for w := range got {
					if got[w] != exp[w] {
						t.Fatalf("%s, words [%d, %d), and: word %d is %x, want %x", name, wlo, whi, w, got[w], exp[w])
					}
					if (w < wlo || w >= whi) && scratch[w] != 0xbeef {
						t.Fatalf("%s, words [%d, %d), and: scratch word %d out of the range written", name, wlo, whi, w)
					}
				}
			}
		}
	}
}

// randomBitmap returns a bitmap over the first containers containers, each position in
// with probability density; with runs, the first container holds two runs instead, and
// the bitmap is run-optimized.
func randomBitmap(r *rand.Rand, containers int, density float64, runs bool) *roaring.Bitmap {
	b := roaring.New()
	from := 0
	if runs {
		b.AddRange(99, 5001)
		b.AddRange(7001, 7002)
		from = 1 << 16
	}
	for p := from; p < containers<<16; p++ {
		if r.Float64() < density {
			b.Add(uint32(p))
		}
	}
	if runs {
		b.RunOptimize()
	}
	return b
}
