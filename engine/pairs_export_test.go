package engine

// PairCounted reports whether q, after Run, was counted from its pair's counts (pairs.go).
func PairCounted(q *Query) bool { return q.pair.bits != nil }

// CapPairs makes the snapshots built until restore is called count the pairs of as many
// dense copies as s counts in the bytes of one (see pairBudget), and reports how many s counts.
func CapPairs(s *Snapshot) (counted int, restore func()) {
	old, c := pairBudget, &s.words.pairs
	pairBudget = 4 * c.views * (c.blocks + 1)
	return c.copies, func() { pairBudget = old }
}

// PairCopies reports how many dense copies s counts pairs of.
func PairCopies(s *Snapshot) int { return s.words.pairs.copies }
