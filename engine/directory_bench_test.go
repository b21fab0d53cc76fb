package engine_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// BenchmarkDirectoryTypeahead measures the artists' typeahead (issue 37), the bench's
// typeahead row without the server: q of the three letters that begin the most words of
// the artists' names (the bench's query, scale.TypeaheadPrefix), a page of 10, its body assembled, on the first
// page and the middle one; and, on the first page, the costliest kind of q: the three
// letters that begin the most distinct words without a posting of their own (a union of
// up to 32 words' postings). Besides ns/op it reports the 50th, 99th
// and 99.9th percentiles of the requests' times (a long tail, not only a slow mean, breaks
// a p99 goal). 10k gigs; 100k and 1M with GIGS_BENCH_1M=1.
func BenchmarkDirectoryTypeahead(b *testing.B) {
	for _, n := range benchSizes() {
		s := snapshotOf(b, n)
		names := artistNames(b, s.Artists().Raw)
		common, union := scale.TypeaheadPrefix(names), unionPrefix(names)
		cases := []struct {
			name, q string
			middle  bool
		}{
			{"common", common, true},
			{"union", union, false},
		}
		for _, tc := range cases {
			q := engine.AcquireQuery()
			if err := q.Search([]byte(tc.q)); err != nil {
				b.Fatal(err)
			}
			s.RunDirectory(engine.DirArtists, q)
			matches := q.Total
			engine.ReleaseQuery(q)
			pages := []int{1}
			if tc.middle {
				pages = append(pages, max(1, (matches+19)/20))
			}
			for _, page := range pages {
				b.Run(fmt.Sprintf("gigs=%d/%s/q=%s/page=%d", n, tc.name, tc.q, page), func(b *testing.B) {
					benchTypeahead(b, s, tc.q, page)
				})
			}
		}
	}
}

// benchTypeahead runs the artists' typeahead of q for page (of 10) and assembles its body.
func benchTypeahead(b *testing.B, s *engine.Snapshot, search string, page int) {
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	dst := make([]byte, 0, 64<<10)
	times := make([]time.Duration, 0, 1<<20)
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		t0 := time.Now()
		q.Reset()
		if err := q.Search([]byte(search)); err != nil {
			b.Fatal(err)
		}
		q.Offset, q.Limit = (page-1)*10, 10
		s.RunDirectory(engine.DirArtists, q)
		dst, _ = s.AppendDirectoryPage(dst[:0], engine.DirArtists, q, engine.PageMeta{Page: page, PageSize: 10, Total: q.Total, TotalPages: (q.Total + 9) / 10}, nil)
		total = q.Total
		if len(times) < cap(times) {
			times = append(times, time.Since(t0))
		}
	}
	slices.Sort(times)
	for _, p := range []float64{50, 99, 99.9} {
		b.ReportMetric(float64(times[int(float64(len(times)-1)*p/100)].Nanoseconds()), fmt.Sprintf("p%g-ns", p))
	}
	b.ReportMetric(float64(total), "matches")
	if total == 0 {
		b.Fatalf("q=%s matches no artist", search)
	}
}

// artistNames returns the names of the entries of a directory's body.
func artistNames(b *testing.B, body []byte) []string {
	var dir struct{ Data []struct{ Name string } }
	if err := json.Unmarshal(body, &dir); err != nil {
		b.Fatal(err)
	}
	names := make([]string, len(dir.Data))
	for i, a := range dir.Data {
		names[i] = a.Name
	}
	return names
}

// unionPrefix returns, of the words of names (lower case, letters), the three letters
// that begin the most distinct words among those that begin at most 32: they resolve to
// the union of their words' postings (see maxPrefixWords) unless their words are
// frequent.
func unionPrefix(names []string) string {
	words, best := map[string]map[string]bool{}, ""
	for _, n := range names {
		for _, w := range strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if r := []rune(w); len(r) >= 3 {
				p := string(r[:3])
				if words[p] == nil {
					words[p] = map[string]bool{}
				}
				words[p][w] = true
			}
		}
	}
	for p, ws := range words {
		if u := len(words[best]); len(ws) <= 32 && (len(ws) > u || len(ws) == u && p < best) {
			best = p
		}
	}
	return best
}
