package deflate_test

import (
	"bytes"
	"testing"

	"github.com/gigs/gigs/engine/internal/deflate"
)

// TestReadCoder reads the coder back from a fragment of every kind of body, made by
// coders of unlike samples: it compresses every body to the same fragment as the coder
// that wrote it.
func TestReadCoder(t *testing.T) {
	gigs, random := gigBodies(t, 300), randomBytes(3, 5000)
	bodies := append([][]byte{{}, {'x'}, random, bytes.Repeat([]byte("ab"), 1000)}, gigs[250:]...)
	for _, tc := range []struct {
		name   string
		sample [][]byte
	}{
		{"gigs", gigs[:250]},
		{"random bytes", [][]byte{random}},
		{"one byte", [][]byte{{'{'}}},
		{"nothing", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, m := deflate.NewCoder(tc.sample), new(deflate.Matcher)
			for _, from := range bodies {
				read, err := deflate.ReadCoder(c.AppendFragment(nil, from, m))
				if err != nil {
					t.Fatalf("from a fragment of %d bytes: %v", len(from), err)
				}
				for _, body := range bodies {
					if want, got := c.AppendFragment(nil, body, m), read.AppendFragment(nil, body, m); !bytes.Equal(got, want) {
						t.Fatalf("the coder read from a fragment of %d bytes compresses %d bytes to %x, not %x", len(from), len(body), got, want)
					}
				}
			}
		})
	}
}

// TestReadCoderRefuses refuses what is not the start of a fragment a coder wrote.
func TestReadCoderRefuses(t *testing.T) {
	c := deflate.NewCoder(gigBodies(t, 50))
	z := c.AppendFragment(nil, []byte(`{"id":"g1"}`), new(deflate.Matcher))
	flipped := bytes.Clone(z)
	flipped[3] ^= 0x10
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"one byte", z[:1]},
		{"cut in the header", z[:len(z)/4]},
		{"final block", append([]byte{z[0] | 1}, z[1:]...)},
		{"stored block", []byte{0, 0, 0, 0xff, 0xff}},
		{"a bit flipped in the code lengths", flipped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := deflate.ReadCoder(tc.b); err == nil {
				t.Errorf("read a coder from %x", tc.b)
			}
		})
	}
}

// FuzzReadCoder reads coders from any bytes: it never panics, and a coder it reads is
// read back alike from a fragment of its own.
func FuzzReadCoder(f *testing.F) {
	c := deflate.NewCoder([][]byte{[]byte(`{"id":"g1","title":"Motörhead"}`)})
	f.Add(c.AppendFragment(nil, []byte(`{"id":"g2"}`), new(deflate.Matcher)))
	f.Add([]byte{4, 0xff, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		read, err := deflate.ReadCoder(b)
		if err != nil {
			return
		}
		m := new(deflate.Matcher)
		again, err := deflate.ReadCoder(read.AppendFragment(nil, nil, m))
		if err != nil || !bytes.Equal(again.AppendFragment(nil, b, m), read.AppendFragment(nil, b, m)) {
			t.Fatalf("a coder read from %x writes fragments it cannot read back: %v", b, err)
		}
	})
}
