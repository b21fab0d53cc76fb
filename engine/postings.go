package engine

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"
)

// bigPosting is the size from which a posting is kept as a roaring bitmap rather than a
// sorted list: a list of fewer positions is at most 16 KB, read as it is by a query (its
// positions probed, or set as bits), and a dimension has few postings this large.
const bigPosting = 4096

// postings indexes one dimension: each search key (a folded slug, name or code) names a
// posting, the ascending positions it matches. Nothing in it is a pointer per key or per
// small posting: small postings are lists in one arena, large ones roaring bitmaps
// serialized in one buffer and read in place (a few objects per bitmap). Immutable once
// built.
type postings struct {
	keys  keyTable
	of    []uint32 // posting number of each key
	start []uint32 // posting k's list is list[start[k]:start[k+1]]; empty when k is big
	list  []uint32
	big   []int32          // per posting, its index in views, or -1
	frz   []uint32         // view j is packed[frz[2j]:frz[2j+1]], starting at a 32-byte boundary
	views []roaring.Bitmap // read in place from packed, never modified
	// packed holds the big postings' bitmaps in roaring's portable format.
	packed []byte
	// dayCum and dayFirst hold the day tables of the big postings, view j's at
	// [j*(dayN+1), (j+1)*(dayN+1)); empty in an index of venues.
	dayCum, dayFirst []uint32
}

// posting is one posting: a bitmap (never modified) or a sorted list. A bitmap has its
// day table when its index keeps them.
type posting struct {
	bm    *roaring.Bitmap
	raw   []byte // bm in roaring's portable format
	list  []uint32
	days  dayTable
	dense []uint64 // bm as a bit per position, when kept so (see wordBits)
}

// card returns the number of positions.
func (p posting) card() uint64 {
	if p.bm != nil {
		return p.bm.GetCardinality()
	}
	return uint64(len(p.list))
}

// intersectAny keeps, in place, the elements of the sorted list ids that are positions of
// any of alts. Lists are walked alongside ids, skipping ahead by binary search where they
// are dense, so a list costs at most its length and ids' length together; bitmaps are
// asked. alts' lists are consumed: they are the caller's copies of the slice headers.
func intersectAny(ids []uint32, alts []posting) []uint32 {
	kept := ids[:0]
	for _, x := range ids {
		for i := range alts {
			if alts[i].bm != nil {
				if alts[i].bm.Contains(x) {
					kept = append(kept, x)
					break
				}
				continue
			}
			l := alts[i].list
			if len(l) > 16 && l[15] < x {
				j, _ := slices.BinarySearch(l, x)
				l = l[j:]
			}
			for len(l) > 0 && l[0] < x {
				l = l[1:]
			}
			alts[i].list = l
			if len(l) > 0 && l[0] == x {
				kept = append(kept, x)
				break
			}
		}
	}
	return kept
}

// lookupBytes returns the posting of key, in bytes (see keyTable.findBytes); ok is false
// when no key matches.
func (ps *postings) lookupBytes(key []byte) (posting, bool) {
	i, ok := ps.keys.findBytes(key)
	if !ok {
		return posting{}, false
	}
	return ps.posting(int(ps.of[i])), true
}

func (ps *postings) posting(k int) posting {
	if j := ps.big[k]; j >= 0 {
		p := posting{bm: &ps.views[j], raw: ps.packed[ps.frz[2*j]:ps.frz[2*j+1]]}
		if n := len(ps.dayCum) / len(ps.views); n > 0 {
			lo, hi := int(j)*n, int(j+1)*n
			p.days = dayTable{cum: ps.dayCum[lo:hi:hi], first: ps.dayFirst[lo:hi:hi]}
		}
		return p
	}
	return posting{list: ps.list[ps.start[k]:ps.start[k+1]:ps.start[k+1]]}
}

// postingsBuilder gathers the postings of one dimension.
type postingsBuilder struct {
	keys  []string
	known map[string]int // key → its index in keys
	owned []bool         // per key: an entity's own (see add)
	parts [][]int32      // per key, the lists it is filed under, ascending
	lists [][]uint32
}

// reserve makes room for n keys, so that the builder's map is not grown key by key.
func (b *postingsBuilder) reserve(n int) {
	if b.known == nil {
		b.known = make(map[string]int, n)
	}
}

// add files the ascending positions of one entity under own, the key that is the entity's
// alone (its slug's), and under each of names (the same key twice counts once). A key
// filed under several lists gets their union, but an entity's own key is never shared
// with a name: a slug names one entity, so the lists filed under it as a name give way,
// and later ones are not filed. Empty positions still claim own, which then matches
// nothing (unless another entity's slug folds alike); own "" is none. positions is kept,
// not copied.
func (b *postingsBuilder) add(positions []uint32, own string, names ...string) {
	k := int32(-1)
	if len(positions) > 0 {
		k = int32(len(b.lists))
		b.lists = append(b.lists, positions)
	}
	if own != "" {
		b.own(b.key(own), k)
	}
	for _, key := range names {
		if i, ok := b.known[key]; !ok || !b.owned[i] {
			b.file(b.key(key), k)
		}
	}
}

// own makes key i an entity's own, its lists filed as a name dropped, and files list k
// (none when negative) under it.
func (b *postingsBuilder) own(i int, k int32) {
	if !b.owned[i] {
		b.owned[i], b.parts[i] = true, b.parts[i][:0]
	}
	b.file(i, k)
}

// key returns the index of key, adding it when new.
func (b *postingsBuilder) key(key string) int {
	b.reserve(0)
	i, ok := b.known[key]
	if !ok {
		i = len(b.keys)
		b.known[key] = i
		b.keys = append(b.keys, key)
		b.parts = append(b.parts, nil)
		b.owned = append(b.owned, false)
	}
	return i
}

// file adds list k (none when negative) to key i's, once.
func (b *postingsBuilder) file(i int, k int32) {
	if p := b.parts[i]; k >= 0 && (len(p) == 0 || p[len(p)-1] != k) {
		b.parts[i] = append(p, k)
	}
}

// build lays the postings out flat, with the day tables of the big ones when days is not
// nil. A key's posting is its list, or the union of its lists, made once however many
// keys share it.
func (b *postingsBuilder) build(limit int, days *Snapshot) (postings, error) {
	// Keys that only claim an entity's slug, with no positions, match nothing: left out.
	keep := 0
	for i := range b.keys {
		if len(b.parts[i]) > 0 {
			b.keys[keep], b.parts[keep] = b.keys[i], b.parts[i]
			keep++
		}
	}
	b.keys, b.parts = b.keys[:keep], b.parts[:keep]
	ps := postings{of: make([]uint32, len(b.keys)), start: make([]uint32, 1, len(b.keys)+1), big: make([]int32, 0, len(b.keys))}
	size := 0
	for _, l := range b.lists {
		if len(l) < bigPosting {
			size += len(l)
		}
	}
	ps.list = make([]uint32, 0, size) // the unions of small lists may be larger: rare
	// A key's posting is numbered by its parts: by its list when it has one (most keys),
	// else by its lists' numbers as bytes.
	single := make([]int32, len(b.lists)) // list k's posting, plus one; 0: none yet
	numbered := map[string]uint32{}
	var packed [][]byte
	var sig []byte
	var scratch []uint64
	var lists [][]uint32
	for i, parts := range b.parts {
		if len(parts) == 1 {
			if n := single[parts[0]]; n > 0 {
				ps.of[i] = uint32(n - 1)
				continue
			}
			single[parts[0]] = int32(len(ps.big)) + 1
		} else {
			sig = sig[:0]
			for _, k := range parts {
				sig = binary.LittleEndian.AppendUint32(sig, uint32(k))
			}
			if n, ok := numbered[string(sig)]; ok {
				ps.of[i] = n
				continue
			}
			numbered[string(sig)] = uint32(len(ps.big))
		}
		ps.of[i] = uint32(len(ps.big))
		l := b.lists[parts[0]]
		if len(parts) > 1 {
			lists = lists[:0]
			for _, k := range parts {
				lists = append(lists, b.lists[k])
			}
			l, scratch = unionLists(nil, scratch, lists, limit)
		}
		if len(l) < bigPosting {
			ps.list = append(ps.list, l...)
			ps.big = append(ps.big, -1)
		} else {
			f, err := bitmapOf(l).ToBytes()
			if err != nil {
				return postings{}, fmt.Errorf("cannot serialize a bitmap: %w", err)
			}
			ps.big = append(ps.big, int32(len(packed)))
			packed = append(packed, f)
			if days != nil {
				ps.dayCum, ps.dayFirst = days.appendDayTable(ps.dayCum, ps.dayFirst, l)
			}
		}
		ps.start = append(ps.start, uint32(len(ps.list)))
	}
	bytes := 0
	for _, f := range packed {
		bytes += len(f) + 31
	}
	ps.packed = make([]byte, 0, bytes)
	for _, f := range packed {
		for len(ps.packed)%32 != 0 {
			ps.packed = append(ps.packed, 0)
		}
		ps.frz = append(ps.frz, uint32(len(ps.packed)), uint32(len(ps.packed)+len(f)))
		ps.packed = append(ps.packed, f...)
	}
	var err error
	if ps.keys, err = newKeyTable(b.keys); err != nil {
		return ps, err
	}
	return ps, ps.view(limit)
}

// view makes the large postings' bitmaps, reading them in place from ps.packed once it
// holds them all, and checks them: each must be a valid bitmap of positions below limit.
// (Roaring's frozen format would need no allocation per container, but its FrozenView
// trips the checkptr instrumentation of -race builds.)
func (ps *postings) view(limit int) error {
	ps.views = make([]roaring.Bitmap, len(ps.frz)/2)
	for j := range ps.views {
		b := &ps.views[j]
		buf := ps.packed[ps.frz[2*j]:ps.frz[2*j+1]]
		n, err := b.FromUnsafeBytes(buf)
		if err == nil && int(n) != len(buf) {
			err = fmt.Errorf("%d bytes after it", len(buf)-int(n))
		}
		if err == nil {
			err = b.Validate()
		}
		if err != nil {
			return fmt.Errorf("bitmap %d: %w", j, err)
		}
		if !b.IsEmpty() && int(b.Maximum()) >= limit {
			return fmt.Errorf("bitmap %d: position %d out of range", j, b.Maximum())
		}
	}
	return nil
}

// bitmapOf returns the run-optimized bitmap of the ascending positions sorted, made from a
// bit per position (roaring.FromDense), each container at once: adding positions one by
// one (AddMany) grew each container by appends and stored it back per position, a third
// of a second of a rebuild at a million gigs. The bitmap, and so its bytes, is the same.
func bitmapOf(sorted []uint32) *roaring.Bitmap {
	if len(sorted) == 0 {
		return roaring.New()
	}
	words := make([]uint64, sorted[len(sorted)-1]/64+1)
	for _, p := range sorted {
		words[p>>6] |= 1 << (p & 63)
	}
	b := roaring.FromDense(words, false)
	b.RunOptimize()
	return b
}

// rankList returns the number of elements of a sorted list below x.
func rankList(l []uint32, x int) int {
	return sort.Search(len(l), func(i int) bool { return int(l[i]) >= x })
}
