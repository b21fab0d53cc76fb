package engine

import (
	"bytes"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
)

// Bound is one end of a date range: unbounded, an instant compared with a gig's start, or
// a calendar date compared with the gig's venue-local date (both ends inclusive).
type Bound struct {
	kind uint8 // 0 none, 1 instant, 2 day
	at   int64 // Unix seconds when kind is 1, rounded down
	ns   int32 // the instant's fraction of a second, in nanoseconds
	day  int32 // days since 1970-01-01 when kind is 2
}

// Unbounded is the zero Bound.
var Unbounded Bound

// AtInstant bounds by an instant.
func AtInstant(t time.Time) Bound { return Bound{kind: 1, at: t.Unix(), ns: int32(t.Nanosecond())} }

// OnDate bounds by a calendar date (its year, month and day; the location is ignored).
func OnDate(t time.Time) Bound {
	y, m, d := t.Date()
	return Bound{kind: 2, day: int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)}
}

// After reports whether a, as the lower bound of a range, lies after b, its upper bound, so
// that the range is empty whatever the venue's UTC offset ("to before from").
func (a Bound) After(b Bound) bool {
	switch {
	case a.kind == 0 || b.kind == 0:
		return false
	case a.kind == 2 && b.kind == 2:
		return a.day > b.day
	case a.kind == 1 && b.kind == 1:
		return a.at > b.at || a.at == b.at && a.ns > b.ns
	case a.kind == 2: // date from, instant to: the date's earliest instant
		return int64(a.day)*86400-maxEast > b.at
	default: // instant from, date to: the date's latest instant
		return a.at >= int64(b.day+1)*86400+maxWest
	}
}

type span struct{ lo, hi int }

// Query is a /gigs query and, after Snapshot.Run, its result. Get one with AcquireQuery and
// return it with ReleaseQuery; a Query must not be used by two goroutines at once.
type Query struct {
	From, To Bound
	Offset   int // number of matching gigs to skip; Run sets it when After was called
	Limit    int // page size

	Total int   // number of matching gigs, set by Run
	Page  []int // positions of the page's gigs, set by Run; pass to Snapshot.GigJSON
	// Dist holds the distance in metres of each of Page's gigs from the point of a near
	// query (see Near), set by Run; empty otherwise.
	Dist []uint32

	keys []byte          // folded filter values, back to back
	vals [numDims][]span // per dimension, spans of keys; OR within, AND across

	afterSet bool   // the page begins after the gig (afterKey, afterID) in sort order
	afterKey int64  // its sort key
	afterID  []byte // its id (copied)

	text        []byte      // the folded text of Search (see words.go)
	toks        []span      // its tokens, in text
	searchWords int         // its words
	wg          []wordGroup // its tokens resolved, by Run
	near        nearQuery   // see Near
	afterMetres uint32      // the keyset's distance, in a query ordered by it
	cand        []candidate // scratch: the points and tiles within the radius (see findNear)
	ring        []candidate // scratch: by distance, the points within it, a heap (see findNear)
	grp         []candidate // scratch: by distance, the points at one distance
	mark        []uint64    // scratch: a bit per point of the snapshot, set for cand's
	merged      []uint32    // scratch of the page by distance
	pair        pairSet     // the members of a pair (see pairMembers)

	it      roaring.IntIterator
	dense   [2][]uint64 // scratch of denseSet
	cum     []int32     // scratch of denseSet
	ids     []uint32    // scratch
	alts    []posting   // scratch
	scratch []byte
}

var queryPool = sync.Pool{New: func() any { return &Query{Page: make([]int, 0, 100)} }}

// AcquireQuery returns an empty Query from a pool.
func AcquireQuery() *Query { return queryPool.Get().(*Query) }

// ReleaseQuery resets q and returns it to the pool; q must not be used afterwards.
func ReleaseQuery(q *Query) {
	q.Reset()
	queryPool.Put(q)
}

// Reset clears q for reuse, keeping its buffers.
func (q *Query) Reset() {
	q.From, q.To, q.Offset, q.Limit, q.Total = Unbounded, Unbounded, 0, 0, 0
	q.Page = q.Page[:0]
	q.keys = q.keys[:0]
	q.afterSet, q.afterID = false, q.afterID[:0]
	q.text, q.toks, q.searchWords, q.wg = q.text[:0], q.toks[:0], 0, q.wg[:0]
	q.near, q.afterMetres, q.Dist = nearQuery{}, 0, q.Dist[:0]
	q.clearNear()
	for d := range q.vals {
		q.vals[d] = q.vals[d][:0]
	}
	// The postings and the iterator point into the snapshot last run: a pooled query
	// must not keep a replaced snapshot's arrays alive.
	clear(q.alts[:cap(q.alts)])
	q.alts = q.alts[:0]
	q.pair = pairSet{}
	q.it = roaring.IntIterator{}
}

// Match adds an alternative value for dimension d: a slug or a name (any case, accents
// optional) or, for DimCountry, an ISO code. Values of one dimension are ORed; dimensions
// are ANDed. value is folded and copied; the caller may reuse it.
func (q *Query) Match(d Dim, value []byte) {
	lo := len(q.keys)
	q.keys = AppendFold(q.keys, value)
	q.vals[d] = append(q.vals[d], span{lo, len(q.keys)})
}

// maxKeysetID bounds the id a keyset token may hold.
const maxKeysetID = 200

// After makes the page begin after the gig a keyset token names (AppendKeyset wrote it),
// in start-then-id order: at the first matching gig after it, whether or not that gig is
// still in the snapshot, so that following a page's next link after a swap neither skips
// nor repeats a gig both snapshots hold. Run then sets Offset to that gig's rank. It
// reports false, leaving q as it was, when token is not a keyset token. It copies token.
// A query by distance (see Near, called first) takes the tokens AppendQueryKeyset
// writes, in distance-then-start-then-id order, and refuses the others.
func (q *Query) After(token []byte) bool {
	var metres uint32
	if q.near.byDistance {
		m, rest, ok := parseMetres(token)
		if !ok {
			return false
		}
		metres, token = m, rest
	}
	num, id, ok := bytes.Cut(token, []byte{'.'})
	neg := len(num) > 0 && num[0] == '-'
	if neg {
		num = num[1:]
	}
	if !ok || len(id) == 0 || len(id) > maxKeysetID || len(num) == 0 || len(num) > 18 {
		return false
	}
	var key int64
	for _, c := range num {
		if c < '0' || c > '9' {
			return false
		}
		key = key*10 + int64(c-'0')
	}
	if neg {
		key = -key
	}
	q.afterSet, q.afterKey, q.afterID = true, key, append(q.afterID[:0], id...)
	q.afterMetres = metres
	return true
}

// AppendKeyset appends the keyset token of the gig at position i: its sort key and id.
func (s *Snapshot) AppendKeyset(dst []byte, i int) []byte {
	dst = strconv.AppendInt(dst, s.keys[i], 10)
	return append(append(dst, '.'), s.ids.key(i)...)
}

// positionAfter returns the first position after the gig with sort key key and id id, in
// the snapshot's order (whether or not that gig is in it).
func (s *Snapshot) positionAfter(key int64, id []byte) int {
	lo, hi := s.search(key), s.search(key+1) // the gigs that start when it does
	return lo + sort.Search(hi-lo, func(k int) bool { return bytes.Compare(s.ids.key(lo+k), id) > 0 })
}

// Run evaluates q against s: q.Total gets the number of matching gigs and q.Page the
// positions of at most q.Limit of them after skipping q.Offset, in start order. Positions
// are in start order, so the bounds are a range of positions: exact for instants, and for
// dates exact but for its edges, the hours where venues on other UTC offsets are already
// (or still) on another day. The matches in the edges are counted from the day table of
// the filter's posting (or of all gigs) where there is one, else by checking the edges'
// gigs one by one. The cost is the filters' work within the range, the edges' lookups or
// matches and the page: the walk stops at the page's end.
func (s *Snapshot) Run(q *Query) {
	q.Total, q.Page, q.Dist = 0, q.Page[:0], q.Dist[:0]
	r := s.positions(q.From, q.To)
	if r.lo >= r.hi {
		return
	}
	if q.near.set {
		q.clearNear()
		if !s.geo.findNear(q) {
			return
		}
		defer s.setDist(q)
		if s.runNearAlone(q, r) {
			return
		}
	}
	m, ok := s.filterSet(q, r.lo, r.hi)
	if !ok {
		return
	}
	c := s.countIn(q, m, r)
	below, core, rankLo := c.below, c.core, c.rankLo
	q.Total = c.total()
	if q.near.byDistance {
		s.pageByDistance(q, m, r)
		return
	}
	if q.afterSet {
		q.Offset = s.matchesBefore(q, m, r, c, s.positionAfter(q.afterKey, q.afterID))
	}
	if q.Offset >= q.Total || q.Limit <= 0 {
		return
	}
	// Start at the first match to show: in the lower edge, or found by rank in the core, or
	// in the upper edge.
	skip, from := q.Offset, c.start
	switch {
	case skip < below:
	case skip < below+core:
		from, skip = m.at(rankLo+skip-below), 0
	default:
		from, skip = r.coreHi, skip-below-core
	}
	want := min(q.Limit, q.Total-q.Offset)
	m.each(q, from, r.hi, func(p int) bool {
		if r.inCore(p) || r.dayOK(s.days[p]) {
			if skip > 0 {
				skip--
			} else {
				q.Page = append(q.Page, p)
			}
		}
		return len(q.Page) < want
	})
}

// rangeCount is what countIn finds of a set of members in a posRange.
type rangeCount struct {
	below, core, above int // the matches below the exact core, in it, and above it
	rankLo             int // the members below the core
	start              int // the first position at which the lower edge's matches may begin
}

func (c rangeCount) total() int { return c.below + c.core + c.above }

// countIn counts the matches of m in r: the core's by rank, the edges' from m's day table
// or one by one.
func (s *Snapshot) countIn(q *Query, m members, r posRange) rangeCount {
	rankLo, rankHi := m.rank(r.coreLo), m.rank(r.coreHi)
	below, above, start, ok := s.edgesByDay(m, r, rankLo, rankHi)
	if !ok {
		below, above, start = s.countEdge(q, m, r, r.lo, r.coreLo), s.countEdge(q, m, r, r.coreHi, r.hi), r.lo
	}
	return rangeCount{below: below, core: rankHi - rankLo, above: above, rankLo: rankLo, start: start}
}

// matchesBefore counts the matches of m in r before position p (a keyset's): in the lower
// edge, the core or the upper; c is what countIn found of m in r.
func (s *Snapshot) matchesBefore(q *Query, m members, r posRange, c rangeCount, p int) int {
	switch {
	case p <= r.lo:
		return 0
	case p < r.coreLo:
		return s.countEdge(q, m, r, r.lo, p)
	case p <= r.coreHi:
		return c.below + m.rank(p) - c.rankLo
	case p < r.hi:
		return c.below + c.core + s.countEdge(q, m, r, r.coreHi, p)
	}
	return c.total()
}

// edgesByDay counts the matches of m in r's edges from m's day table: every member whose
// day is before the range's first lies below its core, and every member whose day is after
// its last above it, so the lower edge's matches are the members below the core less those
// of earlier days, and the upper edge's likewise. It also returns the first member on or
// after the range's first day, where the lower edge's matches begin. ok is false when m
// has no day table, a date lies beyond the table's window, or the range is too short to
// have a core. rankLo and rankHi are the members below r's core and below its end.
func (s *Snapshot) edgesByDay(m members, r posRange, rankLo, rankHi int) (below, above, start int, ok bool) {
	if !m.days.ok() || !r.exact {
		return 0, 0, 0, false
	}
	start = r.lo
	if r.fromDay != noFromDay { // a date bound
		k, in := s.dayAt(r.fromDay)
		if !in {
			return 0, 0, 0, false
		}
		below = rankLo - int(m.days.cum[k])
		start = max(start, int(m.days.first[k]))
	}
	if r.toDay != noToDay {
		k, in := s.dayAt(r.toDay + 1)
		if !in {
			return 0, 0, 0, false
		}
		above = int(m.days.cum[k]) - rankHi
	}
	return below, above, start, true
}

// countEdge counts the members of m in [lo, hi), an edge of r, whose day r admits.
func (s *Snapshot) countEdge(q *Query, m members, r posRange, lo, hi int) int {
	n := 0
	switch {
	case lo >= hi:
	case m.all: // a tight loop: an edge holds a day's gigs or so
		for _, d := range s.days[lo:hi] {
			if r.dayOK(d) {
				n++
			}
		}
	default:
		m.each(q, lo, hi, func(p int) bool {
			if r.dayOK(s.days[p]) {
				n++
			}
			return true
		})
	}
	return n
}

// members is the set of positions Run pages through: every position (when nothing
// filters), a bitmap, a sorted list, or a dense set.
type members struct {
	bm    *roaring.Bitmap
	list  []uint32
	all   bool
	words []uint64 // a dense set of the positions in [lo, hi) (see denseSet)
	cum   []int32  // the dense set's members before each block of 1,024 words from lo's
	lo    int
	hi    int
	days  dayTable // of bm or of all, when the snapshot keeps one
	pair  *pairSet // a pair's members (see pairMembers)
}

// rank returns the number of members below x.
func (m members) rank(x int) int {
	switch {
	case m.pair != nil:
		return m.pair.rank(x)
	case m.all:
		return x
	case m.words != nil:
		return m.denseRank(min(max(x, m.lo), m.hi))
	case m.bm != nil:
		return rankBelow(m.bm, x)
	default:
		return rankList(m.list, x)
	}
}

// at returns the member of rank k, which must exist.
func (m members) at(k int) int {
	switch {
	case m.pair != nil:
		return m.pair.at(k)
	case m.all:
		return k
	case m.words != nil:
		return m.denseAt(k)
	case m.bm != nil:
		x, _ := m.bm.Select(uint32(k))
		return int(x)
	default:
		return int(m.list[k])
	}
}

// each calls f on the members in [from, hi) in order, until f returns false. It uses q's
// iterator.
func (m members) each(q *Query, from, hi int, f func(p int) bool) {
	switch {
	case m.pair != nil:
		m.pair.each(from, hi, f)
	case m.all:
		for p := from; p < hi && f(p); p++ {
		}
	case m.words != nil:
		m.denseEach(from, hi, f)
	case m.bm != nil:
		q.it.Initialize(m.bm)
		q.it.AdvanceIfNeeded(uint32(from))
		for q.it.HasNext() {
			if p := int(q.it.Next()); p >= hi || !f(p) {
				return
			}
		}
	default:
		for _, x := range m.list[rankList(m.list, from):] {
			if int(x) >= hi || !f(int(x)) {
				return
			}
		}
	}
}

// rankBelow returns the number of elements of b below x.
func rankBelow(b *roaring.Bitmap, x int) int {
	if x <= 0 {
		return 0
	}
	return int(b.Rank(uint32(x - 1)))
}

// posRange is where a query's bounds put its gigs: every match is in [lo, hi), every gig
// in [coreLo, coreHi) matches the bounds, and a gig in the edges between matches when its
// venue-local day is within [fromDay, toDay]. exact says that the edges did not overlap:
// every gig below coreHi is on or before the last day, and every gig from coreLo on is on
// or after the first.
type posRange struct {
	lo, coreLo, coreHi, hi int
	fromDay, toDay         int32
	exact                  bool
}

func (r *posRange) inCore(p int) bool { return p >= r.coreLo && p < r.coreHi }

func (r *posRange) dayOK(d int32) bool { return d >= r.fromDay && d <= r.toDay }

// A posRange's fromDay and toDay when that bound is not a date.
const (
	noFromDay = math.MinInt32
	noToDay   = math.MaxInt32
)

// positions turns the bounds into a position range. A date bound lets in the instants at
// which its day has begun (or not ended) somewhere on Earth, and its core starts (ends)
// where the day has begun (ended) everywhere.
func (s *Snapshot) positions(from, to Bound) posRange {
	r := posRange{lo: 0, hi: len(s.keys), fromDay: noFromDay, toDay: noToDay}
	switch from.kind {
	case 1: // starts are whole seconds: a start at or after 19:00:00.5 is at or after 19:00:01
		if from.ns > 0 {
			r.lo = s.search(from.at + 1)
		} else {
			r.lo = s.search(from.at)
		}
	case 2:
		r.lo = s.search(int64(from.day)*86400 - maxEast)
		r.fromDay = from.day
	}
	r.coreLo = r.lo
	if from.kind == 2 {
		r.coreLo = s.search(int64(from.day)*86400 + maxWest)
	}
	switch to.kind {
	case 1:
		r.hi = s.search(to.at + 1)
	case 2:
		r.hi = s.search(int64(to.day+1)*86400 + maxWest)
		r.toDay = to.day
	}
	r.coreHi = r.hi
	if to.kind == 2 {
		r.coreHi = s.search(int64(to.day+1)*86400 - maxEast)
	}
	// The edges may overlap (a range of a day or two): then there is no core, and every
	// gig of the range is checked.
	r.exact = r.coreLo <= r.coreHi
	r.coreLo, r.coreHi = min(max(r.coreLo, r.lo), r.hi), max(min(r.coreHi, r.hi), r.lo)
	if r.coreLo > r.coreHi {
		r.coreLo, r.coreHi = r.hi, r.hi
	}
	return r
}

// search returns the first position whose sort key is at least t: within the hour of t
// that hourAt gives, or, beyond the hours it covers, among the rest.
func (s *Snapshot) search(t int64) int {
	if len(s.keys) == 0 || t <= s.keys[0] {
		return 0
	}
	lo, hi := 0, len(s.keys)
	if h := (t - s.hourBase*3600) / 3600; h+1 < int64(len(s.hourAt)) {
		lo, hi = int(s.hourAt[h]), int(s.hourAt[h+1])
	} else if len(s.hourAt) > 0 {
		lo = int(s.hourAt[len(s.hourAt)-1])
	}
	return lo + sort.Search(hi-lo, func(i int) bool { return s.keys[lo+i] >= t })
}

// indexHours sets hourAt: for each hour from the first gig's on, over at most the day
// tables' window, the first position whose key is in that hour or later.
func (s *Snapshot) indexHours() {
	s.hourAt = nil
	if len(s.keys) == 0 {
		return
	}
	s.hourBase = s.keys[0] / 3600
	if s.keys[0] < 0 {
		s.hourBase = (s.keys[0] - 3599) / 3600
	}
	hours := min((s.keys[len(s.keys)-1]/3600-s.hourBase)+2, maxDayWindow*24)
	s.hourAt = make([]uint32, hours)
	p := 0
	for h := range s.hourAt {
		start := (s.hourBase + int64(h)) * 3600
		for p < len(s.keys) && s.keys[p] < start {
			p++
		}
		s.hourAt[h] = uint32(p)
	}
}

// group is one filtered dimension (or, when word > 0, the search token q.wg[word-1])
// during evaluation and the sum of its alternatives' cardinalities, an upper bound of the
// group's size.
type group struct {
	d    Dim
	word int
	est  uint64
}

// alts returns the number of g's alternatives (postings, of which a position must be in one).
func (s *Snapshot) alts(q *Query, g group) int {
	switch {
	case g.word > 0:
		return q.wg[g.word-1].alts()
	case g.d == dimNear:
		return len(q.cand)
	}
	return len(q.vals[g.d])
}

// alt returns g's i-th alternative; ok is false when it matches nothing.
func (s *Snapshot) alt(q *Query, g group, i int) (posting, bool) {
	switch {
	case g.word > 0:
		return s.words.posting(&q.wg[g.word-1], i), true
	case g.d == dimNear:
		if c := q.cand[i]; c.tile {
			return s.geo.tilePosting(int(c.point)), true
		}
		return s.geo.post.posting(int(q.cand[i].point)), true
	}
	return s.posting(q, g.d, i)
}

// probeCheaper estimates, in about nanoseconds, what probeSet and denseSet would cost and
// reports whether probing is cheaper; among lists alone, it probes, as it always did (the
// two cost about the same). Probing costs a lookup in a bitmap (ten nanoseconds
// or so) per probed position, and per list a step per position probed and listed, walked
// alongside; a dense set costs a pass over the range's words per bitmap and a bit set per
// listed position. (A city of 1,827 gigs at 10k: with a title on 923 gigs, cheaper
// probed; with a prefix on 5,000, 18 µs probed and 6 as words.)
func (s *Snapshot) probeCheaper(q *Query, groups []group, lo, hi int) bool {
	ids, words := groups[0].est, uint64(hi-lo)/64+1
	probe, dense, bitmaps := uint64(0), 2*ids, false
	for _, g := range groups[1:] {
		for i := range s.alts(q, g) {
			switch p, ok := s.alt(q, g, i); {
			case !ok:
			case p.bm != nil:
				probe, dense, bitmaps = probe+8*ids, dense+words, true
			default:
				probe, dense = probe+2*ids+uint64(len(p.list)), dense+2*uint64(len(p.list))
			}
		}
	}
	return !bitmaps || probe <= dense
}

// filterSet returns the positions that pass q's filters (they may include positions
// outside [lo, hi), which Run leaves out). ok is false when a filter cannot match anything.
// When the smallest group is a few positions, and the others are lists or it is sparse in
// the range, they are probed in the others' postings; otherwise the groups are
// intersected as words. Published postings are only read.
func (s *Snapshot) filterSet(q *Query, lo, hi int) (m members, ok bool) {
	var groups [numDims + 1 + maxSearchTokens]group // the dimensions, near, the search's tokens
	n := 0
	add := func(g group) { // insertion sort by est
		if g.est == uint64(len(s.keys)) && s.alts(q, g) == 1 {
			return // one posting of every position ("hall" where every venue is a Hall) filters nothing
		}
		i := n
		for ; i > 0 && groups[i-1].est > g.est; i-- {
			groups[i] = groups[i-1]
		}
		groups[i] = g
		n++
	}
	for d := range dimNear + 1 {
		g := group{d: d}
		if s.alts(q, g) == 0 {
			continue
		}
		for i := range s.alts(q, g) {
			if p, ok := s.alt(q, g, i); ok {
				g.est += p.card()
			}
		}
		if g.est == 0 {
			return members{}, false
		}
		add(g)
	}
	if len(q.toks) > 0 {
		if !s.resolveWords(q) {
			return members{}, false
		}
		for k := range q.wg {
			add(group{word: k + 1, est: q.wg[k].est})
		}
	}
	if n == 0 {
		return members{all: true, days: s.allDays}, true
	}
	if n == 1 && s.alts(q, groups[0]) == 1 {
		p, _ := s.alt(q, groups[0], 0) // published, only read
		return members{bm: p.bm, list: p.list, days: p.days}, true
	}
	if n == 2 { // a frequent word and a large posting: counted once per snapshot
		if m, ok := s.pairMembers(q, groups[0], groups[1]); ok {
			return m, m.pair.total() > 0
		}
	}
	// The points near a place are many small postings: gathered and sorted, they cost
	// more than setting their bits.
	near := groups[0].word == 0 && groups[0].d == dimNear
	if groups[0].est < bigPosting && (!near || s.alts(q, groups[0]) <= maxProbedPoints) && s.probeCheaper(q, groups[:n], lo, hi) {
		return s.probeSet(q, groups[:n], lo, hi)
	}
	return s.denseSet(q, groups[:n], lo, hi)
}

// probeSet filters when the smallest group is of lists alone, fewer positions than
// bigPosting: its positions in [lo, hi) are gathered in q.ids, then each other group keeps
// those of its alternatives' positions, found by walking their lists alongside (or asking
// their bitmaps), in place, so that nothing is allocated once the scratch has grown.
func (s *Snapshot) probeSet(q *Query, groups []group, lo, hi int) (members, bool) {
	g := groups[0]
	q.ids = q.ids[:0]
	for i := range s.alts(q, g) {
		if p, ok := s.alt(q, g, i); ok {
			q.ids = append(q.ids, p.list[rankList(p.list, lo):rankList(p.list, hi)]...)
		}
	}
	if s.alts(q, g) > 1 {
		slices.Sort(q.ids)
		q.ids = slices.Compact(q.ids)
	}
	for _, g := range groups[1:] {
		if g.word == 0 && g.d == dimNear { // a bit per point rather than a walk of every point's list
			kept := q.ids[:0]
			for _, x := range q.ids {
				if s.nearMarked(q, x) {
					kept = append(kept, x)
				}
			}
			q.ids = kept
			continue
		}
		q.alts = q.alts[:0]
		for i := range s.alts(q, g) {
			if p, ok := s.alt(q, g, i); ok {
				q.alts = append(q.alts, p)
			}
		}
		q.ids = intersectAny(q.ids, q.alts)
	}
	return members{list: q.ids}, len(q.ids) > 0
}

// posting returns the published posting of the i-th value of dimension d; ok is false when
// no gig matches the value.
func (s *Snapshot) posting(q *Query, d Dim, i int) (posting, bool) {
	v := q.vals[d][i]
	return s.index[d].lookupBytes(q.keys[v.lo:v.hi])
}

// VenueItem returns the directory entry of venue i, 0 <= i < Counts().Venues.
func (s *Snapshot) VenueItem(i int) []byte {
	return s.venueItems[s.venueOff[i]:s.venueOff[i+1]:s.venueOff[i+1]]
}

// FilterVenues sets q.Page to every venue (indices for VenueItem, in slug order) matching
// q's DimCity and DimCountry values and q.Total to their number: RunDirectory of
// DirVenues, unpaged.
func (s *Snapshot) FilterVenues(q *Query) {
	q.Offset, q.Limit = 0, s.dirs[DirVenues].entries()
	s.RunDirectory(DirVenues, q)
}
