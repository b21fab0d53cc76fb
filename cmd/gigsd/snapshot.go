package main

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/atomicfile"
	"github.com/prometheus/client_golang/prometheus"
)

// snapshotFile keeps the last published snapshot in <data-dir>/snapshot, so that a restart
// serves it at once, before its first refresh ends. Used by one goroutine at a time: Run
// before the refreshes start, then the refresh loop.
type snapshotFile struct {
	path   string
	saved  string // data version the file holds; "" when unknown
	writes *prometheus.CounterVec
}

func newSnapshotFile(dataDir string, reg prometheus.Registerer) *snapshotFile {
	f := &snapshotFile{path: filepath.Join(dataDir, "snapshot"), writes: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_snapshot_file_writes_total",
		Help: "Published snapshots written to <data-dir>/snapshot, by result (ok, error); unchanged data is not written again.",
	}, []string{"result"})}
	reg.MustRegister(f.writes)
	return f
}

// load publishes the file's snapshot when it is whole and built within maxAge; otherwise
// the API waits for the first refresh, as without a file. Every outcome is logged.
func (m *Main) loadSnapshotFile(f *snapshotFile, maxAge time.Duration) {
	if err := atomicfile.Clean(f.path); err != nil {
		m.Logger.Warn("cannot remove a snapshot file's leftovers", "file", f.path, "err", err)
	}
	start := time.Now()
	s, err := engine.ReadSnapshotFile(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		m.Logger.Info("no snapshot file yet: serving after the first refresh", "file", f.path)
	case err != nil:
		m.Logger.Error("snapshot file not served: serving after the first refresh, which replaces it", "file", f.path, "err", err)
	case time.Since(s.Built()) > maxAge:
		m.Logger.Warn("snapshot file not served: older than -max-stale", "file", f.path, "built", s.Built(), "max_stale", maxAge.String())
	default:
		m.Live.Publish(s)
		f.saved = s.Version()
		m.Logger.Info("snapshot file served", "file", f.path, "gigs", s.Len(), "built", s.Built(), "data_version", s.Version(),
			"took", time.Since(start).String())
	}
}

// save writes s to the file unless it holds the same data already. A failure is logged and
// counted; the file keeps the previous snapshot.
func (m *Main) saveSnapshot(f *snapshotFile, s *engine.Snapshot) {
	if s == nil || s.Version() == f.saved {
		return
	}
	start := time.Now()
	if err := s.WriteFile(f.path); err != nil {
		f.writes.WithLabelValues("error").Inc()
		m.Logger.Error("cannot write the snapshot file", "file", f.path, "err", err)
		return
	}
	f.writes.WithLabelValues("ok").Inc()
	f.saved = s.Version()
	m.Logger.Info("snapshot file written", "file", f.path, "gigs", s.Len(), "took", time.Since(start).String())
}
