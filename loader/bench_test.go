package loader

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
	"github.com/gigs/gigs/testkit/scale"
)

// scaleEvents turns a synthetic dataset into source events as the sources would list
// them: every gig from its venue's site, and every third also from one or two platforms,
// dressed up (status words, a venue name with the city, the doors time, no time at all).
func scaleEvents(gigs int) ([]source.Event, []Role) {
	ds := scale.Generate(scale.Config{Gigs: gigs, Seed: 7, Now: noon})
	cities := map[string]engine.City{}
	for _, c := range ds.Cities {
		cities[c.Slug] = c
	}
	venues := map[string]engine.Venue{}
	for _, v := range ds.Venues {
		venues[v.Slug] = v
	}
	artists := map[string]string{}
	for _, a := range ds.Artists {
		artists[a.Slug] = a.Name
	}
	zones := map[string]*time.Location{}
	events := make([]source.Event, 0, gigs*4/3)
	var roles []Role
	for i, g := range ds.Gigs {
		v := venues[g.Venue]
		c := cities[v.City]
		loc := zones[c.Timezone]
		if loc == nil {
			loc, _ = time.LoadLocation(c.Timezone)
			zones[c.Timezone] = loc
		}
		local := g.Start.In(loc)
		place := source.Place{Name: v.Name, Locality: c.Name, Country: c.Country, Zone: c.Timezone}
		when := source.When{Wall: time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), 0, 0, time.UTC), DateOnly: g.TimeTBA}
		headliner := artists[g.Artists[0].Artist]
		ev := source.Event{Source: "site-" + g.Venue, Ref: g.ID, Title: g.Title, Start: when, Venue: place,
			Performers: []source.Performer{{Name: headliner}}, Genres: g.Genres,
			Offers: []source.Offer{{URL: "https://" + g.Venue + ".test/tickets/" + g.ID}}}
		events, roles = append(events, ev), append(roles, RoleVenue)
		if i%3 != 0 {
			continue
		}
		for p := range 1 + i%2 {
			pe := ev
			pe.Source, pe.Ref, pe.Performers = fmt.Sprint("platform-", p), fmt.Sprint("P", p, "-", g.ID), nil
			pe.Title = "SOLD OUT: " + headliner
			pe.Venue.Name = v.Name + " " + c.Name
			pe.Offers = []source.Offer{{URL: "https://tix.test/e/" + pe.Ref, PriceMin: 25, HasPrice: true, Currency: "EUR"}}
			switch i % 4 {
			case 1:
				pe.Start.Wall = pe.Start.Wall.Add(-time.Hour) // doors
			case 2:
				pe.Start.DateOnly = true
			}
			events, roles = append(events, pe), append(roles, RolePrimary+Role(p))
		}
	}
	return events, roles
}

// BenchmarkMergeBuild normalizes, merges and builds: 10k gigs, or 1M gigs' worth of
// events (about 1.33M records) with GIGS_BENCH_1M=1. It reports the peak live heap.
func BenchmarkMergeBuild(b *testing.B) {
	gigs := 10_000
	if os.Getenv("GIGS_BENCH_1M") != "" {
		gigs = 1_000_000
	}
	events, roles := scaleEvents(gigs)
	sources := map[string]int{}
	for _, ev := range events {
		if _, ok := sources[ev.Source]; !ok {
			sources[ev.Source] = len(sources)
		}
	}
	store := NewIDStore()
	b.ResetTimer()
	var peak atomic.Uint64
	stop := watchHeap(&peak)
	var out, dropped int
	for range b.N {
		n := newNormalizer(noon, len(events))
		dropped = 0
		for i := range events {
			if n.add(&events[i], sources[events[i].Source], roles[i]) != nil {
				dropped++ // the gazetteer lacks a few of the synthetic countries
			}
		}
		run := store.begin()
		ds := n.dataset(run, n.clusters())
		snap, err := engine.Build(&ds, engine.Options{Now: noon})
		if err != nil {
			b.Fatal(err)
		}
		run.commit(noon)
		out = snap.Len()
		runtime.KeepAlive(snap)
	}
	stop()
	b.ReportMetric(float64(len(events)), "records")
	b.ReportMetric(float64(out), "gigs")
	b.ReportMetric(float64(dropped), "dropped")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
}

// watchHeap records the largest live heap seen until the returned stop is called.
func watchHeap(peak *atomic.Uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
