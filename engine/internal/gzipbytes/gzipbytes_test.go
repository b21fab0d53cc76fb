package gzipbytes

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func body(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(`{"id":"g`)
		b.WriteString(strings.Repeat("x", r.IntN(20)))
		b.WriteString(`"},`)
	}
	return b.Bytes()[:n]
}

// TestCompress compresses bodies at every level, twice each (the second time with a
// pooled compressor), and refuses a level out of range.
func TestCompress(t *testing.T) {
	raw := body(50_000)
	for level := -2; level <= 9; level++ {
		first, err := Compress(raw, level)
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		again, err := Compress(raw, level)
		if err != nil || !bytes.Equal(again, first) {
			t.Fatalf("level %d: compressed again to other bytes (%v)", level, err)
		}
		if got := gunzip(t, first); !bytes.Equal(got, raw) {
			t.Fatalf("level %d: decompressed to %d bytes, want %d", level, len(got), len(raw))
		}
	}
	if _, err := Compress(raw, 10); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("level 10: %v", err)
	}
}

// TestPartsWriter compresses a body written in pieces into one member in parts of the
// size asked for, but the last, which together decompress to the body.
func TestPartsWriter(t *testing.T) {
	raw := body(3 << 20)
	w, err := NewPartsWriter(1, 100_000, 3)
	if err != nil {
		t.Fatal(err)
	}
	for p := raw; len(p) > 0; p = p[min(len(p), 70_001):] {
		if _, err := w.Write(p[:min(len(p), 70_001)]); err != nil {
			t.Fatal(err)
		}
	}
	parts, size, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) < 2 {
		t.Fatalf("%d parts", len(parts))
	}
	for i, p := range parts[:len(parts)-1] {
		if len(p) != 100_000 {
			t.Fatalf("part %d of %d bytes", i, len(p))
		}
	}
	whole := bytes.Join(parts, nil)
	if len(whole) != size {
		t.Fatalf("parts of %d bytes together, size %d", len(whole), size)
	}
	if got := gunzip(t, whole); !bytes.Equal(got, raw) {
		t.Fatalf("decompressed to %d bytes, want %d", len(got), len(raw))
	}
}

// TestPartsWriterWorkers compresses the same bodies on one worker (the caller's goroutine,
// serialWriter) and on several (pgzip's goroutines), at two levels, sizes on either side
// of a block's and a dictionary's edge, written in pieces of several sizes: the bytes must
// be equal, since a follower compresses an export again to check a delta against it.
func TestPartsWriterWorkers(t *testing.T) {
	random := make([]byte, 3*blockSize)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	json := body(4 * blockSize)
	for _, tc := range []struct {
		name  string
		raw   []byte
		level int
		piece int
	}{
		{"empty", nil, gzip.BestSpeed, 1},
		{"one byte", json[:1], gzip.BestSpeed, 1},
		{"a dictionary", json[:tailSize], gzip.BestSpeed, 1000},
		{"a dictionary and a byte", json[:tailSize+1], gzip.BestSpeed, 4096},
		{"a block less a byte", json[:blockSize-1], gzip.BestSpeed, 70_001},
		{"a block", json[:blockSize], gzip.BestSpeed, blockSize},
		{"a block and a byte", json[:blockSize+1], gzip.BestSpeed, 3 * blockSize},
		{"a block and a dictionary", json[:blockSize+tailSize], gzip.BestSpeed, 65_536},
		{"three blocks and a half", json[:3*blockSize+blockSize/2], gzip.BestSpeed, 70_001},
		{"four blocks", json, gzip.DefaultCompression, 1 << 19},
		{"random", random[:2*blockSize+12345], gzip.BestSpeed, 70_001},
		{"random, default level", random, gzip.DefaultCompression, 999_999},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [2][]byte
			for i, workers := range []int{1, 3} {
				w, err := NewPartsWriter(tc.level, 100_000, workers)
				if err != nil {
					t.Fatal(err)
				}
				for p := tc.raw; len(p) > 0; p = p[min(len(p), tc.piece):] {
					if _, err := w.Write(p[:min(len(p), tc.piece)]); err != nil {
						t.Fatal(err)
					}
				}
				parts, _, err := w.Finish()
				if err != nil {
					t.Fatal(err)
				}
				got[i] = bytes.Join(parts, nil)
			}
			if !bytes.Equal(got[0], got[1]) {
				t.Fatalf("one worker wrote %d bytes, three %d: not the same bytes", len(got[0]), len(got[1]))
			}
			if out := gunzip(t, got[0]); !bytes.Equal(out, tc.raw) {
				t.Fatalf("decompressed to %d bytes, want %d", len(out), len(tc.raw))
			}
		})
	}
}
