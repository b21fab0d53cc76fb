package gzipbytes

import (
	"bytes"
	"fmt"
	"testing"
)

// TestPartsWriterWorkersAtEveryLevel checks that one worker makes the bytes two do at
// every level, for an empty input, one just under a tail, and whole blocks.
func TestPartsWriterWorkersAtEveryLevel(t *testing.T) {
	json := body(2*blockSize + tailSize + 7)
	for level := -2; level <= 9; level++ {
		for _, n := range []int{0, tailSize - 1, 2 * blockSize, len(json)} {
			t.Run(fmt.Sprint(level, "/", n), func(t *testing.T) {
				var got [2][]byte
				for i, workers := range []int{1, 2} {
					w, err := NewPartsWriter(level, 1<<16, workers)
					if err != nil {
						t.Fatal(err)
					}
					w.Write(json[:n])
					parts, _, err := w.Finish()
					if err != nil {
						t.Fatal(err)
					}
					got[i] = bytes.Join(parts, nil)
				}
				if !bytes.Equal(got[0], got[1]) {
					t.Fatalf("level %d n %d: %d vs %d bytes", level, n, len(got[0]), len(got[1]))
				}
			})
		}
	}
}
