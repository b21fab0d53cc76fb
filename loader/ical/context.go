package ical

import (
	"strings"
	"time"
)

// feedZone is the zone an event's place is read in the context of (source.Place.FeedZone):
// its start's TZID zone, else the calendar's X-WR-TIMEZONE; "" when neither names a zone
// of a place (UTC and Etc/ zones name none).
func feedZone(start, calendar *time.Location) string {
	for _, loc := range []*time.Location{start, calendar} {
		if loc == nil {
			continue
		}
		if name := loc.String(); strings.Contains(name, "/") && !strings.HasPrefix(name, "Etc/") {
			return name
		}
	}
	return ""
}
