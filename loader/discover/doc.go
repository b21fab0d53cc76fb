// Package discover finds the feed a venue's website offers for its events, for gigsctl
// sources add. It is the operator's tool, not a refresh's: gigsd does not import it.
//
// From a URL, Find reads the page through the guarded fetcher the loader uses and
// gathers candidates: events in the page itself (JSON-LD, microdata); iCalendar feeds it
// links to (<link rel="alternate" type="text/calendar">, links to .ics files, webcal://
// links, a calendar plugin's ?ical=1 export); and The Events Calendar's REST API when
// the page links it or shows the plugin's markup. When the page itself offers no feed, it
// follows at most Options.MaxFollow links of the same site that look like an events page
// ("events", "whats-on", "gigs", "agenda", "programm", ...) and gathers theirs.
//
// Each candidate (at most Options.MaxCandidates) is then read with the real loader, as a
// refresh would (loader.Check), and the one that yields the most gigs wins; a tie goes to
// the richer format (tribe, then jsonld, microdata, ical). Result.Why says which it chose
// and why, and Result.Candidates what the others gave.
package discover
