package deflate

import (
	"math/rand/v2"
	"testing"
)

func TestHuffmanLengths(t *testing.T) {
	fib := make([]uint32, 40) // frequencies that make a Huffman tree 39 deep
	fib[0], fib[1] = 1, 1
	for i := 2; i < len(fib); i++ {
		fib[i] = fib[i-1] + fib[i-2]
	}
	r := rand.New(rand.NewPCG(3, 4))
	random := make([]uint32, 286)
	for i := range random {
		random[i] = r.Uint32N(1 << r.UintN(20))
	}
	for _, tc := range []struct {
		name  string
		freq  []uint32
		limit uint8
	}{
		{"none", []uint32{0, 0}, 15},
		{"one", []uint32{0, 4}, 15},
		{"two", []uint32{5, 0, 9}, 15},
		{"equal", []uint32{1, 1, 1, 1, 1}, 7},
		{"fibonacci", fib, 15},
		{"fibonacci in 7", fib, 7},
		{"random", random, 15},
		{"random in 9", random, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lengths := huffmanLengths(tc.freq, tc.limit)
			kraft := 0.0
			for s, l := range lengths {
				if (l == 0) != (tc.freq[s] == 0) || l > tc.limit {
					t.Fatalf("symbol %d of frequency %d has length %d (limit %d)", s, tc.freq[s], l, tc.limit)
				}
				if l > 0 {
					kraft += 1 / float64(uint64(1)<<l)
				}
			}
			symbols := 0
			for _, f := range tc.freq {
				if f > 0 {
					symbols++
				}
			}
			if symbols >= 2 && kraft != 1 {
				t.Fatalf("the code is not complete: Kraft sum %v", kraft)
			}
		})
	}
}
