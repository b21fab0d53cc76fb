package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// TestGigRows reads the gigs of an arena split into parts at every place (within a gig,
// on its separator, into empty parts), in order, backwards and twice: each row is the
// joined arena's.
func TestGigRows(t *testing.T) {
	gigs := [][]byte{[]byte(`{"id":"a"}`), {}, []byte(`{"id":"bb","name":"x"}`), []byte(`{}`), []byte(`{"id":"c"}`)}
	var arena, offs []byte
	for _, g := range gigs {
		offs = binary.LittleEndian.AppendUint64(offs, uint64(len(arena)))
		arena = append(append(arena, g...), '\n')
	}
	offs = binary.LittleEndian.AppendUint64(offs, uint64(len(arena)))
	arena = arena[:len(arena)-1] // as a section holds it: the last separator is not stored
	splits := [][]int{{}, {0}, {len(arena)}}
	for a := 0; a <= len(arena); a++ {
		splits = append(splits, []int{a}, []int{a, a}, []int{a / 2, a})
	}
	for _, at := range splits {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			var parts [][]byte
			last := 0
			for _, a := range at {
				parts, last = append(parts, arena[last:a]), a
			}
			parts = append(parts, arena[last:])
			rows, err := fileRows(append(make([][][]byte, sectionArena), parts, [][]byte{offs}))
			if err != nil {
				t.Fatal(err)
			}
			order := []int{0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 2, 4}
			for _, i := range order {
				if got := rows.row(i); !bytes.Equal(got, gigs[i]) {
					t.Fatalf("row %d: %q, want %q", i, got, gigs[i])
				}
			}
		})
	}
	if _, err := fileRows(append(make([][][]byte, sectionArena), [][]byte{arena[:3]}, [][]byte{offs})); err == nil {
		t.Fatal("offsets past the arena were read")
	}
	// A section of no bytes is made of no parts: its one gig of no JSON is read all the same
	// (a hostile delta may make it).
	one := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 0), 1)
	rows, err := fileRows(append(make([][][]byte, sectionArena), nil, [][]byte{one}))
	if err != nil || rows.len() != 1 || len(rows.row(0)) != 0 {
		t.Fatalf("an empty arena: %v", err)
	}
}
