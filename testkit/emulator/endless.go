package emulator

import (
	"fmt"
	"net/http"
	"sync/atomic"
)

// Endless is a hostile continuation platform: each page holds one new event (a concert in
// London) and a new continuation token, and claims more, without end; a loader pages it
// until something stops it. While Finite is set it serves three events on one page that
// ends the feed, the platform's last good answer. Safe for concurrent use.
type Endless struct {
	Finite atomic.Bool
	Pages  atomic.Int64 // pages served
}

func (e *Endless) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	n := e.Pages.Add(1)
	w.Header().Set("Content-Type", "application/json")
	if e.Finite.Load() {
		fmt.Fprintf(w, `{"pagination": {"has_more_items": false}, "events": [%s, %s, %s]}`, endlessEvent(1), endlessEvent(2), endlessEvent(3))
		return
	}
	fmt.Fprintf(w, `{"pagination": {"page_size": 1, "has_more_items": true, "continuation": "t%d"}, "events": [%s]}`, n, endlessEvent(n))
}

// endlessEvent is the n-th event of an Endless platform, on a day of December 2026.
func endlessEvent(n int64) string {
	day := 1 + n%28
	return fmt.Sprintf(`{"id": "e%d", "name": {"text": "Act %d"}, "category": {"name": "Music"},
		"start": {"timezone": "Europe/London", "local": "2026-12-%02dT20:00:00", "utc": "2026-12-%02dT20:00:00Z"},
		"venue": {"name": "The Forum", "address": {"city": "London", "country": "GB"}}}`, n, n, day, day)
}
