package server

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// mirror is what a consumer keeps: every gig's body by id, and the cursor it is current to.
type mirror struct {
	t      *testing.T
	base   string
	key    string
	gigs   map[string]json.RawMessage
	cursor string
	pages  int // change pages read
}

// export reads the whole export: the gigs and the cursor they are current to.
func (m *mirror) export() (map[string]json.RawMessage, string, string) {
	m.t.Helper()
	r := do(m.t, "GET", m.base+"/v1/gigs/download", map[string]string{"X-API-Key": m.key})
	var body struct {
		Data []json.RawMessage
		Meta struct{ Cursor string }
	}
	if err := json.Unmarshal(r.body, &body); err != nil || r.status != 200 {
		m.t.Fatalf("export: %d %.300s", r.status, r.body)
	}
	gigs := map[string]json.RawMessage{}
	for _, g := range body.Data {
		var id struct{ ID string }
		if err := json.Unmarshal(g, &id); err != nil {
			m.t.Fatal(err)
		}
		gigs[id.ID] = g
	}
	return gigs, body.Meta.Cursor, r.header.Get("ETag")
}

// follow applies the change feed from the mirror's cursor, a few changes a page.
func (m *mirror) follow() (applied int) {
	m.t.Helper()
	for {
		r := do(m.t, "GET", m.base+"/v1/changes?limit=3&since="+m.cursor, nil)
		var page struct {
			Data []struct {
				Change string
				ID     string
				Gig    json.RawMessage
			}
			Meta struct {
				Cursor  string
				HasMore bool `json:"has_more"`
			}
		}
		if err := json.Unmarshal(r.body, &page); err != nil || r.status != 200 {
			m.t.Fatalf("changes since %s: %d %.300s", m.cursor, r.status, r.body)
		}
		m.pages++
		for _, c := range page.Data {
			if c.Change == "removed" {
				delete(m.gigs, c.ID)
			} else {
				m.gigs[c.ID] = c.Gig
			}
			applied++
		}
		m.cursor = page.Meta.Cursor
		if !page.Meta.HasMore {
			return applied
		}
	}
}

// TestMirror keeps a mirror through the export and the change feed across refreshes with
// edits, a reschedule, a cancellation, a merge, removals (gone, and past as days go by),
// a new gig and an identical refresh, and checks it against a fresh export each time: the
// same gigs, byte for byte, at the same cursor.
func TestMirror(t *testing.T) {
	f := newExportFixture(t, 1<<30)
	m := &mirror{t: t, base: f.base, key: f.a}
	var exportTag string
	m.gigs, m.cursor, exportTag = m.export()
	ds := scale.Generate(scale.Config{Gigs: 400, Seed: 42, Now: testNow, Days: 60}) // testSnapshot's
	prev := f.snap
	byID := func(id string) *engine.Gig {
		for i := range ds.Gigs {
			if ds.Gigs[i].ID == id {
				return &ds.Gigs[i]
			}
		}
		t.Fatalf("no gig %s", id)
		return nil
	}
	ids := slices.Sorted(maps.Keys(m.gigs))
	for i, step := range []struct {
		name    string
		at      time.Duration
		edit    func()
		changes bool
	}{
		{"edits", time.Hour, func() {
			byID(ids[0]).Title += " (sold out)"
			g := byID(ids[1])
			g.PreviousStart, g.Start, g.Status = g.Start, g.Start.AddDate(0, 0, 9), engine.StatusRescheduled
			byID(ids[2]).Status = engine.StatusCancelled
			ds.Merges = []engine.Merge{{From: ids[3], Into: ids[4]}}
			byID(ids[4]).Sources = append(byID(ids[4]).Sources, byID(ids[3]).Sources...)
			gone := []string{ids[3], ids[5]}
			ds.Gigs = slices.DeleteFunc(ds.Gigs, func(g engine.Gig) bool { return slices.Contains(gone, g.ID) })
			g = byID(ids[6])
			extra := *g
			extra.ID, extra.Start = "g-new-1", g.Start.Add(2*time.Hour)
			ds.Gigs = append(ds.Gigs, extra)
		}, true},
		{"a day later", 26 * time.Hour, func() { byID(ids[7]).Title += " (moved upstairs)" }, true},
		{"nothing changed", 27 * time.Hour, func() {}, false},
	} {
		step.edit()
		s, err := engine.Build(ds, engine.Options{Now: testNow.Add(step.at), Prev: prev})
		if err != nil {
			t.Fatal(err)
		}
		f.live.Publish(s)
		prev = s
		if step.at > 24*time.Hour && s.Tombstones() <= 2 {
			t.Errorf("%s: %d tombstones; the first day's gigs should be past", step.name, s.Tombstones())
		}
		applied := m.follow()
		if (applied > 0) != step.changes {
			t.Errorf("%s: %d changes applied", step.name, applied)
		}
		fresh, cursor, tag := m.export()
		if cursor != m.cursor || !maps.EqualFunc(fresh, m.gigs, func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
			t.Fatalf("refresh %d (%s): the mirror (%d gigs, cursor %s) differs from a fresh export (%d gigs, cursor %s)",
				i+1, step.name, len(m.gigs), m.cursor, len(fresh), cursor)
		}
		if changed := tag != exportTag; changed != step.changes {
			t.Errorf("%s: export ETag changed %v", step.name, changed)
		}
		exportTag = tag
	}
	if m.pages < 3 {
		t.Errorf("%d change pages read: the test does not page", m.pages)
	}
}
