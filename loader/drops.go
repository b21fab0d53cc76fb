package loader

import (
	"regexp"
	"strings"
)

// Drop reasons come from many adapters in many words; the operator sees them counted by
// class, a small fixed set that metrics can label by and /v1/meta can show:
//
//	not_music     a source classifies the event as something else
//	no_venue      no venue named
//	no_place      the venue's city, country or time zone cannot be told
//	no_start      no start, or one that cannot be read (or a zone that cannot)
//	date_tba      the source says the date is not yet known, or does not list the event
//	              yet (a draft, an unpublished or unlisted event)
//	out_of_range  more than two years ahead
//	unreadable    a record, block or value that cannot be decoded, or lacks an id or title
//	unsupported   a recurrence rule or document part the loader does not read
//	capped        past a cap on what one document may yield
//	other         anything else (see the logs and gigsctl sources check)
var dropClasses = []struct {
	class string
	match []string // substrings of the reason, lower-cased
}{
	{"not_music", []string{"not music"}},
	{"no_venue", []string{"venue without a name"}},
	{"no_place", []string{"has no country", "has no city", "unknown city", "unknown country", "no time zone", "locality of", "ambiguous place"}},
	{"date_tba", []string{"date to be announced", "draft event", "not published", "hidden from the site's listings"}},
	{"out_of_range", []string{"years ahead"}},
	{"no_start", []string{"startdate", "dtstart", "no start", "no usable start", "time zone"}},
	{"unsupported", []string{"not supported"}},
	{"capped", []string{"more than", "left out", "are ignored", "deeper than"}},
	{"unreadable", []string{"invalid", "cannot decode", "cannot parse", "no event id", "no title", "missing name", "no name left", "malformed"}},
}

// DropClasses lists the classes dropClass returns, in a fixed order.
var DropClasses = []string{"not_music", "no_venue", "no_place", "no_start", "date_tba", "out_of_range", "unreadable", "unsupported", "capped", "other"}

// dropClass returns the class of a drop reason; see dropClasses.
func dropClass(reason string) string {
	r := strings.ToLower(reason)
	for _, c := range dropClasses {
		for _, m := range c.match {
			if strings.Contains(r, m) {
				return c.class
			}
		}
	}
	return "other"
}

// DroppedBy counts the report's dropped records by class (see DropClasses); nil when none.
func (r *SourceReport) DroppedBy() map[string]int {
	var m map[string]int
	for _, d := range r.Dropped {
		if m == nil {
			m = map[string]int{}
		}
		m[dropClass(d.Reason)]++
	}
	return m
}

// urlRE matches URLs and absolute file paths in an error message.
var urlRE = regexp.MustCompile(`\b[a-z][a-z0-9+.-]*://[^\s"']+|(?:^|\s|")(/[^\s"']+)`)

// publicError is an error message fit for a public document: a URL is cut to its scheme
// and host, a file URL or path to its last element, and it is at most 300 bytes.
func publicError(err error) string {
	if err == nil {
		return ""
	}
	msg := urlRE.ReplaceAllStringFunc(err.Error(), func(s string) string {
		lead := ""
		if s[0] == ' ' || s[0] == '"' {
			lead, s = s[:1], s[1:]
		}
		scheme, rest, ok := strings.Cut(s, "://")
		if ok && scheme != "file" {
			host, _, _ := strings.Cut(rest, "/")
			if at := strings.LastIndexByte(host, '@'); at >= 0 {
				host = host[at+1:] // no user information
			}
			return lead + scheme + "://" + host + "/…"
		}
		return lead + "…/" + s[strings.LastIndexByte(s, '/')+1:]
	})
	if len(msg) > 300 {
		msg = msg[:297] + "..."
	}
	return msg
}
