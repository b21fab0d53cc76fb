package engine

import (
	"cmp"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortRows holds the radix sort to a comparison sort by start, then id: starts years
// apart and equal, ids that share their first eight bytes or are shorter than eight.
func TestSortRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ids := []string{"a", "ab", "abcdefgh", "abcdefgha", "abcdefghb", "abcdefgh\x00", "b", "zz", "", "abcdefgi"}
	for _, n := range []int{0, 1, 2, 50, 5000} {
		var rows []gigRow
		for i := range n {
			key := int64(1_800_000_000 + r.IntN(3)*r.IntN(100_000_000))
			id := ids[r.IntN(len(ids))] + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))
			if r.IntN(3) == 0 {
				id = ids[r.IntN(len(ids))] // some ids alone
			}
			var p [8]byte
			copy(p[:], id)
			rows = append(rows, gigRow{g: &Gig{ID: id}, key: key, id: binary.BigEndian.Uint64(p[:]), refs: int32(i)})
		}
		want := slices.Clone(rows)
		slices.SortStableFunc(want, func(a, b gigRow) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.g.ID, b.g.ID)) })
		got := (&catalog{refs: make([]int32, n)}).inOrder(rows, rowOrder(rows))
		for i := range got {
			if got[i].key != want[i].key || got[i].g.ID != want[i].g.ID {
				t.Fatalf("%d rows: at %d got (%d, %q), want (%d, %q)", n, i, got[i].key, got[i].g.ID, want[i].key, want[i].g.ID)
			}
		}
	}
}
