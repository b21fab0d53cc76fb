package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// measurePeer loads PostgreSQL with the gigs gigsd served at m.PeerSize (the same synthetic
// dataset, built again here) and measures the same filtered page there.
func measurePeer(ctx context.Context, m mode, cfg benchConfig, rep *report) error {
	var own *sizeResult
	for i := range rep.Sizes {
		if rep.Sizes[i].Gigs == m.PeerSize {
			own = &rep.Sizes[i]
		}
	}
	if own == nil {
		return fmt.Errorf("no gigsd figures at %d gigs to compare with", m.PeerSize)
	}
	now := time.Now()
	snap, err := engine.Build(scale.Generate(scale.Config{Gigs: m.PeerSize, Seed: 1, Now: now}), engine.Options{Now: now})
	if err != nil {
		return err
	}
	rows, err := pgRowsOf(snap)
	if err != nil {
		return err
	}
	u, err := url.Parse(own.PagePath)
	if err != nil {
		return err
	}
	q := pgQuery{City: u.Query().Get("city"), From: u.Query().Get("from"), To: u.Query().Get("to"), PageSize: 20}
	// The server runs as the postgres user when the bench runs as root: its directory must
	// be reachable by that user, which a directory under the system's temporary one is.
	dir, err := os.MkdirTemp("", "gigs-bench-pg-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	res, err := runPostgres(ctx, dir, rows, q, own.PageIDs, own.PageTotal, m.Runs, m.Dur, 16, serverCPU, loadCPU)
	if err != nil {
		return err
	}
	rep.Peer, rep.PeerRows, rep.PeerPage = &res, len(rows), *own
	rep.command("peer", res.Command)
	return nil
}

// pgRowsOf turns a snapshot's gigs into the peer's rows, each with the JSON the API
// serves and the instant it is ordered by: its start, or 23:59:59 venue time on its date
// when the time is to be announced, as the engine orders them.
func pgRowsOf(snap *engine.Snapshot) ([]pgRow, error) {
	rows := make([]pgRow, snap.Len())
	for i := range rows {
		doc := snap.GigJSON(i)
		var g struct {
			ID       string
			City     struct{ Slug string }
			Country  string
			Date     string
			StartsAt time.Time `json:"starts_at"`
			Timezone string
			TimeTBA  bool `json:"time_tba"`
		}
		if err := json.Unmarshal(doc, &g); err != nil {
			return nil, fmt.Errorf("gig %d: %w", i, err)
		}
		start := g.StartsAt
		if g.TimeTBA {
			loc, err := time.LoadLocation(g.Timezone)
			if err != nil {
				return nil, err
			}
			if start, err = time.ParseInLocation(time.DateTime, g.Date+" 23:59:59", loc); err != nil {
				return nil, err
			}
		}
		rows[i] = pgRow{ID: g.ID, City: g.City.Slug, Country: strings.ToUpper(g.Country), Date: g.Date, StartsAt: start, Doc: doc}
	}
	return rows, nil
}
