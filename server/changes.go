package server

import (
	"errors"
	"net/url"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// The change feed's page sizes.
const (
	defaultChangeLimit = 100
	maxChangeLimit     = 1000
)

var (
	changeParams   = []int{pSince, pLimit}
	changeAccepted = "since, limit"
)

// changes answers /v1/changes: the gigs created, changed and removed after the cursor
// since, oldest first, limit at a time, with the cursor to ask from next.
func (s *Server) changes(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	p := s.acquire()
	defer s.release(p)
	p.collect(ctx.QueryArgs(), changeParams, changeAccepted)
	var since engine.Cursor
	if v := p.raw[pSince]; v != nil {
		var err error
		if since, err = engine.ParseCursor(string(v)); err != nil {
			p.bad("since", err.Error())
		}
	} else if !p.given[pSince] {
		p.bad("since", "required: the cursor of the export (meta.cursor) or of the last page of changes")
	}
	limit := defaultChangeLimit
	if v := p.raw[pLimit]; v != nil {
		var ok bool
		if limit, ok = parseInt(v, maxChangeLimit); !ok {
			p.bad("limit", "must be an integer from 1 to 1000")
		}
	}
	if err := invalidParams(p.invalid); err != nil {
		return err
	}
	entries, more, next, err := snap.ChangesSince(since, limit)
	switch {
	case errors.Is(err, engine.ErrCursorImpossible):
		p.bad("since", "is further ahead of this server's data than a refresh reaches: it was never given; use the export's meta.cursor or a change page's")
		return invalidParams(p.invalid)
	case errors.Is(err, engine.ErrCursorNotGiven):
		s.m.changes.expired.Inc()
		return &Problem{kind: kindCursorExpired, Detail: "this cursor is after every change of this server's data: it was never given here, or " +
			"was given by data since lost; download /v1/gigs/download again and follow its meta.cursor"}
	case errors.Is(err, engine.ErrCursorExpired):
		s.m.changes.expired.Inc()
		return &Problem{kind: kindCursorExpired, Detail: "this cursor is older than the changes kept (" +
			strconv.Itoa(int(engine.TombstoneKeep/(24*time.Hour))) + " days), or of data since replaced: download /v1/gigs/download again and follow its meta.cursor"}
	case errors.Is(err, engine.ErrCursorAhead):
		// A replica that has not taken the latest refresh yet, or a server restarting on
		// older data: the cursor is good, this server is behind. No changes yet, and the
		// client keeps its cursor (next is since): a client's input is never a 5xx.
	}
	s.m.changes.entries.Add(float64(len(entries)))
	for _, l := range [...]struct {
		rel string
		c   engine.Cursor
	}{{"self", since}, {"next", next}} {
		start := len(p.base)
		p.base = append(p.base, "/v1/changes?since="...)
		p.base = l.c.Append(p.base)
		p.base = append(p.base, "&limit="...)
		p.base = strconv.AppendInt(p.base, int64(limit), 10)
		p.links = append(p.links, engine.Link{Rel: l.rel, URL: p.base[start:len(p.base):len(p.base)]})
	}
	p.buf = snap.AppendChanges(p.buf[:0], entries, since, next, more, p.links)
	return s.sendAssembled(ctx, snap, p, engine.TagOf(p.buf), false)
}

// gone answers a gig id the snapshot no longer has but remembers: 301 to the gig it was
// merged into, else 410 with its tombstone. It reports false when the id is unknown.
func (s *Server) gone(ctx *fasthttp.RequestCtx, snap *engine.Snapshot, id string) (bool, error) {
	t, ok := snap.Tombstone(id)
	if !ok {
		return false, nil
	}
	if t.Reason == engine.ReasonMerged {
		s.setMaxAge(ctx)
		ctx.Response.Header.Set("Location", "/v1/gigs/"+url.PathEscape(t.MergedInto))
		ctx.SetStatusCode(fasthttp.StatusMovedPermanently)
		return true, nil
	}
	return true, &Problem{kind: kindGone, Detail: "gig " + strconv.Quote(id) + " was removed: " + reasonText[t.Reason],
		tombstone: &tombstoneJSON{ID: t.ID, RemovedAt: t.Removed.Format(time.RFC3339), Reason: t.Reason.String()}}
}

var reasonText = map[engine.Reason]string{
	engine.ReasonPast: "it has taken place",
	engine.ReasonGone: "no source lists it any more",
}
