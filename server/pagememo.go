package server

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// DefaultPageMemo is the size in bytes of the page memo (Options.PageMemo), and
// maxPageMemo its largest. Each of its two generations, 16 MiB, holds about a thousand
// pages of 20 gigs: the 417 pages of the bench's mix at 1M gigs (7.8 MB) fit in one.
const (
	DefaultPageMemo = 32 << 20
	maxPageMemo     = 1 << 30
)

// pageMemo keeps the answers of one snapshot to /v1/gigs queries, so that a query asked
// again (the first page of a city, asked by many clients) is answered without being run:
// its body in the encoding asked for, its tag and its Link header. An answer is a function
// of the snapshot, the query's bytes and, for a query whose range starts now, where now
// puts the range's first gig (engine.Snapshot.Started): that position is part of the
// key, so an answer from now is found again until the next gig starts, and never after.
//
// Each answer is kept in a slice of its own, never written after it is put: a response
// sends the body found as it is while other requests add answers, and holds on to that
// answer alone (as it would to a body it made). When its answers reach the memo's size, or
// fill half its slots, the memo is full: memos.replace makes an empty one current, which
// keeps the full one as its older generation until it fills in turn. An answer found in
// the older generation is moved (its bytes, not a copy) into the current one, so that the
// answers asked for stay while those no longer asked for go with their generation. Its
// hash is seeded per memo.
type pageMemo struct {
	snap weak.Pointer[engine.Snapshot] // weak: a memo never keeps a snapshot replaced alive
	size int                           // bytes of the answers it may keep
	seed maphash.Seed                  // random: keys that collide cannot be chosen
	old  atomic.Pointer[pageMemo]      // the older generation, when this one replaced it

	mu    sync.Mutex
	slots []memoSlot // open addressing, linear probing; a power of two long, at most half used
	used  int        // slots used
	bytes int        // bytes kept
}

// memoKey names an answer: the route it answers, the raw query string, the encoding, and
// for a range from now the position where it starts (-1 for a range given: its answer
// holds for the snapshot).
type memoKey struct {
	route memoRoute
	query []byte
	gz    bool
	start int
}

// memoRoute is the route of a memo's answer: one query string is asked of several.
type memoRoute uint8

const (
	memoGigs     memoRoute = iota // /v1/gigs
	memoGigsFeed                  // /v1/gigs.ics
)

// memoSlot is one answer: its key's query, Link header and body back to back in data. hash
// is 0 in an empty slot.
type memoSlot struct {
	hash      uint64
	data      []byte
	key, link int
	start     int
	route     memoRoute
	gz        bool
	tag       engine.Tag
}

func (sl *memoSlot) entry() memoEntry {
	l := sl.key + sl.link
	return memoEntry{link: sl.data[sl.key:l:l], body: sl.data[l:], tag: sl.tag}
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

func (m *pageMemo) hash(k memoKey) uint64 {
	return (maphash.Bytes(m.seed, k.query) ^ uint64(k.start+1)*0x9e3779b97f4a7c15 ^ uint64(k.route)<<56) | 1
}

// find returns the slot of k, or the empty slot where it would go. m.mu is held.
func (m *pageMemo) find(h uint64, k memoKey) *memoSlot {
	mask := uint64(len(m.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &m.slots[i]
		if sl.hash == 0 || sl.hash == h && sl.route == k.route && sl.gz == k.gz && sl.start == k.start && bytes.Equal(sl.data[:sl.key], k.query) {
			return sl
		}
	}
}

// get returns the slot of the answer kept for k in this generation; its hash is 0 when
// there is none.
func (m *pageMemo) get(k memoKey) memoSlot {
	h := m.hash(k)
	m.mu.Lock()
	sl := *m.find(h, k)
	m.mu.Unlock()
	return sl
}

// newSlot returns the slot of an answer to k: body, its tag and link.
func newSlot(k memoKey, link, body []byte, tag engine.Tag) memoSlot {
	data := append(append(append(make([]byte, 0, len(k.query)+len(link)+len(body)), k.query...), link...), body...)
	return memoSlot{data: data, key: len(k.query), link: len(link), start: k.start, route: k.route, gz: k.gz, tag: tag}
}

// put keeps the answer sl (whose hash is set here) and reports whether it did, and whether
// it did not because the memo is full. An answer larger than an eighth of the memo is not
// kept, and a key kept already keeps its first answer (the same, from the same snapshot).
func (m *pageMemo) put(sl memoSlot) (kept, full bool) {
	n := len(sl.data)
	if n > m.size/8 {
		return false, false
	}
	sl.hash = m.hash(memoKey{route: sl.route, query: sl.data[:sl.key], gz: sl.gz, start: sl.start})
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bytes+n > m.size || 2*(m.used+1) > len(m.slots) {
		return false, true
	}
	dst := m.find(sl.hash, memoKey{route: sl.route, query: sl.data[:sl.key], gz: sl.gz, start: sl.start})
	if dst.hash != 0 {
		return false, false
	}
	*dst = sl
	m.used++
	m.bytes += n
	return true, false
}

// memos holds the Server's current page memo: two generations of half its size each.
type memos struct {
	size int          // bytes of both generations; 0: no memo
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

// get returns the answer to k in m or in its older generation, moving it from the older
// into m (or m's successor, when m is full).
func (ms *memos) get(m *pageMemo, k memoKey) (memoEntry, bool) {
	if sl := m.get(k); sl.hash != 0 {
		return sl.entry(), true
	}
	old := m.old.Load()
	if old == nil {
		return memoEntry{}, false
	}
	sl := old.get(k)
	if sl.hash == 0 {
		return memoEntry{}, false
	}
	ms.put(m, sl)
	return sl.entry(), true
}

// keep puts an answer to k in m, or in a new memo of m's snapshot when m is full, and
// reports whether it was kept.
func (ms *memos) keep(m *pageMemo, k memoKey, link, body []byte, tag engine.Tag) bool {
	return ms.put(m, newSlot(k, link, body, tag))
}

// put puts sl in m, or in a new generation when m is full, and reports whether it was kept.
func (ms *memos) put(m *pageMemo, sl memoSlot) bool {
	kept, full := m.put(sl)
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
	kept, _ = m.put(sl)
	return kept
}

// replace makes an empty memo of snap current, in place of full (when not nil; it becomes
// the older generation, and its own older one is dropped) or of another snapshot's memo,
// and returns the current memo of snap; nil when snap is not live. One memo is made
// however many requests ask at once.
func (ms *memos) replace(full *pageMemo, snap *engine.Snapshot) *pageMemo {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if cur := ms.cur.Load(); cur != nil && cur.snap.Value() == snap && cur != full {
		return cur // another request replaced it
	}
	if ms.live.Load() != snap {
		return nil
	}
	m := newPageMemo(snap, ms.size/2)
	if full != nil {
		full.old.Store(nil)
		m.old.Store(full)
	}
	ms.cur.Store(m)
	return m
}

// hasFrom reports whether a raw query string names from: the answer to such a query is
// the snapshot's alone, looked up before the query is read (one whose from is
// percent-encoded is looked up once read, as a range from now is).
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

// forRequest returns the memo of snap for a request, or nil when there is none or the
// request asks for an answer not taken from a store (Cache-Control: no-cache or no-store,
// or Pragma: no-cache; see noCache): it is then run, as it is without a memo, and not kept.
func (ms *memos) forRequest(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) *pageMemo {
	if ms.size == 0 || noCache(&ctx.Request.Header) {
		return nil
	}
	return ms.forSnapshot(snap)
}

// noCache reports whether a request's Cache-Control has the directive no-cache or no-store
// (any case, with or without an argument), or, without Cache-Control, whether its Pragma is
// no-cache (RFC 9111 5.4).
func noCache(h *fasthttp.RequestHeader) bool {
	cc := peek(h, keyCacheControl)
	if len(cc) == 0 {
		return bytes.EqualFold(bytes.TrimSpace(peek(h, keyPragma)), []byte("no-cache"))
	}
	for len(cc) > 0 {
		var d []byte
		d, cc, _ = bytes.Cut(cc, []byte{','})
		d, _, _ = bytes.Cut(d, []byte{'='})
		if d = bytes.TrimSpace(d); bytes.EqualFold(d, []byte("no-cache")) || bytes.EqualFold(d, []byte("no-store")) {
			return true
		}
	}
	return false
}

// sendMemo writes a 200 (or 304) of an answer found in the memo.
func (s *Server) sendMemo(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, e memoEntry, gz bool) {
	s.m.memoHit.Inc()
	if len(e.link) > 0 {
		setHeader(&ctx.Response.Header, keyLink, e.link)
	}
	if s.sendHeaders(ctx, snap, e.tag, false, gz) {
		ctx.Response.SetBodyRaw(e.body)
	}
}
