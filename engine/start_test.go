package engine_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestStartedKeysRangesFromNow: queries from two instants with the same Started have the
// same results (the page memo keeps a page from now under it), and Started moves on once
// the next gig has started.
func TestStartedKeysRangesFromNow(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 3000, Seed: 5, Now: now, Days: 40})
	s := build(t, ds)
	queries := []func(q *engine.Query){
		func(q *engine.Query) {},
		func(q *engine.Query) { q.Match(engine.DimCity, []byte(ds.Cities[0].Slug)) },
		func(q *engine.Query) {
			q.Match(engine.DimCountry, []byte(ds.Cities[0].Country))
			q.Match(engine.DimGenre, []byte("rock"))
			q.Offset = 40
		},
		func(q *engine.Query) { q.Match(engine.DimGenre, []byte("jazz")); q.Offset = 7 },
	}
	run := func(at time.Time, set func(q *engine.Query)) (int, []int) {
		q := engine.AcquireQuery()
		defer engine.ReleaseQuery(q)
		q.From, q.Limit = engine.AtInstant(at), 20
		set(q)
		s.Run(q)
		return q.Total, slices.Clone(q.Page)
	}
	at, moved := now, 0
	for range 30 {
		// The next gig to start, from at.
		_, first := run(at, queries[0])
		if len(first) == 0 {
			break
		}
		var g struct {
			StartsAt time.Time `json:"starts_at"`
		}
		if err := json.Unmarshal(s.GigJSON(first[0]), &g); err != nil {
			t.Fatal(err)
		}
		if g.StartsAt.IsZero() { // a time to be announced: its start is not shown
			at = at.Add(time.Hour)
			continue
		}
		before, after := g.StartsAt.Add(-time.Nanosecond), g.StartsAt.Add(time.Nanosecond)
		if s.Started(at) != s.Started(before) || s.Started(after) <= s.Started(at) {
			t.Fatalf("Started at %s, %s and %s: %d, %d, %d", at, before, after, s.Started(at), s.Started(before), s.Started(after))
		}
		for i, set := range queries {
			n1, p1 := run(at, set)
			n2, p2 := run(before, set)
			if n1 != n2 || !slices.Equal(p1, p2) {
				t.Errorf("query %d from %s and from %s (the same Started): %d %v and %d %v", i, at, before, n1, p1, n2, p2)
			}
			if n3, p3 := run(after, set); n3 != n1 || !slices.Equal(p3, p1) {
				moved++
			}
		}
		at = after
	}
	if moved < 30 {
		t.Errorf("only %d answers changed once a gig started: the test proves little", moved)
	}
}
