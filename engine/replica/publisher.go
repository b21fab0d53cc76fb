package replica

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine"
)

// Publisher puts each snapshot its File holds in Bucket, for followers. Use it from one
// goroutine at a time: Resume before the refreshes start, then the refresh loop.
type Publisher struct {
	Bucket  *blob.Bucket
	Name    string       // the bucket's URL, in logs
	File    *File        // the snapshot file uploaded; not nil
	Live    *engine.Live // what is served
	Log     *slog.Logger
	Refresh time.Duration // the next refresh followers are told when Live's is not ahead
	// Follower makes a follower of Bucket into File's place. Resume calls it once, when
	// the bucket holds a snapshot newer than the one served.
	Follower func() *Follower
	Metrics  *PublishMetrics
	// FullEvery is how often a snapshot is uploaded whole (see Chain.FullEvery); the
	// others are deltas from the one before. 0 or 1 uploads each whole, and a delta beside.
	FullEvery int

	man    Manifest  // the bucket's manifest, as read or written last; zero when unknown
	last   string    // data version of the manifest; "" when unknown
	cursor string    // and its change-feed cursor (a build may change only that)
	built  time.Time // its build time: nothing built earlier is published
}

// PublishMetrics count a publisher's uploads.
type PublishMetrics struct {
	results *prometheus.CounterVec
}

// NewPublishMetrics registers a publisher's metrics on reg.
func NewPublishMetrics(reg prometheus.Registerer) *PublishMetrics {
	m := &PublishMetrics{results: newResults("gigs_publish_total", "Snapshots published to the -publish bucket, by result (ok, error).")}
	reg.MustRegister(m.results)
	return m
}

// Resume reads what the bucket holds, so that a restart does not publish the same data
// again. When the bucket holds a snapshot newer than the one served (a publisher that
// lost its data directory, or was moved), that one is downloaded and served, as a
// follower would: the first refresh then carries on its ledger (ids' created_at, the
// change feed's numbers) rather than start a new one, and nothing older is published.
func (p *Publisher) Resume(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	man, err := ReadManifest(ctx, p.Bucket)
	switch {
	case err == nil:
		// A manifest may say it was built up to an hour ahead of this clock (or name an
		// object that is not there): whatever this process builds from now on is newer.
		p.man, p.last, p.cursor, p.built = man, man.DataVersion, man.Cursor, man.Built
		if now := time.Now(); p.built.After(now) {
			p.built = now
		}
		if cur := p.Live.Load(); cur == nil || cur.Built().Before(man.Built) {
			if _, err := p.Follower().Poll(ctx); err != nil {
				p.Log.Error("cannot serve the published snapshot: the first refresh starts afresh", "bucket", p.Name, "err", err)
			} else {
				p.keepBase()
			}
		}
	case !IsNotFound(err):
		// What the bucket holds is unknown: publish only what this process builds.
		p.built = time.Now()
		p.Log.Warn("cannot read the published manifest: the next snapshot built replaces it", "bucket", p.Name, "err", err)
	}
}

// Publish puts s, which the snapshot file holds, in the bucket unless its data is there
// already; then only the manifest's next refresh is moved, so that followers' caching
// follows the publisher's. A failure is logged and counted; the next refresh tries again.
func (p *Publisher) Publish(ctx context.Context, s *engine.Snapshot) {
	if s == nil || p.File.saved != s.Version() {
		return
	}
	if s.Built().Before(p.built) {
		p.Log.Warn("snapshot not published: built before the one the bucket holds", "bucket", p.Name,
			"built", s.Built(), "published_built", p.built)
		return
	}
	start := time.Now()
	next := p.Live.NextRefresh()
	if !next.After(start) {
		next = start.Add(p.Refresh)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	if s.Version() == p.last && s.Cursor().String() == p.cursor {
		if _, err := Reschedule(ctx, p.Bucket, s.Version(), next); err != nil {
			p.Log.Warn("next refresh not published", "bucket", p.Name, "err", err)
		}
		return
	}
	man, err := PublishNext(ctx, p.Bucket, p.File.path, s, next, Chain{Prev: p.man, Base: p.basePath(), FullEvery: p.FullEvery})
	if err != nil && man.Object == "" {
		p.Metrics.results.WithLabelValues("error").Inc()
		p.Log.Error("snapshot not published", "bucket", p.Name, "err", err)
		return
	}
	if err != nil {
		p.Log.Warn("snapshot published, but not as a delta or old objects not removed", "bucket", p.Name, "err", err)
	}
	p.Metrics.results.WithLabelValues("ok").Inc()
	p.man, p.last, p.cursor, p.built = man, s.Version(), man.Cursor, s.Built()
	p.keepBase()
	args := []any{"bucket", p.Name, "object", man.Object, "bytes", man.Size, "data_version", man.DataVersion, "took", time.Since(start).String()}
	if n := len(man.Deltas); n > 0 { // the last delta makes s: uploaded now
		args = append(args, "delta", man.Deltas[n-1].Object, "delta_bytes", man.Deltas[n-1].Size)
	}
	p.Log.Info("snapshot published", args...)
}

// baseName is the name in the data directory of the link to the snapshot file published
// last, from which the next publish makes its delta.
const baseName = "published-snapshot"

func (p *Publisher) basePath() string { return filepath.Join(filepath.Dir(p.File.path), baseName) }

// keepBase links the snapshot file, just published, as the base of the next delta (a
// link, not a copy: the next snapshot file replaces the file, not its bytes). Without
// it, the next publish uploads the file whole.
func (p *Publisher) keepBase() {
	base := p.basePath()
	if err := os.Remove(base); err != nil && !errors.Is(err, fs.ErrNotExist) {
		p.Log.Warn("cannot replace the base of the next delta: the next snapshot is uploaded whole", "file", base, "err", err)
		return
	}
	if err := os.Link(p.File.path, base); err != nil {
		p.Log.Warn("cannot keep the base of the next delta: the next snapshot is uploaded whole", "file", base, "err", err)
	}
}
