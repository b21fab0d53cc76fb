package deflate_test

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/internal/deflate"
	kflate "github.com/klauspost/compress/flate"
)

// inflateFragment decodes one fragment, ending the stream after it as a page does.
func inflateFragment(z []byte) ([]byte, error) {
	return io.ReadAll(flate.NewReader(io.MultiReader(bytes.NewReader(z), bytes.NewReader([]byte{1, 0, 0, 0xff, 0xff}))))
}

// gigBodies renders n gigs with names in several scripts: the bodies the coder is made
// for, as a build renders them.
func gigBodies(t testing.TB, n int) [][]byte {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	names := []string{"Motörhead Tribute", "Sigur Rós", "東京事変", "Кино", "فيروز", "Mary J. Blige", "Ådalen \"live\"", "<b>&amp;</b>"}
	ds := &engine.Dataset{
		Cities: []engine.City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
		Venues: []engine.Venue{{Slug: "so36", Name: "SO36", City: "berlin"}},
		Genres: []engine.Genre{{Slug: "rock", Name: "Rock"}},
	}
	for i, name := range names {
		ds.Artists = append(ds.Artists, engine.Artist{Slug: fmt.Sprintf("a%d", i), Name: name, Genres: []string{"rock"}})
	}
	for i := range n {
		ds.Gigs = append(ds.Gigs, engine.Gig{ID: fmt.Sprintf("g%d", i), Title: names[i%len(names)] + strings.Repeat(" & friends", i%3),
			Venue: "so36", Start: now.Add(time.Duration(i) * time.Hour), Genres: []string{"rock"},
			Artists: []engine.Billing{{Artist: fmt.Sprintf("a%d", i%len(names))}, {Artist: fmt.Sprintf("a%d", (i+3)%len(names))}}})
	}
	s, err := engine.Build(ds, engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	bodies := make([][]byte, s.Len())
	for i := range bodies {
		bodies[i] = s.GigJSON(i)
	}
	return bodies
}

// randomBytes returns n random bytes, the same for the same seed.
func randomBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

// TestFragmentRoundTrip compresses bodies like and unlike the coder's sample, each
// inflating to itself alone and, back to back, to all of them (as in a page).
func TestFragmentRoundTrip(t *testing.T) {
	gigs, random := gigBodies(t, 200), randomBytes(1, 70_000)
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	// A unique 8 bytes, a run that leaves the hash table's entry for them alone, and the 8
	// bytes again: a match exactly at the window's edge, and one just beyond it.
	edge := func(dist int) []byte {
		b := append([]byte("UNIQUE!!"), bytes.Repeat([]byte{'z'}, dist-8)...)
		return append(b, "UNIQUE!!"...)
	}
	bodies := []struct {
		name string
		body []byte
	}{
		{"empty", []byte{}},
		{"one byte", []byte{'x'}},
		{"three bytes", []byte("abc")},
		{"every byte", every},
		{"a run over 258", bytes.Repeat([]byte{'z'}, 1000)},
		{"repeats", bytes.Repeat([]byte(`{"slug":"a","name":"A"},`), 500)},
		{"random 70 KB", random},
		{"a match 32768 back", edge(32768)},
		{"a match 32769 back", edge(32769)},
		{"a gig", gigs[5]},
		{"non-Latin script", []byte(strings.Repeat("東京事変 Кино فيروز ", 40))},
	}
	samples := map[string][][]byte{"no sample": nil, "gigs": gigs, "random": {random}}
	for sname, sample := range samples {
		c := deflate.NewCoder(sample)
		m := new(deflate.Matcher)
		var all, want []byte
		gz := deflate.NewGzipWriter(nil)
		for k, b := range bodies {
			if k == len(bodies)/2 {
				m.SetBase(1<<31 + 7) // the matcher starts its table afresh before the next body
			}
			z := c.AppendFragment(nil, b.body, m)
			got, err := inflateFragment(z)
			if err != nil || !bytes.Equal(got, b.body) {
				t.Fatalf("%s, %s: inflated to %d bytes (%v), want %d", sname, b.name, len(got), err, len(b.body))
			}
			all = c.AppendFragment(all, b.body, m)
			want = append(want, b.body...)
			gz.Fragment(z, b.body)
		}
		if got, err := inflateFragment(all); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: fragments back to back inflated to %d bytes (%v), want %d", sname, len(got), err, len(want))
		}
		// A second decoder, not Go's: GNU gzip, which checks the CRC and the length too.
		cmd := exec.Command("gzip", "-dc")
		cmd.Stdin = bytes.NewReader(gz.Finish())
		if got, err := cmd.Output(); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: gzip -dc gave %d bytes (%v), want %d", sname, len(got), err, len(want))
		}
	}
}

// TestFragmentSize keeps the shared code's fragments near a per-fragment code's: within
// 15% of klauspost's StatelessDeflate over the same gig bodies (the shared code's header
// describes every symbol, a per-fragment code's only those its body uses).
func TestFragmentSize(t *testing.T) {
	gigs := gigBodies(t, 2000)
	c, m := deflate.NewCoder(gigs[:512]), new(deflate.Matcher)
	ours, theirs, identity := 0, 0, 0
	for _, body := range gigs {
		identity += len(body)
		ours += len(c.AppendFragment(nil, body, m))
		var b bytes.Buffer
		_ = kflate.StatelessDeflate(&b, body, false, nil)
		theirs += b.Len()
	}
	t.Logf("%d gigs of %d bytes: %d with one code, %d with a code each", len(gigs), identity, ours, theirs)
	if ours > theirs*115/100 {
		t.Errorf("fragments take %d bytes, over 15%% more than %d", ours, theirs)
	}
}

// FuzzFragment makes a code from sample, then compresses sample and body in turn with one
// matcher, as a build's goroutine does: body's matches must not reach into sample, whose
// positions the matcher's table still holds.
func FuzzFragment(f *testing.F) {
	f.Add([]byte(`{"id":"g1","title":"Motörhead"}`), []byte(`{"id":"g2"}`))
	f.Add([]byte{}, bytes.Repeat([]byte{0xff, 0}, 300))
	f.Add([]byte(`abcdefgh`), []byte(`abcdefgh`))
	f.Fuzz(func(t *testing.T, sample, body []byte) {
		c, m := deflate.NewCoder([][]byte{sample}), new(deflate.Matcher)
		for _, p := range [][]byte{sample, body} {
			z := c.AppendFragment(nil, p, m)
			if got, err := inflateFragment(z); err != nil || !bytes.Equal(got, p) {
				t.Fatalf("inflated to %q (%v), want %q", got, err, p)
			}
		}
	})
}

// BenchmarkFragment compresses gig bodies with the build's shared code, reporting the
// fragments' size as a percentage of the bodies' (a faster matcher that finds less shows
// there), and for comparison with a code per fragment (klauspost's StatelessDeflate, used
// before).
func BenchmarkFragment(b *testing.B) {
	gigs := gigBodies(b, 2000)
	size := 0
	for _, body := range gigs {
		size += len(body)
	}
	b.Run("shared-code", func(b *testing.B) {
		c, m := deflate.NewCoder(gigs[:512]), new(deflate.Matcher)
		var z []byte
		b.SetBytes(int64(size))
		zs := 0
		for b.Loop() {
			zs = 0
			for _, body := range gigs {
				z = c.AppendFragment(z[:0], body, m)
				zs += len(z)
			}
		}
		b.ReportMetric(float64(zs)/float64(size)*100, "%size")
	})
	b.Run("code-per-fragment", func(b *testing.B) {
		var z bytes.Buffer
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, body := range gigs {
				z.Reset()
				_ = kflate.StatelessDeflate(&z, body, false, nil)
			}
		}
	})
}
