package main

import (
	"context"
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
)

// sourcesCmd runs "gigsctl sources check [NAME...]": it fetches sources once, as a refresh
// would, and prints what each yields, what it dropped and why. It fails when a source does.
func sourcesCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintln(stderr, "usage: gigsctl sources check [flags] [NAME...]")
		return errors.New("unknown or missing sources command (known: check)")
	}
	fs := flag.NewFlagSet("gigsctl sources check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("sources", "", "sources configuration file, as gigsd's -sources")
	contact := fs.String("contact", "", "operator contact sent in the User-Agent, as gigsd's -contact")
	proxy := fs.String("fetch-proxy", "", "send every upstream request through this HTTP proxy, as gigsd's -fetch-proxy")
	var allow []netip.Prefix
	flagenv.Networks(fs, &allow, "fetch-allow", "comma-separated networks or addresses that fetches may reach although internal, as gigsd's -fetch-allow")
	show := fs.Int("show", 5, "events to print per source")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl sources check [flags] [NAME...]\n\nFetches each named source (default: all) once and prints what it yields, what it dropped and why.")
	if err := flagenv.Parse(fs, args[1:], getenv); err != nil {
		return err
	}
	if *path == "" {
		return fmt.Errorf("no sources: set -sources or %s", flagenv.Name("sources"))
	}
	cfg, err := loader.ReadConfig(*path)
	if err != nil {
		return err
	}
	opts := fetch.Options{Contact: *contact, Allow: append(allow, cfg.Allow...)}
	if opts.Proxy, err = loader.ProxyFunc(*proxy); err != nil {
		return fmt.Errorf("-fetch-proxy: %w", err)
	}
	srcs, err := loader.Sources(cfg, fetch.New(opts), getenv, time.Now)
	if err != nil {
		return err
	}
	names := fs.Args()
	found := map[string]bool{}
	failed := 0
	for _, src := range srcs {
		if len(names) > 0 && !slices.Contains(names, src.Name()) {
			continue
		}
		found[src.Name()] = true
		start := time.Now()
		rep, events := loader.Check(context.Background(), src, start)
		fmt.Fprintf(stdout, "%s: ", rep.Name)
		if rep.Err != nil {
			failed++
			fmt.Fprintf(stdout, "FAILED after %s: %v\n", time.Since(start).Round(time.Millisecond), rep.Err)
			continue
		}
		fmt.Fprintf(stdout, "%d events, %d dropped, in %s\n", rep.Events, len(rep.Dropped), time.Since(start).Round(time.Millisecond))
		for _, n := range rep.Notes {
			fmt.Fprintf(stdout, "  note: %s\n", n)
		}
		for _, ev := range events[:min(*show, len(events))] {
			fmt.Fprintf(stdout, "  %s  %s @ %s, %s\n", ev.Start.Wall.Format("2006-01-02 15:04"), ev.Title, ev.Venue.Name, ev.Venue.Locality)
		}
		for _, d := range rep.Dropped {
			fmt.Fprintf(stdout, "  dropped %s", d.Ref)
			if d.Line > 0 {
				fmt.Fprintf(stdout, " line %d", d.Line)
			}
			fmt.Fprintf(stdout, ": %s\n", d.Reason)
		}
	}
	if unknown := slices.DeleteFunc(names, func(n string) bool { return found[n] }); len(unknown) > 0 {
		return fmt.Errorf("no such source: %q", unknown)
	}
	if failed > 0 {
		return fmt.Errorf("%d source(s) failed", failed)
	}
	return nil
}
