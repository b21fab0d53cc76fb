package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// A discoveryRow is one of the discovery queries (issue 37) measured side by side with a
// ceiling of its own: a minimal server answering the bytes gigsd answered for it. Each
// request asks for no stored answer (noMemo), so the page memo never answers it: gigsd runs
// it for every request.
type discoveryRow struct {
	Name, Path   string
	Goal         float64 // the share of its ceiling the issue asks for at 1M; 0: none
	Own, Ceiling []wrkResult
	Bytes, Gigs  int    // the answer's size and its gigs
	Total        int    // the answer's meta.total
	CeilingFile  string // the recorded answer the ceiling serves
}

// discoveryPaths are the discovery queries of a dataset: gigs within 25 km of its busiest
// city's centre over the next 30 days, the same by distance, its most common title word
// in that city, and that word within 25 km of the centre (the page the PostgreSQL peer
// answers too, nearQName). base serves the dataset; city is the busiest city's slug.
func discoveryPaths(base, city string) ([]discoveryRow, error) {
	day := time.Now().UTC().AddDate(0, 0, 30).Format(time.DateOnly)
	var cities struct {
		Data []struct {
			Slug     string
			Lat, Lon *float64
		}
	}
	if err := getJSON(base+"/v1/cities", &cities); err != nil {
		return nil, err
	}
	i := slices.IndexFunc(cities.Data, func(c struct {
		Slug     string
		Lat, Lon *float64
	}) bool {
		return c.Slug == city
	})
	if i < 0 || cities.Data[i].Lat == nil || cities.Data[i].Lon == nil {
		return nil, fmt.Errorf("/v1/cities gives no coordinates for %q", city)
	}
	near := strconv.FormatFloat(*cities.Data[i].Lat, 'f', 4, 64) + "," + strconv.FormatFloat(*cities.Data[i].Lon, 'f', 4, 64)
	var gigs struct{ Data []struct{ Title string } }
	if err := getJSON(base+"/v1/gigs?page_size=100&city="+url.QueryEscape(city), &gigs); err != nil {
		return nil, err
	}
	titles := make([]string, len(gigs.Data))
	for i, g := range gigs.Data {
		titles[i] = g.Title
	}
	word := commonWord(titles)
	if word == "" {
		return nil, fmt.Errorf("no word of three letters or more in the titles of %q", city)
	}
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return "/v1/gigs?" + v.Encode()
	}
	return []discoveryRow{
		{Name: "near, 25 km, 30 days", Goal: 0.70, Path: q("near", near, "radius", "25km", "to", day)},
		{Name: "near, 25 km, 30 days, sort=distance", Goal: 0.50, Path: q("near", near, "radius", "25km", "to", day, "sort", "distance")},
		{Name: "q, one common word, and a city", Goal: 0.70, Path: q("q", word, "city", city)},
		{Name: nearQName, Path: q("near", near, "radius", "25km", "q", word)},
	}, nil
}

// nearQName names the discovery row of near and q, which has no goal against its ceiling
// but one against PostgreSQL (see measurePeer).
const nearQName = "near, 25 km, and q, one common word"

// commonWord returns the most frequent word of three letters or more in titles, in lower
// case (the first in title order on a tie); "" when there is none.
func commonWord(titles []string) string {
	counts := map[string]int{}
	var order []string
	for _, t := range titles {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len([]rune(w)) < 3 {
				continue
			}
			if counts[w] == 0 {
				order = append(order, w)
			}
			counts[w]++
		}
	}
	best := ""
	for _, w := range order {
		if counts[w] > counts[best] {
			best = w
		}
	}
	return best
}

// record keeps gigsd's answer to the row's query as its ceiling's, and checks that it is
// a page of gigs that is not empty: a query that matched nothing measures nothing.
func (d *discoveryRow) record(base, work string, i int) error {
	status, body, header := get(base+d.Path, nil)
	if status != 200 {
		return fmt.Errorf("%s: %d: %.300s", d.Path, status, body)
	}
	var page struct {
		Data []json.RawMessage
		Meta struct{ Total int }
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return fmt.Errorf("%s: %w", d.Path, err)
	}
	if len(page.Data) == 0 {
		return fmt.Errorf("%s matched no gig", d.Path)
	}
	d.Bytes, d.Gigs, d.Total = len(body), len(page.Data), page.Meta.Total
	d.CeilingFile = filepath.Join(work, "ceiling-discovery-"+strconv.Itoa(i)+".json")
	return writeCeiling(d.CeilingFile, d.Path, header, body)
}

// measureDiscovery runs each row's ceiling, then gigsd, m.Runs times, side by side.
func measureDiscovery(ctx context.Context, m mode, cfg benchConfig, work, base string, rows []discoveryRow, rep *report) error {
	for i := range rows {
		d := &rows[i]
		if err := d.record(base, work, i); err != nil {
			return err
		}
		for range m.Runs {
			cr, err := runCeiling(ctx, cfg, work, d.CeilingFile, "ceiling", wrkRun{URL: d.Path, Conns: conns, Dur: m.Dur, CPU: loadCPU}, rep)
			if err != nil {
				return err
			}
			d.Ceiling = append(d.Ceiling, cr)
			own, cmd, err := wrkRun{URL: base + d.Path, Headers: []string{noMemo}, Conns: conns, Dur: m.Dur, CPU: loadCPU}.run(ctx, work)
			if err != nil {
				return err
			}
			rep.command("discovery", cmd)
			d.Own = append(d.Own, own)
		}
	}
	return nil
}

// getJSON decodes the JSON answer of a GET that must succeed.
func getJSON(u string, dst any) error {
	status, body, _ := get(u, nil)
	if status != 200 {
		return fmt.Errorf("%s: %d", u, status)
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("%s: %w", u, err)
	}
	return nil
}
