package server

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/gigs/gigs/engine"
)

// DefaultPageMemo is the size in bytes of the page memo (Options.PageMemo), and
// maxPageMemo its largest.
const (
	DefaultPageMemo = 8 << 20
	maxPageMemo     = 1 << 30
)

// pageMemo keeps the answers of one snapshot to /v1/gigs queries that are functions of the
// snapshot and the query's bytes alone, so that a query asked again (the first page of a
// city this month, asked by many clients) is answered without being run: its body in the
// encoding asked for, its tag and its Link header. Queries whose range starts now are not
// kept: their answer changes as gigs begin.
//
// Each answer is kept in a slice of its own, never written after it is put: a response
// sends the body found as it is while other requests add answers, and holds on to that
// answer alone (as it would to a body it made). When its answers reach the memo's size, or
// fill half its slots, the memo is full and replaced by an empty one (memos.replace); its
// hash is seeded per memo.
type pageMemo struct {
	snap weak.Pointer[engine.Snapshot] // weak: a memo never keeps a snapshot replaced alive
	size int                           // bytes of the answers it may keep
	seed maphash.Seed                  // random: keys that collide cannot be chosen

	mu    sync.Mutex
	slots []memoSlot // open addressing, linear probing; a power of two long, at most half used
	used  int        // slots used
	bytes int        // bytes kept
}

// memoSlot is one answer: its key, Link header and body back to back in data. hash is 0
// in an empty slot.
type memoSlot struct {
	hash      uint64
	data      []byte
	key, link int
	gz        bool
	tag       engine.Tag
}

// memoEntry is an answer found in a memo; its slices are not to be modified.
type memoEntry struct {
	link, body []byte
	tag        engine.Tag
}

// newPageMemo returns an empty memo of size bytes (at least 64 KiB) for snap.
func newPageMemo(snap *engine.Snapshot, size int) *pageMemo {
	size = max(size, 64<<10)
	// A slot per KiB, half of them usable: a 20-gig page takes about 15 KB, an empty one a
	// few hundred bytes.
	slots := 1 << bits.Len(uint(size>>10)-1)
	return &pageMemo{snap: weak.Make(snap), size: size, seed: maphash.MakeSeed(), slots: make([]memoSlot, slots)}
}

func (m *pageMemo) hash(key []byte) uint64 { return maphash.Bytes(m.seed, key) | 1 }

// find returns the slot of key in the encoding gz, or the empty slot where it would go.
// m.mu is held.
func (m *pageMemo) find(h uint64, key []byte, gz bool) *memoSlot {
	mask := uint64(len(m.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &m.slots[i]
		if sl.hash == 0 || sl.hash == h && sl.gz == gz && bytes.Equal(sl.data[:sl.key], key) {
			return sl
		}
	}
}

// get returns the answer kept for key in the encoding gz.
func (m *pageMemo) get(key []byte, gz bool) (memoEntry, bool) {
	h := m.hash(key)
	m.mu.Lock()
	sl := *m.find(h, key, gz)
	m.mu.Unlock()
	if sl.hash == 0 {
		return memoEntry{}, false
	}
	l := sl.key + sl.link
	return memoEntry{link: sl.data[sl.key:l:l], body: sl.data[l:], tag: sl.tag}, true
}

// put keeps body, its tag and link as the answer to key in the encoding gz, and reports
// whether it did, and whether it did not because the memo is full. An answer larger than
// an eighth of the memo is not kept, and a key kept already keeps its first answer (the
// same, from the same snapshot).
func (m *pageMemo) put(key []byte, gz bool, link, body []byte, tag engine.Tag) (kept, full bool) {
	n := len(key) + len(link) + len(body)
	if n > m.size/8 {
		return false, false
	}
	h := m.hash(key)
	data := append(append(append(make([]byte, 0, n), key...), link...), body...)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bytes+n > m.size || 2*(m.used+1) > len(m.slots) {
		return false, true
	}
	sl := m.find(h, key, gz)
	if sl.hash != 0 {
		return false, false
	}
	*sl = memoSlot{hash: h, data: data, key: len(key), link: len(link), gz: gz, tag: tag}
	m.used++
	m.bytes += n
	return true, false
}

// memos holds the Server's current page memo.
type memos struct {
	size int          // bytes of a memo; 0: no memo
	live *engine.Live // the snapshot served
	mu   sync.Mutex   // held to replace cur
	cur  atomic.Pointer[pageMemo]
}

// forSnapshot returns the memo of snap, making one when snap is live and the memo is
// another's; nil when there is none: memos are off, or snap is no longer live (a request
// that began before a swap neither uses nor replaces the new snapshot's memo).
func (ms *memos) forSnapshot(snap *engine.Snapshot) *pageMemo {
	if ms.size == 0 {
		return nil
	}
	if m := ms.cur.Load(); m != nil && m.snap.Value() == snap {
		return m
	}
	return ms.replace(nil, snap)
}

// keep puts an answer in m, or in a new memo of m's snapshot when m is full, and reports
// whether it was kept.
func (ms *memos) keep(m *pageMemo, key []byte, gz bool, link, body []byte, tag engine.Tag) bool {
	kept, full := m.put(key, gz, link, body, tag)
	if !full {
		return kept
	}
	snap := m.snap.Value()
	if snap == nil {
		return false // replaced and collected
	}
	if m = ms.replace(m, snap); m == nil {
		return false // no longer live
	}
	kept, _ = m.put(key, gz, link, body, tag)
	return kept
}

// replace makes an empty memo of snap current, in place of full (when not nil) or of
// another snapshot's memo, and returns the current memo of snap; nil when snap is not
// live. One memo is made however many requests ask at once.
func (ms *memos) replace(full *pageMemo, snap *engine.Snapshot) *pageMemo {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if cur := ms.cur.Load(); cur != nil && cur.snap.Value() == snap && cur != full {
		return cur // another request replaced it
	}
	if ms.live.Load() != snap {
		return nil
	}
	m := newPageMemo(snap, ms.size)
	ms.cur.Store(m)
	return m
}

// hasFrom reports whether a raw query string names from: the memo keeps and looks up
// only such queries (those whose from is percent-encoded are run every time).
func hasFrom(query []byte) bool {
	for len(query) > 0 {
		if bytes.HasPrefix(query, []byte("from=")) {
			return true
		}
		i := bytes.IndexByte(query, '&')
		if i < 0 {
			return false
		}
		query = query[i+1:]
	}
	return false
}
