package replica

import "time"

// stages times the steps of one poll that puts a snapshot into service (the manifest's
// read, the downloads, the deltas' application, the file's read), for its log line:
// where the time from a publication to the first answer from it goes.
type stages struct {
	at    time.Time
	attrs []any // name, duration (as a string, like gigsd's other log lines), …
}

// lap adds the time since the last lap (or since s was made) to the step named name.
// Steps of the same name (a chain's deltas) add up. A nil s times nothing.
func (s *stages) lap(name string) {
	if s == nil {
		return
	}
	now := time.Now()
	d := now.Sub(s.at)
	s.at = now
	for i := 0; i < len(s.attrs); i += 2 {
		if s.attrs[i] == name {
			s.attrs[i+1] = s.attrs[i+1].(time.Duration) + d
			return
		}
	}
	s.attrs = append(s.attrs, name, d)
}

// logAttrs returns the steps timed, as log attributes: each a duration string (1.234s).
func (s *stages) logAttrs() []any {
	out := make([]any, len(s.attrs))
	for i := 0; i < len(s.attrs); i += 2 {
		out[i], out[i+1] = s.attrs[i], s.attrs[i+1].(time.Duration).Round(time.Microsecond).String()
	}
	return out
}
