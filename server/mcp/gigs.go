package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// findGigs answers find_gigs: one page of /v1/gigs.
func (t *tools) findGigs(ctx context.Context, a args) *sdk.CallToolResult {
	q := url.Values{}
	for name, v := range a {
		if name == "cursor" {
			name = "after"
		}
		q.Set(name, v)
	}
	return t.gigsPage(ctx, q, map[string]string{"after": "cursor"}, "find_gigs", "")
}

// gigsPage answers a page of /v1/gigs: the page as structured content, a line per gig,
// and the cursor of the next page, for tool (which takes it as cursor). header, when
// set, is the text's first line.
func (t *tools) gigsPage(ctx context.Context, q url.Values, rename map[string]string, tool, header string) *sdk.CallToolResult {
	resp, fail := t.read(ctx, "/v1/gigs", q, rename)
	if fail != nil {
		return fail
	}
	var page struct {
		Data  []gigSummary
		Meta  pageMeta
		Links struct {
			Next string `json:"next"`
		}
	}
	if err := json.Unmarshal(resp.Body, &page); err != nil {
		return toolError(problem{Detail: "the API's page could not be read: " + err.Error()})
	}
	var b strings.Builder
	if header != "" {
		b.WriteString(header + "\n")
	}
	m := page.Meta
	first := (m.Page-1)*m.PageSize + 1
	switch {
	case m.Total == 0 && tool == "whats_on":
		b.WriteString("No gig matches; a longer span (when) or a larger radius may find some.")
	case m.Total == 0:
		b.WriteString("No gig matches.")
	case len(page.Data) == 0:
		fmt.Fprintf(&b, "No gig on this page; %d match in all.", m.Total)
	default:
		fmt.Fprintf(&b, "Gigs %d to %d of %d:\n", first, first+len(page.Data)-1, m.Total)
		for _, g := range page.Data {
			b.WriteString(g.line() + "\n")
		}
		if after := nextCursor(page.Links.Next); after != "" {
			fmt.Fprintf(&b, "More: call %s again with the same arguments and cursor %q.", tool, after)
		} else {
			b.WriteString("That is all of them.")
		}
	}
	return result(resp.Body, strings.TrimRight(b.String(), "\n"))
}

// nextCursor returns the after value of a next link, "" for none.
func nextCursor(next string) string {
	if next == "" {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil {
		return ""
	}
	return u.Query().Get("after")
}

// getGig answers get_gig: /v1/gigs/{id}, following a merged gig to the one it became.
func (t *tools) getGig(ctx context.Context, a args) *sdk.CallToolResult {
	path := "/v1/gigs/" + url.PathEscape(a["id"])
	resp, err := t.o.Reader.Read(ctx, path, nil, "")
	if err == nil && resp.Status == 301 && strings.HasPrefix(resp.Location, "/v1/gigs/") {
		resp, err = t.o.Reader.Read(ctx, resp.Location, nil, "")
	}
	resp, fail := answer(resp, err, nil)
	if fail != nil {
		return fail
	}
	var g struct{ Data gigSummary }
	if err := json.Unmarshal(resp.Body, &g); err != nil {
		return toolError(problem{Detail: "the API's gig could not be read: " + err.Error()})
	}
	return result(resp.Body, g.Data.line())
}

// detail answers get_venue and get_artist: the entity at prefix+slug with the first
// page_size of its upcoming gigs (the API lists them all).
func (t *tools) detail(prefix, kind string) func(ctx context.Context, a args) *sdk.CallToolResult {
	return func(ctx context.Context, a args) *sdk.CallToolResult {
		n, bad := pageSize(a["page_size"])
		if bad != nil {
			return invalid(bad)
		}
		slug := a["slug"]
		resp, fail := t.read(ctx, prefix+url.PathEscape(slug), nil, nil)
		if fail != nil {
			return fail
		}
		body, shown, err := cutUpcoming(resp.Body, n)
		if err != nil {
			return toolError(problem{Detail: "the API's " + kind + " could not be read: " + err.Error()})
		}
		var e struct {
			Data struct {
				Name, Address, Website, Mbid string
				City                         struct{ Name string }
				Country                      string
				Genres                       []string
				UpcomingGigs                 *int `json:"upcoming_gigs"`
				UpcomingTourDates            *int `json:"upcoming_tour_dates"`
			}
		}
		_ = json.Unmarshal(body, &e) // the body just read
		d := e.Data
		var b strings.Builder
		b.WriteString(d.Name)
		for _, s := range []string{d.Address, d.City.Name, d.Country, d.Website, strings.Join(d.Genres, ", ")} {
			if s != "" {
				b.WriteString(" · " + s)
			}
		}
		total := 0
		if d.UpcomingGigs != nil {
			total = *d.UpcomingGigs
		} else if d.UpcomingTourDates != nil {
			total = *d.UpcomingTourDates
		}
		fmt.Fprintf(&b, "\n%d upcoming gigs", total)
		if len(shown) > 0 {
			b.WriteString(":")
		}
		for _, g := range shown {
			b.WriteString("\n" + g.line())
		}
		if total > len(shown) && len(shown) > 0 {
			fmt.Fprintf(&b, "\nMore: call find_gigs with %s [%q], page_size %d and page 2.", kind, slug, n)
		}
		return result(body, b.String())
	}
}

// pageSize reads a page_size argument: 1 to 100, 20 when not given.
func pageSize(v string) (int, []invalidParam) {
	if v == "" {
		return defaultPageSize, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxPageSize {
		return 0, []invalidParam{{"page_size", "must be an integer from 1 to 100"}}
	}
	return n, nil
}

// cutUpcoming returns a detail body ({"data": {…, "upcoming": [gigs]}}) with its first
// n upcoming gigs only, the rest of it as it was, and those gigs read.
func cutUpcoming(body []byte, n int) ([]byte, []gigSummary, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	want := []json.Token{json.Delim('{'), "data", json.Delim('{')}
	for _, w := range want {
		tok, err := dec.Token()
		if err != nil || tok != w {
			return nil, nil, fmt.Errorf("not a detail body")
		}
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		if key != "upcoming" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, nil, err
			}
			continue
		}
		start := dec.InputOffset()
		var gigs []json.RawMessage
		if err := dec.Decode(&gigs); err != nil {
			return nil, nil, err
		}
		end := dec.InputOffset()
		gigs = gigs[:min(n, len(gigs))]
		out := append(append([]byte{}, body[:start]...), ":["...)
		out = append(out, joinRaw(gigs)...)
		out = append(append(out, ']'), body[end:]...)
		shown := make([]gigSummary, len(gigs))
		for i, g := range gigs {
			if err := json.Unmarshal(g, &shown[i]); err != nil {
				return nil, nil, err
			}
		}
		return out, shown, nil
	}
	return body, nil, nil
}

// listCities answers list_cities: one page of /v1/cities, which pages, searches and
// measures distances itself (the arguments are its parameters). Without any argument the
// API answers the whole directory, so the first page is asked for by number.
func (t *tools) listCities(ctx context.Context, a args) *sdk.CallToolResult {
	q := url.Values{}
	for name, v := range a {
		q.Set(name, v)
	}
	if q.Get("page") == "" {
		q.Set("page", "1")
	}
	resp, fail := t.read(ctx, "/v1/cities", q, nil)
	if fail != nil {
		return fail
	}
	var page struct {
		Data []cityLine
		Meta pageMeta
	}
	if err := json.Unmarshal(resp.Body, &page); err != nil {
		return toolError(problem{Detail: "the API's cities could not be read: " + err.Error()})
	}
	m := page.Meta
	var b strings.Builder
	switch {
	case m.Total == 0:
		b.WriteString("No city matches.")
	case len(page.Data) == 0:
		fmt.Fprintf(&b, "No city on page %d; %d match in all.", m.Page, m.Total)
	default:
		first := (m.Page-1)*m.PageSize + 1
		fmt.Fprintf(&b, "Cities %d to %d of %d:", first, first+len(page.Data)-1, m.Total)
		for _, c := range page.Data {
			b.WriteString("\n" + c.line())
		}
		if m.Page < m.TotalPages {
			fmt.Fprintf(&b, "\nMore: call list_cities again with the same arguments and page %d.", m.Page+1)
		}
	}
	return result(resp.Body, b.String())
}

// pageMeta is the meta of an API page: /v1/gigs's and a paged directory's.
type pageMeta struct {
	Page       int `json:"page"`
	PageSize   int `json:"page_size"`
	Total      int `json:"total"`
	TotalPages int `json:"total_pages"`
}

// cityLine is what a line of list_cities (or list_genres) says of an entry.
type cityLine struct {
	Slug, Name, Country, Timezone string
	Upcoming                      int      `json:"upcoming_gigs"`
	Distance                      *float64 `json:"distance_km"`
}

func (e cityLine) line() string {
	place := ""
	if e.Country != "" {
		place = " (" + e.Country + ", " + e.Timezone + ")"
	}
	far := ""
	if e.Distance != nil {
		far = fmt.Sprintf(" · %.1f km", *e.Distance)
	}
	return fmt.Sprintf("%s%s · %d upcoming gigs%s · slug %s", e.Name, place, e.Upcoming, far, e.Slug)
}

// directory answers list_genres: a page of a directory the API gives whole, as
// {"data": [the page], "meta": the directory's meta}.
func (t *tools) directory(path, what string) func(ctx context.Context, a args) *sdk.CallToolResult {
	return func(ctx context.Context, a args) *sdk.CallToolResult {
		n, bad := pageSize(a["page_size"])
		page := 1
		if v, ok := a["page"]; ok {
			var err error
			if page, err = strconv.Atoi(v); err != nil || page < 1 {
				bad = append(bad, invalidParam{"page", "must be an integer from 1"})
			}
		}
		if bad != nil {
			return invalid(bad)
		}
		resp, fail := t.read(ctx, path, nil, nil)
		if fail != nil {
			return fail
		}
		var dir struct {
			Data []json.RawMessage
			Meta json.RawMessage
		}
		if err := json.Unmarshal(resp.Body, &dir); err != nil {
			return toolError(problem{Detail: "the API's " + what + " could not be read: " + err.Error()})
		}
		from := min((page-1)*n, len(dir.Data))
		items := dir.Data[from:min(from+n, len(dir.Data))]
		body := append([]byte(`{"data":[`), joinRaw(items)...)
		body = append(append(append(body, `],"meta":`...), dir.Meta...), '}')
		var b strings.Builder
		if len(items) == 0 {
			fmt.Fprintf(&b, "No %s on page %d; there are %d.", what, page, len(dir.Data))
		} else {
			fmt.Fprintf(&b, "%s %d to %d of %d:", strings.ToUpper(what[:1])+what[1:], from+1, from+len(items), len(dir.Data))
		}
		for _, it := range items {
			var e cityLine
			_ = json.Unmarshal(it, &e) // part of the body just read
			b.WriteString("\n" + e.line())
		}
		if from+len(items) < len(dir.Data) {
			fmt.Fprintf(&b, "\nMore: call list_%s with page %d.", what, page+1)
		}
		return result(body, b.String())
	}
}

// gigSummary is what a gig's line says.
type gigSummary struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	StartsAt string `json:"starts_at"`
	Date     string `json:"date"`
	Venue    struct {
		Name string `json:"name"`
	} `json:"venue"`
	City struct {
		Name string `json:"name"`
	} `json:"city"`
	Country string   `json:"country"`
	Genres  []string `json:"genres"`
	Tickets []struct {
		PriceMin *float64 `json:"price_min"`
		Currency string   `json:"currency"`
	} `json:"tickets"`
	DistanceKM *float64 `json:"distance_km"`
}

// line is a gig in one line: "Fri 4 Dec 2026 21:00 · title · venue, city PT · genres ·
// from 15 EUR · 2.5 km · cancelled · id …", times at the venue.
func (g *gigSummary) line() string {
	var b strings.Builder
	if t, err := time.Parse(time.RFC3339, g.StartsAt); err == nil {
		b.WriteString(t.Format("Mon 2 Jan 2006 15:04"))
	} else if d, err := time.Parse(time.DateOnly, g.Date); err == nil {
		b.WriteString(d.Format("Mon 2 Jan 2006") + ", time to be announced")
	}
	fmt.Fprintf(&b, " · %s · %s, %s %s", g.Title, g.Venue.Name, g.City.Name, g.Country)
	if len(g.Genres) > 0 {
		b.WriteString(" · " + strings.Join(g.Genres, ", "))
	}
	price, currency := -1.0, ""
	for _, t := range g.Tickets {
		if t.PriceMin != nil && (price < 0 || *t.PriceMin < price) {
			price, currency = *t.PriceMin, t.Currency
		}
	}
	if price >= 0 {
		fmt.Fprintf(&b, " · from %s %s", strconv.FormatFloat(price, 'f', -1, 64), currency)
	}
	if g.DistanceKM != nil {
		fmt.Fprintf(&b, " · %s km", strconv.FormatFloat(*g.DistanceKM, 'f', -1, 64))
	}
	if g.Status != "" && g.Status != "scheduled" {
		b.WriteString(" · " + g.Status)
	}
	b.WriteString(" · id " + g.ID)
	return b.String()
}

// joinRaw joins JSON values with commas.
func joinRaw(list []json.RawMessage) []byte {
	var b []byte
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return b
}
