package binfile

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// A Codec writes or reads sections: the same calls, in the same order, write a file and
// read it back into the same variables. Writing, each call writes what its argument
// holds; reading, it sets its argument to what the next section holds (a view of the
// file's bytes where it can be).
type Codec struct {
	w *Writer
	r *Reader
}

// Codec returns a Codec that writes to fw.
func (fw *Writer) Codec() Codec { return Codec{w: fw} }

// Codec returns a Codec that reads from r.
func (r *Reader) Codec() Codec { return Codec{r: r} }

// Reading reports whether c reads.
func (c Codec) Reading() bool { return c.r != nil }

// Bytes writes or reads a byte slice as a section.
func (c Codec) Bytes(p *[]byte) {
	if c.w != nil {
		c.w.Section(*p)
	} else {
		*p = c.r.Section()
	}
}

// Parts writes byte slices as one section, read back as one slice.
func (c Codec) Parts(p *[][]byte) {
	if c.w != nil {
		c.w.Section(*p...)
	} else {
		*p = [][]byte{c.r.Section()}
	}
}

// Str writes or reads a string as a section.
func (c Codec) Str(p *string) {
	b := []byte(*p)
	c.Bytes(&b)
	if c.r != nil {
		*p = string(b)
	}
}

// Int64 writes or reads one integer as a section of one word; a section of another size
// leaves *p as it was (and a caller's check of what it read refuses it).
func (c Codec) Int64(p *int64) {
	l := []int64{*p}
	Words(c, &l, 8)
	if len(l) == 1 {
		*p = l[0]
	}
}

// Word is an integer kept in a file in size bytes (4 or 8), little-endian.
type Word interface {
	~int | ~int32 | ~uint32 | ~int64 | ~uint64
}

// Words writes or reads a slice of words, size bytes each (4 or 8), as a section. Read,
// it is a view of the file's bytes when the host stores the words as the file does and
// the section is aligned for them (see View), else a copy; a section whose length is not
// a multiple of size fails the reader.
func Words[T Word](c Codec, p *[]T, size int) {
	if c.w != nil {
		if b, ok := wordBytes(*p, size); ok {
			c.w.Section(b)
			return
		}
		b := make([]byte, 0, len(*p)*size)
		for _, x := range *p {
			if size == 4 {
				b = binary.LittleEndian.AppendUint32(b, uint32(x))
			} else {
				b = binary.LittleEndian.AppendUint64(b, uint64(x))
			}
		}
		c.w.Section(b)
		return
	}
	b := c.r.Section()
	if len(b)%size != 0 {
		c.r.Fail(fmt.Errorf("a section of %d bytes is not of %d-byte words", len(b), size))
		return
	}
	if l, ok := View[T](b, size); ok {
		*p = l
		return
	}
	l := make([]T, len(b)/size)
	for i := range l {
		if size == 4 {
			l[i] = T(binary.LittleEndian.Uint32(b[4*i:])) // wraps back to a negative int32
		} else {
			l[i] = T(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	*p = l
}

// littleEndian says whether the host stores integers as the file does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// wordBytes returns the bytes of l as the file stores them, without copying, when the
// host stores a T in size bytes, little-endian; ok is false otherwise.
func wordBytes[T Word](l []T, size int) (b []byte, ok bool) {
	var zero T
	if !littleEndian || int(unsafe.Sizeof(zero)) != size {
		return nil, false
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(l))), len(l)*size), true
}

// View returns b, little-endian words of size bytes, as a slice of them without copying,
// when the host stores a T in size bytes, little-endian, and b is aligned for them
// (sections start at Align-byte boundaries of the file, which a mapping starts at a page
// boundary); ok is false otherwise. The view shares b's memory, which must not be written
// while it is in use.
func View[T Word](b []byte, size int) (l []T, ok bool) {
	var zero T
	if !littleEndian || int(unsafe.Sizeof(zero)) != size || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) != 0 {
		return nil, false
	}
	if len(b) == 0 {
		return []T{}, true
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size), true
}
