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
