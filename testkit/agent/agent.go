// Package agent is an MCP client that uses the tools of package server/mcp as an agent
// would, with the SDK's own client: tests drive it over each transport (streamable HTTP
// at gigsd's /mcp, stdio through gigsctl mcp) against gigs on a real listener.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools are the tools the server must list.
var Tools = []string{"find_gigs", "get_artist", "get_gig", "get_venue", "list_cities", "list_genres", "whats_on"}

// Call calls a tool and returns its result; a failure of the protocol fails the test.
func Call(t testing.TB, cs *sdk.ClientSession, tool string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return res
}

// Text is a result's text content.
func Text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// Structured decodes a result's structured content into v.
func Structured(t testing.TB, res *sdk.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

// gig is the part of a gig the checks read.
type gig struct {
	ID    string `json:"id"`
	Date  string `json:"date"`
	Venue struct {
		Slug     string
		Lat, Lon *float64
	}
	City    struct{ Slug, Name string }
	Country string `json:"country"`
	Artists []struct{ Slug string }
}

// gigs is the part of a /v1/gigs page the checks read.
type gigs struct {
	Data  []gig
	Meta  struct{ Total int }
	Links struct{ Next string }
}

// Exercise lists the tools and calls each as an agent would, checking what it sees:
// every tool listed, each call answered with the API's JSON and a line per gig, a
// second page through the cursor the first gave, and tool errors naming the argument
// for bad arguments. The data is whatever the server holds (with gigs in several
// cities); the calls are made from what earlier answers said.
func Exercise(t *testing.T, cs *sdk.ClientSession) {
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", tool.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, Tools) {
		t.Fatalf("tools %v, want %v", names, Tools)
	}

	// A first page of five, and the next through its cursor: no gig twice.
	res := Call(t, cs, "find_gigs", map[string]any{"page_size": 5})
	var p1, p2 gigs
	Structured(t, res, &p1)
	if res.IsError || len(p1.Data) != 5 || strings.Count(Text(res), " · id ") != 5 {
		t.Fatalf("find_gigs page_size 5: %v\n%s", res.IsError, Text(res))
	}
	_, cursor, ok := strings.Cut(Text(res), "cursor \"")
	if !ok {
		t.Fatalf("find_gigs: no cursor in %s", Text(res))
	}
	cursor, _, _ = strings.Cut(cursor, "\"")
	res = Call(t, cs, "find_gigs", map[string]any{"page_size": 5, "cursor": cursor})
	Structured(t, res, &p2)
	if res.IsError || len(p2.Data) != 5 || p2.Data[0].ID == p1.Data[4].ID || p2.Meta.Total != p1.Meta.Total {
		t.Fatalf("find_gigs cursor %q: %s", cursor, Text(res))
	}
	g := p1.Data[0]

	// Filters as lists, or as one string.
	for _, city := range []any{[]string{g.City.Name}, g.City.Slug} {
		var p gigs
		res = Call(t, cs, "find_gigs", map[string]any{"city": city, "country": []string{g.Country}})
		Structured(t, res, &p)
		if res.IsError || len(p.Data) == 0 || slices.ContainsFunc(p.Data, func(x gig) bool {
			return x.City.Slug != g.City.Slug
		}) {
			t.Errorf("find_gigs city %v: %s", city, Text(res))
		}
	}

	var one struct{ Data struct{ ID string } }
	res = Call(t, cs, "get_gig", map[string]any{"id": g.ID})
	Structured(t, res, &one)
	if res.IsError || one.Data.ID != g.ID || !strings.Contains(Text(res), g.ID) {
		t.Errorf("get_gig %s: %s", g.ID, Text(res))
	}

	var venue struct {
		Data struct {
			Slug     string
			Upcoming []json.RawMessage
		}
	}
	res = Call(t, cs, "get_venue", map[string]any{"slug": g.Venue.Slug, "page_size": 1})
	Structured(t, res, &venue)
	if res.IsError || venue.Data.Slug != g.Venue.Slug || len(venue.Data.Upcoming) != 1 {
		t.Errorf("get_venue %s: %s", g.Venue.Slug, Text(res))
	}
	var artist struct {
		Data struct {
			Slug     string
			Upcoming []json.RawMessage
		}
	}
	res = Call(t, cs, "get_artist", map[string]any{"slug": g.Artists[0].Slug})
	Structured(t, res, &artist)
	if res.IsError || artist.Data.Slug != g.Artists[0].Slug || len(artist.Data.Upcoming) == 0 || len(artist.Data.Upcoming) > 20 {
		t.Errorf("get_artist %s: %s", g.Artists[0].Slug, Text(res))
	}

	for _, tool := range []string{"list_cities", "list_genres"} {
		var dir struct {
			Data []struct{ Slug string }
			Meta struct{ Count, Total int } // the whole genres' count; a page of cities' total
		}
		res = Call(t, cs, tool, map[string]any{"page_size": 2, "page": 2})
		Structured(t, res, &dir)
		if res.IsError || len(dir.Data) != 2 || max(dir.Meta.Count, dir.Meta.Total) < 4 || !strings.Contains(Text(res), "page 3") {
			t.Errorf("%s page 2: %s", tool, Text(res))
		}
	}
	// list_cities by the words of the first gig's city, and near its venue.
	var cities struct{ Data []struct{ Slug string } }
	res = Call(t, cs, "list_cities", map[string]any{"q": g.City.Name, "page_size": 100})
	Structured(t, res, &cities)
	if res.IsError || !slices.ContainsFunc(cities.Data, func(c struct{ Slug string }) bool { return c.Slug == g.City.Slug }) {
		t.Errorf("list_cities q=%s: %s", g.City.Name, Text(res))
	}

	// whats_on in the first gig's city on its date: that gig is listed.
	var on gigs
	res = Call(t, cs, "whats_on", map[string]any{"place": g.City.Name, "country": []string{g.Country}, "when": g.Date, "page_size": 100})
	Structured(t, res, &on)
	if res.IsError || !slices.ContainsFunc(on.Data, func(x gig) bool {
		return x.ID == g.ID
	}) {
		t.Errorf("whats_on %s %s: %s", g.City.Name, g.Date, Text(res))
	}

	// whats_on near the gig's venue on its date: listed too, with its distance.
	if g.Venue.Lat != nil {
		place := fmt.Sprintf("%f,%f", *g.Venue.Lat, *g.Venue.Lon)
		res = Call(t, cs, "whats_on", map[string]any{"place": place, "radius": "2km", "when": g.Date + ".." + g.Date, "page_size": 100})
		Structured(t, res, &on)
		if res.IsError || !slices.ContainsFunc(on.Data, func(x gig) bool { return x.ID == g.ID }) || !strings.Contains(Text(res), " km · ") {
			t.Errorf("whats_on %s %s: %s", place, g.Date, Text(res))
		}
	}

	// Bad arguments: tool errors that name them.
	for _, c := range []struct {
		tool  string
		args  map[string]any
		named string
	}{
		{"find_gigs", map[string]any{"page_size": 1000}, "page_size"},
		{"find_gigs", map[string]any{"near": "153.55,9.99"}, "near"},
		{"find_gigs", map[string]any{"cursor": "nonsense"}, "cursor"},
		{"find_gigs", map[string]any{"town": "Lisbon"}, "town"},
		{"find_gigs", map[string]any{"city": 7}, "city"},
		{"get_gig", map[string]any{"id": "no-such-gig"}, "no upcoming gig"},
		{"get_venue", map[string]any{"slug": g.Venue.Slug, "page_size": 0}, "page_size"},
		{"whats_on", map[string]any{"place": g.City.Name, "when": "someday"}, "when"},
		{"whats_on", map[string]any{"place": "Atlantis"}, "place"},
		{"whats_on", map[string]any{"place": g.City.Name, "radius": "5km"}, "radius"},
		{"whats_on", map[string]any{"place": "91,0"}, "place"},
		{"whats_on", map[string]any{"place": g.City.Name, "when": "2026-12-24..2026-12-01"}, "when"},
	} {
		res = Call(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(Text(res), c.named) {
			t.Errorf("%s %v: want a tool error naming %s, got %v: %s", c.tool, c.args, c.named, res.IsError, Text(res))
		}
	}
}
