package engine

// PairCounted reports whether q, after Run, was counted from its pair's counts (pairs.go).
func PairCounted(q *Query) bool { return q.pair.bits != nil }
