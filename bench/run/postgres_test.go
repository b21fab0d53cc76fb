package main

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestPostgresPeer loads a real snapshot's gigs (as pgRowsOf reads them), plus one doc full
// of what COPY must escape, into the peer and measures a city page for two seconds. The
// expected page is computed in Go and held to the engine's own answer first, so the rows'
// sort instants (times to be announced included) are the API's.
func TestPostgresPeer(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	snap, rows := pgTestRows(t, scale.Generate(scale.Config{Gigs: 2000, Seed: 1, Now: now}), now)
	perCity := map[string]int{}
	for _, r := range rows {
		perCity[r.City]++
	}
	q := pgQuery{From: "2025-03-10", To: "2025-05-10", PageSize: 20}
	for c, n := range perCity { // the busiest city
		if n > perCity[q.City] || n == perCity[q.City] && c < q.City {
			q.City = c
		}
	}

	want, total := pgPageOf(rows, q)
	eq := engine.AcquireQuery()
	defer engine.ReleaseQuery(eq)
	eq.Match(engine.DimCity, []byte(q.City))
	from, _ := time.Parse(time.DateOnly, q.From)
	to, _ := time.Parse(time.DateOnly, q.To)
	eq.From, eq.To, eq.Limit = engine.OnDate(from), engine.OnDate(to), q.PageSize
	snap.Run(eq)
	var api []string
	for _, p := range eq.Page {
		api = append(api, rows[p].ID)
	}
	if !slices.Equal(want, api) || total != eq.Total || total <= q.PageSize {
		t.Fatalf("Go's page %v of %d, the engine's %v of %d; want the same, of more than a page", want, total, api, eq.Total)
	}

	// Ties with the page's first gig and sorts before it by id.
	first := rows[slices.IndexFunc(rows, func(r pgRow) bool { return r.ID == want[0] })]
	tricky := first
	tricky.ID = "g-tricky"
	tricky.Doc = []byte("{\"id\":\"g-tricky\",\r\n\t\"title\":\"a \\\"quoted\\\" back\\\\slash, \\u2028, it's ünïcødé 🎸\"}")
	rows = append(rows, tricky)
	want, total = pgPageOf(rows, q)
	if want[0] != tricky.ID {
		t.Fatalf("page %v does not start with %s", want, tricky.ID)
	}

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	page := pgPage{Name: "page", SQL: func(param func(string) string) string { return pgPageSQL(q.PageSize, param) },
		Vars: map[string]string{"city": q.City, "from": q.From, "to": q.To}, Total: total}
	for _, id := range want {
		page.Want = append(page.Want, rows[slices.IndexFunc(rows, func(r pgRow) bool { return r.ID == id })].Doc)
	}
	res, err := runPostgres(ctx, pgTestDir(t), rows, []pgPage{page}, 1, 2*time.Second, 4, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := res.page("page")
	if !strings.HasPrefix(res.Version, "PostgreSQL 15.") || len(res.Pages) != 1 || m == nil || len(m.TPS) != 1 || m.TPS[0] <= 0 ||
		len(m.LatencyMS) != 1 || m.LatencyMS[0] <= 0 || res.LoadTime <= 0 ||
		!strings.Contains(m.Command, "pgbench") || !strings.Contains(m.SQL, ":city") || len(res.Schema) == 0 {
		t.Fatalf("result %+v", res)
	}
	t.Logf("%s: %.0f tps, %.3f ms average latency, loaded %d rows in %s\n%s", res.Version, m.TPS[0], m.LatencyMS[0], len(rows), res.LoadTime, m.Command)
}

// TestPostgresCheck: the peer's output is refused unless it is the API's page.
func TestPostgresCheck(t *testing.T) {
	want := []json.RawMessage{[]byte(`{"id":"a"}`), []byte(`{"id":"b", "x":1}`)}
	for _, c := range []struct {
		out string
		ok  bool
	}{
		{`{"data" : [{"id":"a"}, {"id":"b", "x":1}], "total" : 7}`, true},
		{`{"data" : [{"id":"b", "x":1}, {"id":"a"}], "total" : 7}`, false},             // order
		{`{"data" : [{"id":"a"}, {"id":"b", "x":1}], "total" : 6}`, false},             // total
		{`{"data" : [{"id":"a"}, {"id":"b","x":1}], "total" : 7}`, false},              // bytes of a doc
		{`{"data" : [{"id":"a"}], "total" : 7}`, false},                                // short page
		{`{"data" : [{"id":"a"}, {"id":"b", "x":1}, {"id":"c"}], "total" : 7}`, false}, // long page
		{`{"data" : [{"id":"a"}, {"x":1}], "total" : 7}`, false},                       // no id
		{`not json`, false},
	} {
		if err := pgCheck(c.out, want, 7); (err == nil) != c.ok {
			t.Errorf("pgCheck(%s): %v, want ok %v", c.out, err, c.ok)
		}
	}
}

// pgPageOf returns the ids of q's page and the number of rows matching q.
func pgPageOf(rows []pgRow, q pgQuery) ([]string, int) {
	var match []pgRow
	for _, r := range rows {
		if r.City == q.City && q.From <= r.Date && r.Date <= q.To {
			match = append(match, r)
		}
	}
	slices.SortFunc(match, func(a, b pgRow) int { return cmp.Or(a.StartsAt.Compare(b.StartsAt), strings.Compare(a.ID, b.ID)) })
	var ids []string
	for _, r := range match[:min(q.PageSize, len(match))] {
		ids = append(ids, r.ID)
	}
	return ids, len(match)
}

// pgTestRows builds ds into a snapshot and returns it and the peer's rows of it. The test
// fails, or skips without GIGS_REQUIRE_TOOLS, when PostgreSQL 15 or PostGIS is missing.
func pgTestRows(t *testing.T, ds *engine.Dataset, now time.Time) (*engine.Snapshot, []pgRow) {
	t.Helper()
	if _, err := pgBinDir(); err != nil {
		missingTool(t, err)
	}
	snap, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := pgRowsOf(snap)
	if err != nil {
		t.Fatal(err)
	}
	return snap, rows
}

// pgTestDir returns a directory for a throwaway server, removed after the test: not
// t.TempDir, which the postgres user cannot reach.
func pgTestDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "gigs-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
