package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"unsafe"

	"github.com/cespare/xxhash/v2"
)

// A follower applying a delta makes most of a section as copies of the base's: views of
// its mapping (see bindelta.Predictor). A source made from such a section need not read
// it again: a gig whose JSON is a view of a base's gig is that gig, its hashes and its
// fragment are the base's. What a delta adds (a gig edited or added) is read as before,
// and so is every gig on the side that writes a delta, which has no views: both make the
// same bytes, only a follower's costs what changed rather than the whole file.

// viewsOf returns, for each row of a section made of parts and laid out by off (row i is
// [off[i], off[i+1]-sep)), the row of the base's section src (laid out by srcOff alike)
// that it is: the one whose bytes the part holding its last byte is a view of, by their
// memory, when that row begins and ends where it does, and the row's bytes in the parts
// before are src's (a delta's copy may end in the next row, which the next copy then
// begins after); -1 for another row (bytes the delta added, a row moved).
func viewsOf(parts [][]byte, off []int, sep int, src []byte, srcOff []int) []int32 {
	from := make([]int32, max(len(off)-1, 0))
	for i := range from {
		from[i] = -1
	}
	if len(src) == 0 || len(srcOff) < 2 || len(parts) == 0 {
		return from
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	k, at, j := 0, 0, 0 // the part holding the row's last byte, where it starts; src's row
	for i := range from {
		start, end := off[i], off[i+1]-sep
		if end <= start {
			continue
		}
		for k < len(parts)-1 && at+len(parts[k]) < end {
			at += len(parts[k])
			k++
		}
		p := parts[k]
		q := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
		if len(p) == 0 || q < lo || q-lo > uintptr(len(src)-len(p)) {
			continue
		}
		shift := int(q-lo) - at // a byte of the part at x of the section is src's at x+shift
		j = seek(srcOff, j, start+shift)
		if j >= len(srcOff)-1 || srcOff[j] != start+shift || srcOff[j+1] != off[i+1]+shift {
			continue
		}
		if start < at && !endsWith(parts[:k], at, start, src[start+shift:at+shift]) {
			continue
		}
		from[i] = int32(j)
	}
	return from
}

// endsWith reports whether the bytes [start, at) of the section that parts, ending at at,
// make are want.
func endsWith(parts [][]byte, at, start int, want []byte) bool {
	for k := len(parts) - 1; at > start && k >= 0; k-- {
		p := parts[k]
		from := max(start, at-len(p))
		if !bytes.Equal(p[from-(at-len(p)):], want[from-start:at-start]) {
			return false
		}
		at -= len(p)
	}
	return at <= start
}

// seek returns the index of the first of the ascending words of l at least v, looked for
// from index j on (where the last one was) before the others.
func seek(l []int, j, v int) int {
	j = min(j, len(l))
	if j > 0 && l[j-1] >= v {
		k, _ := slices.BinarySearch(l[:j], v)
		return k
	}
	lo, hi := j, j // l[:lo] are under v, and l[hi] is not when it is in l
	for step := 1; hi < len(l) && l[hi] < v; step *= 2 {
		lo, hi = hi+1, hi+step
	}
	hi = min(hi, len(l))
	k, _ := slices.BinarySearch(l[lo:hi], v)
	return lo + k
}

// fileGigs reads the file's gigs made (once): their JSON, the base's gig each is a view
// of, and their hashes, the base's for a view of one (see snapshotSources).
func (p *snapshotSources) fileGigs(base [][]byte, made [][][]byte) error {
	if p.rows != nil || p.gigsErr != nil {
		return p.gigsErr
	}
	rows, err := fileRows(made)
	if err != nil {
		p.gigsErr = err
		return err
	}
	n := rows.len()
	from := make([]int32, n)
	for i := range from {
		from[i] = -1
	}
	var bHash, bContent []byte
	if len(base) > sectionContent {
		bOff, ok := gigOffsets(base[sectionArena+1], len(base[sectionArena]))
		if ok && len(base[sectionGigHash]) == 8*(len(bOff)-1) && len(base[sectionContent]) == len(base[sectionGigHash]) {
			from = viewsOf(made[sectionArena], rows.off, 1, base[sectionArena], bOff)
			bHash, bContent = base[sectionGigHash], base[sectionContent]
		}
	}
	p.rows, p.from = rows, from
	p.hashes, p.content = make([]uint64, n), make([]uint64, n)
	for i, j := range from {
		if j >= 0 {
			p.hashes[i] = binary.LittleEndian.Uint64(bHash[8*j:])
			if p.content != nil {
				p.content[i] = binary.LittleEndian.Uint64(bContent[8*j:])
			}
			continue
		}
		g := rows.row(i)
		p.hashes[i] = xxhash.Sum64(g)
		if k := bytes.LastIndex(g, []byte(`,"created_at":`)); k >= 0 && p.content != nil {
			p.content[i] = xxhash.Sum64(g[:k])
		} else {
			p.content = nil
		}
	}
	return nil
}

// movedGigs returns, for each gig of the base, its position in the file made, or -1,
// from the gig ids of both, and the number of the file's gigs: an id that is a view of
// the base's (see viewsOf) is that gig's, the others are looked up.
func movedGigs(base [][]byte, made [][][]byte) ([]int32, int, error) {
	if len(base) <= sectionIDs+1 || len(made) <= sectionIDs+1 {
		return nil, 0, errors.New("no gig ids")
	}
	offsets := func(arena, off []byte) ([]int, error) {
		offs := make([]uint32, len(off)/4)
		for i := range offs {
			offs[i] = binary.LittleEndian.Uint32(off[4*i:])
		}
		if t := (keyTable{arena: arena, off: offs}); len(off)%4 != 0 || len(offs) == 0 || !t.valid(t.len()) {
			return nil, errors.New("gig ids inconsistent")
		}
		at := make([]int, len(offs))
		for i, o := range offs {
			at[i] = int(o)
		}
		return at, nil
	}
	oldArena, arena := base[sectionIDs], made[sectionIDs]
	old, err := offsets(oldArena, base[sectionIDs+1])
	if err != nil {
		return nil, 0, err
	}
	now, err := offsets(joined(arena), joined(made[sectionIDs+1]))
	if err != nil {
		return nil, 0, err
	}
	moved := make([]int32, len(old)-1)
	for j := range moved {
		moved[j] = -1
	}
	var rest keyTable // the file's ids that are not views of the base's
	var restAt []int32
	rest.off = []uint32{0}
	rows := &gigRows{parts: arena, off: now} // each id a row with no separator
	if len(arena) == 0 {
		rows.parts = [][]byte{nil}
	}
	for i, j := range viewsOf(arena, now, 0, oldArena, old) {
		if j < 0 {
			rest.arena = append(rest.arena, rows.row(i)...)
			rest.off = append(rest.off, uint32(len(rest.arena)))
			restAt = append(restAt, int32(i))
			continue
		}
		if moved[j] >= 0 {
			return nil, 0, errors.New("gig ids inconsistent")
		}
		moved[j] = int32(i)
	}
	if rest, err = keyTableOf(rest.arena, rest.off); err != nil {
		return nil, 0, err
	}
	for j, to := range moved {
		if to < 0 {
			if i, ok := rest.findBytes(oldArena[old[j]:old[j+1]]); ok {
				moved[j] = restAt[i]
			}
		}
	}
	return moved, len(now) - 1, nil
}
