package engine

import (
	"fmt"
	"time"
)

// metaJSON is the part of /v1/meta fixed at build: everything after next_refresh_at.
type metaJSON struct {
	Counts  countsJSON   `json:"counts"`
	Sources []sourceJSON `json:"sources"`
}

type countsJSON struct {
	Gigs    int `json:"gigs"`
	Cities  int `json:"cities"`
	Venues  int `json:"venues"`
	Artists int `json:"artists"`
	Genres  int `json:"genres"`
}

type sourceJSON struct {
	Name        string         `json:"name"`
	OK          bool           `json:"ok"`
	Events      int            `json:"events"`
	Stale       bool           `json:"stale"`
	LastSuccess string         `json:"last_success_at,omitempty"`
	Dropped     int            `json:"dropped"`
	DroppedBy   map[string]int `json:"dropped_by_reason"`
	LastError   *errorJSON     `json:"last_error,omitempty"`
}

type errorJSON struct {
	At      string `json:"at"`
	Message string `json:"message"`
}

// renderMeta renders the fixed parts of the snapshot's /v1/meta body.
func (s *Snapshot) renderMeta(sources []SourceHealth) error {
	m := metaJSON{Sources: make([]sourceJSON, len(sources))}
	m.Counts = countsJSON(s.counts)
	for i, src := range sources {
		m.Sources[i] = sourceJSON{Name: src.Name, OK: src.OK, Events: src.Events, Stale: src.Stale, DroppedBy: map[string]int{}}
		if !src.LastSuccess.IsZero() {
			m.Sources[i].LastSuccess = src.LastSuccess.UTC().Truncate(time.Second).Format(time.RFC3339)
		}
		for class, n := range src.Dropped {
			m.Sources[i].DroppedBy[class] = n
			m.Sources[i].Dropped += n
		}
		if src.LastError != "" {
			m.Sources[i].LastError = &errorJSON{At: src.LastErrorAt.UTC().Truncate(time.Second).Format(time.RFC3339), Message: src.LastError}
		}
	}
	head := append([]byte(`{"data":{"data_version":"`), s.version...)
	head = append(head, `","generated_at":"`...)
	head = s.built.AppendFormat(head, time.RFC3339)
	head = append(head, `","changed_at":"`...)
	head = s.Changed().AppendFormat(head, time.RFC3339)
	head = append(head, `","cursor":"`...)
	head = append(s.Cursor().Append(head), '"')
	b, err := appendJSON(nil, m)
	if err != nil {
		return fmt.Errorf("cannot render meta: %w", err)
	}
	// b is {"counts":…,"sources":[…]}: its fields continue data, its brace closes it.
	s.metaHead, s.metaTail = head, append(append([]byte{','}, b[1:]...), '}')
	return nil
}

// AppendMeta appends the /v1/meta body: the data version, generated time, the next refresh
// (omitted when zero), the counts and each source's health.
func (s *Snapshot) AppendMeta(dst []byte, next time.Time) []byte {
	dst = append(dst, s.metaHead...)
	if !next.IsZero() {
		dst = append(dst, `,"next_refresh_at":"`...)
		dst = next.UTC().Truncate(time.Second).AppendFormat(dst, time.RFC3339)
		dst = append(dst, '"')
	}
	return append(dst, s.metaTail...)
}
