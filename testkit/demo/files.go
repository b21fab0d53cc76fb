package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gigs/gigs/loader/platform"
)

// files returns every file of the corpus by slash path under the corpus directory.
func (c *corpus) files() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, v := range c.venues {
		if v.site == nil {
			continue
		}
		if err := c.siteFiles(v, out); err != nil {
			return nil, err
		}
	}
	for p := range platformCount {
		b, err := listingsJSON(c.platformListings(p))
		if err != nil {
			return nil, err
		}
		out["platforms/"+platformDefs[p].name+".json"] = b
	}
	var err error
	if out["sources.json"], err = c.sourcesJSON(); err != nil {
		return nil, err
	}
	if out["expected-merges.json"], err = c.mergesJSON(); err != nil {
		return nil, err
	}
	if out["faults.json"], err = c.faultsJSON(); err != nil {
		return nil, err
	}
	out["demo.env"] = c.demoEnv()
	out["GENERATED"] = []byte(c.today.Format(dateLayout) + "\n")
	return out, nil
}

// siteFiles adds a venue website's files: the listing, its home page when the listing is
// elsewhere, and robots.txt unless it has none.
func (c *corpus) siteFiles(v *venue, out map[string][]byte) error {
	s := v.site
	var body []byte
	switch s.format {
	case jsonLD:
		var err error
		if body, err = page(v); err != nil {
			return err
		}
	case microdata:
		body = microdataPage(v)
	case iCal:
		body = icsFeed(v, c.today, c.stamp)
	}
	switch s.fault {
	case oversized:
		body = c.oversize(v, body)
	case badCharset:
		if v.index%2 == 0 {
			body = bytes.Replace(body, []byte(`<meta charset="utf-8">`), []byte(`<meta charset="iso-8859-1">`), 1)
		}
		body = latin1(body)
	}
	out["sites/"+s.file()] = body
	if s.path != "/" {
		name := htmlEscape(v.name)
		out["sites/"+s.host+"/index.html"] = fmt.Appendf(nil, "<!DOCTYPE html>\n<html lang=%q>\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n</head>\n<body>\n<h1>%s</h1>\n<p>%s, %s %s</p>\n<p><a href=\"%s\">What's on</a></p>\n</body>\n</html>\n",
			countries[v.city.country].lang, name, name, htmlEscape(v.street), htmlEscape(v.postal), htmlEscape(v.style.locality), s.path)
	}
	var robots string
	switch s.robots {
	case robotsAllow:
		robots = "User-agent: *\nDisallow:\n"
	case robotsUnrelated:
		robots = "User-agent: *\nDisallow: /wp-admin/\nDisallow: /cart/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: http://" + s.host + "/sitemap.xml\n"
	case robotsOtherBots:
		robots = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
	case robotsRefuse:
		robots = "User-agent: gigs\nDisallow: /\n\nUser-agent: *\nDisallow:\n"
	}
	if robots != "" {
		out["sites/"+s.host+"/robots.txt"] = []byte(robots)
	}
	return nil
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;")

func htmlEscape(s string) string { return htmlEscaper.Replace(s) }

// latin1 re-encodes UTF-8 text as Latin-1: runes beyond it become '?'.
func latin1(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, r := range string(b) {
		if r > 0xff {
			r = '?'
		}
		out = append(out, byte(r))
	}
	return out
}

// oversizeBytes is how large the oversized page grows: over the loader's 8 MiB cap.
const oversizeBytes = 9 << 20

// oversize pads a page with a years-long archive of past shows, before its main listing
// ends, until it is larger than oversizeBytes. The archive derives from the seed.
func (c *corpus) oversize(v *venue, body []byte) []byte {
	r := rand.New(rand.NewPCG(c.opt.Seed, streamOversize))
	at := bytes.Index(body, []byte("</main>"))
	if at < 0 {
		at = len(body)
	}
	var b bytes.Buffer
	b.Grow(oversizeBytes + len(body) + 4096)
	b.Write(body[:at])
	b.WriteString("<section class=\"archive\">\n<h2>Archive</h2>\n<ul>\n")
	names := make([]string, len(c.artists))
	for i, a := range c.artists {
		names[i] = htmlEscape(a.name)
	}
	day := c.today.AddDate(-40, 0, 0)
	var line []byte
	for b.Len() < oversizeBytes {
		day = day.AddDate(0, 0, 1)
		line = append(line[:0], "<li class=\"past\"><time datetime=\""...)
		line = day.AppendFormat(line, dateLayout)
		line = append(line, "\">"...)
		line = day.AppendFormat(line, "Mon 2 Jan 2006")
		line = append(line, "</time> "...)
		for k := range 1 + r.IntN(3) {
			if k > 0 {
				line = append(line, " + "...)
			}
			line = append(line, names[r.IntN(len(names))]...)
		}
		line = append(line, " <span class=\"note\">#"...)
		line = strconv.AppendInt(line, int64(r.IntN(1_000_000)), 10)
		line = append(line, "</span></li>\n"...)
		b.Write(line)
	}
	b.WriteString("</ul>\n</section>\n")
	b.Write(body[at:])
	return b.Bytes()
}

// sourcesFile is sources.json.
type sourcesFile struct {
	Platforms []platformEntry `json:"platforms"`
	Venues    []venueEntry    `json:"venues"`
}

type platformEntry struct {
	Name          string   `json:"name"`
	Kind          string   `json:"kind"`
	URL           string   `json:"url"`
	CredentialEnv string   `json:"credential_env"`
	Primary       bool     `json:"primary,omitempty"`
	Artists       []string `json:"artists,omitempty"`
}

type venueEntry struct {
	Name   string     `json:"name"`
	Format string     `json:"format"`
	URL    string     `json:"url"`
	Venue  *venueHint `json:"venue,omitempty"`
}

type venueHint struct {
	Name    string `json:"name"`
	City    string `json:"city,omitempty"`
	Country string `json:"country,omitempty"`
	Zone    string `json:"zone,omitempty"`
}

// sourceName returns a venue website's source name.
func sourceName(v *venue) string { return "venue-" + v.key }

// sourcesJSON returns the sources configuration: the platforms, then one source per venue
// website sorted by name, broken ones included, indented with two spaces.
func (c *corpus) sourcesJSON() ([]byte, error) {
	var cfg sourcesFile
	for i, p := range platformDefs {
		e := platformEntry{p.name, string(p.kind), p.url, p.env, p.primary, nil}
		if p.kind == platform.KindBandsintown {
			e.Artists = c.listedArtists(i)
		}
		cfg.Platforms = append(cfg.Platforms, e)
	}
	for _, v := range c.venues {
		if v.site == nil {
			continue
		}
		// Every site's hint names its venue (a site names no venue of its own otherwise);
		// half the pages' hints leave the city to the pages.
		e := venueEntry{Name: sourceName(v), Format: formatNames[v.site.format], URL: v.site.url(), Venue: &venueHint{Name: v.name}}
		if v.site.hint {
			e.Venue = &venueHint{v.name, v.city.name, v.city.country, v.loc.String()}
		}
		cfg.Venues = append(cfg.Venues, e)
	}
	sortBy(cfg.Venues, func(e venueEntry) string { return e.Name })
	return encodeIndented(cfg, "sources.json")
}

// mergeRecord and mergeConcert are expected-merges.json's entries.
type (
	mergeRecord struct {
		Source string `json:"source"`
		Ref    string `json:"ref"`
	}
	// mergeConcert is one concert with every record of it and the facts its merged gig
	// must state: Start is the venue-local start ("2006-01-02T15:04", or "2006-01-02" when
	// the time is to be announced) in the venue's IANA Zone, Status its schema.org status
	// in lower case ("scheduled", "cancelled", "postponed", "rescheduled").
	mergeConcert struct {
		ID      string        `json:"id"`
		Start   string        `json:"start"`
		Zone    string        `json:"zone"`
		Status  string        `json:"status"`
		Records []mergeRecord `json:"records"`
	}
)

// statusNames are the statuses of expected-merges.json.
var statusNames = [...]string{scheduled: "scheduled", cancelled: "cancelled", postponed: "postponed", rescheduled: "rescheduled"}

// truthStatus is the status g's merged gig must have: its own, or cancelled when the
// primary platform has cancelled it, since a primary platform's cancellation wins over a
// venue's stale "scheduled".
func (g *gig) truthStatus() string {
	if l := g.listingOn(tixhub); l != nil && l.l.Status == "cancelled" {
		return statusNames[cancelled]
	}
	return statusNames[g.status]
}

// concertID writes a concert number.
func concertID(n int) string { return fmt.Sprintf("c%06d", n) }

// merges returns every concert with a record, by id: its venue site's record first, then
// its listings in platform order.
func (c *corpus) merges() []mergeConcert {
	var out []mergeConcert
	for _, v := range c.venues {
		idx := map[*gig]int{} // position among the page's events; lookups only
		if v.site != nil {
			for i, g := range v.listed() {
				idx[g] = i + 1
			}
		}
		for _, g := range v.gigs {
			var recs []mergeRecord
			if g.onPage && v.site != nil {
				recs = append(recs, mergeRecord{sourceName(v), ref(g, idx[g])})
			}
			for p := range platformCount {
				if l := g.listingOn(p); l != nil {
					recs = append(recs, mergeRecord{platformDefs[p].name, l.l.ID})
				}
			}
			if len(recs) > 0 {
				start := g.start.Format("2006-01-02T15:04")
				if g.dateOnly {
					start = g.start.Format(dateLayout)
				}
				out = append(out, mergeConcert{ID: concertID(g.concert), Start: start, Zone: v.loc.String(), Status: g.truthStatus(), Records: recs})
			}
		}
	}
	sortBy(out, func(m mergeConcert) string { return m.ID })
	return out
}

// ref returns the ref the venue site's adapter gives g, index being its 1-based position
// among the page's events: JSON-LD @id or microdata itemid resolved against the page URL,
// else the page URL and the index; the iCal UID, and for a residency's occurrence the UID,
// "/" and its date in DTSTART's zone.
func ref(g *gig, index int) string {
	s := g.venue.site
	if s.format == iCal {
		if g.series != nil {
			return uidOf(g.series.gigs[0]) + "/" + g.start.Format(dateLayout)
		}
		return uidOf(g)
	}
	if id := eventID(g); id != "" {
		base, err1 := url.Parse(s.url())
		u, err2 := url.Parse(id)
		if err1 == nil && err2 == nil {
			return base.ResolveReference(u).String()
		}
	}
	return s.url() + "#" + strconv.Itoa(index)
}

// mergesJSON returns expected-merges.json, one concert a line.
func (c *corpus) mergesJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\"concerts\": [\n")
	for i, m := range c.merges() {
		line, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("cannot encode expected-merges.json: %w", err)
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		b.Write(line)
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// listingsJSON returns a platform file: {"listings": [...]}, one listing a line.
func listingsJSON[T any](ls []T) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\"listings\": [\n")
	for i, l := range ls {
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if i > 0 {
			b.WriteString(",\n")
		}
		if err := enc.Encode(l); err != nil {
			return nil, fmt.Errorf("cannot encode listings: %w", err)
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// faultEntry is one fault of faults.json: what the fixture server does to one URL.
type faultEntry struct {
	URL         string `json:"url"`
	Kind        string `json:"kind"`
	Status      int    `json:"status,omitempty"`       // answer with this status
	RetryAfter  int    `json:"retry_after,omitempty"`  // seconds, with Status 503
	FailFirst   int    `json:"fail_first,omitempty"`   // only the first N requests get Status
	Stall       bool   `json:"stall,omitempty"`        // wait the server's stall time first
	ContentType string `json:"content_type,omitempty"` // the Content-Type to declare
}

// faultsJSON returns faults.json: the broken sites' faults, sorted by URL.
func (c *corpus) faultsJSON() ([]byte, error) {
	var fs struct {
		Faults []faultEntry `json:"faults"`
	}
	for _, v := range c.venues {
		if v.site == nil || v.site.fault == noFault {
			continue
		}
		s := v.site
		f := faultEntry{URL: s.url(), Kind: faultNames[s.fault]}
		switch s.fault {
		case notFound:
			f.Status = 404
		case serverErr:
			f.Status = 500
		case unavailable:
			f.Status, f.RetryAfter = 503, 120+60*(v.index%4)
		case stall:
			f.Stall = true
		case flaky:
			f.Status, f.FailFirst = 500, 1
		case badCharset:
			f.ContentType = contentType(s.file())
		case robotsDeny:
			f.URL = "http://" + s.host + "/robots.txt"
		}
		fs.Faults = append(fs.Faults, f)
	}
	sortBy(fs.Faults, func(f faultEntry) string { return f.URL })
	return encodeIndented(fs, "faults.json")
}

// contentType is the Content-Type a site serves a file with.
func contentType(file string) string {
	switch {
	case strings.HasSuffix(file, ".ics"):
		return "text/calendar; charset=utf-8"
	case strings.HasSuffix(file, ".txt"):
		return "text/plain; charset=utf-8"
	}
	return "text/html; charset=utf-8"
}

// demoEnv returns demo.env: the platforms' fixture credentials as shell assignments.
func (c *corpus) demoEnv() []byte {
	var b bytes.Buffer
	b.WriteString("# Credentials of the demo platforms: fixture values the emulators accept, not secrets.\n")
	for _, p := range platformDefs {
		fmt.Fprintf(&b, "%s=demo-%s-%016x\n", p.env, p.name, c.hash("credential", p.name))
	}
	return b.Bytes()
}

// encodeIndented encodes x with two-space indents and a trailing newline.
func encodeIndented(x any, name string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, fmt.Errorf("cannot encode %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// sortBy sorts xs by a string key, stably.
func sortBy[T any](xs []T, key func(T) string) {
	slices.SortStableFunc(xs, func(a, b T) int { return strings.Compare(key(a), key(b)) })
}
