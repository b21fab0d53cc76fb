package engine

import "hash/maphash"

// idTable finds a gig's position by its id without a pointer the garbage collector would
// follow: the ids sit back to back in one byte arena, and an open-addressing table of
// positions (plus one; zero is empty), sized to stay at most half full, is probed linearly
// from the id's hash.
type idTable struct {
	seed  maphash.Seed
	arena []byte   // every id in position order
	off   []uint32 // id i is arena[off[i]:off[i+1]]
	slots []uint32 // position+1 per slot; len is a power of two
}

// newIDTable indexes ids, which must be unique; ids[i] is the id at position i.
func newIDTable(ids []string) idTable {
	t := idTable{seed: maphash.MakeSeed(), off: make([]uint32, 0, len(ids)+1)}
	size := 0
	for _, id := range ids {
		size += len(id)
	}
	t.arena = make([]byte, 0, size)
	t.off = append(t.off, 0)
	for _, id := range ids {
		t.arena = append(t.arena, id...)
		t.off = append(t.off, uint32(len(t.arena)))
	}
	n := 1
	for n < 2*len(ids) {
		n <<= 1
	}
	t.slots = make([]uint32, n)
	mask := uint64(n - 1)
	for i, id := range ids {
		for h := maphash.String(t.seed, id) & mask; ; h = (h + 1) & mask {
			if t.slots[h] == 0 {
				t.slots[h] = uint32(i) + 1
				break
			}
		}
	}
	return t
}

// find returns the position of id, and whether it is there. It allocates nothing.
func (t *idTable) find(id string) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for h := maphash.String(t.seed, id) & mask; ; h = (h + 1) & mask {
		p := t.slots[h]
		if p == 0 {
			return 0, false
		}
		if i := p - 1; string(t.arena[t.off[i]:t.off[i+1]]) == id {
			return int(i), true
		}
	}
}
