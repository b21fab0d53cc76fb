package engine

import (
	"reflect"
	"testing"
)

// TestResetKeepsNoSnapshot: a query returned to the pool holds nothing of the snapshot it
// last ran on (postings, an iterator over its bitmaps), so that a pooled query never keeps
// a replaced snapshot's arrays alive.
func TestResetKeepsNoSnapshot(t *testing.T) {
	s := twoCities(t, 5000)
	for _, tc := range []struct {
		name string
		set  func(q *Query)
		used func(q *Query) bool // what of the snapshot the query holds after Run
	}{
		{"filters probed in postings", func(q *Query) {
			q.Match(DimCity, []byte("lima"))
			q.Match(DimArtist, []byte("a"))
			q.Match(DimArtist, []byte("A")) // twice: a filter of one posting on every gig is left out
			q.Match(DimGenre, []byte("rock"))
		}, func(q *Query) bool { return len(q.alts) > 0 }},
		{"a bitmap iterated", func(q *Query) { q.Match(DimCity, []byte("berlin")) },
			func(q *Query) bool { return !reflect.ValueOf(q.it).IsZero() }},
	} {
		q := AcquireQuery()
		tc.set(q)
		q.Limit = 20
		s.Run(q)
		if !tc.used(q) {
			t.Fatalf("%s: the query holds nothing of the snapshot: the test proves nothing", tc.name)
		}
		q.Reset()
		for i, p := range q.alts[:cap(q.alts)] {
			if !reflect.ValueOf(p).IsZero() {
				t.Errorf("%s: posting %d kept after Reset", tc.name, i)
			}
		}
		if !reflect.ValueOf(q.it).IsZero() {
			t.Errorf("%s: the iterator kept after Reset", tc.name)
		}
		ReleaseQuery(q)
	}
}
