package deflate

// SetBase sets where m's table of positions is valid from, so that a test can make it
// start the table afresh (past 2^31) before the next body.
func (m *Matcher) SetBase(base uint32) { m.base = base }
