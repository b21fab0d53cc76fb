package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestPostgresNearQ holds the peer's near + q statement to the engine's pages on a real
// snapshot: the same gigs, each with its distance_km, byte for byte, in the same order,
// and the same total, for words in several scripts and spellings (accents, case, width,
// apostrophes, punctuation, the Greek final sigma, a prefix, two words), radii in km and
// miles, a later from and a search that matches nothing; then measures the bench's page
// (the commonest title word around the busiest city) for two seconds.
func TestPostgresNearQ(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	ds := scale.Generate(scale.Config{Gigs: 4000, Seed: 3, Now: now})
	scale.Scripts(ds, 11) // Motörhead, München, Москва, Αθήνα, 東京, 東京ドーム, 서울 올림픽공원
	for i, name := range []string{"Guns N' Roses", "AC/DC", "Sigur Rós & Björk", "Σίσυφος", "Don't Stop Hip-Hop", "ÆTHER_Łódź"} {
		ds.Artists[i+1].Name = name
	}
	ds.Venues[6].Name, ds.Venues[7].Name = "Straße Hall", "ＭＵＮＩＣＨ　Ｈａｌｌ"
	snap, rows := pgTestRows(t, ds, now)

	// The bench's page: the commonest title word within 25 km of the busiest city's centre.
	perCity := map[string]int{}
	for _, r := range rows {
		perCity[r.City]++
	}
	busiest := ds.Cities[0]
	var titles []string
	for _, c := range ds.Cities {
		if perCity[c.Slug] > perCity[busiest.Slug] {
			busiest = c
		}
	}
	for _, r := range rows {
		if r.City == busiest.Slug {
			titles = append(titles, strings.SplitN(r.Search, "\n", 2)[0])
		}
	}
	word := commonWord(titles)

	from := now.Format(time.RFC3339)
	later := now.AddDate(0, 1, 0).Format(time.RFC3339)
	type nearQ struct {
		q    string
		at   string // "": around the first gig q matches; else a city's slug, around its centre
		km   float64
		from string
	}
	queries := []nearQ{
		{word, busiest.Slug, 25, from},
		{string([]rune(word)[:2]), busiest.Slug, 15 * 1.609344, later}, // a prefix, 15 miles
		{"motorhead", ds.Cities[0].Slug, 30, from},
		{"MOTÖR munch", ds.Cities[0].Slug, 30, from},
		{"москва", ds.Cities[1].Slug, 20, from},
		{"ΑΘΗΝΑ", ds.Cities[2].Slug, 20, from},
		{"東京", ds.Cities[3].Slug, 40, from},
		{"guns n roses", "", 25, from},
		{"guns n' roses", "", 25, from},
		{"ac/dc", "", 25, from},
		{"ac dc", "", 25, from},
		{"bjork ros", "", 25, from},
		{"σίσυφοσ", "", 25, from},
		{"dont", "", 25, from},
		{"hip-hop", "", 25, from},
		{"hiphop", busiest.Slug, 25, from}, // nothing: hip and hop are two words
		{"łodz aether", "", 25, from},
		{"strasse", "", 25, from},
		{"munich hall", "", 25, from}, // full-width
		{"zzqx", busiest.Slug, 25, from},
		{word, "", 0.2, from}, // a venue's gigs alone
	}
	var pages []pgPage
	full, empty := 0, 0
	for i, c := range queries {
		eq := engine.AcquireQuery()
		var lat, lon float64
		if c.at == "" {
			if err := eq.Search([]byte(c.q)); err != nil {
				t.Fatalf("%q: %v", c.q, err)
			}
			eq.Limit = 1
			snap.Run(eq)
			if len(eq.Page) == 0 || !rows[eq.Page[0]].HasPos {
				t.Fatalf("%q matches no gig with a position", c.q)
			}
			lat, lon = rows[eq.Page[0]].Lat, rows[eq.Page[0]].Lon
			engine.ReleaseQuery(eq)
			eq = engine.AcquireQuery()
		} else {
			for _, city := range ds.Cities {
				if city.Slug == c.at {
					lat, lon = city.Lat, city.Lon
				}
			}
		}
		eq.Near(lat, lon, c.km, false)
		if err := eq.Search([]byte(c.q)); err != nil {
			t.Fatalf("%q: %v", c.q, err)
		}
		at, _ := time.Parse(time.RFC3339, c.from)
		eq.From, eq.Limit = engine.AtInstant(at), 20
		snap.Run(eq)
		body, _ := snap.AppendQueryPage(nil, eq, engine.PageMeta{}, nil, false)
		var page struct{ Data []json.RawMessage }
		if err := json.Unmarshal(body, &page); err != nil {
			t.Fatal(err)
		}
		switch {
		case eq.Total > len(page.Data):
			full++
		case eq.Total == 0:
			empty++
		}
		p := pgNearQPage(fmt.Sprintf("near+q %q", c.q), c.q, lat, lon, c.km, c.from, page.Data, eq.Total)
		if p.Check = i > 0; !p.Check {
			p.Name = "near+q"
		}
		pages = append(pages, p)
		t.Logf("%q within %g km of %g,%g from %s: %d gigs of %d", c.q, c.km, lat, lon, c.from, len(page.Data), eq.Total)
		engine.ReleaseQuery(eq)
	}
	if full < 3 || empty != 2 || pages[0].Total <= 20 {
		t.Fatalf("%d pages of more than a page, %d empty, the first of %d: the queries test too little", full, empty, pages[0].Total)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res, err := runPostgres(ctx, pgTestDir(t), rows, pages, 1, 2*time.Second, 4, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := res.page("near+q")
	if len(res.Pages) != 1 || m == nil || len(m.TPS) != 1 || m.TPS[0] <= 0 || !strings.Contains(m.SQL, ":q") ||
		!strings.Contains(m.Command, "-D q="+word) {
		t.Fatalf("result %+v", res)
	}
	t.Logf("%s: near+q %.0f tps, %.3f ms average latency\n%s", res.Version, m.TPS[0], m.LatencyMS[0], m.Command)
}
