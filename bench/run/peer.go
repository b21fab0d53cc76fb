package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// measurePeer loads PostgreSQL with the gigs gigsd served at m.PeerSize (the same synthetic
// dataset, built again here) and measures there the same filtered page, and the same near
// + q page (the discovery row nearQName).
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
	// Built at the instant gigsd built its snapshot, which the gigs it served carry as
	// their created_at, so that the docs are gigsd's byte for byte.
	now, err := builtAt(own.NearQ.Data)
	if err != nil {
		return err
	}
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
	doc := make(map[string]json.RawMessage, len(rows))
	for _, r := range rows {
		doc[r.ID] = r.Doc
	}
	page := pgPage{Name: "page", SQL: func(param func(string) string) string { return pgPageSQL(q.PageSize, param) },
		Vars: map[string]string{"city": q.City, "from": q.From, "to": q.To}, Total: own.PageTotal}
	for _, id := range own.PageIDs {
		page.Want = append(page.Want, doc[id])
	}
	nearQ, err := own.NearQ.page()
	if err != nil {
		return err
	}
	// The server runs as the postgres user when the bench runs as root: its directory must
	// be reachable by that user, which a directory under the system's temporary one is.
	dir, err := os.MkdirTemp("", "gigs-bench-pg-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	res, err := runPostgres(ctx, dir, rows, []pgPage{page, nearQ}, m.Runs, m.Dur, 16, serverCPU, loadCPU)
	if err != nil {
		return err
	}
	rep.Peer, rep.PeerRows, rep.PeerPage = &res, len(rows), *own
	for _, p := range res.Pages {
		rep.command("peer "+p.Name, p.Command)
	}
	return nil
}

// builtAt returns the created_at of the first of docs: the instant a first build saw
// every gig.
func builtAt(docs []json.RawMessage) (time.Time, error) {
	var g struct {
		CreatedAt time.Time `json:"created_at"`
	}
	if len(docs) == 0 {
		return time.Time{}, errors.New("gigsd answered the near + q page with no gig")
	}
	err := json.Unmarshal(docs[0], &g)
	return g.CreatedAt, err
}

// peerAnswer is gigsd's answer to the near + q page (the discovery row nearQName) asked
// with from set to the second it was asked at, so that the peer, loaded later, can be
// held to it. gigsd is measured on the row's path, from each request's now.
type peerAnswer struct {
	Path  string // the row's path
	From  string // RFC 3339, whole seconds
	Data  []json.RawMessage
	Total int
}

// recordNearQ asks gigsd at base for the near + q page of rows.
func recordNearQ(base string, rows []discoveryRow) (peerAnswer, error) {
	i := slices.IndexFunc(rows, func(d discoveryRow) bool { return d.Name == nearQName })
	if i < 0 {
		return peerAnswer{}, fmt.Errorf("no discovery row %q", nearQName)
	}
	a := peerAnswer{Path: rows[i].Path, From: time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)}
	var page struct {
		Data []json.RawMessage
		Meta struct{ Total int }
	}
	if err := getJSON(base+a.Path+"&from="+url.QueryEscape(a.From), &page); err != nil {
		return a, err
	}
	a.Data, a.Total = page.Data, page.Meta.Total
	return a, nil
}

// page is the peer's page for the answer, read from its path's near, radius (in km) and q.
func (a peerAnswer) page() (pgPage, error) {
	u, err := url.Parse(a.Path)
	if err != nil {
		return pgPage{}, err
	}
	v := u.Query()
	lat, lon, _ := strings.Cut(v.Get("near"), ",")
	y, err1 := strconv.ParseFloat(lat, 64)
	x, err2 := strconv.ParseFloat(lon, 64)
	km, err3 := strconv.ParseFloat(strings.TrimSuffix(v.Get("radius"), "km"), 64)
	if err := errors.Join(err1, err2, err3); err != nil || v.Get("q") == "" {
		return pgPage{}, fmt.Errorf("%s is not a near + q page with a radius in km: %v", a.Path, err)
	}
	return pgNearQPage("near+q", v.Get("q"), y, x, km, a.From, a.Data, a.Total), nil
}

// pgRowsOf turns a snapshot's gigs into the peer's rows, each with the JSON the API
// serves, the instant it is ordered by (its start, or 23:59:59 venue time on its date
// when the time is to be announced, as the engine orders them), its venue's position and
// its searchable text, all read from that JSON.
func pgRowsOf(snap *engine.Snapshot) ([]pgRow, error) {
	rows := make([]pgRow, snap.Len())
	type ref struct{ Slug, Name string }
	for i := range rows {
		doc := snap.GigJSON(i)
		var g struct {
			ID    string
			Title string
			City  ref
			Venue struct {
				Slug, Name string
				Lat, Lon   *float64
			}
			Artists  []ref
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
		search := []string{g.Title}
		for _, a := range g.Artists {
			search = append(search, a.Name)
		}
		r := pgRow{ID: g.ID, City: g.City.Slug, Country: strings.ToUpper(g.Country), Date: g.Date, StartsAt: start, Doc: doc,
			Venue: g.Venue.Slug, Search: strings.Join(append(search, g.Venue.Name, g.City.Name), "\n")}
		if g.Venue.Lat != nil && g.Venue.Lon != nil {
			r.Lat, r.Lon, r.HasPos = *g.Venue.Lat, *g.Venue.Lon, true
		}
		rows[i] = r
	}
	return rows, nil
}
