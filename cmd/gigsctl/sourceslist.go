package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/loader"
)

// sourcesList runs "gigsctl sources list": every source of the file with its format and,
// given a gigsd admin address, its health from the last refresh (the admin listener's
// /metrics).
func sourcesList(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl sources list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("sources", "", "sources configuration file, as gigsd's -sources")
	admin := fs.String("admin", "", "a running gigsd's admin address (its -admin-addr, HOST:PORT): show each source's health from the last refresh")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl sources list [flags]\n\nLists the sources of the file with their format, and their health in a running gigsd.")
	if err := parseWithSources(fs, args, getenv, path); err != nil {
		return err
	}
	cfg, err := loader.ReadConfig(*path)
	if err != nil {
		return err
	}
	var health map[string]sourceHealth
	if *admin != "" {
		if health, err = readHealth(*admin); err != nil {
			return err
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	head := "NAME\tFORMAT\tURL"
	if health != nil {
		head += "\tGIGS\tSTATE\tLAST SUCCESS\tLAST ERROR"
	}
	fmt.Fprintln(tw, head)
	row := func(name, format, url string) {
		fmt.Fprintf(tw, "%s\t%s\t%s", name, format, url)
		if health != nil {
			h, ok := health[name]
			switch {
			case !ok:
				fmt.Fprint(tw, "\t-\tnot read yet (SIGHUP gigsd to read the file)\t-\t-")
			default:
				fmt.Fprintf(tw, "\t%d\t%s\t%s\t%s", h.events, h.state(), stamp(h.lastSuccess), stamp(h.lastError))
			}
		}
		fmt.Fprintln(tw)
	}
	for _, v := range cfg.Venues {
		row(v.Name, v.Format, v.URL)
	}
	for _, p := range cfg.Platforms {
		row(p.Name, string(p.Kind), p.URL)
	}
	return tw.Flush()
}

// sourceHealth is a source's state after gigsd's last refresh.
type sourceHealth struct {
	events                 int
	stale                  bool
	lastSuccess, lastError time.Time
}

func (h sourceHealth) state() string {
	switch {
	case h.stale:
		return "failing: serving its last good events"
	case !h.lastError.IsZero() && h.lastError.After(h.lastSuccess):
		return "failing"
	case h.lastSuccess.IsZero():
		return "never read"
	}
	return "ok"
}

// readHealth reads the gigs_source_* metrics of the gigsd admin listener at addr.
func readHealth(addr string) (map[string]sourceHealth, error) {
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(addr, "/")+"/metrics", nil)
	if err != nil {
		return nil, fmt.Errorf("-admin: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("-admin: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("-admin: %s/metrics: %s", addr, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("-admin: %s/metrics: %w", addr, err)
	}
	out := map[string]sourceHealth{}
	each := func(name string, f func(h *sourceHealth, v float64)) {
		fam, ok := families[name]
		if !ok {
			return
		}
		for _, m := range fam.GetMetric() {
			src := label(m, "source")
			h := out[src]
			f(&h, m.GetGauge().GetValue())
			out[src] = h
		}
	}
	if _, ok := families["gigs_source_events"]; !ok {
		return nil, errors.New("-admin: the metrics have no gigs_source_events: is it a gigsd that refreshes sources?")
	}
	each("gigs_source_events", func(h *sourceHealth, v float64) { h.events = int(v) })
	each("gigs_source_stale", func(h *sourceHealth, v float64) { h.stale = v == 1 })
	each("gigs_source_last_success_timestamp_seconds", func(h *sourceHealth, v float64) { h.lastSuccess = unix(v) })
	each("gigs_source_last_error_timestamp_seconds", func(h *sourceHealth, v float64) { h.lastError = unix(v) })
	return out, nil
}

func unix(v float64) time.Time {
	if v <= 0 {
		return time.Time{}
	}
	return time.Unix(int64(v), 0)
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// sourcesRemove runs "gigsctl sources remove NAME...": it takes the named sources out of
// the file, keeping the rest of it as written.
func sourcesRemove(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl sources remove", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("sources", "", "sources configuration file, as gigsd's -sources")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl sources remove [flags] NAME...\n\nTakes the named sources out of the sources file (SIGHUP gigsd to stop reading them).")
	if err := parseWithSources(fs, args, getenv, path); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no source to remove")
	}
	data, err := os.ReadFile(*path)
	if err != nil {
		return err
	}
	for _, name := range fs.Args() {
		if data, err = loader.RemoveSource(data, name); err != nil {
			return fmt.Errorf("%s: %w", *path, err)
		}
	}
	if _, err := loader.ParseConfig(*path, data); err != nil {
		return fmt.Errorf("the edited file would not read: %w", err)
	}
	if err := writeLike(*path, data); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "removed %s from %s\n", strings.Join(fs.Args(), ", "), *path)
	return nil
}
