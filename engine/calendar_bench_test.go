package engine_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// venueOf1000 is a snapshot whose first venue has all of its 1,000 gigs.
func venueOf1000(b *testing.B) (*engine.Snapshot, []uint32) {
	now := time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)
	ds := scale.Generate(scale.Config{Gigs: 1000, Seed: 7, Now: now, Days: 365})
	for i := range ds.Gigs {
		ds.Gigs[i].Venue = ds.Venues[0].Slug
	}
	s, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		b.Fatal(err)
	}
	_, pos, ok := s.VenueGigs(ds.Venues[0].Slug)
	if !ok || len(pos) != 1000 {
		b.Fatalf("the venue has %d gigs", len(pos))
	}
	return s, pos
}

// BenchmarkVenueFeed1000 is the render cost of a venue's iCalendar feed of 1,000 gigs,
// paid once per snapshot when the feed is first asked.
func BenchmarkVenueFeed1000(b *testing.B) {
	s, pos := venueOf1000(b)
	c := engine.Calendar{Host: "gigs.example", Name: "venue", What: "upcoming gigs at the venue", Refresh: time.Hour}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, _, err = s.AppendCalendar(buf[:0], pos, c); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "µs/event")
}

// BenchmarkVenueFeedBody1000 adds the gzip compression of the feed kept per snapshot.
func BenchmarkVenueFeedBody1000(b *testing.B) {
	s, pos := venueOf1000(b)
	c := engine.Calendar{Host: "gigs.example", Name: "venue", What: "upcoming gigs at the venue", Refresh: time.Hour}
	b.ReportAllocs()
	for b.Loop() {
		raw, _, err := s.AppendCalendar(nil, pos, c)
		if err == nil {
			_, err = engine.NewBody(raw)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVenueLD1000 is the render cost of a venue's JSON-LD graph of 1,000 gigs.
func BenchmarkVenueLD1000(b *testing.B) {
	s, pos := venueOf1000(b)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = s.AppendGraphLD(buf[:0], pos, "https://gigs.example"); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkIndexGone is the cost of a snapshot's gone index, paid once per snapshot when a
// feed first needs it: a refresh of the bench's churn (1% of the gigs removed) after a
// first build, whose tombstones are the gone gigs.
func BenchmarkIndexGone(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			now := time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)
			ds := scale.Generate(scale.Config{Gigs: n, Seed: 7, Now: now})
			first, err := engine.Build(ds, engine.Options{Now: now})
			if err != nil {
				b.Fatal(err)
			}
			scale.Churn{Removed: 0.01, Seed: 1}.Apply(ds)
			s, err := engine.Build(ds, engine.Options{Now: now.Add(time.Hour), Prev: first})
			if err != nil {
				b.Fatal(err)
			}
			first = nil
			gone := 0
			b.ReportAllocs()
			for b.Loop() {
				gone = engine.IndexGone(s)
			}
			b.ReportMetric(float64(gone), "gone")
		})
	}
}
