package binfile

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// file is what the sections of TestRoundTrip are written from and read into.
type file struct {
	name   string
	n      int64
	raw    []byte
	parts  [][]byte
	int32s []int32
	ints   []int
	u64s   []uint64
}

func (f *file) sections(c Codec) {
	c.Str(&f.name)
	c.Int64(&f.n)
	c.Bytes(&f.raw)
	c.Parts(&f.parts)
	Words(c, &f.int32s, 4)
	Words(c, &f.ints, 8)
	Words(c, &f.u64s, 8)
}

func write(t *testing.T, f *file) []byte {
	t.Helper()
	var b bytes.Buffer
	fw := NewWriter(&b)
	fw.Header([]byte("head\n"))
	f.sections(fw.Codec())
	if err := fw.Finish(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRoundTrip writes sections and reads them back, from an aligned buffer (words are
// views of it) and from one a byte off (words are copied), and checks that every
// section's bytes start at an Align-byte boundary of the file.
func TestRoundTrip(t *testing.T) {
	in := &file{name: "snapshot", n: -7, raw: []byte("raw bytes"), parts: [][]byte{[]byte("one,"), []byte("two")},
		int32s: []int32{-1, 0, 1 << 30}, ints: []int{-5, 1 << 40}, u64s: []uint64{1<<64 - 1}}
	data := write(t, in)
	for _, off := range []int{0, 1} {
		buf := make([]byte, len(data)+2*Align)
		at := Align - int(uintptr(unsafe.Pointer(&buf[0]))%Align) + off // off bytes past a boundary
		b := append(buf[at:at], data...)
		r, err := NewReader(b, len("head\n"))
		if err != nil {
			t.Fatal(err)
		}
		var out file
		out.sections(r.Codec())
		if err := r.Done(); err != nil {
			t.Fatalf("offset %d: %v", off, err)
		}
		if out.name != in.name || out.n != in.n || !bytes.Equal(out.raw, in.raw) || len(out.parts) != 1 ||
			string(out.parts[0]) != "one,two" || !slices.Equal(out.int32s, in.int32s) || !slices.Equal(out.ints, in.ints) ||
			!slices.Equal(out.u64s, in.u64s) {
			t.Fatalf("offset %d: read %+v, want %+v", off, out, in)
		}
		p, lo := uintptr(unsafe.Pointer(&out.u64s[0])), uintptr(unsafe.Pointer(&b[0]))
		if view := p >= lo && p < lo+uintptr(len(b)); view != (off == 0) {
			t.Errorf("offset %d: words read are a view of the file: %v", off, view)
		}
	}
	r, err := NewReader(data, len("head\n"))
	if err != nil {
		t.Fatal(err)
	}
	for r.at < len(r.data) {
		if n := len(r.Section()); r.err != nil || (r.at-n)%Align != 0 {
			t.Fatalf("a section of %d bytes starts at %d (%v)", n, r.at-n, r.err)
		}
	}
}

// TestBadFiles reads files damaged or cut short: each is refused with its error.
func TestBadFiles(t *testing.T) {
	data := write(t, &file{name: "x", ints: []int{1, 2}})
	flip := func(i int) []byte {
		b := bytes.Clone(data)
		b[i] ^= 1
		return b
	}
	if _, err := NewReader(flip(len(data)/2), 5); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a byte changed: %v, want a checksum error", err)
	}
	for _, tc := range []struct {
		name, want string
		read       func(c Codec)
	}{
		{"sections past the last", "cut short", func(c Codec) {
			var f file
			f.sections(c)
			f.sections(c)
		}},
		{"sections left", "bytes after the last section", func(c Codec) {
			var s string
			c.Str(&s)
		}},
		{"not words", "a section of 1 bytes is not of 8-byte words", func(c Codec) {
			var l []uint64
			Words(c, &l, 8)
		}},
	} {
		r, err := NewReader(data, 5)
		if err != nil {
			t.Fatal(err)
		}
		tc.read(r.Codec())
		if err := r.Done(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestReaderSummed reads a file with the sum its writer hashed it to, and refuses
// another.
func TestReaderSummed(t *testing.T) {
	var b bytes.Buffer
	fw := NewWriter(&b)
	fw.Header([]byte("head\n"))
	name := "x"
	fw.Codec().Str(&name)
	if err := fw.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sum uint64
		ok  bool
	}{{fw.Sum(), true}, {fw.Sum() ^ 1, false}} {
		r, err := NewReaderSummed(b.Bytes(), 5, tc.sum)
		if (err == nil) != tc.ok {
			t.Fatalf("sum %x: %v", tc.sum, err)
		}
		if err == nil {
			var got string
			r.Codec().Str(&got)
			if err := r.Done(); err != nil || got != name {
				t.Errorf("read %q, %v", got, err)
			}
		}
	}
}

// TestWriterBuffers writes a section of small parts larger than the Writer's buffer and
// one larger part after it: the file is the bytes given, ending with their checksum.
func TestWriterBuffers(t *testing.T) {
	var parts [][]byte
	for i := 0; i < 3*bufSize/100; i++ {
		parts = append(parts, bytes.Repeat([]byte{byte(i)}, 1+i%199))
	}
	big := bytes.Repeat([]byte("big"), bufSize)
	var b bytes.Buffer
	fw := NewWriter(&b)
	fw.Header([]byte("head\n"))
	fw.Section(parts...)
	fw.Section(big)
	if err := fw.Finish(); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(b.Bytes(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Section(); !bytes.Equal(got, bytes.Join(parts, nil)) {
		t.Errorf("the small parts read back differ")
	}
	if got := r.Section(); !bytes.Equal(got, big) {
		t.Errorf("the large part read back differs")
	}
	if err := r.Done(); err != nil || fw.Written()+8 != int64(b.Len()) {
		t.Errorf("%v; written %d, file %d bytes", err, fw.Written(), b.Len())
	}
}
