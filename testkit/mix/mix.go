// Package mix is the realistic request mix of the gigs API that the bench loads gigsd with
// and the handler benchmarks replay in memory: 1,000 requests in fixed proportions, made
// from what the server under test lists (its cities, genres, gigs and venues).
package mix

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// Get fetches a path (with its query) from the API under test and returns the status and
// the body.
type Get func(path string) (int, []byte)

// Set is a dataset's request mix.
type Set struct {
	// All is the 1,000 paths in the order they are sent, each kind in its proportion.
	All []string
	// Kinds names the kind of each path of All (same index), for per-kind figures.
	Kinds []string
	// City is the busiest city's slug.
	City string
	// Page is one filtered page: the busiest city, a 30-day range from a week on.
	Page string
	// PageRun is Page's query with its range from now (no from), which the bench sends
	// asking for no stored answer (Cache-Control: no-cache): gigsd runs it for each request.
	PageRun string
}

type city struct {
	Slug, Country string
	Upcoming      int `json:"upcoming_gigs"`
}

// Paths makes the mix from what get lists at now, the same for the same seed and data:
// mostly filtered pages of gigs weighted by the size of their city, some deep pages and
// gig details, few directories. The gigs asked for by id start two days after now or
// later, so that none ends (and is removed) while the mix is replayed.
func Paths(get Get, seed uint64, now time.Time) (Set, error) {
	day := func(offset int) string { return now.UTC().AddDate(0, 0, offset).Format(time.DateOnly) }
	var cities struct{ Data []city }
	var genres struct{ Data []struct{ Slug string } }
	var gigs struct{ Data []struct{ ID string } }
	var venues struct{ Data []struct{ Slug string } }
	for _, l := range []struct {
		path string
		dst  any
	}{{"/v1/cities", &cities}, {"/v1/genres", &genres}, {"/v1/gigs?page_size=100&from=" + day(2), &gigs}, {"/v1/venues", &venues}} {
		status, body := get(l.path)
		if status != 200 {
			return Set{}, fmt.Errorf("%s: %d", l.path, status)
		}
		if err := json.Unmarshal(body, l.dst); err != nil {
			return Set{}, fmt.Errorf("%s: %w", l.path, err)
		}
	}
	if len(cities.Data) == 0 || len(gigs.Data) == 0 || len(genres.Data) == 0 || len(venues.Data) == 0 {
		return Set{}, fmt.Errorf("no data to build the mix from")
	}
	r := rand.New(rand.NewPCG(seed, 1))
	total := 0
	for _, c := range cities.Data {
		total += c.Upcoming
	}
	weighted := func() city { // a city by its upcoming gigs
		k := r.IntN(max(total, 1))
		for _, c := range cities.Data {
			if k -= c.Upcoming; k < 0 {
				return c
			}
		}
		return cities.Data[0]
	}
	genre := func() string { return genres.Data[r.IntN(len(genres.Data))].Slug }
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return "/v1/gigs?" + v.Encode()
	}
	biggest := slices.MaxFunc(cities.Data, func(a, b city) int { return a.Upcoming - b.Upcoming })
	set := Set{City: biggest.Slug, Page: q("city", biggest.Slug, "from", day(7), "to", day(37)), PageRun: q("city", biggest.Slug, "to", day(37))}
	kinds := []struct {
		name  string
		share int // per cent
		path  func() string
	}{
		{"city", 25, func() string { return q("city", weighted().Slug) }},
		{"city range", 15, func() string {
			from := 1 + r.IntN(60)
			return q("city", weighted().Slug, "from", day(from), "to", day(from+14))
		}},
		{"country genre", 10, func() string { return q("country", weighted().Country, "genre", genre()) }},
		{"countries genres range", 5, func() string {
			cc, cc2 := weighted().Country, weighted().Country
			return q("country", cc+","+cc2, "genre", genre()+","+genre(), "from", day(3), "to", day(90), "page_size", "50")
		}},
		{"genre deep page", 10, func() string { return q("genre", genre(), "page", strconv.Itoa(1+r.IntN(20))) }},
		{"deep page", 5, func() string { return q("page", strconv.Itoa(1+r.IntN(100))) }},
		{"gigs", 5, func() string { return "/v1/gigs" }},
		{"gig", 17, func() string { return "/v1/gigs/" + gigs.Data[r.IntN(len(gigs.Data))].ID }},
		{"venue", 5, func() string { return "/v1/venues/" + venues.Data[r.IntN(len(venues.Data))].Slug }},
		{"cities", 2, func() string { return "/v1/cities" }},
		{"genres", 1, func() string { return "/v1/genres" }},
	}
	for _, k := range kinds {
		for range k.share * 10 {
			set.All = append(set.All, k.path())
			set.Kinds = append(set.Kinds, k.name)
		}
	}
	r.Shuffle(len(set.All), func(i, j int) {
		set.All[i], set.All[j] = set.All[j], set.All[i]
		set.Kinds[i], set.Kinds[j] = set.Kinds[j], set.Kinds[i]
	})
	return set, nil
}
