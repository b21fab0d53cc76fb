package engine

import "time"

// Started returns how many of the snapshot's gigs begin before t, as a range from t counts
// them: the position at which a range from t begins. Run reads a query's From through its
// range alone, so the answer to a query whose range starts at t changes only when this
// does.
func (s *Snapshot) Started(t time.Time) int {
	return s.positions(AtInstant(t), Unbounded).lo
}
