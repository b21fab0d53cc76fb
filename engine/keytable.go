package engine

import (
	"bytes"
	"fmt"
	"hash/maphash"
)

// keyTable finds a key's number (its index in the list it was made from) without a pointer
// the garbage collector would follow: the keys sit back to back in one byte arena, and an
// open-addressing table of numbers (plus one; zero is empty), sized to stay at most half
// full, is probed linearly from the key's hash. The hash seed is random per table, so keys
// chosen upstream cannot be made to collide.
type keyTable struct {
	seed  maphash.Seed
	arena []byte   // every key in number order
	off   []uint32 // key i is arena[off[i]:off[i+1]]; len(off) == number of keys + 1
	slots []uint32 // number+1 per slot; len is a power of two
}

// newKeyTable indexes keys; a key given twice is a *duplicateKeyError.
func newKeyTable(keys []string) (keyTable, error) {
	size := 0
	for _, k := range keys {
		size += len(k)
	}
	arena, off := make([]byte, 0, size), make([]uint32, 1, len(keys)+1)
	for _, k := range keys {
		arena = append(arena, k...)
		off = append(off, uint32(len(arena)))
	}
	return keyTableOf(arena, off)
}

// keyTableOf indexes the keys of an arena and its offsets, as newKeyTable lays them out;
// the table keeps both slices. A key given twice is a *duplicateKeyError: the probe that
// files a key passes every key filed before it with the same hash, so it meets its twin.
func keyTableOf(arena []byte, off []uint32) (keyTable, error) {
	t := keyTable{seed: maphash.MakeSeed(), arena: arena, off: off}
	n := 1
	for n < 2*t.len() {
		n <<= 1
	}
	t.slots = make([]uint32, n)
	mask := uint64(n - 1)
	for i := range t.len() {
		key := t.key(i)
		for h := maphash.Bytes(t.seed, key) & mask; ; h = (h + 1) & mask {
			p := t.slots[h]
			if p == 0 {
				t.slots[h] = uint32(i) + 1
				break
			}
			if bytes.Equal(t.key(int(p-1)), key) {
				return keyTable{}, &duplicateKeyError{string(key)}
			}
		}
	}
	return t, nil
}

// A duplicateKeyError names the key a keyTable was given twice.
type duplicateKeyError struct{ key string }

func (e *duplicateKeyError) Error() string { return fmt.Sprintf("key %q given twice", e.key) }

// len returns the number of keys.
func (t *keyTable) len() int { return max(len(t.off)-1, 0) }

// key returns key i, 0 <= i < len().
func (t *keyTable) key(i int) []byte { return t.arena[t.off[i]:t.off[i+1]:t.off[i+1]] }

// find returns the number of key, and whether it is there. It allocates nothing.
func (t *keyTable) find(key string) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	return probe(t, key, maphash.String(t.seed, key))
}

// findBytes is find of a key in bytes, which it does not keep: a query's folded value,
// looked up without the copy a string of it longer than 32 bytes would cost (an MBID's
// key is 41).
func (t *keyTable) findBytes(key []byte) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	return probe(t, key, maphash.Bytes(t.seed, key))
}

// probe looks key up from its hash h in t's slots, of which there are some.
func probe[K string | []byte](t *keyTable, key K, h uint64) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for h &= mask; ; h = (h + 1) & mask {
		p := t.slots[h]
		if p == 0 {
			return 0, false
		}
		if i := int(p - 1); string(t.key(i)) == string(key) {
			return i, true
		}
	}
}
