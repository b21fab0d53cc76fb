package loader

import (
	"bytes"
	"log/slog"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/gigs/gigs/engine"
)

// TestDemoMBIDs reads the demo corpus through the full loader: the acts its platforms
// (and some venue pages) state MusicBrainz ids for carry them in the snapshot, in the
// artist directory and pages, and artist=mbid:<uuid> finds their gigs; the demo's sources
// never disagree, so nothing is logged of it.
func TestDemoMBIDs(t *testing.T) {
	c := serveCorpus(t, 0)
	var logs bytes.Buffer
	c.loader.o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	if _, err := c.loader.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	s := c.live.Load()
	var dir struct {
		Data []struct {
			Slug      string `json:"slug"`
			MBID      string `json:"mbid"`
			TourDates int    `json:"upcoming_tour_dates"`
		}
	}
	if err := json.Unmarshal(s.Artists().Raw, &dir); err != nil {
		t.Fatal(err)
	}
	with := 0
	q := engine.AcquireQuery()
	defer engine.ReleaseQuery(q)
	for _, a := range dir.Data {
		if a.MBID == "" {
			continue
		}
		with++
		if m, ok := engine.ParseMBID(a.MBID); !ok || m != a.MBID {
			t.Fatalf("%s: mbid %q", a.Slug, a.MBID)
		}
		if with > 20 {
			continue
		}
		b, ok := s.Artist(a.Slug)
		if !ok {
			t.Fatalf("%s: no page", a.Slug)
		}
		r, _ := b.Reader(false)
		var page bytes.Buffer
		_, _ = page.ReadFrom(r)
		_ = r.Close()
		if !bytes.Contains(page.Bytes(), []byte(`"mbid":"`+a.MBID+`"`)) {
			t.Errorf("%s: the page has no mbid", a.Slug)
		}
		q.Reset()
		q.Match(engine.DimArtist, []byte(engine.MBIDPrefix+a.MBID))
		q.From, q.Limit = engine.AtInstant(s.Built()), 1
		s.Run(q)
		if q.Total < a.TourDates {
			t.Errorf("%s: artist=mbid:%s lists %d gigs, fewer than its %d dates", a.Slug, a.MBID, q.Total, a.TourDates)
		}
	}
	if with < len(dir.Data)/10 {
		t.Errorf("%d of %d artists have an MBID", with, len(dir.Data))
	}
	if bytes.Contains(logs.Bytes(), []byte("different MusicBrainz ids")) {
		t.Errorf("the demo's sources disagree on MBIDs:\n%s", logs.Bytes())
	}
	t.Logf("%d of %d artists have an MBID", with, len(dir.Data))
}
