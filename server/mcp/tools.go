package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the tools of a Server.
type Options struct {
	Reader Reader           // required: the read API the tools call
	Now    func() time.Time // time.Now when nil: what "today" and "this weekend" are measured from
	Logger *slog.Logger     // the SDK's log; nothing when nil
	// Version is the server's version, as it names itself to clients ("v1", the API's,
	// when empty).
	Version string
}

// Page sizes of every tool that lists: the API's own.
const (
	defaultPageSize = 20
	maxPageSize     = 100
)

// NewServer returns an MCP server with the tools over o.Reader; serve it with any
// transport (NewHTTPHandler for streamable HTTP, sdk.StdioTransport for stdio). It keeps
// no state per session.
func NewServer(o Options) (*sdk.Server, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Version == "" {
		o.Version = "v1"
	}
	doc, err := loadDocument()
	if err != nil {
		return nil, err
	}
	t := &tools{o: o}
	defs, err := t.definitions(doc)
	if err != nil {
		return nil, err
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "gigs", Title: "gigs: live music listings", Version: o.Version},
		&sdk.ServerOptions{
			Instructions: instructions,
			Logger:       o.Logger,
			// Tools only: no logging, no list changes (the list is fixed), no subscriptions.
			Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		})
	for _, d := range defs {
		s.AddTool(d.tool, t.handler(d))
	}
	// A stateless server has no session to notify: a subscriptions/listen would only
	// hold its request open.
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "subscriptions/listen" {
				return nil, fmt.Errorf("%s is not supported: this server sends no notifications", method)
			}
			return next(ctx, method, req)
		}
	})
	return s, nil
}

const instructions = `gigs lists upcoming live music gigs (concerts, club nights) worldwide, read-only.
Use whats_on for "what's on in <city> <when>" or near coordinates; find_gigs for any other search
(by city, venue, artist, genre, words, dates, distance); get_gig, get_venue and get_artist for one
item; list_cities (by name or near a point) and list_genres to see what the listings cover. Lists come in pages of 20 (up to
100 with page_size); an answer that has more says which cursor or page to ask for next. Times are
the venue's local time.`

// tools holds what the tool handlers share.
type tools struct {
	o      Options
	cities cityCache
}

// arg is one argument a tool takes: an API parameter (query names it) or the tool's own.
type arg struct {
	name  string
	query string // the API parameter it sets; "" for the tool's own
	typ   string // the schema's type: "array", "integer" or "string"
}

// def is a tool: its definition, arguments and what a call does with them.
type def struct {
	tool *sdk.Tool
	args []arg
	call func(ctx context.Context, a args) *sdk.CallToolResult
}

// args are a call's arguments, by name, in the form the API takes them (alternatives
// joined by commas).
type args map[string]string

// property is an argument's schema: an API parameter's, or the tool's own.
type property struct {
	arg
	component string         // the OpenAPI parameter it comes from; "" for the tool's own
	schema    map[string]any // the tool's own
	prefix    string         // put before the parameter's description
}

// param is an argument that is the API parameter of component, under its own name.
func param(component string) property { return property{component: component} }

func (t *tools) definitions(doc *document) ([]def, error) {
	gigsParams, err := doc.operationParams("/v1/gigs")
	if err != nil {
		return nil, err
	}
	var findProps []property
	for _, c := range gigsParams {
		p := param(c)
		if c == "After" {
			p.name, p.prefix = "cursor", "The cursor of the next page, as a previous answer gave it (its `next` link's `after`); with the same other arguments. "
		}
		findProps = append(findProps, p)
	}
	cityParams, err := doc.operationParams("/v1/cities")
	if err != nil {
		return nil, err
	}
	var cityProps []property
	for _, c := range cityParams {
		cityProps = append(cityProps, param(c))
	}
	pageSize := property{component: "PageSize", prefix: "Items per page. "}
	cursor := property{arg: arg{name: "cursor", query: "after"}, component: "After",
		prefix: "The cursor of the next page, as a previous answer gave it; with the same other arguments. "}
	page := property{component: "Page", prefix: "The page of the list, from 1. "}
	upcoming := property{component: "PageSize", prefix: "How many of the upcoming gigs to show (the first ones, in start order). "}
	specs := []struct {
		name, title, desc string
		props             []property
		required          []string
		call              func(ctx context.Context, a args) *sdk.CallToolResult
	}{
		{"find_gigs", "Find gigs", findDesc, findProps, nil, t.findGigs},
		{"get_gig", "Get a gig", "One gig by its id (the `id` of a gig in any list), with its tickets and sources. A gig merged into another is followed to it.",
			[]property{param("GigId")}, []string{"id"}, t.getGig},
		{"get_venue", "Get a venue", "One venue by its slug (from a gig's `venue.slug`), with its address, coordinates, website and first upcoming gigs; the rest come from find_gigs with its slug as `venue`.",
			[]property{param("VenueSlug"), upcoming}, []string{"slug"}, t.detail("/v1/venues/", "venue")},
		{"get_artist", "Get an artist", "One artist by its slug (from a gig's `artists[].slug`), with its genres, MusicBrainz id and first upcoming tour dates; the rest come from find_gigs with its slug as `artist`.",
			[]property{param("ArtistSlug"), upcoming}, []string{"slug"}, t.detail("/v1/artists/", "artist")},
		{"list_cities", "List cities", "The cities with venues in the listings, in slug order (nearest first with near), with country, time zone, centre and count of upcoming gigs; a page at a time (20, up to 100 with page_size). q finds cities by the start of their names' words, in any script.",
			cityProps, nil, t.listCities},
		{"list_genres", "List genres", "The genres with upcoming gigs, in slug order, with their counts; a page at a time.",
			[]property{page, pageSize}, nil, t.directory("/v1/genres", "genres")},
		{"whats_on", "What's on", whatsOnDesc, []property{
			{arg: arg{name: "place", typ: "string"}, schema: placeSchema},
			{arg: arg{name: "when", typ: "string"}, schema: whenSchema},
			param("Country"), param("Genre"), param("Radius"), pageSize, cursor,
		}, []string{"place"}, t.whatsOn},
	}
	defs := make([]def, 0, len(specs))
	for _, s := range specs {
		d := def{call: s.call}
		props := map[string]any{}
		for _, p := range s.props {
			schema := p.schema
			if p.component != "" {
				if schema, err = doc.parameter(p.component); err != nil {
					return nil, err
				}
				if p.query == "" {
					p.query = doc.paramName(p.component)
				}
				if p.name == "" {
					p.name = p.query
				}
				if p.prefix != "" {
					schema["description"] = p.prefix + schema["description"].(string)
				}
				p.typ, _ = schema["type"].(string)
				if p.typ == "" { // from and to: a date or an instant
					p.typ = "string"
				}
			}
			props[p.name] = schema
			d.args = append(d.args, p.arg)
		}
		input := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if s.required != nil {
			input["required"] = s.required
		}
		d.tool = &sdk.Tool{Name: s.name, Title: s.title, Description: s.desc, InputSchema: input,
			Annotations: &sdk.ToolAnnotations{Title: s.title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}}
		defs = append(defs, d)
	}
	return defs, nil
}

const findDesc = `Upcoming gigs matching every argument given (all optional), a page at a time (20, up to 100
with page_size), in start order (or nearest first with near and sort "distance"). Filters take
lists of alternatives, each a slug or a name in any case and without accents: city ["Lisbon"],
genre ["jazz","soul"]. from and to are dates YYYY-MM-DD in each venue's own time zone (or RFC 3339
instants). q finds words in titles, artists, venues and cities. An answer with more says the
cursor of its next page: call again with the same arguments and that cursor.`

const whatsOnDesc = `What's on in a place over a span of days, in the place's own time zone: the gigs of a city
(by name, as "Lisbon"; add country where names repeat) or within radius (25 km by default) of
coordinates "LAT,LON", from now or the span's start, in start order, a page at a time.`

var placeSchema = map[string]any{"type": "string", "minLength": 1, "maxLength": 200,
	"description": `A city's name or slug ("Lisbon", "sao-paulo"), or coordinates "LAT,LON" in decimal degrees, latitude first ("38.72,-9.14").`}

var whenSchema = map[string]any{"type": "string", "maxLength": 40, "default": "today",
	"description": `The span, in the place's time zone: "today" (the default: from now to the end of the day), "tonight" (from 18:00), "tomorrow", "this weekend" (Friday from 18:00 to Sunday), "next weekend", "this week" (to Sunday), "next week" (Monday to Sunday), "this month", "next month", a weekday ("friday": the next one, today included), a date "YYYY-MM-DD", or dates "YYYY-MM-DD..YYYY-MM-DD" (both included).`}

// handler returns the SDK handler of a tool: its arguments read and checked against its
// schema's names and types, then its call.
func (t *tools) handler(d def) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		a, bad := readArgs(d.args, req.Params.Arguments)
		if len(bad) > 0 {
			return invalid(bad), nil
		}
		return d.call(ctx, a), nil
	}
}

// readArgs reads a call's JSON arguments: known names only, each of its type. A list
// may also be given as one string (its alternatives separated by commas, as the API
// takes them); an alternative may not hold a comma.
func readArgs(known []arg, raw json.RawMessage) (args, []invalidParam) {
	var in map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, []invalidParam{{"arguments", "must be a JSON object"}}
		}
	}
	out := args{}
	var bad []invalidParam
	for _, name := range slices.Sorted(maps.Keys(in)) {
		v := in[name]
		i := slices.IndexFunc(known, func(a arg) bool { return a.name == name })
		if i < 0 {
			names := make([]string, len(known))
			for j, a := range known {
				names[j] = a.name
			}
			if name == "" {
				name = `""`
			}
			bad = append(bad, invalidParam{name, "unknown argument; accepted: " + strings.Join(names, ", ")})
			continue
		}
		if string(v) == "null" {
			continue
		}
		var s string
		var ok bool
		switch known[i].typ {
		case "array":
			var list []string
			if json.Unmarshal(v, &list) == nil {
				ok = !slices.ContainsFunc(list, func(e string) bool { return strings.Contains(e, ",") })
				if !ok {
					bad = append(bad, invalidParam{name, "an alternative holds a comma: give that one by its slug"})
					continue
				}
				s = strings.Join(list, ",")
			} else {
				ok = json.Unmarshal(v, &s) == nil
			}
			if !ok {
				bad = append(bad, invalidParam{name, "must be a list of strings"})
				continue
			}
		case "integer":
			var n json.Number
			if json.Unmarshal(v, &n) == nil {
				_, err := strconv.ParseInt(n.String(), 10, 64)
				s, ok = n.String(), err == nil
			}
			if !ok {
				bad = append(bad, invalidParam{name, "must be an integer"})
				continue
			}
		default:
			if json.Unmarshal(v, &s) != nil {
				bad = append(bad, invalidParam{name, "must be a string"})
				continue
			}
		}
		out[name] = s
	}
	return out, bad
}

// invalidParam names a bad argument and says why, as the API's problems do.
type invalidParam struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// problem is the part of an API problem a tool error carries.
type problem struct {
	Type          string         `json:"type,omitempty"`
	Title         string         `json:"title,omitempty"`
	Status        int            `json:"status,omitempty"`
	Detail        string         `json:"detail,omitempty"`
	InvalidParams []invalidParam `json:"invalid_params,omitempty"`
}

// invalid is the tool error for bad arguments, shaped as the API's invalid-parameter
// problem.
func invalid(bad []invalidParam) *sdk.CallToolResult {
	names := make([]string, len(bad))
	for i, b := range bad {
		names[i] = b.Name
	}
	return toolError(problem{Type: "/problems/invalid-parameter", Title: "Invalid parameter", Status: 400,
		Detail: "invalid arguments: " + strings.Join(names, ", "), InvalidParams: bad})
}

// toolError is a tool error carrying a problem: its detail and each bad parameter as text,
// the problem itself as structured content.
func toolError(p problem) *sdk.CallToolResult {
	var b strings.Builder
	b.WriteString(p.Detail)
	for _, ip := range p.InvalidParams {
		fmt.Fprintf(&b, "\n%s: %s", ip.Name, ip.Reason)
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}, StructuredContent: p}
}

// read makes one API request and turns a problem or a failure into a tool error, the
// API's parameter names renamed to the tool's (rename: API name to argument name).
func (t *tools) read(ctx context.Context, path string, q url.Values, rename map[string]string) (*Response, *sdk.CallToolResult) {
	resp, err := t.o.Reader.Read(ctx, path, q, "")
	return answer(resp, err, rename)
}

// answer is read's handling of a Reader's answer.
func answer(resp *Response, err error, rename map[string]string) (*Response, *sdk.CallToolResult) {
	if err != nil {
		return nil, toolError(problem{Title: "Unavailable", Detail: err.Error()})
	}
	if resp.Status == http.StatusOK {
		return resp, nil
	}
	var p problem
	if json.Unmarshal(resp.Body, &p) != nil || p.Detail == "" {
		p = problem{Status: resp.Status, Detail: fmt.Sprintf("the API answered %d", resp.Status)}
	}
	for i, ip := range p.InvalidParams {
		if n, ok := rename[ip.Name]; ok {
			p.InvalidParams[i].Name = n
			p.Detail = strings.Replace(p.Detail, ip.Name, n, 1)
		}
	}
	if resp.RetryAfter != "" {
		p.Detail += " (retry after " + resp.RetryAfter + " s)"
	}
	return nil, toolError(p)
}

// result is a tool's answer: the API's JSON as structured content, and text.
func result(body []byte, text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(body)}
}
