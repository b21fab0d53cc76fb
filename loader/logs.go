package loader

import (
	"fmt"
	"maps"
	"regexp"
	"strings"
	"time"
)

// maxDropLogs caps the dropped-record lines logged per source and run.
const maxDropLogs = 5

// logRun logs one line for the run, and each source's failure, notes and dropped records
// when they are new or changed, or have lasted LogEvery since they were last logged. A
// source that recovers is logged once.
func (l *Loader) logRun(rep Report, err error) {
	log, now := l.o.Logger, l.o.Now()
	failed, stale := 0, 0
	for _, s := range rep.Sources {
		if s.Stale {
			stale++
		}
		if s.Err != nil {
			failed++
			if ok, t := l.logs.note(logKey{s.Name, "failed"}, troubleSig(s.Err.Error()), now); ok {
				log.Warn("source failed", "source", s.Name, "err", s.Err, "stale", s.Stale,
					"failing_since", t.since, "repeats", t.repeats)
			}
		} else if t, ok := l.logs.clear(logKey{s.Name, "failed"}); ok {
			log.Info("source recovered", "source", s.Name, "failing_since", t.since)
		}
		if ok, t := l.logs.note(logKey{s.Name, "notes"}, troubleSig(strings.Join(s.Notes, "\n")), now); ok {
			log.Warn("source notes", "source", s.Name, "notes", s.Notes, "repeats", t.repeats)
		}
		var sig strings.Builder
		for _, d := range s.Dropped {
			fmt.Fprintf(&sig, "%s:%d:%s\n", d.Ref, d.Line, d.Reason)
		}
		if ok, t := l.logs.note(logKey{s.Name, "dropped"}, troubleSig(sig.String()), now); ok {
			for i, d := range s.Dropped {
				if i == maxDropLogs {
					log.Warn("more records dropped", "source", s.Name, "count", len(s.Dropped)-maxDropLogs)
					break
				}
				log.Warn("record dropped", "source", s.Name, "ref", d.Ref, "line", d.Line, "reason", d.Reason, "repeats", t.repeats)
			}
		}
	}
	attrs := []any{"sources", len(rep.Sources), "failed", failed, "stale", stale, "records", rep.Records, "gigs", rep.Gigs,
		"requests", rep.Fetch.Requests, "not_modified", rep.Fetch.NotModified, "bytes", rep.Fetch.BytesWire,
		"duration", rep.Duration.Round(time.Millisecond).String()}
	if err != nil {
		log.Error("refresh failed, keeping the previous snapshot", append(attrs, "err", err)...)
		return
	}
	log.Info("refresh published", attrs...)
}

// volatile matches what changes in a message from one refresh to the next while the
// trouble stays the same: numbers (ports, counts, sizes, lines) and URL queries (cursors).
var volatile = regexp.MustCompile(`\?[^\s"]*|[0-9]+`)

// troubleSig is what a message says the trouble is, without its volatile parts.
func troubleSig(msg string) string { return volatile.ReplaceAllString(msg, "#") }

// logThrottle remembers each source's trouble as last logged, so that trouble that lasts
// is logged once every period rather than on every refresh.
type logThrottle struct {
	every time.Duration
	last  map[logKey]trouble
}

// logKey names one kind of trouble of one source: "failed", "notes" or "dropped".
type logKey struct{ source, what string }

type trouble struct {
	sig     string    // what was last logged: the error, the notes, the drops
	logged  time.Time // when
	since   time.Time // when the trouble began
	repeats int       // refreshes it recurred in since it was last logged
}

// note records trouble k with signature sig (none when empty) and reports whether to log
// it now: it is new or changed, or unchanged for the period.
func (t *logThrottle) note(k logKey, sig string, now time.Time) (bool, trouble) {
	if sig == "" {
		delete(t.last, k)
		return false, trouble{}
	}
	tr, seen := t.last[k]
	if !seen {
		tr.since = now
	}
	if seen && tr.sig == sig && now.Sub(tr.logged) < t.every {
		tr.repeats++
		t.last[k] = tr
		return false, tr
	}
	was := tr
	tr.sig, tr.logged, tr.repeats = sig, now, 0
	t.last[k] = tr
	return true, was
}

// clear forgets trouble k, returning it if there was any.
func (t *logThrottle) clear(k logKey) (trouble, bool) {
	tr, ok := t.last[k]
	delete(t.last, k)
	return tr, ok
}

// forget drops the trouble of sources not kept.
func (t *logThrottle) forget(kept map[string]bool) {
	maps.DeleteFunc(t.last, func(k logKey, _ trouble) bool { return !kept[k.source] })
}
