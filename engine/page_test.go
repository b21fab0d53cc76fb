package engine_test

import (
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestTagsFollowBodies checks the tags of assembled bodies: a page's and a gig's tag are
// those of their bytes in a rebuild and in a snapshot read from its file, and differ when
// a gig on the page or its meta differs.
func TestTagsFollowBodies(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 3000, Seed: 5, Now: now, Days: 30})
	a, b := build(t, ds), build(t, ds)
	c := roundTrip(t, a)
	page := func(s *engine.Snapshot, positions []int, total int) (string, engine.Tag) {
		body, tag := s.AppendGigsPage(nil, positions, engine.PageMeta{Page: 1, PageSize: 20, Total: total, TotalPages: 1},
			[]engine.Link{{Rel: "self", URL: []byte("/v1/gigs?page=1")}})
		return string(body), tag
	}
	first := []int{0, 1, 2, 3}
	bodyA, tagA := page(a, first, 4)
	for _, s := range []*engine.Snapshot{b, c} {
		if body, tag := page(s, first, 4); body != bodyA || tag != tagA {
			t.Fatalf("an equal page has tag %x, want %x", tag, tagA)
		}
	}
	for name, other := range map[string]func() engine.Tag{
		"another gig":   func() engine.Tag { _, tag := page(a, []int{0, 1, 2, 4}, 4); return tag },
		"another order": func() engine.Tag { _, tag := page(a, []int{1, 0, 2, 3}, 4); return tag },
		"fewer gigs":    func() engine.Tag { _, tag := page(a, first[:3], 4); return tag },
		"another total": func() engine.Tag { _, tag := page(a, first, 5); return tag },
	} {
		if other() == tagA {
			t.Errorf("%s: the tag did not change", name)
		}
	}
	id := ds.Gigs[0].ID
	_, tagGig, ok := a.AppendGig(nil, id)
	if !ok {
		t.Skipf("gig %s is not upcoming", id)
	}
	if _, tag, _ := c.AppendGig(nil, id); tag != tagGig {
		t.Fatalf("gig %s: tag %x read from the file, %x built", id, tag, tagGig)
	}
	ds.Gigs[0].Title += " (moved)"
	if _, tag, _ := build(t, ds).AppendGig(nil, id); tag == tagGig {
		t.Fatalf("gig %s: its tag did not change with its title", id)
	}
}
