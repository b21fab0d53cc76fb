package engine

// NearTiles returns how many of q's candidates, after Run, are tiles taken whole.
func NearTiles(q *Query) int {
	n := 0
	for _, c := range q.cand {
		if c.tile {
			n++
		}
	}
	return n
}
