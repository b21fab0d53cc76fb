package engine

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestBitmapOf holds bitmapOf, which makes a bitmap from a bit per position, to the bytes
// roaring writes for the same positions added one by one and run-optimized: snapshot
// files, and the bitmaps a delta renumbers, keep the bytes they had. Sets of every kind
// of container: sparse (arrays), dense (bitmaps), runs, a container's edges, one
// position, and a last container cut short.
func TestBitmapOf(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sample := func(limit int, p float64) []uint32 {
		var l []uint32
		for x := range limit {
			if r.Float64() < p {
				l = append(l, uint32(x))
			}
		}
		return l
	}
	runs := func(limit, run, gap int) []uint32 {
		var l []uint32
		for x := 0; x < limit; x += run + gap {
			for y := x; y < min(x+run, limit); y++ {
				l = append(l, uint32(y))
			}
		}
		return l
	}
	tests := []struct {
		name string
		l    []uint32
	}{
		{"none", nil},
		{"one", []uint32{7}},
		{"a container's edges", []uint32{0, 65535, 65536, 131071}},
		{"sparse", sample(1_000_000, 0.005)},
		{"at the array's limit", sample(65536, 4096.0/65536)},
		{"dense", sample(1_000_000, 0.3)},
		{"nearly all", sample(300_000, 0.999)},
		{"runs", runs(1_000_000, 200, 50)},
		{"short runs", runs(200_000, 3, 5)},
		{"every position", runs(70_000, 70_000, 0)},
		{"mixed", slices.Concat(sample(65536, 0.01), runs(65536*3, 65536, 0)[65536:], sample(65536*5, 0.5)[65536*3/2:])},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slices.Sort(tt.l)
			tt.l = slices.Compact(tt.l)
			want := roaring.New()
			want.AddMany(tt.l)
			want.RunOptimize()
			wb, err := want.ToBytes()
			if err != nil {
				t.Fatal(err)
			}
			gb, err := bitmapOf(tt.l).ToBytes()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gb, wb) {
				t.Fatalf("%d positions: %d bytes, want roaring's %d", len(tt.l), len(gb), len(wb))
			}
		})
	}
}
