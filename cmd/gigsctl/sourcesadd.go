package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/engine/atomicfile"
	"github.com/gigs/gigs/loader"
	"github.com/gigs/gigs/loader/discover"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/places"
)

// maxFromURLs caps the URLs of one -from file.
const maxFromURLs = 10000

// sourcesAdd runs "gigsctl sources add URL...": for each venue site it finds the best
// feed (package discover), prints what a refresh would publish from it and, with -write,
// adds it to the sources file. It fails when any URL was not added (with -write) or
// yields nothing.
func sourcesAdd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl sources add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("sources", "", "sources configuration file, as gigsd's -sources: checked for duplicates, written with -write")
	ff := addFetchFlags(fs)
	venue := fs.String("venue", "", `the venue the site speaks for, as "NAME, CITY, CC" (city and country optional): for feeds that name no city`)
	write := fs.Bool("write", false, "add each feed found that yields gigs to the -sources file")
	asJSON := fs.Bool("json", false, "print one JSON object per URL: url, chosen_url, format, events (gig bodies as the API serves them), dropped, entry, error")
	from := fs.String("from", "", "read the URLs from this file, one a line (# starts a comment)")
	parallel := fs.Int("parallel", 4, "sites read at once (each host is read politely, one request at a time)")
	show := fs.Int("show", 5, "events to print per URL")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl sources add [flags] URL...\n\nFinds the feed each venue site offers for its events (events in the page, a linked iCalendar feed,\n"+
		"The Events Calendar's REST API), prints what a refresh would publish from it and, with -write,\nadds it to the sources file.")
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	urls := fs.Args()
	if *from != "" {
		more, err := readURLs(*from)
		if err != nil {
			return err
		}
		urls = append(urls, more...)
	}
	if len(urls) == 0 {
		fs.Usage()
		return errors.New("no URL to add")
	}
	if *write && *path == "" {
		return fmt.Errorf("-write: set -sources or %s", flagenv.Name("sources"))
	}
	hint, err := parseVenue(*venue)
	if err != nil {
		return err
	}
	file := &sourcesFile{path: *path}
	client, now, gaz, err := ff.open(file.allow(), fetch.Options{PerHost: 1})
	if err != nil {
		return err
	}
	opts := discover.Options{Get: client, Now: now, Hint: hint, Places: gaz}
	outs := make([]addOutcome, len(urls))
	var mu sync.Mutex // holds the output and the file
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(*parallel, len(urls))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				start := time.Now()
				o := addOne(context.Background(), urls[i], opts)
				o.took = time.Since(start)
				mu.Lock()
				if o.err == nil && *write {
					o.written, o.err = file.add(o.entry)
				}
				if *asJSON {
					o.writeJSON(stdout)
				} else {
					o.writeText(stdout, *show, *write)
				}
				mu.Unlock()
				outs[i] = o
			}
		}()
	}
	for i := range urls {
		work <- i
	}
	close(work)
	wg.Wait()
	failed := 0
	for _, o := range outs {
		if o.err != nil {
			failed++
		}
	}
	if len(urls) > 1 && !*asJSON {
		writeTable(stdout, outs, *write)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d URL(s) not added", failed, len(urls))
	}
	return nil
}

// readURLs reads a -from file: one URL a line, blank lines and # comments skipped.
func readURLs(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(out) == maxFromURLs {
			return nil, fmt.Errorf("%s: more than %d URLs", path, maxFromURLs)
		}
		if u, err := url.Parse(line); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%s:%d: %q is not an http(s) URL", path, n, line)
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

// parseVenue reads -venue: "NAME, CITY, CC", the city and country optional; a name with
// commas keeps all but the last two parts. nil when v is empty.
func parseVenue(v string) (*loader.VenueHint, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	parts := strings.Split(v, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	h := &loader.VenueHint{}
	switch n := len(parts); {
	case n >= 3:
		h.Name, h.City, h.Country = strings.Join(parts[:n-2], ", "), parts[n-2], parts[n-1]
	case n == 2:
		h.Name, h.City = parts[0], parts[1]
	default:
		h.Name = parts[0]
	}
	if h.Name == "" {
		return nil, fmt.Errorf(`-venue: want "NAME, CITY, CC", got %q`, v)
	}
	if h.Country != "" {
		if _, ok := places.Country(h.Country); !ok {
			return nil, fmt.Errorf("-venue: unknown country %q", h.Country)
		}
	}
	return h, nil
}

// gigView is the part of a gig body the preview shows.
type gigView struct {
	Title    string `json:"title"`
	Status   string `json:"status"`
	StartsAt string `json:"starts_at"`
	Date     string `json:"date"`
	TimeTBA  bool   `json:"time_tba"`
	Timezone string `json:"timezone"`
	Venue    struct {
		Name string `json:"name"`
	} `json:"venue"`
	City struct {
		Name string `json:"name"`
	} `json:"city"`
	Country string `json:"country"`
}

// addOutcome is what sources add made of one URL.
type addOutcome struct {
	url     string
	res     discover.Result
	gigs    []json.RawMessage
	views   []gigView
	entry   loader.VenueConfig
	speaks  string // the venue the source would speak for, as the operator reads it
	noCity  int    // records dropped for want of a city or country
	err     error
	written string // the name it was added under, with -write
	took    time.Duration
}

// noPlace matches the drop reasons of a venue the normalizer cannot place: what a venue
// hint's city and country cure.
var noPlace = regexp.MustCompile(`(?i)\b(no|unknown) city\b|has no country|venue without a name`)

// addOne finds the feed of the site at u and makes its sources-file entry.
func addOne(ctx context.Context, u string, o discover.Options) addOutcome {
	out := addOutcome{url: u}
	out.res, out.err = discover.Find(ctx, u, o)
	if out.err != nil {
		return out
	}
	best := out.res.Best()
	if best == nil {
		out.err = errors.New(out.res.Why)
		return out
	}
	if s := best.Check.Snapshot; s != nil {
		for i := range s.Len() {
			raw := json.RawMessage(s.GigJSON(i))
			var v gigView
			_ = json.Unmarshal(raw, &v) // the engine's own JSON
			out.gigs, out.views = append(out.gigs, raw), append(out.views, v)
		}
	}
	for _, d := range best.Check.Report.Dropped {
		if noPlace.MatchString(d.Reason) {
			out.noCity++
		}
	}
	out.entry = loader.VenueConfig{Name: discover.Name(best.URL), Format: best.Format, URL: best.URL, Venue: o.Hint}
	if o.Hint == nil {
		out.entry.Venue = homeOf(out.views)
	}
	switch h := out.entry.Venue; {
	case h != nil && h.Name != "":
		out.speaks = strings.Join(slices.DeleteFunc([]string{h.Name, h.City, h.Country}, func(s string) bool { return s == "" }), ", ")
	default:
		out.speaks = "no venue (its events are at several venues: -venue names the site's own)"
	}
	switch {
	case best.Check.Report.Err != nil:
		out.err = fmt.Errorf("the feed failed: %w", best.Check.Report.Err)
	case len(out.gigs) == 0 && out.noCity > 0:
		out.err = fmt.Errorf(`the feed does not say where %d record(s) happen (no venue name, city or country): give -venue "NAME, CITY, CC" and run again`, out.noCity)
	case len(out.gigs) == 0:
		out.err = errors.New("the feed yields no gig")
	}
	return out
}

// homeOf is the venue every gig is at, as a hint, or nil when they are at several.
func homeOf(views []gigView) *loader.VenueHint {
	if len(views) == 0 {
		return nil
	}
	v := views[0]
	for _, w := range views[1:] {
		if w.Venue.Name != v.Venue.Name || w.City.Name != v.City.Name {
			return nil
		}
	}
	return &loader.VenueHint{Name: v.Venue.Name, City: v.City.Name, Country: v.Country}
}

func (o *addOutcome) writeText(w io.Writer, show int, write bool) {
	fmt.Fprintf(w, "%s\n", o.url)
	if best := o.res.Best(); best != nil {
		fmt.Fprintf(w, "  chose %s %s\n  why: %s\n", best.Format, best.URL, o.res.Why)
	}
	fmt.Fprintf(w, "  read %d page(s) in %s: %s\n", len(o.res.Pages), o.took.Round(time.Millisecond), strings.Join(o.res.Pages, " "))
	if best := o.res.Best(); best != nil {
		fmt.Fprintf(w, "  speaks for: %s\n", o.speaks)
		fmt.Fprintf(w, "  %d gig(s), %d dropped\n", len(o.gigs), len(best.Check.Report.Dropped))
		for _, v := range o.views[:min(show, len(o.views))] {
			when := v.StartsAt
			if v.TimeTBA || when == "" {
				when = v.Date + " (time to be announced)"
			}
			fmt.Fprintf(w, "    %s %s  %s @ %s, %s, %s", when, v.Timezone, v.Title, v.Venue.Name, v.City.Name, v.Country)
			if v.Status != "scheduled" {
				fmt.Fprintf(w, " [%s]", v.Status)
			}
			fmt.Fprintln(w)
		}
		if len(o.views) > show {
			fmt.Fprintf(w, "    ... and %d more\n", len(o.views)-show)
		}
		for _, d := range best.Check.Report.Dropped {
			fmt.Fprintf(w, "    dropped %s", d.Ref)
			if d.Line > 0 {
				fmt.Fprintf(w, " line %d", d.Line)
			}
			fmt.Fprintf(w, ": %s\n", d.Reason)
		}
		if e, err := json.Marshal(o.entry); err == nil {
			fmt.Fprintf(w, "  entry: %s\n", e)
		}
	}
	switch {
	case o.err != nil:
		fmt.Fprintf(w, "  not added: %v\n", o.err)
	case o.written != "":
		fmt.Fprintf(w, "  added as %q\n", o.written)
	case !write:
		fmt.Fprintln(w, "  not written: -write adds it")
	}
}

// addJSON is one line of sources add -json.
type addJSON struct {
	URL       string              `json:"url"`
	ChosenURL string              `json:"chosen_url"`
	Format    string              `json:"format"`
	Why       string              `json:"why"`
	Pages     []string            `json:"pages"`
	Events    []json.RawMessage   `json:"events"`
	Dropped   []dropJSON          `json:"dropped"`
	Entry     *loader.VenueConfig `json:"entry"`
	Added     string              `json:"added,omitempty"`
	Error     string              `json:"error,omitempty"`
}

func (o *addOutcome) writeJSON(w io.Writer) {
	out := addJSON{URL: o.url, Why: o.res.Why, Pages: o.res.Pages, Events: o.gigs, Dropped: []dropJSON{}, Added: o.written}
	if out.Events == nil {
		out.Events = []json.RawMessage{}
	}
	if best := o.res.Best(); best != nil {
		out.ChosenURL, out.Format, out.Entry = best.URL, best.Format, &o.entry
		for _, d := range best.Check.Report.Dropped {
			out.Dropped = append(out.Dropped, dropOf(d))
		}
	}
	if o.err != nil {
		out.Error = o.err.Error()
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(w, "%s\n", b)
}

// writeTable ends a run of several URLs: URL, format found, gigs, venue, added or why not.
func writeTable(w io.Writer, outs []addOutcome, write bool) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "URL\tFORMAT\tGIGS\tVENUE\tRESULT")
	for _, o := range outs {
		format, venue := "-", "-"
		if best := o.res.Best(); best != nil {
			format = best.Format
		}
		if h := o.entry.Venue; h != nil && h.Name != "" {
			venue = h.Name
		}
		result := "ok (not written)"
		switch {
		case o.err != nil:
			result = "not added: " + o.err.Error()
		case o.written != "":
			result = "added as " + o.written
		case write:
			result = "not added"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", o.url, format, len(o.gigs), venue, result)
	}
	tw.Flush()
}

// sourcesFile is the -sources file sources add writes to.
type sourcesFile struct{ path string }

// emptySources is a new sources file's text.
const emptySources = "{\n  \"venues\": []\n}\n"

// read returns the file's text and what it configures; a file that does not exist yet is
// an empty one.
func (f *sourcesFile) read() ([]byte, *loader.Config, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return []byte(emptySources), &loader.Config{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	cfg, err := loader.ParseConfig(f.path, data)
	return data, cfg, err
}

// allow returns the networks the file allows fetches to reach (none when it has none or
// cannot be read: add reports that when it writes).
func (f *sourcesFile) allow() []netip.Prefix {
	if f.path == "" {
		return nil
	}
	if _, cfg, err := f.read(); err == nil {
		return cfg.Allow
	}
	return nil
}

// add writes e into the file under a unique name, refusing a URL or a venue the file
// already reads, and returns the name.
func (f *sourcesFile) add(e loader.VenueConfig) (string, error) {
	data, cfg, err := f.read()
	if err != nil {
		return "", err
	}
	names := map[string]bool{}
	for _, v := range cfg.Venues {
		names[v.Name] = true
		if sameURL(v.URL, e.URL) {
			return "", fmt.Errorf("%s already reads %s (source %q)", f.path, e.URL, v.Name)
		}
		if h := v.Venue; h != nil && e.Venue != nil && h.Name != "" && strings.EqualFold(h.Name, e.Venue.Name) &&
			(h.City == "" || e.Venue.City == "" || strings.EqualFold(h.City, e.Venue.City)) {
			return "", fmt.Errorf("%s already has the venue %q (source %q)", f.path, h.Name, v.Name)
		}
	}
	for _, p := range cfg.Platforms {
		names[p.Name] = true
		if sameURL(p.URL, e.URL) {
			return "", fmt.Errorf("%s already reads %s (source %q)", f.path, e.URL, p.Name)
		}
	}
	base := e.Name
	for n := 2; names[e.Name]; n++ {
		e.Name = fmt.Sprintf("%s-%d", base, n)
	}
	out, err := loader.AddVenue(data, e)
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.path, err)
	}
	if _, err := loader.ParseConfig(f.path, out); err != nil {
		return "", fmt.Errorf("the edited file would not read: %w", err)
	}
	return e.Name, writeLike(f.path, out)
}

// writeLike writes data to path atomically, with the mode the file has (0644 for a new one).
func writeLike(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	return atomicfile.Write(path, data, mode)
}

// sameURL reports whether a and b are one address: scheme and host compared without
// case, "www." and a final slash aside.
func sameURL(a, b string) bool {
	norm := func(s string) string {
		u, err := url.Parse(s)
		if err != nil {
			return s
		}
		u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.TrimPrefix(strings.ToLower(u.Host), "www.")
		u.Path = strings.TrimSuffix(u.Path, "/")
		u.Fragment = ""
		return u.String()
	}
	return norm(a) == norm(b)
}
