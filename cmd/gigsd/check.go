package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader"
)

// Check loads the sources once and builds a snapshot as a refresh would, writing a summary
// to out. It publishes nothing and writes nothing to the data directory: ids are made
// afresh, and failing sources have no last good events to fall back on. It fails when the
// configuration does not load or no snapshot can be built.
func (m *Main) Check(ctx context.Context, out io.Writer) error {
	fetcher, err := m.newFetcher()
	if err != nil {
		return err
	}
	srcs, err := m.sources(fetcher)
	if err != nil {
		return err
	}
	gaz, err := m.gazetteer()
	if err != nil {
		return err
	}
	var live engine.Live
	ld := loader.New(loader.Options{Sources: srcs, Stats: fetcher.Stats, Live: &live, Logger: m.Logger, MaxStale: m.Config.MaxStale,
		MaxRecords: m.Config.MaxRecords, Places: gaz})
	rep, err := ld.RunOnce(ctx)
	writeSummary(out, rep, live.Load())
	return err
}

// maxListed caps the failing and dropping sources the summary names.
const maxListed = 20

func writeSummary(out io.Writer, rep loader.Report, snap *engine.Snapshot) {
	var failed, dropping []loader.SourceReport
	dropped := 0
	for _, s := range rep.Sources {
		if s.Err != nil {
			failed = append(failed, s)
		}
		if len(s.Dropped) > 0 {
			dropping = append(dropping, s)
			dropped += len(s.Dropped)
		}
	}
	fmt.Fprintf(out, "sources: %d, %d ok, %d failed\n", len(rep.Sources), len(rep.Sources)-len(failed), len(failed))
	for i, s := range failed {
		if i == maxListed {
			fmt.Fprintf(out, "  … and %d more failed\n", len(failed)-maxListed)
			break
		}
		fmt.Fprintf(out, "  failed  %s: %v\n", s.Name, s.Err)
	}
	fmt.Fprintf(out, "records: %d used, %d dropped\n", rep.Records, dropped)
	for i, s := range dropping {
		if i == maxListed {
			fmt.Fprintf(out, "  … and %d more sources dropped records\n", len(dropping)-maxListed)
			break
		}
		d := s.Dropped[0]
		fmt.Fprintf(out, "  dropped %s: %d (first: %s line %d: %s)\n", s.Name, len(s.Dropped), d.Ref, d.Line, d.Reason)
	}
	fmt.Fprintf(out, "fetch: %d requests, %.1f MB\n", rep.Fetch.Requests, float64(rep.Fetch.BytesWire)/1e6)
	fmt.Fprintf(out, "took %s\n", rep.Duration.Round(time.Millisecond))
	if snap == nil {
		fmt.Fprintln(out, "snapshot: not built")
		return
	}
	c, e := snap.Counts(), snap.Export()
	fmt.Fprintf(out, "snapshot: %d gigs, %d cities, %d venues, %d artists, %d genres; export %.1f MB (%.1f MB gzip); data_version %s\n",
		c.Gigs, c.Cities, c.Venues, c.Artists, c.Genres, float64(e.Size)/1e6, float64(e.GzipSize)/1e6, snap.Version())
}
