package engine

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestGigRowsEqualOffsets checks that gigs' offsets that repeat (a hostile delta makes the
// file's sections) are an error, not a gig of -1 bytes and a panic in a follower's Apply.
func TestGigRowsEqualOffsets(t *testing.T) {
	var offs []byte
	for _, v := range []uint64{0, 0, 2} { // size 1: last offset is size+1
		offs = binary.LittleEndian.AppendUint64(offs, v)
	}
	made := append(make([][][]byte, sectionArena), [][]byte{[]byte("a")}, [][]byte{offs})
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("gigHashes panicked: %v", r)
		}
	}()
	var p snapshotSources
	if _, err := p.gigHashes(nil, made, false); err == nil {
		t.Fatal("offsets with a gig of -1 bytes were read")
	}
}

// renumberSorted renumbers by sorting each bitmap's new positions, as renumberBitmaps did
// before it set them in a dense bitmap: the reference it is held to.
func renumberSorted(packed []byte, frz []uint32, moved []int32) []byte {
	var out []byte
	for j := 0; j < len(frz); j += 2 {
		var b roaring.Bitmap
		b.FromUnsafeBytes(packed[frz[j]:frz[j+1]])
		var l []uint32
		for it := b.Iterator(); it.HasNext(); {
			w := it.Next()
			if int64(w) >= int64(len(moved)) {
				break
			}
			if moved[w] >= 0 {
				l = append(l, uint32(moved[w]))
			}
		}
		slices.Sort(l)
		f, _ := bitmapOf(l).ToBytes()
		for len(out)%32 != 0 {
			out = append(out, 0)
		}
		out = append(out, f...)
	}
	return out
}

// TestRenumberSameAsSorted checks renumberBitmaps against the sorting way it replaced, on
// random bitmaps: gigs in order and permuted, a tenth removed, positions past the base's.
func TestRenumberSameAsSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 30; trial++ {
		n := 1 + r.IntN(300_000)
		moved := make([]int32, n)
		perm := r.Perm(n)
		for i := range moved {
			moved[i] = int32(perm[i])
			if trial%2 == 0 {
				moved[i] = int32(i) // in order
			}
			if r.IntN(10) == 0 {
				moved[i] = -1
			}
		}
		var packed []byte
		var frz []uint32
		for k := 0; k < 5; k++ {
			b := roaring.New()
			switch k {
			case 0: // exactly 4096 in one container
				for _, v := range r.Perm(min(n, 65536))[:min(n, 4096)] {
					b.Add(uint32(v))
				}
			case 1:
				b.AddRange(0, uint64(n))
			case 2:
			case 3:
				b.AddRange(uint64(n/2), uint64(n)+100000) // past the base's gigs
			default:
				for i := 0; i < n/3; i++ {
					b.Add(uint32(r.IntN(n)))
				}
			}
			b.RunOptimize()
			f, _ := b.ToBytes()
			frz = append(frz, uint32(len(packed)))
			packed = append(packed, f...)
			frz = append(frz, uint32(len(packed)))
			for len(packed)%32 != 0 {
				packed = append(packed, 0)
			}
		}
		got, err := renumberBitmaps(packed, frz, moved)
		if err != nil {
			t.Fatal(err)
		}
		if want := renumberSorted(packed, frz, moved); !bytes.Equal(got, want) {
			t.Fatalf("trial %d (n %d): %d bytes, sorted %d", trial, n, len(got), len(want))
		}
	}
}
