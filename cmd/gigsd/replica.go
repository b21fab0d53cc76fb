package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
)

// publisher is -publish's state: what the bucket's manifest names.
type publisher struct {
	last    string    // data version of the manifest; "" when unknown
	cursor  string    // and its change-feed cursor (a build may change only that)
	built   time.Time // its build time: nothing built earlier is published
	results *prometheus.CounterVec
}

// newPublisher reads what the bucket holds, so that a restart does not publish the same
// data again. When the bucket holds a snapshot newer than the one served (a publisher
// that lost its data directory, or was moved), that one is downloaded and served, as a
// follower would: the first refresh then carries on its ledger (ids' created_at, the
// change feed's numbers) rather than start a new one, and nothing older is published.
func (m *Main) newPublisher(ctx context.Context) *publisher {
	p := &publisher{results: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_publish_total",
		Help: "Snapshots published to the -publish bucket, by result (ok, error).",
	}, []string{"result"})}
	p.results.WithLabelValues("ok") // both series from the start: an alert on the first error needs its zero
	p.results.WithLabelValues("error")
	m.Registry.MustRegister(p.results)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	man, err := replica.ReadManifest(ctx, m.bucket)
	switch {
	case err == nil:
		// A manifest may say it was built up to an hour ahead of this clock (or name an
		// object that is not there): whatever this process builds from now on is newer.
		p.last, p.cursor, p.built = man.DataVersion, man.Cursor, man.Built
		if now := time.Now(); p.built.After(now) {
			p.built = now
		}
		if cur := m.Live.Load(); cur == nil || cur.Built().Before(man.Built) {
			if _, err := m.follower().Poll(ctx); err != nil {
				m.Logger.Error("cannot serve the published snapshot: the first refresh starts afresh", "bucket", m.Config.Publish, "err", err)
			}
		}
	case !replica.IsNotFound(err):
		// What the bucket holds is unknown: publish only what this process builds.
		p.built = time.Now()
		m.Logger.Warn("cannot read the published manifest: the next snapshot built replaces it", "bucket", m.Config.Publish, "err", err)
	}
	return p
}

// publish puts s, which the snapshot file holds, in the bucket unless its data is there
// already; then only the manifest's next refresh is moved, so that followers' caching
// follows the publisher's. A failure is logged and counted; the next refresh tries again.
func (m *Main) publish(ctx context.Context, s *engine.Snapshot) {
	if s == nil || m.snapFile.saved != s.Version() {
		return
	}
	if s.Built().Before(m.pub.built) {
		m.Logger.Warn("snapshot not published: built before the one the bucket holds", "bucket", m.Config.Publish,
			"built", s.Built(), "published_built", m.pub.built)
		return
	}
	start := time.Now()
	next := m.Live.NextRefresh()
	if !next.After(start) {
		next = start.Add(m.Config.Refresh)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	if s.Version() == m.pub.last && s.Cursor().String() == m.pub.cursor {
		if _, err := replica.Reschedule(ctx, m.bucket, s.Version(), next); err != nil {
			m.Logger.Warn("next refresh not published", "bucket", m.Config.Publish, "err", err)
		}
		return
	}
	man, err := replica.Publish(ctx, m.bucket, m.snapFile.path, s, next)
	if err != nil && man.Object == "" {
		m.pub.results.WithLabelValues("error").Inc()
		m.Logger.Error("snapshot not published", "bucket", m.Config.Publish, "err", err)
		return
	}
	if err != nil {
		m.Logger.Warn("snapshot published, old ones not removed", "bucket", m.Config.Publish, "err", err)
	}
	m.pub.results.WithLabelValues("ok").Inc()
	m.pub.last, m.pub.cursor, m.pub.built = s.Version(), man.Cursor, s.Built()
	m.Logger.Info("snapshot published", "bucket", m.Config.Publish, "object", man.Object, "bytes", man.Size,
		"data_version", man.DataVersion, "took", time.Since(start).String())
}

// follower follows the bucket (-follow's, or -publish's) into the snapshot file's place.
func (m *Main) follower() *replica.Follower {
	return &replica.Follower{Bucket: m.bucket, Path: filepath.Join(m.Config.DataDir, "snapshot"), Live: &m.Live,
		Log: m.Logger.With("bucket", m.Config.Follow+m.Config.Publish), Every: m.Config.FollowEvery,
		Metrics: replica.NewFollowMetrics(m.Registry), Swapped: func(s *engine.Snapshot) {
			released()
			if m.snapFile != nil {
				m.snapFile.saved, m.snapFile.savedCursor = s.Version(), s.Cursor() // the download is the snapshot file
			}
			if m.Config.Follow == "" && m.snapFile != nil && !m.snapFile.ahead(s.Cursor()) {
				// A publisher carries on the bucket's ledger, unless it may have numbered
				// changes past it already (an upload that failed, or a crash before it; a
				// cursor file it cannot read): then its first build numbers after those
				// (see engine.Options.Published).
				if err := m.markPublished(s); err != nil {
					m.Logger.Error("published snapshot served without its cursor recorded", "err", err)
				}
			}
		}}
}
