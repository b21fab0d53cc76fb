package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/replica"
)

// publisher is -publish's state: what the bucket's manifest names.
type publisher struct {
	last    string // data version of the manifest; "" when unknown
	results *prometheus.CounterVec
}

// newPublisher reads what the bucket holds, so that a restart does not publish the same
// data again.
func (m *Main) newPublisher(ctx context.Context) *publisher {
	p := &publisher{results: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_publish_total",
		Help: "Snapshots published to the -publish bucket, by result (ok, error).",
	}, []string{"result"})}
	m.Registry.MustRegister(p.results)
	man, err := replica.ReadManifest(ctx, m.bucket)
	switch {
	case err == nil:
		p.last = man.DataVersion
	case !replica.IsNotFound(err):
		m.Logger.Warn("cannot read the published manifest: the next snapshot replaces it", "bucket", m.Config.Publish, "err", err)
	}
	return p
}

// publish puts s, which the snapshot file holds, in the bucket unless its data is there
// already. A failure is logged and counted; the next refresh tries again.
func (m *Main) publish(ctx context.Context, s *engine.Snapshot) {
	if s == nil || s.Version() == m.pub.last || m.snapFile.saved != s.Version() {
		return
	}
	start := time.Now()
	next := m.Live.NextRefresh()
	if !next.After(start) {
		next = start.Add(m.Config.Refresh)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
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
	m.pub.last = s.Version()
	m.Logger.Info("snapshot published", "bucket", m.Config.Publish, "object", man.Object, "bytes", man.Size,
		"data_version", man.DataVersion, "took", time.Since(start).String())
}

// follower follows -follow's bucket into the snapshot file's place.
func (m *Main) follower() *replica.Follower {
	return &replica.Follower{Bucket: m.bucket, Path: filepath.Join(m.Config.DataDir, "snapshot"), Live: &m.Live,
		Log: m.Logger.With("bucket", m.Config.Follow), Every: m.Config.FollowEvery,
		Metrics: replica.NewFollowMetrics(m.Registry), Swapped: func(*engine.Snapshot) { released() }}
}
