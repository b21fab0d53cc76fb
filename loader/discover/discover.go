package discover

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gigs/gigs/loader"
	"github.com/gigs/gigs/loader/jsonld"
	"github.com/gigs/gigs/loader/microdata"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/platform"
	"github.com/gigs/gigs/loader/tribe"
)

// Options configure Find. Zero values take the defaults shown.
type Options struct {
	Get  platform.Getter   // the guarded fetcher (fetch.Client)
	Now  time.Time         // the refresh's moment the candidates are read as of; time.Now()
	Hint *loader.VenueHint // the operator's venue hint, given to every candidate
	// Places locates venues (places.Default() when nil).
	Places *places.Gazetteer
	// MaxFollow caps the pages of the site followed from the first; 3.
	MaxFollow int
	// MaxCandidates caps the feeds read with the loader; 6.
	MaxCandidates int
}

// Candidate is a feed found, and what the loader made of it.
type Candidate struct {
	URL    string
	Format string // a venue format of the loader
	Found  string // how it was found, for the operator
	// Check is what a refresh would make of it (set once read).
	Check loader.CheckResult
}

// Gigs is how many gigs the candidate yields.
func (c *Candidate) Gigs() int {
	if c.Check.Snapshot == nil {
		return 0
	}
	return c.Check.Snapshot.Len()
}

// Result is what Find found for one URL.
type Result struct {
	URL string
	// Pages are the pages read to find candidates, the first one first.
	Pages []string
	// Candidates are the feeds found, each read; Chosen indexes the best, -1 when none
	// was found.
	Candidates []Candidate
	Chosen     int
	Why        string // why Chosen was chosen, or why nothing was
}

// Best returns the chosen candidate, or nil.
func (r *Result) Best() *Candidate {
	if r.Chosen < 0 {
		return nil
	}
	return &r.Candidates[r.Chosen]
}

// rank orders formats for ties: the richer first.
var rank = []string{"tribe", "jsonld", "microdata", "ical"}

// Find finds the best feed the site at rawURL offers for its events. An error means the
// first page could not be read at all.
func Find(ctx context.Context, rawURL string, o Options) (Result, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	o.MaxFollow = cmpOr(o.MaxFollow, 3)
	o.MaxCandidates = cmpOr(o.MaxCandidates, 6)
	res := Result{URL: rawURL, Chosen: -1}
	start, err := url.Parse(rawURL)
	if err != nil || (start.Scheme != "http" && start.Scheme != "https") || start.Host == "" {
		return res, fmt.Errorf("%q is not an http(s) URL", rawURL)
	}
	var cands []Candidate
	add := func(c Candidate) {
		if !slices.ContainsFunc(cands, func(x Candidate) bool { return x.URL == c.URL && x.Format == c.Format }) {
			cands = append(cands, c)
		}
	}
	resp, err := o.Get.Get(ctx, rawURL, nil)
	if err != nil {
		return res, err
	}
	res.Pages = append(res.Pages, rawURL)
	first := scan(rawURL, resp.ContentType, resp.Body)
	for _, c := range first.feeds {
		add(c)
	}
	// The page names no feed: follow the links that look like its events page.
	if !slices.ContainsFunc(cands, func(c Candidate) bool { return c.Format == "tribe" || c.Format == "ical" }) {
		for _, link := range first.eventPages {
			if len(res.Pages) > o.MaxFollow || ctx.Err() != nil {
				break
			}
			if slices.Contains(res.Pages, link) {
				continue
			}
			resp, err := o.Get.Get(ctx, link, nil)
			res.Pages = append(res.Pages, link)
			if err != nil {
				continue
			}
			for _, c := range scan(link, resp.ContentType, resp.Body).feeds {
				add(c)
			}
		}
	}
	if len(cands) > o.MaxCandidates {
		slices.SortStableFunc(cands, func(a, b Candidate) int { return slices.Index(rank, a.Format) - slices.Index(rank, b.Format) })
		cands = cands[:o.MaxCandidates]
	}
	for i := range cands {
		cands[i].Check = Read(ctx, cands[i].URL, cands[i].Format, o)
	}
	res.Candidates = cands
	res.Chosen, res.Why = choose(cands, len(res.Pages))
	return res, nil
}

// Name is the source name made of the feed's host: "venue-" and its labels but "www."
// ("https://www.thegarage.london/x" gives "venue-thegarage-london").
func Name(u string) string {
	p, err := url.Parse(u)
	host := "site"
	if err == nil && p.Host != "" {
		host = strings.TrimPrefix(strings.ToLower(p.Host), "www.")
	}
	name := strings.Trim(nameUnsafe.ReplaceAllString(host, "-"), "-")
	return "venue-" + name[:min(len(name), 80)]
}

var nameUnsafe = regexp.MustCompile(`[^a-z0-9]+`)

// Read reads the feed at u in format as a refresh would, with the options' hint.
func Read(ctx context.Context, u, format string, o Options) loader.CheckResult {
	cfg := &loader.Config{Venues: []loader.VenueConfig{{Name: Name(u), Format: format, URL: u, Venue: o.Hint}}}
	srcs, err := loader.Sources(cfg, o.Get, func(string) string { return "" }, func() time.Time { return o.Now })
	if err != nil {
		return loader.CheckResult{Report: loader.SourceReport{Name: Name(u), Err: err}}
	}
	ctx, cancel := context.WithTimeout(ctx, srcs[0].Timeout)
	defer cancel()
	return loader.Check(ctx, srcs[0], loader.CheckOptions{Now: o.Now, Places: o.Places})
}

// choose picks the candidate with the most gigs, then the most records (a feed whose
// events all lack a city is still the site's feed: a venue hint makes them gigs), then
// the richer format; it says why.
func choose(cands []Candidate, pages int) (int, string) {
	if len(cands) == 0 {
		return -1, fmt.Sprintf("no feed found: no events in the page, no calendar or events API linked, in %d page(s) read", pages)
	}
	best := 0
	better := func(a, b *Candidate) bool {
		if a.Gigs() != b.Gigs() {
			return a.Gigs() > b.Gigs()
		}
		if ra, rb := records(a), records(b); ra != rb {
			return ra > rb
		}
		return slices.Index(rank, a.Format) < slices.Index(rank, b.Format)
	}
	for i := range cands {
		if better(&cands[i], &cands[best]) {
			best = i
		}
	}
	b := &cands[best]
	why := fmt.Sprintf("%s (%s): %d gig(s)", b.Format, b.Found, b.Gigs())
	if records(b) == 0 {
		return best, why + ", no records: the feed is empty or unreadable"
	}
	var others []string
	for i := range cands {
		if i == best {
			continue
		}
		c := &cands[i]
		what := fmt.Sprintf("%s %s: %d gig(s)", c.Format, c.URL, c.Gigs())
		switch {
		case c.Check.Report.Err != nil:
			what = fmt.Sprintf("%s %s: failed: %v", c.Format, c.URL, c.Check.Report.Err)
		case c.Gigs() == b.Gigs() && records(c) == records(b):
			what += ", as many, in a format that tells less"
		}
		others = append(others, what)
	}
	if len(others) > 0 {
		why += "; the most of the feeds found (" + strings.Join(others, "; ") + ")"
	}
	return best, why
}

func records(c *Candidate) int { return c.Check.Report.Events + len(c.Check.Report.Dropped) }

// page is what scan found in one page.
type page struct {
	feeds      []Candidate
	eventPages []string // same-site links that look like an events page, in page order
}

// scan finds the candidates a document at u offers: itself when it is a feed, its own
// events, and the feeds and events pages it links to.
func scan(u, contentType string, body []byte) page {
	var p page
	trimmed := bytes.TrimLeft(body, "\ufeff \t\r\n")
	switch {
	case contentType == "text/calendar" || bytes.HasPrefix(trimmed, []byte("BEGIN:VCALENDAR")):
		p.feeds = append(p.feeds, Candidate{URL: u, Format: "ical", Found: "the URL is an iCalendar feed"})
		return p
	case bytes.HasPrefix(trimmed, []byte("{")):
		if events, _, err := tribe.Parse(body, u, tribe.Options{MaxEvents: 1}); err == nil && len(events) > 0 {
			p.feeds = append(p.feeds, Candidate{URL: u, Format: "tribe", Found: "the URL is The Events Calendar's REST API"})
		}
		return p
	}
	if events, _ := jsonld.Parse(body, u); len(events) > 0 {
		p.feeds = append(p.feeds, Candidate{URL: u, Format: "jsonld", Found: fmt.Sprintf("%d schema.org event(s) in JSON-LD in the page %s", len(events), u)})
	}
	if events, _ := microdata.Parse(body, u); len(events) > 0 {
		p.feeds = append(p.feeds, Candidate{URL: u, Format: "microdata", Found: fmt.Sprintf("%d schema.org event(s) in microdata in the page %s", len(events), u)})
	}
	base, _ := url.Parse(u)
	links := links(body)
	tec := bytes.Contains(body, []byte("tribe-events")) || bytes.Contains(body, []byte("/plugins/the-events-calendar/"))
	for _, l := range links {
		ref, err := url.Parse(strings.TrimSpace(l.href))
		if err != nil {
			continue
		}
		abs := base.ResolveReference(ref)
		if abs.Scheme == "webcal" {
			abs.Scheme = base.Scheme
		}
		if abs.Scheme != "http" && abs.Scheme != "https" || !sameSite(base, abs) {
			continue // only the site's own feeds and pages
		}
		abs.Fragment = ""
		low := strings.ToLower(abs.Path)
		q := abs.Query()
		switch {
		case l.tag == "link" && hasToken(l.rel, "alternate") && strings.EqualFold(l.typ, "text/calendar"):
			p.feeds = append(p.feeds, Candidate{URL: abs.String(), Format: "ical", Found: "linked from " + u + ` as <link rel="alternate" type="text/calendar">`})
		case strings.Contains(low, "/wp-json/tribe/events/v1"):
			tec = true
		case strings.EqualFold(ref.Scheme, "webcal"):
			p.feeds = append(p.feeds, Candidate{URL: abs.String(), Format: "ical", Found: "a webcal:// link on " + u})
		case strings.HasSuffix(low, ".ics") || strings.HasSuffix(low, ".ical") || strings.HasSuffix(low, ".ifb"):
			p.feeds = append(p.feeds, Candidate{URL: abs.String(), Format: "ical", Found: "an .ics link on " + u})
		case (q.Get("ical") == "1" || q.Has("outlook-ical")):
			p.feeds = append(p.feeds, Candidate{URL: abs.String(), Format: "ical", Found: "a calendar plugin's iCalendar export link (?ical=1) on " + u})
		case l.tag == "a" && eventsLink(abs, l.text) && abs.String() != u:
			if s := abs.String(); !slices.Contains(p.eventPages, s) {
				p.eventPages = append(p.eventPages, s)
			}
		}
	}
	if tec {
		api := &url.URL{Scheme: base.Scheme, Host: base.Host, Path: "/wp-json/tribe/events/v1/events", RawQuery: "per_page=50"}
		p.feeds = append(p.feeds, Candidate{URL: api.String(), Format: "tribe", Found: "The Events Calendar's REST API: the page " + u + " is the WordPress plugin's"})
	}
	return p
}

// sameSite reports whether u is on base's site: the same host, "www." aside.
func sameSite(base, u *url.URL) bool {
	return strings.TrimPrefix(strings.ToLower(base.Host), "www.") == strings.TrimPrefix(strings.ToLower(u.Host), "www.")
}

// eventWords are the words of an events page's address or link text, in the languages of
// most venue sites.
var eventWords = []string{"events", "event", "whats-on", "whatson", "what's on", "gigs", "gig", "concerts", "concert",
	"shows", "listings", "agenda", "calendar", "kalender", "programm", "programme", "program", "programa", "termine",
	"konzerte", "spielplan", "eventos", "conciertos", "concerti", "evenements", "événements", "concerts", "live", "tickets"}

func eventsLink(u *url.URL, text string) bool {
	for _, seg := range strings.Split(strings.ToLower(u.Path), "/") {
		if slices.Contains(eventWords, seg) {
			return true
		}
	}
	t := strings.ToLower(strings.TrimSpace(text))
	return len(t) <= 40 && slices.Contains(eventWords, t)
}

func hasToken(list, tok string) bool {
	return slices.ContainsFunc(strings.Fields(list), func(s string) bool { return strings.EqualFold(s, tok) })
}

func cmpOr(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}
