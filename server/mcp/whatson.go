package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gigs/gigs/engine"
)

// city is what whats_on needs of a city of /v1/cities.
type city struct {
	Slug     string   `json:"slug"`
	Name     string   `json:"name"`
	Country  string   `json:"country"`
	Timezone string   `json:"timezone"`
	Lat      *float64 `json:"lat"`
	Lon      *float64 `json:"lon"`
	Upcoming int      `json:"upcoming_gigs"`

	key string // the name folded, as the API matches names
}

// cityCache keeps /v1/cities read, with its ETag: each use asks the API again with
// If-None-Match, which answers 304 while the data is unchanged (hourly at most).
type cityCache struct {
	mu     sync.Mutex
	etag   string
	cities []city                    // immutable once stored
	zones  map[string]*time.Location // loaded zones, by name; at most the cities' zones
}

// get returns the cities of the data the API serves now.
func (c *cityCache) get(ctx context.Context, r Reader) ([]city, *sdk.CallToolResult) {
	c.mu.Lock()
	etag, cities := c.etag, c.cities
	c.mu.Unlock()
	resp, err := r.Read(ctx, "/v1/cities", nil, etag)
	if err == nil && resp.Status == 304 && cities != nil {
		return cities, nil
	}
	resp, fail := answer(resp, err, nil)
	if fail != nil {
		return nil, fail
	}
	var dir struct{ Data []city }
	if err := json.Unmarshal(resp.Body, &dir); err != nil {
		return nil, toolError(problem{Detail: "the API's cities could not be read: " + err.Error()})
	}
	for i := range dir.Data {
		dir.Data[i].key = engine.Fold(dir.Data[i].Name)
	}
	c.mu.Lock()
	c.etag, c.cities = resp.ETag, dir.Data
	c.mu.Unlock()
	return dir.Data, nil
}

// zone returns the named zone, UTC when it cannot be loaded.
func (c *cityCache) zone(name string) *time.Location {
	c.mu.Lock()
	defer c.mu.Unlock()
	if loc, ok := c.zones[name]; ok {
		return loc
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = time.UTC
	}
	if c.zones == nil {
		c.zones = map[string]*time.Location{}
	}
	c.zones[name] = loc
	return loc
}

// whatsOn answers whats_on: the place resolved to a city (or coordinates and the zone
// of the city nearest them), the span read in its zone, then a page of /v1/gigs.
func (t *tools) whatsOn(ctx context.Context, a args) *sdk.CallToolResult {
	place := strings.TrimSpace(a["place"])
	q := url.Values{}
	for _, p := range []string{"genre", "radius", "page_size"} {
		if v, ok := a[p]; ok {
			q.Set(p, v)
		}
	}
	if v, ok := a["cursor"]; ok {
		q.Set("after", v)
	}
	var bad []invalidParam
	var countries []string
	if v, ok := a["country"]; ok {
		for c := range strings.SplitSeq(v, ",") {
			code, ok := engine.CountryCode(strings.TrimSpace(c))
			if !ok {
				bad = append(bad, invalidParam{"country", "must be countries: ISO 3166-1 codes such as PT or gb, or names such as Portugal"})
				break
			}
			countries = append(countries, code)
		}
	}
	lat, lon, isPoint := parsePoint(place)
	if isPoint && (math.Abs(lat) > 90 || math.Abs(lon) > 180) {
		bad = append(bad, invalidParam{"place", "coordinates must be LAT,LON with the latitude within -90 and 90, the longitude within -180 and 180"})
	}
	if _, ok := a["radius"]; ok && !isPoint {
		bad = append(bad, invalidParam{"radius", "only with coordinates as place"})
	}
	switch {
	case place == "":
		bad = append(bad, invalidParam{"place", "must not be empty"})
	case len(place) > 200:
		bad = append(bad, invalidParam{"place", "must be at most 200 bytes"})
	}
	if len(a["when"]) > 40 {
		bad = append(bad, invalidParam{"when", "must be at most 40 bytes"})
	}
	if bad != nil {
		return invalid(bad)
	}
	cities, fail := t.cities.get(ctx, t.o.Reader)
	if fail != nil {
		return fail
	}
	var c *city
	var others []string
	if isPoint {
		c = nearest(cities, lat, lon)
		q.Set("near", place)
	} else {
		c, others = named(cities, place, countries)
		if c == nil {
			return invalid([]invalidParam{{"place", fmt.Sprintf("no city named %q has venues in the listings; list_cities lists them", place)}})
		}
		q.Set("city", c.Slug)
	}
	loc := time.UTC
	if c != nil {
		loc = t.cities.zone(c.Timezone)
	}
	now := t.o.Now().In(loc)
	sp, err := parseWhen(a["when"], now)
	if err != nil {
		return invalid([]invalidParam{{"when", err.Error()}})
	}
	switch {
	case !sp.from.IsZero():
		q.Set("from", sp.from.Format(time.RFC3339))
	case !sp.fromDate.IsZero():
		q.Set("from", sp.fromDate.Format(time.DateOnly))
	}
	q.Set("to", sp.to.Format(time.DateOnly))
	var header string
	switch {
	case isPoint && c != nil:
		radius := cmpOr(a["radius"], "25km")
		header = fmt.Sprintf("What's on within %s of %s (near %s, %s; times in %s), %s:", radius, place, c.Name, c.Country, c.Timezone, sp.describe(now))
	case isPoint:
		header = fmt.Sprintf("What's on within %s of %s (times in UTC), %s:", cmpOr(a["radius"], "25km"), place, sp.describe(now))
	default:
		header = fmt.Sprintf("What's on in %s, %s (%s), %s:", c.Name, c.Country, c.Timezone, sp.describe(now))
		if len(others) > 0 {
			header += fmt.Sprintf("\nAlso named %s: %s (give country, or the slug as place).", place, strings.Join(others, ", "))
		}
	}
	rename := map[string]string{"after": "cursor", "from": "when", "to": "when", "city": "place", "near": "place"}
	return t.gigsPage(ctx, q, rename, "whats_on", header)
}

func cmpOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// parsePoint reads "LAT,LON" in decimal degrees.
func parsePoint(s string) (lat, lon float64, ok bool) {
	a, b, found := strings.Cut(s, ",")
	if !found {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	lon, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	return lat, lon, err1 == nil && err2 == nil && !math.IsNaN(lat) && !math.IsNaN(lon)
}

// named returns the city a place names, by slug or by name as the API matches names
// (case, accents and punctuation aside), in one of countries when given; among several
// the one with most upcoming gigs, and the slugs of the others.
func named(cities []city, place string, countries []string) (*city, []string) {
	key := engine.Fold(place)
	var best *city
	var others []string
	for i := range cities {
		c := &cities[i]
		if c.Slug != place && c.key != key || len(countries) > 0 && !contains(countries, c.Country) {
			continue
		}
		if c.Slug == place { // a slug names that one city alone
			return c, nil
		}
		if best == nil || c.Upcoming > best.Upcoming {
			if best != nil {
				others = append(others, best.Slug)
			}
			best = c
		} else {
			others = append(others, c.Slug)
		}
	}
	return best, others
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// nearest returns the city whose centre is nearest the point; nil when none has one.
func nearest(cities []city, lat, lon float64) *city {
	var best *city
	bestD := math.Inf(1)
	for i := range cities {
		c := &cities[i]
		if c.Lat == nil || c.Lon == nil {
			continue
		}
		if d := engine.DistanceKm(lat, lon, *c.Lat, *c.Lon); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
