package engine

// Status is a gig's state as the API reports it.
type Status string

// The statuses a gig can have; the zero Status is read as StatusScheduled.
const (
	StatusScheduled   Status = "scheduled"
	StatusCancelled   Status = "cancelled"
	StatusPostponed   Status = "postponed"
	StatusRescheduled Status = "rescheduled"
)

// Valid reports whether s is one of the defined statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusScheduled, StatusCancelled, StatusPostponed, StatusRescheduled:
		return true
	}
	return false
}

// Statuses lists the statuses; a snapshot keeps per gig the index of its status here.
var Statuses = [...]Status{StatusScheduled, StatusCancelled, StatusPostponed, StatusRescheduled}

// code returns the status's code in Statuses; the zero Status is StatusScheduled's.
func (s Status) code() uint8 {
	for i, x := range Statuses {
		if x == s {
			return uint8(i)
		}
	}
	return 0
}
