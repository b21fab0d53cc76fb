package engine

import (
	"hash/crc32"
	"testing"
)

func TestCommaCRC(t *testing.T) {
	gig := []byte(`{"id":"g1"}`)
	if want := crc32.ChecksumIEEE(append([]byte{','}, gig...)); commaCRC(gig) != want {
		t.Fatalf("commaCRC %08x, want %08x", commaCRC(gig), want)
	}
}
