package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDenseMembersMatchList checks a dense set's rank, at and each against the same
// positions as a sorted list, for ranges that start and end inside words and on their
// edges, with bits set outside the range that the set must not count.
func TestDenseMembersMatchList(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 3 << 16
	for _, tc := range []struct{ lo, hi int }{{0, n}, {1, n - 1}, {64, 128}, {63, 65}, {100, 70_000}, {65_535, 65_537}, {131_000, 131_100}} {
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
		// As denseSet leaves them: the range's bits, and garbage outside its words.
		wlo, whi := tc.lo>>6, (tc.hi+63)>>6
		words[wlo] &= ^uint64(0) << (tc.lo & 63)
		if rem := tc.hi & 63; rem != 0 {
			words[whi-1] &= 1<<rem - 1
		}
		dense, want := members{words: words, lo: tc.lo, hi: tc.hi}, members{list: list}
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
