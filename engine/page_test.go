package engine_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
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
			[]engine.Link{{Rel: "self", URL: []byte("/v1/gigs?page=1")}}, false)
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
	// A page of 100 hashes its gigs' hashes in two runs (64 and 36): a gig in the second counts.
	var hundred, moved []int
	for i := range 100 {
		hundred, moved = append(hundred, i), append(moved, i)
	}
	moved[80] = 100
	_, tag100 := page(a, hundred, 100)
	for name, other := range map[string]func() engine.Tag{
		"the 81st gig another": func() engine.Tag { _, tag := page(a, moved, 100); return tag },
		"the 100th gig gone":   func() engine.Tag { _, tag := page(a, hundred[:99], 100); return tag },
	} {
		if other() == tag100 {
			t.Errorf("%s: the tag did not change", name)
		}
	}
	id := ds.Gigs[0].ID
	_, tagGig, ok := a.AppendGig(nil, id, false)
	if !ok {
		t.Skipf("gig %s is not upcoming", id)
	}
	if _, tag, _ := c.AppendGig(nil, id, false); tag != tagGig {
		t.Fatalf("gig %s: tag %x read from the file, %x built", id, tag, tagGig)
	}
	ds.Gigs[0].Title += " (moved)"
	if _, tag, _ := build(t, ds).AppendGig(nil, id, false); tag == tagGig {
		t.Fatalf("gig %s: its tag did not change with its title", id)
	}
}

// TestGzipBodies checks the gzip bodies assembled from the gigs' fragments against their
// identity bodies, read with the standard library's decoder: pages of every size, at the
// arena's part boundaries, of a snapshot read from its file, and without the gigs' kept
// checksums; and gig details after bytes already in the buffer.
func TestGzipBodies(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 5000, Seed: 8, Now: now, Days: 40})
	built := build(t, ds)
	r := rand.New(rand.NewPCG(8, 9))
	for _, s := range []*engine.Snapshot{built, roundTrip(t, built), engine.WithoutChecksums(build(t, ds))} {
		cases := [][]int{{}, {0}, {4095, 4096}, {s.Len() - 1}}
		for range 100 {
			n, at := r.IntN(101), r.IntN(s.Len())
			var page []int
			for i := at; i < min(at+n, s.Len()); i++ {
				page = append(page, i)
			}
			cases = append(cases, page)
		}
		links := []engine.Link{{Rel: "self", URL: []byte("/v1/gigs?page=3")}, {Rel: "next", URL: []byte("/v1/gigs?after=1.x")}}
		for _, page := range cases {
			prefix := []byte("left alone")[:r.IntN(11)]
			m := engine.PageMeta{Page: 3, PageSize: 100, Total: 5000, TotalPages: 50}
			raw, tag := s.AppendGigsPage(append([]byte{}, prefix...), page, m, links, false)
			gz, gzTag := s.AppendGigsPage(append([]byte{}, prefix...), page, m, links, true)
			if tag != gzTag || !bytes.HasPrefix(raw, prefix) || !bytes.HasPrefix(gz, prefix) {
				t.Fatalf("page %v: tags %x and %x, or the prefix overwritten", page, tag, gzTag)
			}
			if got := gunzip(t, gz[len(prefix):]); !bytes.Equal(got, raw[len(prefix):]) {
				t.Fatalf("page %v: gzip body decodes to\n%.300s\nwant\n%.300s", page, got, raw[len(prefix):])
			}
		}
		for _, i := range []int{0, 4096, s.Len() - 1} {
			id := pageIDs(t, s, []int{i})[0]
			raw, _, _ := s.AppendGig(nil, id, false)
			gz, _, _ := s.AppendGig([]byte("x"), id, true)
			if got := gunzip(t, gz[1:]); !bytes.Equal(got, raw) {
				t.Fatalf("gig %s: gzip body decodes to %s, want %s", id, got, raw)
			}
		}
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	br := bytes.NewReader(b)
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%v after %d bytes", err, len(out))
	}
	if br.Len() > 0 {
		t.Fatalf("%d bytes after the gzip member", br.Len())
	}
	return out
}
