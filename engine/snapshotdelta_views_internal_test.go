package engine

import (
	"bytes"
	"slices"
	"testing"
)

// TestViewsOf finds the base's rows a section made of parts is views of: a row within a
// copy, one a copy begins in after the bytes the copy before ended with, one moved, and
// rows that are not (added bytes, a copy's bytes that differ, a row cut elsewhere).
func TestViewsOf(t *testing.T) {
	src := []byte(`{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"},`)
	srcOff := []int{0, 11, 22, 33, 44} // each row and its comma
	row := func(j int) []byte { return src[srcOff[j]:srcOff[j+1]] }
	for _, tc := range []struct {
		name  string
		parts [][]byte
		want  []int32
	}{
		{"one copy", [][]byte{src}, []int32{0, 1, 2, 3}},
		{"rows moved", [][]byte{row(2), row(0)}, []int32{2, 0}},
		{"a copy ending in the next row", [][]byte{src[0:17], src[28:33]}, []int32{0, 2}}, // b's `{"id":"` then the rest of c
		{"a copy ending in another row", [][]byte{src[0:19], src[30:33]}, []int32{0, -1}}, // `{"id":"b` then c's `"},`
		{"added bytes", [][]byte{row(0), []byte(`{"id":"x"},`), row(1)}, []int32{0, -1, 1}},
		{"a row added across a copy", [][]byte{row(0), []byte(`{"id":"`), []byte(`x"},`)}, []int32{0, -1}},
		{"not the base's", [][]byte{bytes.Clone(src)}, []int32{-1, -1, -1, -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			joined := bytes.Join(tc.parts, nil)
			off := []int{0}
			for at := 0; at < len(joined); {
				at += bytes.IndexByte(joined[at:], ',') + 1
				off = append(off, at)
			}
			if got := viewsOf(tc.parts, off, 1, src, srcOff); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSeek holds seek to a binary search from any index it starts from.
func TestSeek(t *testing.T) {
	l := []int{0, 3, 3, 7, 9, 20, 21, 40}
	for j := 0; j <= len(l)+1; j++ {
		for v := -1; v <= 42; v++ {
			want, _ := slices.BinarySearch(l, v)
			if got := seek(l, j, v); got != want {
				t.Fatalf("seek from %d for %d: %d, want %d", j, v, got, want)
			}
		}
	}
}
