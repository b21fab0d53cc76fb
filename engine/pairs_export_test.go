package engine

import "time"

// PairCounted reports whether q, after Run, was counted from its pair's counts (pairs.go).
func PairCounted(q *Query) bool { return q.pair.bits != nil }

// CapPairs makes the snapshots built until restore is called count the pairs of as many
// dense copies as s counts in the bytes of one (see pairBudget), and reports how many s counts.
func CapPairs(s *Snapshot) (counted int, restore func()) {
	old, c := pairBudget, s.pairs.Load()
	pairBudget = 4 * c.views * (c.blocks + 1)
	return c.copies, func() { pairBudget = old }
}

// PairCopies reports how many dense copies s counts pairs of.
func PairCopies(s *Snapshot) int { return s.pairs.Load().copies }

// AwaitPairs waits until s, read from its file, has counted its pairs (completeRead).
func AwaitPairs(s *Snapshot) {
	for s.pairs.Load() == nil {
		time.Sleep(time.Millisecond)
	}
}

// DropPairs makes s, read from its file, a snapshot whose pairs are not counted yet: it
// waits until they are, so that they are not set again, and clears them.
func DropPairs(s *Snapshot) {
	AwaitPairs(s)
	s.pairs.Store(nil)
}
