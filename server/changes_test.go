package server

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// editedDataset is testSnapshot's dataset a refresh later: the gig at gigs[0] retitled,
// gigs[1] cancelled, gigs[2] gone from the sources and gigs[3] merged into gigs[4].
func editedDataset() (*engine.Dataset, [5]string) {
	ds := scale.Generate(scale.Config{Gigs: 400, Seed: 42, Now: testNow, Days: 60})
	var ids [5]string
	for i := range ids {
		ids[i] = ds.Gigs[10*i+5].ID
	}
	ds.Gigs[5].Title += " (sold out)"
	ds.Gigs[15].Status = engine.StatusCancelled
	ds.Gigs = slices.Delete(ds.Gigs, 25, 26)
	ds.Gigs = slices.Delete(ds.Gigs, 34, 35) // index 35 before the first deletion
	ds.Merges = []engine.Merge{{From: ids[3], Into: ids[4]}}
	return ds, ids
}

func rebuild(t *testing.T, ds *engine.Dataset, now time.Time, prev *engine.Snapshot) *engine.Snapshot {
	t.Helper()
	s, err := engine.Build(ds, engine.Options{Now: now, Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestChanges(t *testing.T) {
	var live engine.Live
	s1 := testSnapshot(t)
	live.Publish(s1)
	base := listen(t, testServer(t, &live))
	c1 := s1.Cursor().String()

	if r := do(t, "GET", base+"/v1/changes?since="+c1, nil); r.status != 200 || string(r.body) != `{"data":[],"meta":{"cursor":"`+c1+
		`","has_more":false},"links":{"self":"/v1/changes?since=`+c1+`&limit=100","next":"/v1/changes?since=`+c1+`&limit=100"}}` {
		t.Fatalf("no change: %d %s", r.status, r.body)
	}
	ds, ids := editedDataset()
	s2 := rebuild(t, ds, testNow.Add(time.Hour), s1)
	live.Publish(s2)
	r := do(t, "GET", base+"/v1/changes?since="+c1, nil)
	if r.status != 200 {
		t.Fatalf("changes: %d %s", r.status, r.body)
	}
	golden(t, "changes", r.body)
	var page struct {
		Data []struct{ Change, ID string }
		Meta struct{ Cursor string }
	}
	if err := json.Unmarshal(r.body, &page); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range page.Data {
		got = append(got, c.Change+" "+c.ID)
	}
	// Gigs in start order, then the removals in the order of the gigs they were.
	want := []string{"updated " + ids[0], "cancelled " + ids[1], "removed " + ids[2], "removed " + ids[3]}
	slices.Sort(got[:2])
	slices.Sort(got[2:])
	slices.Sort(want[:2])
	if !slices.Equal(got, want) || page.Meta.Cursor != s2.Cursor().String() {
		t.Errorf("changes %v cursor %s, want %v cursor %s", got, page.Meta.Cursor, want, s2.Cursor())
	}
	// Two at a time: the first page says more follow and where.
	r = do(t, "GET", base+"/v1/changes?since="+c1+"&limit=2", nil)
	if err := json.Unmarshal(r.body, &page); err != nil || len(page.Data) != 2 {
		t.Fatalf("limit=2: %s", r.body)
	}
	r = do(t, "GET", base+"/v1/changes?since="+page.Meta.Cursor+"&limit=2", nil)
	if err := json.Unmarshal(r.body, &page); err != nil || len(page.Data) != 2 || page.Data[1].Change != "removed" || page.Meta.Cursor != s2.Cursor().String() {
		t.Fatalf("second page of 2: %s", r.body)
	}

	r = do(t, "GET", base+"/v1/gigs/"+ids[3], nil)
	if r.status != 301 || r.header.Get("Location") != "/v1/gigs/"+ids[4] {
		t.Errorf("merged gig: %d Location %q", r.status, r.header.Get("Location"))
	}
	r = do(t, "GET", base+"/v1/gigs/"+ids[2], nil)
	if r.status != 410 {
		t.Errorf("removed gig: %d %s", r.status, r.body)
	}
	golden(t, "gone", r.body)

	other := rebuild(t, ds, testNow, nil).Cursor()
	ahead := s2.Cursor()
	ahead.Seq++
	for _, tc := range []struct {
		query string
		code  int
	}{
		{"", 400},
		{"?limit=5", 400},
		{"?since=", 400},
		{"?since=nonsense", 400},
		{"?since=" + c1 + "&limit=0", 400},
		{"?since=" + c1 + "&limit=1001", 400},
		{"?since=" + c1 + "&since=" + c1, 400},
		{"?since=" + c1 + "&page=2", 400},
		{"?since=" + other.String(), 410},
	} {
		if r := do(t, "GET", base+"/v1/changes"+tc.query, nil); r.status != tc.code {
			t.Errorf("/v1/changes%s: %d, want %d: %s", tc.query, r.status, tc.code, r.body)
		}
	}
	// A cursor ahead of a snapshot this process built was never given by its ledger, or by
	// data since lost: 410. Ahead of a snapshot read from a file (a replica behind the
	// others), it is good: the client is told to retry.
	if r = do(t, "GET", base+"/v1/changes?since="+ahead.String(), nil); r.status != 410 || !strings.Contains(string(r.body), "never given here") {
		t.Errorf("a cursor ahead of a snapshot built here: %d %s", r.status, r.body)
	}
	// Further ahead than a refresh reaches, it was never given: 400 naming since, built
	// or read.
	impossible := []string{
		engine.Cursor{Epoch: ahead.Epoch, Seq: s2.Cursor().Seq + s2.AheadReach() + 1}.String(),
		engine.Cursor{Epoch: ahead.Epoch, Seq: math.MaxUint64}.String(),
	}
	checkImpossible := func(what string) {
		t.Helper()
		for _, c := range impossible {
			r := do(t, "GET", base+"/v1/changes?since="+c, nil)
			if r.status != 400 || !strings.Contains(string(r.body), `"name":"since"`) {
				t.Errorf("%s, cursor %s: %d %s", what, c, r.status, r.body)
			}
		}
	}
	checkImpossible("built here")
	live.Publish(readBack(t, s2))
	checkImpossible("read from a file")
	// Within it, on a snapshot read from a file (a replica a refresh behind its peers),
	// it is good: no changes yet, and the client keeps its cursor.
	for _, c := range []engine.Cursor{ahead, {Epoch: ahead.Epoch, Seq: s2.Cursor().Seq + s2.AheadReach()}} {
		r = do(t, "GET", base+"/v1/changes?since="+c.String(), nil)
		if err := json.Unmarshal(r.body, &page); r.status != 200 || err != nil || len(page.Data) != 0 || page.Meta.Cursor != c.String() {
			t.Errorf("a cursor %d ahead of the data: %d %s", c.Seq-s2.Cursor().Seq, r.status, r.body)
		}
	}
}

// TestValidatorsFollowContent checks that an identical rebuild, also one from the
// snapshot file as after a restart, keeps every resource's ETag and Last-Modified, and
// that a changed gig changes the ETags of exactly the resources that show it.
func TestValidatorsFollowContent(t *testing.T) {
	var live engine.Live
	s1 := testSnapshot(t)
	live.Publish(s1)
	base := listen(t, testServer(t, &live))
	ds, ids := editedDataset()
	s2 := rebuild(t, ds, testNow.Add(time.Hour), s1)
	// ids[0] is ds.Gigs[5]: its venue's page and its headliner's listing show it.
	paths := []string{"/v1/gigs", "/v1/gigs?page=2", "/v1/gigs?page=20", "/v1/gigs/" + ids[0], "/v1/gigs/" + ids[4],
		"/v1/venues/" + ds.Gigs[5].Venue, "/v1/gigs?artist=" + ds.Gigs[5].Artists[0].Artist,
		"/v1/cities", "/v1/venues", "/v1/venues?country=DE", "/v1/artists", "/v1/genres"}
	shows := map[string]bool{} // the resources that show ids[0]
	tags := func() map[string][2]string {
		m := map[string][2]string{}
		for _, p := range paths {
			r := do(t, "GET", base+p, nil)
			m[p] = [2]string{r.header.Get("ETag"), r.header.Get("Last-Modified")}
			shows[p] = shows[p] || bytes.Contains(r.body, []byte(`"id":"`+ids[0]+`"`))
		}
		return m
	}
	live.Publish(s2)
	before := tags()
	for name, prev := range map[string]*engine.Snapshot{"rebuild": s2, "restart": readBack(t, s2)} {
		live.Publish(rebuild(t, ds, testNow.Add(2*time.Hour), prev))
		if after := tags(); !maps.Equal(before, after) {
			t.Errorf("%s: validators changed:\n%v\n%v", name, before, after)
		}
	}
	// ids[0]'s title changes again: the resources that show it change, the others do not.
	ds.Gigs[5].Title += "!"
	live.Publish(rebuild(t, ds, testNow.Add(3*time.Hour), s2))
	after := tags()
	for _, p := range paths {
		changed := before[p][0] != after[p][0]
		if changed != shows[p] {
			t.Errorf("%s: ETag changed %v, shows the gig %v", p, changed, shows[p])
		}
	}
	showing := 0
	for _, p := range paths {
		if shows[p] {
			showing++
		}
	}
	if !shows["/v1/gigs/"+ids[0]] || showing < 3 { // its own resource and the two listings at least
		t.Errorf("the edited gig is shown by %v", shows)
	}
}

// TestCountsAgreeWithListings checks the rule the directories count by: an entity's count
// is the total /v1/gigs gives for it from the snapshot's build time (the test server's
// clock), whatever the gigs' status; and that status narrows it.
func TestCountsAgreeWithListings(t *testing.T) {
	var live engine.Live
	ds, _ := editedDataset() // with a cancelled gig
	live.Publish(rebuild(t, ds, testNow, nil))
	base := listen(t, testServer(t, &live))
	total := func(query string) int {
		var page struct{ Meta struct{ Total int } }
		r := do(t, "GET", base+"/v1/gigs?"+query, nil)
		if err := json.Unmarshal(r.body, &page); err != nil || r.status != 200 {
			t.Fatalf("%s: %d %s", query, r.status, r.body)
		}
		return page.Meta.Total
	}
	for _, dir := range []struct{ path, param, count string }{
		{"/v1/cities", "city", "upcoming_gigs"}, {"/v1/venues", "venue", "upcoming_gigs"},
		{"/v1/artists", "artist", "upcoming_tour_dates"}, {"/v1/genres", "genre", "upcoming_gigs"},
	} {
		var list struct{ Data []map[string]any }
		if err := json.Unmarshal(do(t, "GET", base+dir.path, nil).body, &list); err != nil {
			t.Fatal(err)
		}
		for i, item := range list.Data {
			if i%7 != 0 { // a sample keeps the test quick
				continue
			}
			slug := item["slug"].(string)
			if got, want := total(dir.param+"="+slug), int(item[dir.count].(float64)); got != want {
				t.Errorf("%s %s: /v1/gigs total %d, count %d", dir.path, slug, got, want)
			}
		}
	}
	all := total("")
	parts := total("status=scheduled") + total("status=CANCELLED") + total("status=postponed,rescheduled")
	if cancelled := total("status=cancelled"); all != parts || cancelled == 0 {
		t.Errorf("all %d, by status %d, cancelled %d", all, parts, cancelled)
	}
	if r := do(t, "GET", base+"/v1/gigs?status=sold-out", nil); r.status != 400 {
		t.Errorf("unknown status: %d", r.status)
	}
}

// TestNextAcrossSwap follows a page's next link after a refresh removed a gig of that
// page: the next page begins where the first ended, where page=2 skips a gig.
func TestNextAcrossSwap(t *testing.T) {
	var live engine.Live
	ds := scale.Generate(scale.Config{Gigs: 400, Seed: 42, Now: testNow, Days: 60})
	s1 := rebuild(t, ds, testNow, nil)
	live.Publish(s1)
	base := listen(t, testServer(t, &live))
	var first, next, byNumber struct {
		Data  []struct{ ID string }
		Links struct{ Next string }
	}
	for _, x := range []struct {
		path string
		dst  any
	}{{"/v1/gigs", &first}} {
		if err := json.Unmarshal(do(t, "GET", base+x.path, nil).body, x.dst); err != nil {
			t.Fatal(err)
		}
	}
	gone := first.Data[3].ID
	ds.Gigs = slices.DeleteFunc(ds.Gigs, func(g engine.Gig) bool { return g.ID == gone })
	live.Publish(rebuild(t, ds, testNow.Add(time.Hour), s1))
	if err := json.Unmarshal(do(t, "GET", base+first.Links.Next, nil).body, &next); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(do(t, "GET", base+"/v1/gigs?page=2", nil).body, &byNumber); err != nil {
		t.Fatal(err)
	}
	last := first.Data[len(first.Data)-1].ID
	if len(next.Data) == 0 || slices.ContainsFunc(next.Data, func(g struct{ ID string }) bool { return g.ID == last }) {
		t.Errorf("next after the swap repeats %s or is empty: %v", last, next.Data)
	}
	if next.Data[1].ID != byNumber.Data[0].ID {
		t.Errorf("page 2 after the swap begins %s, next %v: page 2 should skip next's first gig", byNumber.Data[0].ID, next.Data)
	}
}

// readBack writes s to a snapshot file and returns the snapshot read from it, as a
// restart or a follower serves it.
func readBack(t *testing.T, s *engine.Snapshot) *engine.Snapshot {
	t.Helper()
	file := filepath.Join(t.TempDir(), "snapshot")
	if err := s.WriteFile(file); err != nil {
		t.Fatal(err)
	}
	read, err := engine.ReadSnapshotFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return read
}

// TestChangesNotGivenCounted: a cursor after every change of a snapshot built here is a
// 410 cursor-expired, and counted as one in gigs_changes_expired_cursors_total.
func TestChangesNotGivenCounted(t *testing.T) {
	var live engine.Live
	s1 := testSnapshot(t)
	live.Publish(s1)
	srv := testServer(t, &live)
	base := listen(t, srv)
	ahead := s1.Cursor()
	ahead.Seq++
	if r := do(t, "GET", base+"/v1/changes?since="+ahead.String(), nil); r.status != 410 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if v := testutil.ToFloat64(srv.m.changes.expired); v != 1 {
		t.Errorf("gigs_changes_expired_cursors_total = %v, want 1", v)
	}
}
