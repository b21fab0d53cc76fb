package deflate

import (
	"math/bits"
	"slices"
)

// huffCode is a code of n bits, stored bit-reversed as deflate writes it.
type huffCode struct {
	bits uint16
	n    uint8
}

// huffmanLengths returns a length-limited Huffman code's lengths for freq: every symbol
// with a frequency gets a length from 1 to limit; the code is complete when two or more
// do. Over limit, the frequencies are halved (keeping every one above 0) and the code built
// again, until it fits: at worst all are equal and the tree is balanced.
func huffmanLengths(freq []uint32, limit uint8) []uint8 {
	lengths := make([]uint8, len(freq))
	f := slices.Clone(freq)
	for {
		var leaves []int
		for s, x := range f {
			if x > 0 {
				leaves = append(leaves, s)
			}
		}
		if len(leaves) < 2 { // no code to build: one symbol gets one bit, none nothing
			for _, s := range leaves {
				lengths[s] = 1
			}
			return lengths
		}
		slices.SortStableFunc(leaves, func(a, b int) int { return int(f[a]) - int(f[b]) })
		// Leaves are nodes 0..n-1, by weight; the internal nodes follow in the order they are
		// made, which is also by weight, so the two lightest are always at one of two fronts.
		n := len(leaves)
		weight, parent := make([]uint64, 2*n-1), make([]int, 2*n-1)
		for i, s := range leaves {
			weight[i] = uint64(f[s])
		}
		leaf, inner := 0, n
		lightest := func(made int) int {
			if leaf < n && (inner >= made || weight[leaf] <= weight[inner]) {
				leaf++
				return leaf - 1
			}
			inner++
			return inner - 1
		}
		for made := n; made < 2*n-1; made++ {
			a := lightest(made)
			b := lightest(made)
			weight[made], parent[a], parent[b] = weight[a]+weight[b], made, made
		}
		depth := make([]uint8, 2*n-1)
		deepest := uint8(0)
		for k := 2*n - 3; k >= 0; k-- {
			depth[k] = depth[parent[k]] + 1
			deepest = max(deepest, depth[k])
		}
		if deepest <= limit {
			for i, s := range leaves {
				lengths[s] = depth[i]
			}
			return lengths
		}
		for s := range f {
			f[s] = f[s] - f[s]/2 // halved, rounding up
		}
	}
}

// canonicalCodes gives the deflate codes of lengths (RFC 1951, 3.2.2), bit-reversed.
func canonicalCodes(lengths []uint8) []huffCode {
	var count, next [16]uint16
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	code := uint16(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	codes := make([]huffCode, len(lengths))
	for s, l := range lengths {
		if l > 0 {
			codes[s] = huffCode{bits.Reverse16(next[l]) >> (16 - l), l}
			next[l]++
		}
	}
	return codes
}
