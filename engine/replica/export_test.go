package replica

import "time"

// What the tests of package replica_test reach inside.

// PollWait is pollWait.
var PollWait = pollWait

// MaxPollBackoff is maxPollBackoff.
const MaxPollBackoff = maxPollBackoff

// SetAfter has f's Run wait on after instead of time.After.
func (f *Follower) SetAfter(after func(time.Duration) <-chan time.Time) { f.after = after }
