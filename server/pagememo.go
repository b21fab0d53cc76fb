package server

import (
	"bytes"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"

	"github.com/gigs/gigs/engine"
)

// DefaultPageMemo is the size in bytes of the page memo (Options.PageMemo).
const DefaultPageMemo = 8 << 20

// pageMemo keeps the answers of one snapshot to /v1/gigs queries that are functions of the
// snapshot and the query's bytes alone, so that a query asked again (the first page of a
// city this month, asked by many clients) is answered without being run: its body in the
// encoding asked for, its tag and its Link header. Queries whose range starts now are not
// kept: their answer changes as gigs begin.
//
// Entries live in one arena written once: bytes handed to a response are never written
// again, so a response may send them while other requests add entries. A memo that is full
// is replaced by an empty one (Server.memoFor); the old arena is freed by the collector
// once its last response is sent. Its table holds no pointers.
type pageMemo struct {
	snap *engine.Snapshot
	size int // the arena's capacity

	mu    sync.Mutex
	arena []byte     // entries' bytes: key, Link header, body; never longer than its capacity
	slots []memoSlot // open addressing, linear probing; a power of two long, at most half used
	used  int
}

// memoSlot locates one entry in the arena: the key at off, then the Link header, then the
// body. hash is 0 in an empty slot.
type memoSlot struct {
	hash            uint64
	off             uint32
	key, link, body uint32
	gz              bool
	tag             engine.Tag
}

// memoEntry is an answer found in a memo; its slices are not to be modified.
type memoEntry struct {
	link, body []byte
	tag        engine.Tag
}

// newPageMemo returns an empty memo of size bytes (at least 64 KiB) for snap.
func newPageMemo(snap *engine.Snapshot, size int) *pageMemo {
	size = max(size, 64<<10)
	// A slot per 2 KiB of arena, half of them usable: a 20-gig page takes about 15 KB, an
	// empty one a few hundred bytes.
	slots := 1 << bits.Len(uint(size>>10)-1)
	return &pageMemo{snap: snap, size: size, arena: make([]byte, 0, size), slots: make([]memoSlot, slots)}
}

func memoHash(key []byte) uint64 { return xxhash.Sum64(key) | 1 }

// get returns the entry kept for key in the encoding gz.
func (m *pageMemo) get(key []byte, gz bool) (memoEntry, bool) {
	h := memoHash(key)
	m.mu.Lock()
	defer m.mu.Unlock()
	mask := uint64(len(m.slots) - 1)
	for i := h & mask; m.slots[i].hash != 0; i = (i + 1) & mask {
		sl := &m.slots[i]
		if sl.hash != h || sl.gz != gz || int(sl.key) != len(key) {
			continue
		}
		k := int(sl.off)
		l := k + int(sl.key)
		b := l + int(sl.link)
		e := b + int(sl.body)
		if bytes.Equal(m.arena[k:l], key) {
			return memoEntry{link: m.arena[l:b:b], body: m.arena[b:e:e], tag: sl.tag}, true
		}
	}
	return memoEntry{}, false
}

// put keeps body, its tag and link as the answer to key in the encoding gz, and reports
// whether it did, and whether it did not because the memo is full. An entry larger than
// an eighth of the memo is not kept, and a key kept already keeps its first answer (the
// same, from the same snapshot).
func (m *pageMemo) put(key []byte, gz bool, link, body []byte, tag engine.Tag) (kept, full bool) {
	n := len(key) + len(link) + len(body)
	if n > m.size/8 {
		return false, false
	}
	h := memoHash(key)
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.arena)+n > m.size || 2*(m.used+1) > len(m.slots) {
		return false, true
	}
	mask := uint64(len(m.slots) - 1)
	i := h & mask
	for ; m.slots[i].hash != 0; i = (i + 1) & mask {
		sl := &m.slots[i]
		if sl.hash == h && sl.gz == gz && bytes.Equal(m.arena[sl.off:sl.off+sl.key], key) {
			return false, false
		}
	}
	off := len(m.arena)
	m.arena = append(append(append(m.arena, key...), link...), body...)
	m.slots[i] = memoSlot{hash: h, off: uint32(off), key: uint32(len(key)), link: uint32(len(link)),
		body: uint32(len(body)), gz: gz, tag: tag}
	m.used++
	return true, false
}

// memos holds the Server's current page memo.
type memos struct {
	size int // bytes of a memo; 0: no memo
	cur  atomic.Pointer[pageMemo]
}

// forSnapshot returns the memo of snap, making one when snap is the live snapshot and the
// memo is another's; nil when there is none (memos are off, or snap is no longer live: a
// request that began before a swap).
func (ms *memos) forSnapshot(snap, live *engine.Snapshot) *pageMemo {
	if ms.size == 0 {
		return nil
	}
	m := ms.cur.Load()
	if m != nil && m.snap == snap {
		return m
	}
	if snap != live {
		return nil
	}
	return ms.renew(m, snap)
}

// keep puts an answer in m, or in a new memo of m's snapshot when m is full, and reports
// whether it was kept.
func (ms *memos) keep(m *pageMemo, key []byte, gz bool, link, body []byte, tag engine.Tag) bool {
	kept, full := m.put(key, gz, link, body, tag)
	if !full {
		return kept
	}
	if n := ms.renew(m, m.snap); n.snap == m.snap {
		kept, _ = n.put(key, gz, link, body, tag)
	}
	return kept
}

// renew replaces old, full or another snapshot's, by an empty memo of snap, unless another
// request did so first, and returns the memo now current.
func (ms *memos) renew(old *pageMemo, snap *engine.Snapshot) *pageMemo {
	m := newPageMemo(snap, ms.size)
	if ms.cur.CompareAndSwap(old, m) {
		return m
	}
	return ms.cur.Load()
}
