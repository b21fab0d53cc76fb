package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// benchSizes are the dataset sizes benchmarked; 100k and 1M only with GIGS_BENCH_1M=1
// (make bench-go-1m).
func benchSizes() []int {
	if os.Getenv("GIGS_BENCH_1M") != "" {
		return []int{10_000, 100_000, 1_000_000}
	}
	return []int{10_000}
}

var (
	snapshots   = map[int]*engine.Snapshot{}
	commonWords = map[int][]byte{} // per size, the title most gigs have (a headliner's name)
)

func snapshotOf(b *testing.B, n int) *engine.Snapshot {
	if s := snapshots[n]; s != nil {
		return s
	}
	ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now})
	s, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		b.Fatal(err)
	}
	snapshots[n] = s
	titles := map[string]int{}
	for _, g := range ds.Gigs {
		titles[g.Title]++
	}
	var best string
	for t, c := range titles {
		if c > titles[best] || c == titles[best] && t < best {
			best = t
		}
	}
	commonWords[n] = []byte(best)
	return s
}

// BenchmarkQuery measures page queries: total plus one page of 20 positions.
func BenchmarkQuery(b *testing.B) {
	cases := []queryCase{
		{"none", func(q *engine.Query) {}},
		{"city", func(q *engine.Query) { q.Match(engine.DimCity, []byte("London")) }},
		// Searches (words.go): the most common title (a headliner on 1% of the gigs) and a
		// city, the most common word (every venue is a Hall: filters nothing) and a city, a
		// two-letter prefix (a heavy prefix's posting) and a city, two words, a rare word.
		{"q=common word+city", func(q *engine.Query) {
			_ = q.Search(benchCommonWord)
			q.Match(engine.DimCity, []byte("London"))
		}},
		{"q=hall+city", func(q *engine.Query) {
			_ = q.Search([]byte("hall"))
			q.Match(engine.DimCity, []byte("London"))
		}},
		{"q=ra+city", func(q *engine.Query) {
			_ = q.Search([]byte("ra"))
			q.Match(engine.DimCity, []byte("London"))
		}},
		{"q=new york", func(q *engine.Query) { _ = q.Search([]byte("new york")) }},
		{"q=rare word", func(q *engine.Query) { _ = q.Search([]byte("kiritimati")) }},
		{"country+genre+dates", func(q *engine.Query) {
			q.Match(engine.DimCountry, []byte("de"))
			q.Match(engine.DimGenre, []byte("rock"))
			q.From, q.To = engine.OnDate(now.AddDate(0, 0, 14)), engine.OnDate(now.AddDate(0, 2, 0))
		}},
		{"country+genre", func(q *engine.Query) {
			q.Match(engine.DimCountry, []byte("us"))
			q.Match(engine.DimGenre, []byte("electronic"))
		}},
		{"country+genre, one day", func(q *engine.Query) {
			q.Match(engine.DimCountry, []byte("us"))
			q.Match(engine.DimGenre, []byte("electronic"))
			q.From, q.To = engine.OnDate(now.AddDate(0, 0, 9)), engine.OnDate(now.AddDate(0, 0, 9))
		}},
		{"2 countries+2 genres+dates", func(q *engine.Query) {
			q.Match(engine.DimCountry, []byte("de"))
			q.Match(engine.DimCountry, []byte("us"))
			q.Match(engine.DimGenre, []byte("techno"))
			q.Match(engine.DimGenre, []byte("soul"))
			q.From, q.To = engine.OnDate(now.AddDate(0, 0, 7)), engine.OnDate(now.AddDate(0, 3, 0))
		}},
		{"city+genre+instants", func(q *engine.Query) {
			q.Match(engine.DimCity, []byte("berlin-1"))
			q.Match(engine.DimGenre, []byte("techno"))
			q.From, q.To = engine.AtInstant(now.Add(24*time.Hour)), engine.AtInstant(now.AddDate(0, 1, 0))
		}},
		{"4 filters, OR lists", func(q *engine.Query) {
			q.Match(engine.DimCountry, []byte("gb"))
			q.Match(engine.DimCountry, []byte("de"))
			q.Match(engine.DimGenre, []byte("rock"))
			q.Match(engine.DimGenre, []byte("indie"))
			q.Match(engine.DimGenre, []byte("punk"))
			q.Match(engine.DimCity, []byte("london"))
			q.Match(engine.DimCity, []byte("berlin"))
			q.Match(engine.DimArtist, []byte("artist-3"))
			q.Match(engine.DimArtist, []byte("artist-1"))
		}},
		{"city+dates (the bench's page)", func(q *engine.Query) {
			q.Match(engine.DimCity, []byte("london"))
			q.From, q.To = engine.OnDate(now), engine.OnDate(now.AddDate(0, 0, 30))
		}},
		{"dates only", func(q *engine.Query) {
			q.From, q.To = engine.OnDate(now.AddDate(0, 0, 7)), engine.OnDate(now.AddDate(0, 0, 37))
		}},
		{"deep page", func(q *engine.Query) {
			q.Match(engine.DimGenre, []byte("rock"))
			q.Offset = 1000
		}},
	}
	benchQueries(b, cases, false)
}

// benchCommonWord is the most common title word of the size benchQueries runs (commonWords).
var benchCommonWord []byte

// queryCase is a query benchmarked: its name and setup.
type queryCase struct {
	name  string
	setup func(q *engine.Query)
}

// benchQueries runs each case's query for a page of 20 at each of benchSizes, and
// assembles the page's body when withBody is set (gzip when the name ends so).
func benchQueries(b *testing.B, cases []queryCase, withBody bool) {
	for _, n := range benchSizes() {
		s := snapshotOf(b, n)
		benchCommonWord = commonWords[n]
		for _, tc := range cases {
			gz := strings.HasSuffix(tc.name, " gzip")
			b.Run(fmt.Sprintf("gigs=%d/%s", n, tc.name), func(b *testing.B) {
				q := engine.AcquireQuery()
				defer engine.ReleaseQuery(q)
				dst := make([]byte, 0, 64<<10)
				b.ReportAllocs()
				total := 0
				for b.Loop() {
					q.Reset()
					tc.setup(q)
					q.Limit = 20
					s.Run(q)
					if withBody {
						dst, _ = s.AppendQueryPage(dst[:0], q, engine.PageMeta{Page: 1, PageSize: 20, Total: q.Total}, nil, gz)
					}
					total = q.Total
				}
				b.ReportMetric(float64(total), "matches")
			})
		}
	}
}

// BenchmarkDetail measures gig lookups by id, over ids spread through the snapshot.
func BenchmarkDetail(b *testing.B) {
	for _, n := range benchSizes() {
		s := snapshotOf(b, n)
		ids := make([]string, 0, 1024)
		for i := 0; i < s.Len() && len(ids) < cap(ids); i += max(1, s.Len()/cap(ids)) {
			var g struct{ ID string }
			if err := json.Unmarshal(s.GigJSON(i), &g); err != nil {
				b.Fatal(err)
			}
			ids = append(ids, g.ID)
		}
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, ok := s.GigByID(ids[i%len(ids)]); !ok {
					b.Fatal("id not found")
				}
				i++
			}
		})
	}
}

// BenchmarkBuild measures a full build and the heap the snapshot holds, without the words
// index and with it, side by side.
func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes() {
		for _, words := range []bool{false, true} {
			b.Run(fmt.Sprintf("gigs=%d/words=%v", n, words), func(b *testing.B) {
				engine.SetWordsIndex(words)
				defer engine.SetWordsIndex(true)
				benchmarkBuild(b, n)
			})
		}
	}
}

func benchmarkBuild(b *testing.B, n int) {
	ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now})
	var s *engine.Snapshot
	var heap, objects uint64
	var cpu time.Duration
	measured := true
	for b.Loop() {
		b.StopTimer() // collect the previous snapshot outside the timing
		s = nil
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		cpuBefore, ok := processCPU()
		b.StartTimer()
		var err error
		if s, err = engine.Build(ds, engine.Options{Now: now}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpuAfter, ok2 := processCPU()
		measured = measured && ok && ok2
		cpu += cpuAfter - cpuBefore
		runtime.GC()
		runtime.GC() // a second cycle empties the pools' victim caches
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		heap, objects = after.HeapAlloc-before.HeapAlloc, after.HeapObjects-before.HeapObjects
		b.StartTimer()
	}
	b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
	b.ReportMetric(float64(heap)/float64(s.Len()), "heap-B/gig")
	size := 0
	for _, part := range s.GigsJSON() {
		size += len(part)
	}
	b.ReportMetric(float64(size)/(1<<20), "json-MiB")
	b.ReportMetric(float64(objects), "heap-objects")
	if measured {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkWordsIndex measures the words index's part of a build alone.
func BenchmarkWordsIndex(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("gigs=%d", n), func(b *testing.B) {
			ds := scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now})
			var took time.Duration
			for b.Loop() {
				d, err := engine.IndexWords(ds, now)
				if err != nil {
					b.Fatal(err)
				}
				took += d
			}
			b.ReportMetric(float64(took.Milliseconds())/float64(b.N), "index-ms")
		})
	}
}
