package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// refreshChurn is what changes between the two builds of the refresh run: 2% of the gigs
// edited, 1% added and 1% removed.
var refreshChurn = scale.Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 7}

// refreshResult is the refresh run: gigsd's rebuild of a dataset after refreshChurn,
// beside its first build of the dataset before, and a follower taking the rebuild from
// gigsd's bucket.
type refreshResult struct {
	Gigs                   int
	Every                  time.Duration // gigsd's -refresh
	Edited, Added, Removed int
	FirstRead, FirstBuild  time.Duration // gigsd's log of its first build
	Read, Build            time.Duration // and of the rebuild after the changes
	Follow                 followResult
}

// measureRefresh serves m.RefreshSize gigs, refreshed every m.RefreshEvery and published
// to a directory bucket, and starts a follower of the bucket once the first snapshot is
// published; then it swaps in the same dataset changed by refreshChurn, reads the
// rebuild's times from gigsd's log, and measures what the follower downloads for it and
// when it first answers from it. It checks that the rebuild read the changed file (it
// began after the swap; gigsd and the follower serve an added gig and answer a removed
// one 410).
func measureRefresh(ctx context.Context, m mode, cfg benchConfig) (refreshResult, error) {
	r := refreshResult{Gigs: m.RefreshSize, Every: m.RefreshEvery}
	work, err := filepath.Abs(filepath.Join(cfg.Out, "work", "refresh"))
	if err != nil {
		return r, err
	}
	// The changed dataset is written first, beside gigsd's work directory, so that the
	// writing shares no CPU with a build.
	next := work + "-next"
	if err := os.MkdirAll(next, 0o755); err != nil {
		return r, err
	}
	next = filepath.Join(next, "dataset")
	ds := scale.Generate(scale.Config{Gigs: r.Gigs, Seed: 1, Now: time.Now()})
	ch := refreshChurn.Apply(ds)
	r.Edited, r.Added, r.Removed = len(ch.Edited), len(ch.Added), len(ch.Removed)
	if err := writeFile(next, func(f *os.File) error { return engine.WriteDataset(f, ds) }); err != nil {
		return r, err
	}
	ds = nil
	bucket := filepath.Join(work, "bucket")
	p, base, _, _, err := startGigsd(ctx, cfg, work, r.Gigs, r.Every, "-publish", bucket)
	if err != nil {
		return r, err
	}
	defer p.stop()
	l := p.nthLogged("dataset snapshot published", 1, time.Minute)
	if l == nil {
		return r, fmt.Errorf("gigsd did not log its build")
	}
	r.FirstRead, r.FirstBuild = logDuration(l, "read"), logDuration(l, "build")
	if p.nthLogged("snapshot published", 1, 10*time.Minute) == nil { // after its file is written
		return r, fmt.Errorf("gigsd did not log its snapshot published to %s", bucket)
	}
	f, err := startFollower(ctx, cfg, work, bucket)
	if err != nil {
		return r, fmt.Errorf("follower: %w", err)
	}
	defer f.stop()
	swapped := time.Now()
	if err := os.Rename(next, filepath.Join(work, "dataset")); err != nil {
		return r, err
	}
	if l = p.nthLogged("dataset snapshot published", 2, r.Every+10*time.Minute); l == nil {
		return r, fmt.Errorf("gigsd did not log its rebuild")
	}
	r.Read, r.Build = logDuration(l, "read"), logDuration(l, "build")
	logged, err := time.Parse(time.RFC3339Nano, fmt.Sprint(l["time"]))
	if err != nil {
		return r, fmt.Errorf("the rebuild's log line has no time: %w", err)
	}
	if began := logged.Add(-r.Read - r.Build); began.Before(swapped) {
		return r, fmt.Errorf("the rebuild began at %s, before the changed dataset was in place (%s): raise the refresh interval (%s)",
			began.Format(time.RFC3339Nano), swapped.Format(time.RFC3339Nano), r.Every)
	}
	// The publish follows the snapshot file's writing, which follows the log line.
	if r.Follow, err = f.follow(ctx, p, 10*time.Minute); err != nil {
		return r, fmt.Errorf("follower: %w", err)
	}
	for _, at := range []string{base, f.base} {
		for _, c := range []struct {
			id     string
			status int
		}{{ch.Added[0], 200}, {ch.Removed[0], 410}} { // a removed gig is gone, as the ledger says
			if status, _, _ := get(at+"/v1/gigs/"+c.id, nil); status != c.status {
				return r, fmt.Errorf("after the rebuild, %s/v1/gigs/%s answered %d, not %d", at, c.id, status, c.status)
			}
		}
	}
	return r, nil
}

// logDuration reads a duration field of a gigsd log line; 0 when it has none.
func logDuration(l map[string]any, key string) time.Duration {
	d, _ := time.ParseDuration(fmt.Sprint(l[key]))
	return d
}
