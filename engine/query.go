package engine

import (
	"sort"
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
	Offset   int // number of matching gigs to skip
	Limit    int // page size

	Total int   // number of matching gigs, set by Run
	Page  []int // positions of the page's gigs, set by Run; pass to Snapshot.GigJSON

	keys []byte          // folded filter values, back to back
	vals [numDims][]span // per dimension, spans of keys; OR within, AND across

	acc, tmp, part roaring.Bitmap // scratch, owned by the query
	it             roaring.IntIterator
	ids            []uint32          // scratch
	bms            []*roaring.Bitmap // scratch
	scratch        []byte
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
	for d := range q.vals {
		q.vals[d] = q.vals[d][:0]
	}
	q.acc.Clear()
	q.tmp.Clear()
	q.part.Clear()
}

// Match adds an alternative value for dimension d: a slug or a name (any case, accents
// optional) or, for DimCountry, an ISO code. Values of one dimension are ORed; dimensions
// are ANDed. value is folded and copied; the caller may reuse it.
func (q *Query) Match(d Dim, value []byte) {
	lo := len(q.keys)
	q.keys = AppendFold(q.keys, value)
	q.vals[d] = append(q.vals[d], span{lo, len(q.keys)})
}

// Run evaluates q against s: q.Total gets the number of matching gigs and q.Page the
// positions of at most q.Limit of them after skipping q.Offset, in start order. The cost is
// the bitmap work plus the page; gigs outside the page are not visited.
func (s *Snapshot) Run(q *Query) {
	q.Total, q.Page = 0, q.Page[:0]
	lo, hi, excl := s.positions(q.From, q.To)
	if lo >= hi {
		return
	}
	set, ok := s.filterSet(q, lo, hi, excl)
	if !ok {
		return
	}
	if set == nil { // no filter: the range is the set
		q.Total = hi - lo
		for p := lo + q.Offset; p < hi && len(q.Page) < q.Limit; p++ {
			q.Page = append(q.Page, p)
		}
		return
	}
	before := rankBelow(set, lo)
	q.Total = rankBelow(set, hi) - before
	if q.Offset >= q.Total || q.Limit <= 0 {
		return
	}
	first, err := set.Select(uint32(before + q.Offset))
	if err != nil {
		return
	}
	q.it.Initialize(set)
	q.it.AdvanceIfNeeded(first)
	for n := min(q.Limit, q.Total-q.Offset); n > 0 && q.it.HasNext(); n-- {
		q.Page = append(q.Page, int(q.it.Next()))
	}
}

// rankBelow returns the number of elements of b below x.
func rankBelow(b *roaring.Bitmap, x int) int {
	if x <= 0 {
		return 0
	}
	return int(b.Rank(uint32(x - 1)))
}

// positions turns the bounds into the position range [lo, hi) that holds every matching
// gig, and the venue-local days whose gigs in that range must be excluded: a date bound
// widens the range by the spread of UTC offsets, and the days it let in are cut off again.
func (s *Snapshot) positions(from, to Bound) (lo, hi int, excl [4]int32) {
	lo, hi = 0, len(s.keys)
	excl = [4]int32{-1 << 31, -1 << 31, -1 << 31, -1 << 31}
	switch from.kind {
	case 1: // starts are whole seconds: a start at or after 19:00:00.5 is at or after 19:00:01
		if from.ns > 0 {
			lo = s.search(from.at + 1)
		} else {
			lo = s.search(from.at)
		}
	case 2:
		lo = s.search(int64(from.day)*86400 - maxEast)
		excl[0], excl[1] = from.day-2, from.day-1
	}
	switch to.kind {
	case 1:
		hi = s.search(to.at + 1)
	case 2:
		hi = s.search(int64(to.day+1)*86400 + maxWest)
		excl[2], excl[3] = to.day+1, to.day+2
	}
	return lo, hi, excl
}

// search returns the first position whose sort key is at least t.
func (s *Snapshot) search(t int64) int {
	return sort.Search(len(s.keys), func(i int) bool { return s.keys[i] >= t })
}

func (s *Snapshot) dayBitmap(d int32) *roaring.Bitmap {
	i := int(d) - int(s.firstDay)
	if d == -1<<31 || i < 0 || i >= len(s.days) {
		return nil
	}
	return s.days[i]
}

// group is one filtered dimension during evaluation: its alternatives' bitmaps and the sum
// of their cardinalities, an upper bound of the group's size.
type group struct {
	d   Dim
	est uint64
}

// filterSet returns the bitmap of positions that pass q's filters and excluded days (it may
// hold positions outside [lo, hi), which Run cuts off by rank); nil when nothing filters.
// ok is false when a filter cannot match anything. Groups are applied smallest first, so the
// working set shrinks early; the scratch bitmaps are q's own and published bitmaps are only
// read.
func (s *Snapshot) filterSet(q *Query, lo, hi int, excl [4]int32) (set *roaring.Bitmap, ok bool) {
	var groups [numDims]group
	n := 0
	for d := range q.vals {
		if len(q.vals[d]) == 0 {
			continue
		}
		g := group{d: Dim(d)}
		for _, v := range q.vals[d] {
			if b := s.index[d][string(q.keys[v.lo:v.hi])]; b != nil {
				g.est += b.GetCardinality()
			}
		}
		if g.est == 0 {
			return nil, false
		}
		// insertion sort by est
		i := n
		for ; i > 0 && groups[i-1].est > g.est; i-- {
			groups[i] = groups[i-1]
		}
		groups[i] = g
		n++
	}
	hasExcl := false
	for _, d := range excl {
		hasExcl = hasExcl || s.dayBitmap(d) != nil
	}
	if n == 0 && !hasExcl {
		return nil, true
	}
	if n == 1 && !hasExcl && len(q.vals[groups[0].d]) == 1 {
		return s.bitmap(q, groups[0].d, 0), true // published bitmap, only read
	}
	acc := &q.acc
	acc.Clear()
	first := 0
	// A range is a cheap run container: start from it unless a group is much smaller.
	if n == 0 || groups[0].est*8 > uint64(hi-lo) {
		acc.AddRange(uint64(lo), uint64(hi))
	} else {
		if g := groups[0]; g.est >= largeUnion && len(q.vals[g.d]) > 1 {
			*acc = *s.union(q, g.d)
		} else {
			for i := range q.vals[g.d] {
				if b := s.bitmap(q, g.d, i); b != nil {
					acc.Or(b) // copies b's containers
				}
			}
		}
		first = 1
	}
	for _, g := range groups[first:n] {
		s.andGroup(q, g)
	}
	for _, d := range excl {
		if b := s.dayBitmap(d); b != nil {
			q.acc.AndNot(b)
		}
	}
	return &q.acc, !q.acc.IsEmpty()
}

// bitmap returns the published bitmap of the i-th value of dimension d, or nil.
func (s *Snapshot) bitmap(q *Query, d Dim, i int) *roaring.Bitmap {
	v := q.vals[d][i]
	return s.index[d][string(q.keys[v.lo:v.hi])]
}

// andGroup intersects q.acc with the union of a group's alternatives. A union larger than
// the working set is never built.
func (s *Snapshot) andGroup(q *Query, g group) {
	vals := q.vals[g.d]
	if len(vals) == 1 {
		q.acc.And(s.bitmap(q, g.d, 0)) // reads its argument only
		return
	}
	if g.est >= largeUnion {
		q.acc.And(s.union(q, g.d))
		return
	}
	card := q.acc.GetCardinality()
	if card*32 < g.est {
		// A few survivors against large alternatives: probe each survivor.
		q.ids = q.ids[:0]
		q.it.Initialize(&q.acc)
		for q.it.HasNext() {
			x := q.it.Next()
			for i := range vals {
				if b := s.bitmap(q, g.d, i); b != nil && b.Contains(x) {
					q.ids = append(q.ids, x)
					break
				}
			}
		}
		q.acc.Clear()
		q.acc.AddMany(q.ids)
		return
	}
	q.tmp.Clear()
	if g.est <= card {
		for i := range vals {
			if b := s.bitmap(q, g.d, i); b != nil {
				q.tmp.Or(b)
			}
		}
		q.acc.And(&q.tmp)
		return
	}
	// acc ∩ (v1 ∪ v2 ∪ …) = acc \ (((acc \ v1) \ v2) \ …): one copy of the small working
	// set, then differences in place, instead of a union of large bitmaps.
	q.part.Clear()
	q.part.Or(&q.acc)
	for i := range vals {
		if b := s.bitmap(q, g.d, i); b != nil {
			q.part.AndNot(b)
		}
	}
	q.acc.AndNot(&q.part)
}

// largeUnion is the size from which an OR group is united with roaring.FastOr: its lazy,
// word-wise union beats merging arrays once the alternatives span many containers (at 1M
// gigs a 4-filter query with OR lists took 0.33 ms instead of 0.9 ms), and loses below.
const largeUnion = 1 << 16

// union returns a new bitmap uniting the alternatives of dimension d.
func (s *Snapshot) union(q *Query, d Dim) *roaring.Bitmap {
	q.bms = q.bms[:0]
	for i := range q.vals[d] {
		if b := s.bitmap(q, d, i); b != nil {
			q.bms = append(q.bms, b)
		}
	}
	return roaring.FastOr(q.bms...) // reads its arguments only
}

// VenueItem returns the directory entry of venue i, 0 <= i < Counts().Venues.
func (s *Snapshot) VenueItem(i int) []byte { return s.venueItems[i] }

// FilterVenues sets q.Page to the venues (indices for VenueItem, in slug order) matching
// q's DimCity and DimCountry values and q.Total to their number; other dimensions, bounds
// and paging are ignored.
func (s *Snapshot) FilterVenues(q *Query) {
	q.Total, q.Page = 0, q.Page[:0]
	acc := &q.acc
	acc.Clear()
	acc.AddRange(0, uint64(len(s.venueItems)))
	for _, d := range [...]Dim{DimCity, DimCountry} {
		if len(q.vals[d]) == 0 {
			continue
		}
		prefix := "city:"
		if d == DimCountry {
			prefix = "country:"
		}
		q.tmp.Clear()
		for _, v := range q.vals[d] {
			q.scratch = append(append(q.scratch[:0], prefix...), q.keys[v.lo:v.hi]...)
			if b := s.venueIndex[string(q.scratch)]; b != nil {
				q.tmp.Or(b)
			}
		}
		acc.And(&q.tmp)
	}
	q.it.Initialize(acc)
	for q.it.HasNext() {
		q.Page = append(q.Page, int(q.it.Next()))
	}
	q.Total = len(q.Page)
}
