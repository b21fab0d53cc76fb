package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"time"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/loader"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// sourcesCmd runs "gigsctl sources check|add|list|remove".
func sourcesCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "check":
		return sourcesCheck(args[1:], getenv, stdout, stderr)
	case "add":
		return sourcesAdd(args[1:], getenv, stdout, stderr)
	case "list":
		return sourcesList(args[1:], getenv, stdout, stderr)
	case "remove":
		return sourcesRemove(args[1:], getenv, stdout, stderr)
	}
	fmt.Fprintln(stderr, "usage: gigsctl sources check|add|list|remove [flags] ...")
	return errors.New("unknown or missing sources command (known: check, add, list, remove)")
}

// parseWithSources parses a sources command's flags, which must set -sources (path).
func parseWithSources(fs *flag.FlagSet, args []string, getenv func(string) string, path *string) error {
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	if *path == "" {
		return fmt.Errorf("no sources: set -sources or %s", flagenv.Name("sources"))
	}
	return nil
}

// fetchFlags are the flags of the sources commands that fetch, as gigsd's.
type fetchFlags struct {
	contact, proxy, places, now *string
	allow                       []netip.Prefix
}

func addFetchFlags(fs *flag.FlagSet) *fetchFlags {
	f := &fetchFlags{
		contact: fs.String("contact", "", "operator contact sent in the User-Agent, as gigsd's -contact"),
		proxy:   fs.String("fetch-proxy", "", "send every upstream request through this HTTP proxy, as gigsd's -fetch-proxy"),
		places:  fs.String("places", "", "the operator's places file, as gigsd's -places"),
		now:     fs.String("now", "", "read the sources as of this RFC 3339 time rather than now (documents of the past: what is upcoming then, recurrences from then)"),
	}
	flagenv.Networks(fs, &f.allow, "fetch-allow", "comma-separated networks or addresses that fetches may reach although internal, as gigsd's -fetch-allow")
	return f
}

// open returns the guarded fetcher (allowing also allow), the moment to read as of and
// the gazetteer the flags ask for (nil: the default).
func (f *fetchFlags) open(allow []netip.Prefix, o fetch.Options) (*fetch.Client, time.Time, *places.Gazetteer, error) {
	now := time.Now()
	if *f.now != "" {
		t, err := time.Parse(time.RFC3339, *f.now)
		if err != nil {
			return nil, now, nil, fmt.Errorf("-now: want an RFC 3339 time such as 2024-05-01T12:00:00Z, got %q", *f.now)
		}
		now = t
	}
	var gaz *places.Gazetteer
	if *f.places != "" {
		var err error
		if gaz, err = places.WithFile(*f.places); err != nil {
			return nil, now, nil, err
		}
	}
	o.Contact, o.Allow = *f.contact, append(slices.Clone(f.allow), allow...)
	var err error
	if o.Proxy, err = loader.ProxyFunc(*f.proxy); err != nil {
		return nil, now, nil, fmt.Errorf("-fetch-proxy: %w", err)
	}
	return fetch.New(o), now, gaz, nil
}

// sourcesCheck runs "gigsctl sources check [NAME...]": it fetches sources once, as a
// refresh would, and prints what each yields, what it dropped and why. It fails when a
// source does, when one yields nothing from a document that has events, and when one
// drops more than -max-dropped of its records.
func sourcesCheck(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl sources check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("sources", "", "sources configuration file, as gigsd's -sources")
	ff := addFetchFlags(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per source: source, events (gig bodies exactly as the API serves them), dropped, places (each stated place's city, whether it was made, and what decided it), error")
	maxDropped := fs.Float64("max-dropped", 0.2, "fail when a source drops more than this share of its records")
	show := fs.Int("show", 5, "events to print per source")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl sources check [flags] [NAME...]\n\nFetches each named source (default: all) once and prints what it yields, what it dropped and why.\n"+
		"Fails (exit status 2) when a source fails, yields no event from a document that has some, or drops\nmore than -max-dropped of its records.")
	if err := parseWithSources(fs, args, getenv, path); err != nil {
		return err
	}
	cfg, err := loader.ReadConfig(*path)
	if err != nil {
		return err
	}
	client, now, gaz, err := ff.open(cfg.Allow, fetch.Options{})
	if err != nil {
		return err
	}
	srcs, err := loader.Sources(cfg, client, getenv, func() time.Time { return now })
	if err != nil {
		return err
	}
	names := fs.Args()
	found := map[string]bool{}
	var troubled []string
	for _, src := range srcs {
		if len(names) > 0 && !slices.Contains(names, src.Name()) {
			continue
		}
		found[src.Name()] = true
		start := time.Now()
		res := loader.Check(context.Background(), src, loader.CheckOptions{Now: now, Places: gaz})
		took := time.Since(start).Round(time.Millisecond)
		trouble := troubleOf(res.Report, *maxDropped)
		if trouble != "" {
			troubled = append(troubled, src.Name()+": "+trouble)
		}
		if *asJSON {
			if err := writeCheckJSON(stdout, res); err != nil {
				return err
			}
			continue
		}
		writeCheckText(stdout, res, took, *show)
	}
	if unknown := slices.DeleteFunc(names, func(n string) bool { return found[n] }); len(unknown) > 0 {
		return fmt.Errorf("no such source: %q", unknown)
	}
	if len(troubled) > 0 {
		for _, t := range troubled {
			fmt.Fprintln(stderr, "gigsctl sources check:", t)
		}
		return fmt.Errorf("%d source(s) failed or lost records", len(troubled))
	}
	return nil
}

// troubleOf says what is wrong with a source's check, or "" when nothing is.
func troubleOf(r loader.SourceReport, maxDropped float64) string {
	total := r.Events + len(r.Dropped)
	switch {
	case r.Err != nil:
		return "failed: " + r.Err.Error()
	case r.Events == 0 && len(r.Dropped) > 0:
		return fmt.Sprintf("no event kept of %d records", len(r.Dropped))
	case total > 0 && float64(len(r.Dropped)) > maxDropped*float64(total):
		return fmt.Sprintf("%d of %d records dropped, more than %.0f%%", len(r.Dropped), total, maxDropped*100)
	}
	return ""
}

func writeCheckText(w io.Writer, res loader.CheckResult, took time.Duration, show int) {
	rep := &res.Report
	fmt.Fprintf(w, "%s: ", rep.Name)
	if rep.Err != nil {
		fmt.Fprintf(w, "FAILED after %s: %v\n", took, rep.Err)
		return
	}
	fmt.Fprintf(w, "%d events, %d dropped, in %s\n", rep.Events, len(rep.Dropped), took)
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, ev := range res.Events[:min(show, len(res.Events))] {
		fmt.Fprintf(w, "  %s  %s @ %s, %s\n", ev.Start.Wall.Format("2006-01-02 15:04"), ev.Title, ev.Venue.Name, ev.Venue.Locality)
	}
	for _, p := range rep.Places {
		if p.Made || p.By != "" {
			fmt.Fprintf(w, "  placed %q in %s (%s, %s)", p.Place, p.City, p.Country, p.Timezone)
			if p.Made {
				fmt.Fprint(w, ", a town the gazetteer lacks")
			}
			if p.By != "" {
				fmt.Fprintf(w, ", decided by %s", p.By)
			}
			fmt.Fprintf(w, ": %d events\n", p.Events)
		}
	}
	for _, d := range rep.Dropped {
		fmt.Fprintf(w, "  dropped %s", d.Ref)
		if d.Line > 0 {
			fmt.Fprintf(w, " line %d", d.Line)
		}
		fmt.Fprintf(w, ": %s\n", d.Reason)
	}
}

// checkJSON is one line of -json output.
type checkJSON struct {
	Source  string            `json:"source"`
	Events  []json.RawMessage `json:"events"`
	Dropped []dropJSON        `json:"dropped"`
	Places  []placeJSON       `json:"places"`
	Error   string            `json:"error,omitempty"`
}

// placeJSON is where the source's stated place was placed (loader.PlaceReading).
type placeJSON struct {
	Place     string `json:"place"`
	City      string `json:"city"`
	Country   string `json:"country"`
	Timezone  string `json:"timezone"`
	Made      bool   `json:"made,omitempty"`
	DecidedBy string `json:"decided_by,omitempty"`
	Events    int    `json:"events"`
}

type dropJSON struct {
	Ref    string `json:"ref"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

func writeCheckJSON(w io.Writer, res loader.CheckResult) error {
	out := checkJSON{Source: res.Report.Name, Events: []json.RawMessage{}, Dropped: []dropJSON{}, Places: []placeJSON{}}
	for _, p := range res.Report.Places {
		out.Places = append(out.Places, placeJSON{Place: p.Place, City: p.City, Country: p.Country, Timezone: p.Timezone,
			Made: p.Made, DecidedBy: p.By, Events: p.Events})
	}
	if res.Report.Err != nil {
		out.Error = res.Report.Err.Error()
	}
	if s := res.Snapshot; s != nil {
		for i := range s.Len() {
			out.Events = append(out.Events, json.RawMessage(s.GigJSON(i)))
		}
	}
	for _, d := range res.Report.Dropped {
		out.Dropped = append(out.Dropped, dropOf(d))
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func dropOf(d source.Drop) dropJSON { return dropJSON{Ref: d.Ref, Line: d.Line, Reason: d.Reason} }
