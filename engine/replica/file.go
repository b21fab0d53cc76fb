package replica

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/atomicfile"
)

// FileName is the snapshot file's name in a data directory; a Follower's Path is there too.
const FileName = "snapshot"

// markName is the name in a data directory of the published cursor's file.
const markName = "published-cursor"

// File keeps the last published snapshot in <data-dir>/snapshot, so that a restart
// serves it at once, before its first refresh ends. Use it from one goroutine at a time:
// Load before the refreshes start, then the refresh loop.
//
// A File of a daemon that builds snapshots also keeps <data-dir>/published-cursor: the
// change-feed cursor of the last snapshot it published, written (synced) before each it
// builds is served (one downloaded from the bucket is recorded once its file is in place:
// see kept). The snapshot file is written after, and may never be (a crash, a full disk): a
// restart that finds the file behind that cursor serves it, and its first build expires
// every earlier cursor (engine.Options.Published), so that no client's cursor is ever
// read as changes numbered anew.
//
// A nil *File keeps no file: it has published nothing, and records nothing.
type File struct {
	path        string        // immutable
	markPath    string        // the published cursor's file; immutable
	builds      bool          // the daemon builds snapshots: it keeps the published cursor; immutable
	live        *engine.Live  // immutable
	log         *slog.Logger  // immutable
	saved       string        // data version the file holds; "" when unknown
	savedCursor engine.Cursor // and its cursor
	marked      engine.Cursor // what the published cursor's file holds; zero when unknown
	writes      *prometheus.CounterVec
}

// maxFileAhead is how far after this clock a snapshot file may say it was built: a file
// from the future would be served as the newest data, and hold back publishing until then.
const maxFileAhead = time.Minute

// maxPublishedSeq bounds a published cursor's number: a billion changes an hour for a
// million years stay under it, and numbering on after it cannot overflow.
const maxPublishedSeq = 1 << 62

// unreadableMark stands for a published cursor that cannot be read: a cursor of no ledger
// (epochs are never 0), which expires every cursor of the first build's Prev.
var unreadableMark = engine.Cursor{Seq: 1}

// NewFile returns the snapshot file of dataDir, whose snapshots are served through live;
// builds is whether the daemon builds snapshots (rather than follows a bucket). Its
// metrics are registered on reg; outcomes are logged to log.
func NewFile(dataDir string, builds bool, live *engine.Live, log *slog.Logger, reg prometheus.Registerer) *File {
	f := &File{path: filepath.Join(dataDir, FileName), markPath: filepath.Join(dataDir, markName), builds: builds, live: live, log: log,
		writes: newResults("gigs_snapshot_file_writes_total",
			"Published snapshots written to <data-dir>/snapshot, by result (ok, error); unchanged data is not written again.")}
	reg.MustRegister(f.writes)
	return f
}

// Load publishes the file's snapshot when it is whole and built within maxAge; otherwise
// the API waits for the first refresh, as without a file. A File that builds then reads
// the cursor published last. Every outcome is logged. For a File that builds, a file
// that exists but cannot be opened (its permissions, a disk error) is an error: the first
// refresh would replace it, and with it the change feed's history, though nothing shows
// it is bad (a follower's file is only a copy of the bucket's).
func (f *File) Load(maxAge time.Duration) error {
	if err := atomicfile.Clean(f.path); err != nil {
		f.log.Warn("cannot remove a snapshot file's leftovers", "file", f.path, "err", err)
	}
	start := time.Now()
	s, err := engine.ReadSnapshotFile(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.log.Info("no snapshot file yet: serving after the first refresh", "file", f.path)
	case err != nil && f.builds && cannotOpen(err):
		return fmt.Errorf("cannot read the snapshot file, and will not replace a file it cannot read: %w (make it readable, or move it away to start afresh)", err)
	case err != nil:
		f.log.Error("snapshot file not served: serving after the first refresh, which replaces it", "file", f.path, "err", err)
	case time.Since(s.Built()) > maxAge:
		f.log.Warn("snapshot file not served: older than -max-stale", "file", f.path, "built", s.Built(), "max_stale", maxAge.String())
	case time.Until(s.Built()) > maxFileAhead:
		f.log.Error("snapshot file not served: built later than now (a clock set back, or a file from elsewhere); serving after the first refresh, which replaces it",
			"file", f.path, "built", s.Built())
	default:
		f.live.Publish(s)
		f.saved, f.savedCursor = s.Version(), s.Cursor()
		f.log.Info("snapshot file served", "file", f.path, "gigs", s.Len(), "built", s.Built(), "data_version", s.Version(),
			"took", time.Since(start).String())
	}
	if f.builds {
		f.readPublishedCursor()
	}
	return nil
}

// cannotOpen reports whether err is a failure to open or stat a file that is there: not
// its absence, not what it holds, nor a failure to map it (an address space limit).
func cannotOpen(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && (pe.Op == "open" || pe.Op == "stat") && !errors.Is(err, fs.ErrNotExist)
}

// readPublishedCursor reads the cursor published last into f.marked, and logs when the
// snapshot served is behind it. No file is a data directory of a gigsd from before
// them: the snapshot file's cursor is taken for it.
func (f *File) readPublishedCursor() {
	b, err := atomicfile.Read(f.markPath, 4<<10) // a cursor is some 40 bytes
	if err == nil {
		f.marked, err = engine.ParseCursor(strings.TrimSpace(string(b)))
	}
	if err == nil && f.marked.Seq > maxPublishedSeq {
		err = fmt.Errorf("cursor %s: no ledger counts that far", f.marked)
	}
	served := f.live.Load()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.marked = engine.Cursor{}
	case err != nil:
		f.marked = unreadableMark
		f.log.Error("cannot read the published cursor: the first refresh expires every change-feed cursor given before", "file", f.markPath, "err", err)
	case served != nil && served.Cursor() != f.marked:
		f.log.Warn("the snapshot file is older than the last snapshot published: the first refresh expires every change-feed cursor up to it",
			"file", f.path, "cursor", served.Cursor().String(), "published", f.marked.String())
	}
}

// Published returns the cursor published last, for the next build (see
// engine.Options.Published); zero when unknown.
func (f *File) Published() engine.Cursor {
	if f == nil {
		return engine.Cursor{}
	}
	return f.marked
}

// ahead reports whether the cursor published last may be after c: known (or unreadable),
// and of another ledger or after c in c's.
func (f *File) ahead(c engine.Cursor) bool {
	return f.marked != (engine.Cursor{}) && (f.marked.Epoch != c.Epoch || f.marked.Seq > c.Seq)
}

// MarkPublished records s's cursor as published, before s is served; a nil File (no
// snapshot file to fall behind) records nothing. An error means s must not be served.
func (f *File) MarkPublished(s *engine.Snapshot) error {
	if f == nil || s.Cursor() == f.marked {
		return nil
	}
	if err := atomicfile.Write(f.markPath, []byte(s.Cursor().String()+"\n"), 0o644); err != nil {
		return fmt.Errorf("cannot record the published cursor: %w", err)
	}
	f.marked = s.Cursor()
	return nil
}

// Save writes s to the file unless it holds the same data already. A failure is logged and
// counted; the file keeps the previous snapshot.
func (f *File) Save(s *engine.Snapshot) {
	if s == nil || s.Version() == f.saved && s.Cursor() == f.savedCursor {
		return
	}
	start := time.Now()
	if err := s.WriteFile(f.path); err != nil {
		f.writes.WithLabelValues("error").Inc()
		f.log.Error("cannot write the snapshot file", "file", f.path, "err", err)
		return
	}
	f.writes.WithLabelValues("ok").Inc()
	f.saved, f.savedCursor = s.Version(), s.Cursor()
	f.log.Info("snapshot file written", "file", f.path, "gigs", s.Len(), "took", time.Since(start).String())
}

// kept records the outcome of a follower's putting the file of s, published from the
// bucket and served, in the file's place: err is nil when it is there, synced with its
// directory. It counts the write; when it failed, the File records nothing (the file holds
// what it held, and Save writes s again). A nil File records nothing.
func (f *File) kept(s *engine.Snapshot, err error) {
	if f == nil {
		return
	}
	if err != nil {
		f.writes.WithLabelValues("error").Inc()
		return
	}
	f.writes.WithLabelValues("ok").Inc()
	f.downloaded(s)
}

// downloaded records that the file holds s, published from the bucket, durably. A File
// that builds carries on the bucket's ledger, unless it may have numbered changes past it
// already (an upload that failed, or a crash before it; a cursor file it cannot read):
// then its first build numbers after those (see engine.Options.Published). The cursor is
// recorded only once the file is in place, so that a crash never leaves it ahead of the
// file a restart serves. A nil File records nothing.
func (f *File) downloaded(s *engine.Snapshot) {
	if f == nil {
		return
	}
	f.saved, f.savedCursor = s.Version(), s.Cursor()
	if f.builds && !f.ahead(s.Cursor()) {
		if err := f.MarkPublished(s); err != nil {
			f.log.Error("published snapshot served without its cursor recorded", "err", err)
		}
	}
}
