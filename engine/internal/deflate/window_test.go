package deflate_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/internal/deflate"
	"github.com/gigs/gigs/testkit/scale"
)

// exportItems returns the export's gigs as it lists them: the first gig, then each
// other with the comma before it.
func exportItems(gigs [][]byte) [][]byte {
	items := make([][]byte, len(gigs))
	for i, g := range gigs {
		if i > 0 {
			g = append([]byte{','}, g...)
		}
		items[i] = g
	}
	return items
}

// TestWindowedMember checks members of items coded with a window of the k items before
// each: read back by the standard library (which checks the checksum and size), and an
// item's bits the same whatever came before its window, so that they could be spliced.
func TestWindowedMember(t *testing.T) {
	items := exportItems(gigBodies(t, 300))
	changed := exportItems(gigBodies(t, 300))
	changed[100] = []byte(`,{"id":"changed","title":"Another night"}`)
	for _, k := range []int{0, 1, 3} {
		c := deflate.NewWindowedCoder(items, k, 7)
		member, bits := deflate.WindowedMember(c, items, k)
		zr, err := gzip.NewReader(bytes.NewReader(member))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if want := bytes.Join(items, nil); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("k=%d: read %d bytes (%v), want %d", k, len(got), err, len(want))
		}
		_, changedBits := deflate.WindowedMember(c, changed, k)
		for i := 101 + k; i < len(items); i++ {
			if bits[i] != changedBits[i] {
				t.Fatalf("k=%d: item %d, %d items after the one changed, took %d bits, not %d", k, i, i-100, changedBits[i], bits[i])
			}
		}
	}
}

// TestWindowedExportSize measures the export's gzip body as it would be if each gig (with
// the comma before it) were coded with one code for all in one dynamic block, its matches
// reaching into itself and the k gigs before it only, so that a rebuild could splice the
// bits of a gig whose k predecessors did not change from the export before: its bytes per
// gig against the export's today (one stream, klauspost's level 1 in pgzip's blocks), for
// each k of GIGS_WINDOW_K (default "1 2 4"), with the code the build makes (of gigs alone)
// and one made of gigs with their windows, on the bench's dataset of GIGS_WINDOW_GIGS
// gigs (skipped without). It also says what share of the gigs a refresh changing 4% of
// them at random would code again (1 - 0.96^(k+1)), and how long coding took a gig.
func TestWindowedExportSize(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("GIGS_WINDOW_GIGS"))
	if n == 0 {
		t.Skip("set GIGS_WINDOW_GIGS to the number of gigs")
	}
	ks := []int{1, 2, 4}
	if f := strings.Fields(os.Getenv("GIGS_WINDOW_K")); len(f) > 0 {
		ks = ks[:0]
		for _, k := range f {
			v, err := strconv.Atoi(k)
			if err != nil {
				t.Fatal(err)
			}
			ks = append(ks, v)
		}
	}
	now := time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC) // BenchmarkRebuild's
	s, err := engine.Build(scale.Generate(scale.Config{Gigs: n, Seed: 1, Now: now}), engine.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	gigs := make([][]byte, s.Len())
	for i := range gigs {
		gigs[i] = s.GigJSON(i)
	}
	items := exportItems(gigs)
	e := s.Export()
	today := float64(e.GzipSize) / float64(len(items))
	t.Logf("%d gigs: the export %d bytes of JSON, its gzip body %d bytes, %.1f bytes a gig", len(items), e.Size, e.GzipSize, today)
	every := (len(gigs) + 511) / 512 // as the build samples
	var sample [][]byte
	for i := 0; i < len(gigs); i += every {
		sample = append(sample, gigs[i])
	}
	for _, k := range ks {
		for _, code := range []struct {
			name string
			c    *deflate.Coder
		}{{"the build's code", deflate.NewCoder(sample)}, {"a windowed code", deflate.NewWindowedCoder(items, k, every)}} {
			start := time.Now()
			member, _ := deflate.WindowedMember(code.c, items, k)
			took := time.Since(start)
			if n <= 100_000 { // read back where it takes seconds, not minutes
				zr, err := gzip.NewReader(bytes.NewReader(member))
				if err != nil {
					t.Fatal(err)
				}
				if m, err := io.Copy(io.Discard, zr); err != nil || m != int64(e.Size-len(e.Head)-len(e.Tail)) {
					t.Fatalf("read %d bytes (%v)", m, err)
				}
			}
			per := float64(len(member)) / float64(len(items))
			t.Logf("k=%d, %s: %.1f bytes a gig, %.3f× today's; %.1f%% of the gigs coded again after 4%% changed; %.2f µs a gig",
				k, code.name, per, per/today, 100*(1-math.Pow(0.96, float64(k+1))), float64(took.Nanoseconds())/1e3/float64(len(items)))
		}
	}
}
