package engine

// NearAreas returns how many of q's candidates, after Run, are areas taken whole.
func NearAreas(q *Query, s *Snapshot) int {
	n := 0
	for _, c := range q.cand {
		if c.tile && int(c.point) >= s.geo.tiles() {
			n++
		}
	}
	return n
}

// NearTiles returns how many of q's candidates, after Run, are tiles (or areas) taken whole.
func NearTiles(q *Query) int {
	n := 0
	for _, c := range q.cand {
		if c.tile {
			n++
		}
	}
	return n
}
