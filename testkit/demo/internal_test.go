package demo

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestZoneChanges(t *testing.T) {
	from := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 0, horizon)
	tests := []struct {
		zone   string
		want   string // the changes as UTC instants, "" for none
		spring bool
	}{
		{"Europe/Berlin", "2027-03-28T01:00:00Z", true},
		{"America/St_Johns", "2027-03-14T05:30:00Z", true},
		{"Australia/Sydney", "2027-04-03T16:00:00Z", false},
		{"Asia/Kathmandu", "", false},
		{"America/Sao_Paulo", "", false},
	}
	for _, tt := range tests {
		loc, err := time.LoadLocation(tt.zone)
		if err != nil {
			t.Fatal(err)
		}
		changes := zoneChanges(loc, from, to)
		got := ""
		for _, c := range changes {
			got += c.UTC().Format(time.RFC3339)
		}
		if got != tt.want {
			t.Errorf("zoneChanges(%s) = %q, want %q", tt.zone, got, tt.want)
		}
		if len(changes) == 1 && springForward(changes[0]) != tt.spring {
			t.Errorf("springForward(%s change) = %v, want %v", tt.zone, !tt.spring, tt.spring)
		}
	}
}

func TestNewArtists(t *testing.T) {
	for seed := range uint64(5) {
		as := newArtists(rand.New(rand.NewPCG(seed, streamArtists)), artistCount+localCount)
		keys := map[string]bool{}
		for i, a := range as {
			if a.rank != i || len(a.genres) < 1 || len(a.genres) > 2 || keys[nameKey(a.name)] {
				t.Fatalf("seed %d: bad artist %+v", seed, a)
			}
			keys[nameKey(a.name)] = true
		}
	}
	for _, tt := range [][2]string{
		{"The Velvet Foxes", "velvet foxes"},
		{"Ada & Søren", "ada soren"},
		{"Ada and Søren", "ada soren"},
		{"Straßer Trio", "strasser trio"},
	} {
		if got := nameKey(tt[0]); got != tt[1] {
			t.Errorf("nameKey(%q) = %q, want %q", tt[0], got, tt[1])
		}
	}
}

func TestPickDays(t *testing.T) {
	vs, err := loadVenues(rand.New(rand.NewPCG(1, streamVenues)))
	if err != nil {
		t.Fatal(err)
	}
	today := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	days := pickDays(rand.New(rand.NewPCG(1, 1)), vs[0], today, 100)
	if len(days) != 100 || days[0] < 0 || days[99] >= horizon {
		t.Fatalf("pickDays = %v", days)
	}
	for i := 1; i < len(days); i++ {
		if days[i] <= days[i-1] {
			t.Fatalf("pickDays not strictly ascending: %v", days)
		}
	}
}

func buildDefault(t *testing.T) *corpus {
	t.Helper()
	c, err := build(Options{Today: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// concertsOf returns the expected merges by concert id.
func concertsOf(c *corpus) map[string][]mergeRecord {
	out := map[string][]mergeRecord{}
	for _, m := range c.merges() {
		out[m.ID] = m.Records
	}
	return out
}

func sourcesOf(recs []mergeRecord) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		out[r.Source] = true
	}
	return out
}

// TestAdversarialCases checks the shows that must stay apart: tribute acts beside the
// acts they copy, near-named acts, early and late shows under one title.
func TestAdversarialCases(t *testing.T) {
	c := buildDefault(t)
	merges := concertsOf(c)
	recs := func(g *gig) []mergeRecord { return merges[concertID(g.concert)] }
	date := func(g *gig) string { return g.start.Format(dateLayout) }
	tributes, nearNames, earlyLate := 0, 0, 0
	for _, v := range c.venues {
		for _, g := range v.gigs {
			if strings.Contains(g.name, "ribute to") || strings.Contains(g.name, "The Music of") {
				for _, o := range v.gigs {
					if o == g || date(o) != date(g) || !strings.Contains(g.name, o.acts[0].name) {
						continue
					}
					a, b := sourcesOf(recs(g)), sourcesOf(recs(o))
					if len(a) == 0 || len(b) == 0 || o.concert == g.concert || maps.Equal(a, b) {
						t.Errorf("%s: tribute %q and %q: sources %v and %v", v.key, g.name, o.acts[0].name, a, b)
					}
					tributes++
				}
			}
			for _, o := range v.gigs {
				if o != g && date(o) == date(g) && slices.Contains(nearNamePairs, [2]string{g.acts[0].name, o.acts[0].name}) {
					if len(recs(g)) == 0 || len(recs(o)) == 0 || o.concert == g.concert {
						t.Errorf("%s: %q and %q share a concert or lack records", v.key, g.acts[0].name, o.acts[0].name)
					}
					nearNames++
				}
			}
			if p := g.partner; p != nil && p.start.After(g.start) {
				for _, l := range g.listings {
					if pl := p.listingOn(l.p); pl != nil && pl.l.Name == l.l.Name && len(recs(g)) > 1 && len(recs(p)) > 1 {
						earlyLate++
					}
				}
			}
		}
	}
	if tributes != tributeOnPlatform+tributeOnPage || nearNames != nearNameCount || earlyLate == 0 {
		t.Errorf("%d tribute pairs, %d near-name pairs, %d early and late pairs under one title on a platform", tributes, nearNames, earlyLate)
	}
	found := false
	for _, p := range nearNamePairs[:1] {
		for _, a := range c.made {
			found = found || a.name == p[1]
		}
	}
	if !found {
		t.Error("no Daughter and Daughters")
	}
	if len(c.residencies) != residencyCount || c.brokenOnly != brokenSiteOnlyListed {
		t.Errorf("%d residencies, %d broken sites leaving a show to the platforms", len(c.residencies), c.brokenOnly)
	}
	misdated := 0
	for _, v := range c.venues {
		for _, g := range v.gigs {
			if g.misdated {
				misdated++
				if len(g.listings) == 0 {
					t.Errorf("misdated show %s is on no platform", concertID(g.concert))
				}
			}
		}
	}
	if misdated != misdatedCount {
		t.Errorf("%d misdated shows, want %d", misdated, misdatedCount)
	}
}

// TestEveryZoneCase checks, for every venue site in any format, a show on each day its zone
// changes offset, and that the corpus has venues at +05:30, +05:45 and −03:30 in every
// format.
func TestEveryZoneCase(t *testing.T) {
	c := buildDefault(t)
	offsets := map[[2]int]bool{} // format, offset
	for _, v := range c.venues {
		if v.site == nil {
			continue
		}
		_, off := c.today.In(v.loc).Zone()
		offsets[[2]int{int(v.site.format), off}] = true
		from := time.Date(c.today.Year(), c.today.Month(), c.today.Day(), 0, 0, 0, 0, v.loc)
		for _, ch := range zoneChanges(v.loc, from, from.AddDate(0, 0, horizon)) {
			day := ch.Format(dateLayout)
			ok := false
			for _, g := range v.listed() {
				ok = ok || g.start.Format(dateLayout) == day && g.start.Hour() >= 17 && !g.dateOnly
			}
			if !ok && dayIndex(c.today, ch) < horizon {
				t.Errorf("%s (%s): no evening show on %s", v.key, formatNames[v.site.format], day)
			}
		}
	}
	for f := range formatCount {
		for _, off := range []int{5*3600 + 1800, 5*3600 + 2700, -(3*3600 + 1800)} {
			if !offsets[[2]int{int(f), off}] && f == jsonLD {
				t.Errorf("no %s venue at offset %+d s", formatNames[f], off)
			}
		}
	}
}

// TestActsPlayOneVenueANight checks every show of the model, platform-only ones included.
func TestActsPlayOneVenueANight(t *testing.T) {
	for _, rev := range []int{0, 1} {
		c, err := build(Options{Today: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), Seed: 1, Revision: rev})
		if err != nil {
			t.Fatal(err)
		}
		where := map[[2]string]string{} // act, night → venue
		for _, v := range c.venues {
			for _, g := range v.gigs {
				night := g.start
				if night.Hour() < 6 {
					night = night.AddDate(0, 0, -1)
				}
				for _, a := range g.acts {
					k := [2]string{a.name, night.Format(dateLayout)}
					if w, ok := where[k]; ok && w != v.key {
						t.Errorf("revision %d: %s plays %s and %s on %s", rev, a.name, w, v.key, k[1])
					}
					where[k] = v.key
				}
			}
		}
	}
}

func TestICalFolding(t *testing.T) {
	for _, naive := range []bool{false, true} {
		w := &icsWriter{eol: "\r\n", naive: naive}
		line := "DESCRIPTION:" + strings.Repeat("ø", 100)
		w.line(line)
		out := w.b.String()
		joined := strings.ReplaceAll(out, "\r\n ", "")
		if joined != line+"\r\n" {
			t.Errorf("naive %v: unfolding gives %q", naive, joined)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n") {
			if len(l) > 75 || !naive && !utf8.ValidString(l) {
				t.Errorf("naive %v: line %q", naive, l)
			}
		}
	}
}
