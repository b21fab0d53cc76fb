package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
)

// ledgerDataset is a small dataset whose gigs are named by their ids' letters; each
// starts at t0 plus its offset.
func ledgerDataset(t0 time.Time, gigs map[string]time.Duration, titles map[string]string) *engine.Dataset {
	ds := &engine.Dataset{
		Cities:  []engine.City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
		Venues:  []engine.Venue{{Slug: "hall", Name: "Hall", City: "berlin"}},
		Artists: []engine.Artist{{Slug: "x", Name: "X"}},
	}
	for id, at := range gigs {
		ds.Gigs = append(ds.Gigs, engine.Gig{ID: id, Title: titles[id], Venue: "hall", Start: t0.Add(at),
			Artists: []engine.Billing{{Artist: "x", Headliner: true}}})
	}
	return ds
}

type changeJSON struct {
	Change string `json:"change"`
	ID     string `json:"id"`
	Gig    *struct {
		CreatedAt string `json:"created_at"`
		UpdatedAt string `json:"updated_at"`
		Title     string `json:"title"`
	}
	Tombstone *struct {
		ID         string `json:"id"`
		RemovedAt  string `json:"removed_at"`
		Reason     string `json:"reason"`
		MergedInto string `json:"merged_into"`
	}
}

type changesJSON struct {
	Data []changeJSON
	Meta struct {
		Cursor  string
		HasMore bool `json:"has_more"`
	}
}

// changes reads the whole feed after c, limit entries a page, as the API would serve it.
func changes(t *testing.T, s *engine.Snapshot, c engine.Cursor, limit int) ([]changeJSON, engine.Cursor) {
	t.Helper()
	var all []changeJSON
	for {
		entries, more, next, err := s.ChangesSince(c, limit)
		if err != nil {
			t.Fatal(err)
		}
		var page changesJSON
		body := s.AppendChanges(nil, entries, c, next, more, nil)
		if err := json.Unmarshal(body, &page); err != nil {
			t.Fatalf("%v in %s", err, body)
		}
		if page.Meta.Cursor != next.String() || page.Meta.HasMore != more || len(page.Data) != len(entries) || len(entries) > limit {
			t.Fatalf("page meta %+v, want cursor %s more %v, %d entries", page.Meta, next, more, len(entries))
		}
		all = append(all, page.Data...)
		if c = next; !more {
			return all, c
		}
	}
}

func summary(list []changeJSON) []string {
	var out []string
	for _, c := range list {
		s := c.Change + " " + c.ID
		if c.Tombstone != nil {
			s += " " + c.Tombstone.Reason + ">" + c.Tombstone.MergedInto
		}
		out = append(out, s)
	}
	return out
}

func buildAt(t *testing.T, ds *engine.Dataset, now time.Time, prev *engine.Snapshot) *engine.Snapshot {
	t.Helper()
	s, err := engine.Build(ds, engine.Options{Now: now, Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLedger follows gigs through refreshes: edits, removals for each reason, a new gig,
// an identical rebuild (also from the snapshot file), tombstones' expiry and a gig's return.
func TestLedger(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	starts := map[string]time.Duration{"a": 40 * day, "b": 41 * day, "c": 42 * day, "d": 2 * time.Hour, "e": 43 * day}
	s1 := buildAt(t, ledgerDataset(t0, starts, nil), t0, nil)
	start := engine.Cursor{Epoch: s1.Cursor().Epoch}
	got, c1 := changes(t, s1, start, 2)
	if want := []string{"created d", "created a", "created b", "created c", "created e"}; !slices.Equal(summary(got), want) {
		t.Fatalf("first feed %v, want %v", summary(got), want)
	}
	if c1 != s1.Cursor() {
		t.Fatalf("feed ends at %v, snapshot cursor %v", c1, s1.Cursor())
	}

	// A day later: d is past, a edited, b gone, c merged into e, f new.
	t1 := t0.Add(day)
	starts2 := map[string]time.Duration{"a": 40 * day, "e": 43 * day, "f": 44 * day}
	ds2 := ledgerDataset(t0, starts2, map[string]string{"a": "A, edited"})
	ds2.Merges = []engine.Merge{{From: "c", Into: "e"}, {From: "a", Into: "e"}} // a is alive: not a merge
	s2 := buildAt(t, ds2, t1, s1)
	got, c2 := changes(t, s2, c1, 1)
	if want := []string{"updated a", "created f", "removed d past>", "removed b gone_from_sources>", "removed c merged>e"}; !slices.Equal(summary(got), want) {
		t.Fatalf("second feed %v, want %v", summary(got), want)
	}
	if a := got[0].Gig; a.CreatedAt != "2026-11-22T12:00:00Z" || a.UpdatedAt != "2026-11-23T12:00:00Z" || a.Title != "A, edited" {
		t.Errorf("edited gig: %+v", a)
	}
	if tb := got[4].Tombstone; tb.ID != "c" || tb.RemovedAt != "2026-11-23T12:00:00Z" {
		t.Errorf("tombstone %+v", tb)
	}
	if tb, ok := s2.Tombstone("c"); !ok || tb.Reason != engine.ReasonMerged || tb.MergedInto != "e" {
		t.Errorf("Tombstone(c) = %+v, %v", tb, ok)
	}
	if _, ok := s2.Tombstone("a"); ok {
		t.Error("a live gig has a tombstone")
	}
	all, _ := changes(t, s2, engine.Cursor{Epoch: s2.Cursor().Epoch}, 100)
	if want := []string{"created e", "created a", "created f", "removed d past>", "removed b gone_from_sources>", "removed c merged>e"}; !slices.Equal(summary(all), want) {
		t.Errorf("whole feed %v, want %v (each gig once, at its last change, new to this cursor)", summary(all), want)
	}
	if !s2.Changed().Equal(t1) {
		t.Errorf("changed at %v, want %v", s2.Changed(), t1)
	}

	// An identical rebuild, an hour later, from the snapshot as built and as read back:
	// same bytes, same cursor, same change time.
	for _, prev := range []*engine.Snapshot{s2, roundTrip(t, s2)} {
		s3 := buildAt(t, ds2, t1.Add(time.Hour), prev)
		if s3.Version() != s2.Version() || s3.Cursor() != s2.Cursor() || !s3.Changed().Equal(t1) ||
			!bytes.Equal(bytes.Join(s3.GigsJSON(), nil), bytes.Join(s2.GigsJSON(), nil)) ||
			s3.Export().ETag != s2.Export().ETag || s3.Export().Tag(true) != s2.Export().Tag(true) {
			t.Errorf("identical rebuild differs: version %s/%s cursor %v/%v changed %v", s3.Version(), s2.Version(), s3.Cursor(), s2.Cursor(), s3.Changed())
		}
		if got, _ := changes(t, s3, c2, 10); len(got) != 0 {
			t.Errorf("identical rebuild has changes %v", summary(got))
		}
	}

	// Cursors: of another ledger, ahead of the data, and (after 30 days) older than the
	// tombstones kept. Ahead of a snapshot read from a file (a follower behind its
	// publisher), a cursor may be good; ahead of one this process built, it never is.
	other := buildAt(t, ds2, t1, nil)
	ahead := engine.Cursor{Epoch: c2.Epoch, Seq: c2.Seq + 1}
	for _, tc := range []struct {
		s    *engine.Snapshot
		c    engine.Cursor
		want error
	}{{s2, other.Cursor(), engine.ErrCursorExpired}, {s2, ahead, engine.ErrCursorExpired}, {roundTrip(t, s2), ahead, engine.ErrCursorAhead},
		{roundTrip(t, s2), engine.Cursor{Epoch: c2.Epoch, Seq: c2.Seq + s2.AheadReach()}, engine.ErrCursorAhead},
		{roundTrip(t, s2), engine.Cursor{Epoch: c2.Epoch, Seq: c2.Seq + s2.AheadReach() + 1}, engine.ErrCursorImpossible},
		{s2, engine.Cursor{Epoch: c2.Epoch, Seq: c2.Seq + s2.AheadReach() + 1}, engine.ErrCursorImpossible},
		{roundTrip(t, s2), engine.Cursor{Epoch: c2.Epoch, Seq: math.MaxUint64}, engine.ErrCursorImpossible}} {
		if _, _, _, err := tc.s.ChangesSince(tc.c, 10); !errors.Is(err, tc.want) {
			t.Errorf("cursor %v: %v, want %v", tc.c, err, tc.want)
		}
	}
	t4 := t1.Add(engine.TombstoneKeep + time.Hour)
	starts4 := map[string]time.Duration{"a": 40 * day, "b": 41 * day, "e": 43 * day, "f": 44 * day}
	s4 := buildAt(t, ledgerDataset(t0, starts4, map[string]string{"a": "A, edited"}), t4, s2)
	if _, _, _, err := s4.ChangesSince(c1, 10); !errors.Is(err, engine.ErrCursorExpired) {
		t.Errorf("a cursor from before dropped tombstones: %v, want ErrCursorExpired", err)
	}
	got, _ = changes(t, s4, c2, 10)
	if want := []string{"created b"}; !slices.Equal(summary(got), want) {
		t.Errorf("after 30 days: %v, want %v", summary(got), want)
	}
	for _, id := range []string{"b", "c", "d"} {
		if _, ok := s4.Tombstone(id); ok {
			t.Errorf("tombstone of %s kept after 30 days, or after its return", id)
		}
	}
}

func TestParseCursor(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want engine.Cursor
		ok   bool
	}{
		{"1f-0", engine.Cursor{Epoch: 0x1f}, true},
		{"ffffffffffffffff-18446744073709551615", engine.Cursor{Epoch: 1<<64 - 1, Seq: 1<<64 - 1}, true},
		{"", engine.Cursor{}, false},
		{"1f", engine.Cursor{}, false},
		{"0-5", engine.Cursor{}, false},
		{"1f-+5", engine.Cursor{}, false},
		{"1f--5", engine.Cursor{}, false},
		{"x-5", engine.Cursor{}, false},
		{"1f-5-6", engine.Cursor{}, false},
		{"01ffffffffffffffff-5", engine.Cursor{}, false},
		{"1f-18446744073709551616", engine.Cursor{}, false},
	} {
		got, err := engine.ParseCursor(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseCursor(%q) = %v, %v", tc.in, got, err)
		}
		if tc.ok && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}

// FuzzParseCursor checks that ParseCursor accepts only what String writes back the same
// way, once case is set aside, and never panics.
func FuzzParseCursor(f *testing.F) {
	for _, s := range []string{"1f-0", "ffffffffffffffff-18446744073709551615", "", "-", "0-1", "1-", "-1", "1-+2", "1F-2", "x-y", "1-2-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := engine.ParseCursor(s)
		if err != nil {
			return
		}
		back, err := engine.ParseCursor(c.String())
		if err != nil || back != c || c.Epoch == 0 {
			t.Fatalf("%q read as %v, written %q, read back %v, %v", s, c, c.String(), back, err)
		}
	})
}

// TestLedgerAfterPublished builds on a snapshot older than the last one published
// (Options.Published): every earlier cursor of the ledger expires, the build's own does
// not, and its changes are numbered after the published cursor.
func TestLedgerAfterPublished(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	now := t0.Add(-48 * time.Hour)
	ds := ledgerDataset(t0, map[string]time.Duration{"a": 0, "b": time.Hour}, nil)
	prev := buildAt(t, ds, now, nil)
	given := prev.Cursor()
	changed := ledgerDataset(t0, map[string]time.Duration{"a": 0, "b": time.Hour, "c": 2 * time.Hour}, nil)
	tests := []struct {
		name      string
		published engine.Cursor
		ds        *engine.Dataset
		wantSeq   uint64 // of the build's cursor
		expired   bool   // given, and every earlier cursor
	}{
		{"unknown", engine.Cursor{}, ds, given.Seq, false},
		{"prev's own", given, changed, given.Seq + 1, false},
		{"ahead of prev", engine.Cursor{Epoch: given.Epoch, Seq: given.Seq + 5}, ds, given.Seq + 6, true},
		{"ahead of prev, with a change", engine.Cursor{Epoch: given.Epoch, Seq: given.Seq + 5}, changed, given.Seq + 7, true},
		{"of another ledger", engine.Cursor{Epoch: given.Epoch ^ 2, Seq: 1}, ds, given.Seq + 1, true},
	}
	for _, tt := range tests {
		s, err := engine.Build(tt.ds, engine.Options{Now: now.Add(time.Hour), Prev: prev, Published: tt.published})
		if err != nil {
			t.Fatal(err)
		}
		if c := s.Cursor(); c.Epoch != given.Epoch || c.Seq != tt.wantSeq {
			t.Errorf("%s: cursor %s, want %d in the same ledger", tt.name, c, tt.wantSeq)
		}
		for _, c := range []engine.Cursor{given, {Epoch: given.Epoch, Seq: 1}, tt.published} {
			if c.Epoch != given.Epoch || c.Seq > s.Cursor().Seq {
				continue
			}
			if _, _, _, err := s.ChangesSince(c, 10); errors.Is(err, engine.ErrCursorExpired) != tt.expired {
				t.Errorf("%s: since %s: %v, want expired %v", tt.name, c, err, tt.expired)
			}
		}
		entries, _, _, err := s.ChangesSince(s.Cursor(), 10)
		if err != nil || len(entries) != 0 {
			t.Errorf("%s: since the build's own cursor: %d entries, %v", tt.name, len(entries), err)
		}
		if tt.ds == changed && tt.expired {
			// The new gig is listed to no one, but numbered after the published cursor.
			if entries, _, _, _ := s.ChangesSince(engine.Cursor{Epoch: given.Epoch, Seq: tt.wantSeq - 1}, 10); len(entries) != 1 {
				t.Errorf("%s: the new gig is not after the expired cursors: %d entries", tt.name, len(entries))
			}
		}
	}
}
