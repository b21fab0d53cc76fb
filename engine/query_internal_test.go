package engine

import (
	"reflect"
	"testing"
)

// TestResetKeepsNoSnapshot: a query returned to the pool holds nothing of the snapshot it
// last ran on (postings, an iterator over its bitmaps), so that a pooled query never keeps
// a replaced snapshot's arrays alive.
func TestResetKeepsNoSnapshot(t *testing.T) {
	s := twoCities(t, 50)
	q := AcquireQuery()
	defer ReleaseQuery(q)
	q.Match(DimCity, []byte("lima"))
	q.Match(DimArtist, []byte("a"))
	q.Match(DimArtist, []byte("A")) // twice: a filter of one posting on every gig is left out
	q.Match(DimGenre, []byte("rock"))
	q.Limit = 20
	s.Run(q)
	q.Match(DimCountry, []byte("PE"))
	s.FilterVenues(q)
	if len(q.alts) == 0 || reflect.ValueOf(q.it).IsZero() {
		t.Fatalf("the query used no postings (%d) or no iterator: the test proves nothing", len(q.alts))
	}
	q.Reset()
	for i, p := range q.alts[:cap(q.alts)] {
		if !reflect.ValueOf(p).IsZero() {
			t.Errorf("posting %d kept after Reset", i)
		}
	}
	if !reflect.ValueOf(q.it).IsZero() {
		t.Error("the iterator kept after Reset")
	}
}
