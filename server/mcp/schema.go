package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gigs/gigs/server/openapi"
)

// document is the OpenAPI document, decoded once: the source of the tools' parameters.
type document struct {
	root map[string]any
}

func loadDocument() (*document, error) {
	var root map[string]any
	if err := json.Unmarshal(openapi.Document, &root); err != nil {
		return nil, fmt.Errorf("the OpenAPI document is not JSON: %w", err)
	}
	return &document{root}, nil
}

// pointer returns the value at a local JSON pointer ("#/components/parameters/City").
func (d *document) pointer(ref string) (any, error) {
	tail, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, fmt.Errorf("reference %q is not local", ref)
	}
	var v any = d.root
	for _, tok := range strings.Split(tail, "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, _ := v.(map[string]any)
		if v = m[tok]; v == nil {
			return nil, fmt.Errorf("reference %q names nothing", ref)
		}
	}
	return v, nil
}

// inline returns v with every local $ref replaced by a copy of what it names, so that
// a schema stands alone (MCP tool schemas have no components to refer to).
func (d *document) inline(v any, depth int) (any, error) {
	if depth > 20 {
		return nil, fmt.Errorf("references nest deeper than 20")
	}
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			target, err := d.pointer(ref)
			if err != nil {
				return nil, err
			}
			out, err := d.inline(target, depth+1)
			if err != nil {
				return nil, err
			}
			if len(v) > 1 { // siblings of $ref (a description) add to what it names
				m := copyMap(out.(map[string]any))
				for k, s := range v {
					if k != "$ref" {
						m[k] = s
					}
				}
				out = m
			}
			return out, nil
		}
		out := make(map[string]any, len(v))
		for k, s := range v {
			c, err := d.inline(s, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, s := range v {
			c, err := d.inline(s, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// parameter returns the named component parameter ("City") as a tool property: its
// schema, references inlined, with the parameter's description.
func (d *document) parameter(component string) (map[string]any, error) {
	p, err := d.pointer("#/components/parameters/" + component)
	if err != nil {
		return nil, err
	}
	pm, _ := p.(map[string]any)
	s, err := d.inline(pm["schema"], 0)
	if err != nil {
		return nil, fmt.Errorf("parameter %s: %w", component, err)
	}
	prop, ok := s.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("parameter %s has no schema", component)
	}
	prop = copyMap(prop)
	if desc, ok := pm["description"].(string); ok {
		prop["description"] = desc
	}
	return prop, nil
}

// operationParams returns the component names of an operation's query parameters, in
// the document's order: "/v1/gigs" gives City, Country, ….
func (d *document) operationParams(path string) ([]string, error) {
	op, err := d.pointer("#/paths/" + strings.ReplaceAll(path, "/", "~1") + "/get")
	if err != nil {
		return nil, err
	}
	params, _ := op.(map[string]any)["parameters"].([]any)
	var names []string
	for _, p := range params {
		ref, _ := p.(map[string]any)["$ref"].(string)
		name, ok := strings.CutPrefix(ref, "#/components/parameters/")
		if !ok {
			return nil, fmt.Errorf("%s: a parameter is not a component", path)
		}
		target, err := d.pointer(ref)
		if err != nil {
			return nil, err
		}
		if in, _ := target.(map[string]any)["in"].(string); in == "query" {
			names = append(names, name)
		}
	}
	return names, nil
}

// paramName is the query parameter name of a component parameter.
func (d *document) paramName(component string) string {
	p, _ := d.pointer("#/components/parameters/" + component)
	name, _ := p.(map[string]any)["name"].(string)
	return name
}
