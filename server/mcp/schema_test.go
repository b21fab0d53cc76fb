package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gigs/gigs/server/openapi"
)

// listTools lists the tools of a server over the SDK's in-memory transport, as a client
// sees them (tools/list makes no read).
func listTools(t *testing.T) []*sdk.Tool {
	t.Helper()
	s, err := NewServer(Options{Reader: &HTTPReader{}})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

// TestSchemasAreTheOpenAPIParameters holds every tool argument that is an API parameter
// equal to the OpenAPI document's definition of it, as a client lists it: the
// parameter's schema ($refs resolved) and its description (after the tool's own words,
// for the few that add some). find_gigs takes every query parameter of /v1/gigs.
func TestSchemasAreTheOpenAPIParameters(t *testing.T) {
	var doc struct {
		Paths map[string]struct {
			Get struct {
				Parameters []struct {
					Ref string `json:"$ref"`
				}
			}
		}
		Components struct {
			Parameters map[string]struct {
				Name, In, Description string
				Schema                map[string]any
			}
			Schemas map[string]any
		}
	}
	if err := json.Unmarshal(openapi.Document, &doc); err != nil {
		t.Fatal(err)
	}
	// Query or path parameter name to component: /v1/gigs's first, as the tools' filters are
	// its parameters (a directory's q and near are other components of the same names).
	byName := map[string]string{}
	for _, p := range doc.Paths["/v1/gigs"].Get.Parameters {
		c := strings.TrimPrefix(p.Ref, "#/components/parameters/")
		byName[doc.Components.Parameters[c].Name] = c
	}
	for c, p := range doc.Components.Parameters {
		if p.In == "query" && byName[p.Name] == "" || p.In == "path" {
			byName[p.Name] = c
		}
	}
	byName["id"], byName["slug"] = "GigId", "VenueSlug"
	cityParam := map[string]string{} // list_cities's arguments are /v1/cities's parameters
	for _, p := range doc.Paths["/v1/cities"].Get.Parameters {
		c := strings.TrimPrefix(p.Ref, "#/components/parameters/")
		cityParam[doc.Components.Parameters[c].Name] = c
	}
	// A $ref in a parameter's schema, resolved by hand: GigStatus is the only one.
	status := doc.Components.Parameters["Status"].Schema["items"].(map[string]any)
	if ref, _ := status["$ref"].(string); ref != "#/components/schemas/GigStatus" {
		t.Fatalf("Status items: %v; the test resolves only GigStatus", status)
	}
	own := map[string]bool{"whats_on.place": true, "whats_on.when": true}
	tools := listTools(t)
	seen := map[string]bool{}
	for _, tool := range tools {
		props := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		for name, v := range props {
			prop := v.(map[string]any)
			if own[tool.Name+"."+name] {
				if prop["description"] == "" {
					t.Errorf("%s.%s has no description", tool.Name, name)
				}
				continue
			}
			api := name
			if name == "cursor" {
				api = "after"
			}
			component := byName[api]
			if c := cityParam[name]; tool.Name == "list_cities" && c != "" {
				component = c
			}
			if tool.Name == "get_artist" && name == "slug" {
				component = "ArtistSlug"
			}
			p, ok := doc.Components.Parameters[component]
			if !ok {
				t.Errorf("%s.%s is no parameter of the OpenAPI document", tool.Name, name)
				continue
			}
			want := maps.Clone(p.Schema)
			if component == "Status" {
				want["items"] = doc.Components.Schemas["GigStatus"]
			}
			got := maps.Clone(prop)
			desc, _ := got["description"].(string)
			delete(got, "description")
			if !strings.HasSuffix(desc, p.Description) || len(p.Description) == 0 {
				t.Errorf("%s.%s: description %q does not end with the parameter's %q", tool.Name, name, desc, p.Description)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("%s.%s: schema\n%s\nwant the parameter %s's\n%s", tool.Name, name, g, component, w)
			}
			seen[tool.Name+"."+api] = true
		}
	}
	for tool, path := range map[string]string{"find_gigs": "/v1/gigs", "list_cities": "/v1/cities"} {
		for _, p := range doc.Paths[path].Get.Parameters {
			c := strings.TrimPrefix(p.Ref, "#/components/parameters/")
			if cp := doc.Components.Parameters[c]; cp.In == "query" && !seen[tool+"."+cp.Name] {
				t.Errorf("%s does not take %s's %s", tool, path, cp.Name)
			}
		}
	}
	names := []string{}
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if want := []string{"find_gigs", "get_artist", "get_gig", "get_venue", "list_cities", "list_genres", "whats_on"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}
