package loader

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Merging: the records that list one concert become one gig.
//
// Candidates are records at one venue whose venue-local dates agree, or lie a day apart
// when one of them has no time or starts within a few hours of midnight, or where one was
// rescheduled from the other's date. A candidate pair matches when
//   - the records come from different sources, and both or neither announce a tribute act;
//   - a name key of one (headliner or title headliner) equals one of the other's, or, for
//     keys of six letters or more, they are one typo apart (two over ten letters), carry
//     the same digits and neither is the other with letters added (Daughter, Daughters),
//     and both starts are known and within 15 minutes;
//   - their starts are within 90 minutes (a platform may list the doors), or one was
//     rescheduled from the other's start, or one has no time and the dates agree as above,
//     or both start at one clock time after midnight a day apart (one lists the show under
//     the evening before). That last rule cannot tell a club night so misdated from the
//     same act on two nights when each source lists only one of them; best-first matching
//     keeps the nights apart whenever a source lists both.
//
// Matches are taken best first (exact names before typos, then the closest times) and
// join clusters that never hold two records of one source, so early and late shows, and
// near-names, stay apart when the sources list both.
//
// A venue site's record at another venue than its own (RoleGuest) is matched after every
// other pair, never joins two clusters that hold other records, and is left out of a gig
// that has any other record, and out of everything when it matched another role's record:
// it cannot cancel, move, join, split, double or add tickets to another venue's gig. Alone
// it makes a gig, as a platform's record would; a gig of guests alone is one guest's record
// (guestRank's leader), the others confirming it and adding nothing. How a cluster becomes
// a gig: assemble.go.

const (
	slack        = 90 * time.Minute // starts this close may be one show (doors versus show)
	typoSlack    = 15 * time.Minute // starts must be this close for names a typo apart
	nearMidnight = 3 * time.Hour    // a start this close to midnight may be dated either side
)

// pair is a candidate match with its score: higher is better.
type pair struct {
	a, b  int32
	score int64
}

// clusters returns the record indices of every gig, each cluster in record order and the
// clusters in the order of their first record. Guest records (RoleGuest) are left out of a
// gig with records of other roles, and a guest that matched such a record is left out
// altogether: it neither joins, splits nor doubles another venue's gig. Of a gig of guests
// alone, only the leader (guestRank) is kept.
func (n *normalizer) clusters() [][]int32 {
	buckets := make(map[uint64][]int32, len(n.recs))
	for i := range n.recs {
		r := &n.recs[i]
		k := bucket(r.venue, r.day)
		buckets[k] = append(buckets[k], int32(i))
	}
	var pairs []pair
	var days []int32
	for i := range n.recs {
		r := &n.recs[i]
		days = r.candidateDays(days[:0])
		for _, d := range days {
			for _, j := range buckets[bucket(r.venue, d)] {
				if j == int32(i) || d == r.day && j < int32(i) {
					continue // same-day pairs are seen from their first record only
				}
				if s, ok := match(r, &n.recs[j]); ok {
					pairs = append(pairs, pair{int32(i), j, s})
				}
			}
		}
	}
	// Pairs of records that speak for their venue are taken first, best first; then the
	// pairs with a guest (see RoleGuest), which may join a guest to a gig but never join
	// two gigs that others list, nor keep records of others apart.
	guest := func(p pair) bool { return n.recs[p.a].role == RoleGuest || n.recs[p.b].role == RoleGuest }
	slices.SortFunc(pairs, func(x, y pair) int {
		return cmp.Or(cmpBool(guest(x), guest(y)), cmp.Compare(y.score, x.score), cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})

	parent := make([]int32, len(n.recs))
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	srcs := map[int32][]int32{} // root of a cluster of two or more → its sources
	sourcesOf := func(root int32) []int32 {
		if s, ok := srcs[root]; ok {
			return s
		}
		return []int32{n.recs[root].src}
	}
	hosted := make([]bool, len(n.recs)) // by root: the cluster holds a record that is no guest
	for i := range n.recs {
		hosted[i] = n.recs[i].role != RoleGuest
	}
	for _, p := range pairs {
		ra, rb := find(p.a), find(p.b)
		if ra == rb || hosted[ra] && hosted[rb] && guest(p) {
			continue
		}
		sa, sb := sourcesOf(ra), sourcesOf(rb)
		if slices.ContainsFunc(sa, func(s int32) bool { return slices.Contains(sb, s) }) {
			continue
		}
		if rb < ra {
			ra, rb = rb, ra
		}
		parent[rb] = ra
		hosted[ra] = hosted[ra] || hosted[rb]
		srcs[ra] = append(sa[:len(sa):len(sa)], sb...)
		delete(srcs, rb)
	}
	// A guest that matched a record of another role is heard nowhere: not in that gig,
	// and not as a gig of its own beside it.
	matchedHost := make([]bool, len(n.recs)) // by guest record
	for _, p := range pairs {
		ga, gb := n.recs[p.a].role == RoleGuest, n.recs[p.b].role == RoleGuest
		matchedHost[p.a] = matchedHost[p.a] || ga && !gb
		matchedHost[p.b] = matchedHost[p.b] || gb && !ga
	}
	// A gig of guests alone is its lead guest's (see leadGuest): the others confirm it and
	// add nothing.
	lead := map[int32]int32{} // root of a cluster of guests alone → its lead
	rank := n.guestRank()
	for i := range n.recs {
		root := find(int32(i))
		if hosted[root] || matchedHost[i] {
			continue
		}
		if l, ok := lead[root]; !ok || rank(int32(i), l) < 0 {
			lead[root] = int32(i)
		}
	}
	var out [][]int32
	at := map[int32]int{} // root → index in out
	for i := range n.recs {
		root := find(int32(i))
		if n.recs[i].role == RoleGuest && (hosted[root] || matchedHost[i] || lead[root] != int32(i)) {
			continue
		}
		k, ok := at[root]
		if !ok {
			k = len(out)
			at[root] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], int32(i))
	}
	return out
}

// guestRank orders the guest records that list one gig and nothing else does, leader
// first: no site speaks for that venue, so the gig is one site's word, never a blend in
// which one site adds its tickets, status, times or credit to another's listing. The
// leader is the record whose source lists the largest share of its events at that venue
// (the venue's own site, unhinted, lists little else; a site listing another venue's show
// among its own lists it as a small share), then the source named first in byte order, so
// that neither the order of the sources nor of their records decides.
func (n *normalizer) guestRank() func(a, b int32) int {
	total := map[int32]int64{}
	atVenue := map[[2]int32]int64{} // source, venue → records
	for i := range n.recs {
		r := &n.recs[i]
		total[r.src]++
		atVenue[[2]int32{r.src, r.venue}]++
	}
	return func(a, b int32) int {
		ra, rb := &n.recs[a], &n.recs[b]
		// shares compared as atVenue/total, cross-multiplied
		sa := atVenue[[2]int32{ra.src, ra.venue}] * total[rb.src]
		sb := atVenue[[2]int32{rb.src, rb.venue}] * total[ra.src]
		return cmp.Or(cmp.Compare(sb, sa), strings.Compare(ra.ev.Source, rb.ev.Source), cmp.Compare(a, b))
	}
}

// cmpBool orders false before true.
func cmpBool(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

func bucket(venue, day int32) uint64 { return uint64(uint32(venue))<<32 | uint64(uint32(day)) }

// candidateDays appends the venue-local days whose records may list the same concert.
func (r *record) candidateDays(days []int32) []int32 {
	days = append(days, r.day)
	local := sinceMidnight(r.start)
	if r.tba || local < nearMidnight {
		days = append(days, r.day-1)
	}
	if r.tba || local >= 24*time.Hour-nearMidnight {
		days = append(days, r.day+1)
	}
	if !r.prev.IsZero() {
		if d := localDay(r.prev); !slices.Contains(days, d) {
			days = append(days, d)
		}
	}
	return days
}

// match scores two records of one venue as listings of one concert.
func match(a, b *record) (int64, bool) {
	if a.src == b.src || a.tribute != b.tribute {
		return 0, false
	}
	exact := false
	for _, x := range a.keys {
		exact = exact || x != "" && (x == b.keys[0] || x == b.keys[1])
	}
	gap, ok := timeGap(a, b)
	if !ok || !exact && (a.tba || b.tba || gap > typoSlack || !typoApart(a.keys[0], b.keys[0])) {
		return 0, false
	}
	score := int64(1<<40) - int64(gap/time.Second)
	if exact {
		score += 1 << 41
	}
	return score, true
}

// timeGap says how far apart two records' starts are, and whether they can be one show.
func timeGap(a, b *record) (time.Duration, bool) {
	if !a.tba && !b.tba {
		gap := absDur(a.start.Sub(b.start))
		if !a.prev.IsZero() {
			gap = min(gap, absDur(a.prev.Sub(b.start)))
		}
		if !b.prev.IsZero() {
			gap = min(gap, absDur(b.prev.Sub(a.start)))
		}
		if datedToEveningBefore(a, b) || datedToEveningBefore(b, a) {
			gap = min(gap, slack) // a match, but after those of times that agree
		}
		return gap, gap <= slack
	}
	// At least one has no time: compare dates, with a day's grace near midnight.
	if a.day == b.day || !a.prev.IsZero() && localDay(a.prev) == b.day || !b.prev.IsZero() && localDay(b.prev) == a.day {
		return slack, true
	}
	if a.tba && b.tba || a.day-b.day > 1 || b.day-a.day > 1 {
		return 0, false
	}
	known := a
	if a.tba {
		known = b
	}
	local := sinceMidnight(known.start)
	return 2 * slack, local < nearMidnight || local >= 24*time.Hour-nearMidnight
}

// datedToEveningBefore reports whether a may list the show b lists after midnight, dated to
// the evening before as club nights often are: the same clock, a day earlier.
func datedToEveningBefore(a, b *record) bool {
	return !a.tba && !b.tba && a.day == b.day-1 && sinceMidnight(b.start) < nearMidnight &&
		sinceMidnight(a.start) == sinceMidnight(b.start)
}

// sinceMidnight is the wall-clock time of t as a duration: 01:30 is 90 minutes, also on
// a day the clocks change.
func sinceMidnight(t time.Time) time.Duration {
	h, m, sec := t.Clock()
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// typoApart reports whether two name keys differ by a typo: see the package comment above.
func typoApart(x, y string) bool {
	nx, ny := utf8.RuneCountInString(x), utf8.RuneCountInString(y)
	if nx < 6 || ny < 6 || strings.HasPrefix(x, y) || strings.HasPrefix(y, x) || digits(x) != digits(y) {
		return false
	}
	limit := 1
	if max(nx, ny) > 10 {
		limit = 2
	}
	return editDistance([]rune(x), []rune(y), limit) <= limit
}

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if '0' <= r && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// editDistance is the optimal string alignment distance of a and b (insertions, deletions,
// substitutions and swaps of neighbours), or limit+1 when it exceeds limit.
func editDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
