package replica

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/prometheus/client_golang/prometheus"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/atomicfile"
)

// Follower serves the snapshots a publisher puts in a bucket. Use it from one goroutine.
type Follower struct {
	Bucket *blob.Bucket
	Path   string // the follower's snapshot file, <data-dir>/snapshot: downloads replace it
	// File, when set, is the File at Path: it learns of each snapshot put into service.
	File  *File
	Live  *engine.Live
	Log   *slog.Logger
	Every time.Duration // how often the manifest is read
	// Swapped, when set, runs after each snapshot put into service, once its file is
	// kept (or failed to be) and before File records it.
	Swapped func(*engine.Snapshot)
	Metrics *FollowMetrics

	served Manifest // the manifest of the snapshot in service; zero before the first
	bad    Manifest // the last manifest whose file failed its checks: not tried again until the manifest changes
	stages *stages  // the current poll's steps, timed for its log line
	// after is Run's timer: time.After, or a test's.
	after func(time.Duration) <-chan time.Time
}

// FollowMetrics count a follower's downloads.
type FollowMetrics struct {
	downloads *prometheus.CounterVec
	bytes     prometheus.Counter
	published prometheus.Gauge
	polled    prometheus.Gauge
	deltas    *prometheus.CounterVec
	fallbacks prometheus.Counter
}

// NewFollowMetrics registers a follower's metrics on reg.
func NewFollowMetrics(reg prometheus.Registerer) *FollowMetrics {
	m := &FollowMetrics{
		downloads: newResults("gigs_follow_downloads_total",
			"Published snapshots downloaded, by result: ok (served), error (not served: unreadable, wrong size or checksum, not a snapshot)."),
		bytes: prometheus.NewCounter(prometheus.CounterOpts{Name: "gigs_follow_downloaded_bytes_total",
			Help: "Bytes of snapshot files downloaded from the bucket."}),
		published: prometheus.NewGauge(prometheus.GaugeOpts{Name: "gigs_follow_published_timestamp_seconds",
			Help: "When the snapshot in service was published, from its manifest."}),
		polled: prometheus.NewGauge(prometheus.GaugeOpts{Name: "gigs_follow_last_poll_timestamp_seconds",
			Help: "When the bucket's manifest was last read and is either served or nothing new."}),
	}
	m.deltas = newResults("gigs_follow_deltas_total",
		"Deltas applied to the snapshot file in service, by result: ok (the file made is the manifest's), error (damaged, of another base, or not fetched).")
	m.fallbacks = prometheus.NewCounter(prometheus.CounterOpts{Name: "gigs_follow_delta_fallbacks_total",
		Help: "Polls whose chain of deltas could not be applied, so the whole snapshot was downloaded instead."})
	reg.MustRegister(m.downloads, m.bytes, m.published, m.polled, m.deltas, m.fallbacks)
	return m
}

// Run polls the manifest at once and then every f.Every until ctx ends. Polls that fail
// in a row back off (see pollWait), so a bucket that keeps naming unusable objects costs
// little; the first poll that does not fail brings the pace back to f.Every.
func (f *Follower) Run(ctx context.Context) {
	after := f.after
	if after == nil {
		after = time.After
	}
	fails := 0
	for {
		_, err := f.Poll(ctx)
		if err == nil || ctx.Err() != nil {
			fails = 0
		} else {
			fails++
		}
		wait := pollWait(f.Every, fails, rand.Int64N)
		if fails > 0 {
			f.Log.Error("published snapshot not followed, serving the current one", "err", err, "failed_polls", fails, "next_poll_in", wait.Round(time.Millisecond).String())
		}
		select {
		case <-ctx.Done():
			return
		case <-after(wait):
		}
	}
}

// maxPollBackoff caps the wait between polls that fail (unless Every is longer).
const maxPollBackoff = 5 * time.Minute

// pollWait is the wait before the next poll after fails polls that failed in a row:
// Every while none did; else Every doubled with each (2, 4, 8… times), capped at
// maxPollBackoff or Every if longer, and drawn by random (rnd(n) in [0, n)) from the upper
// half of that, so that followers failing together spread out.
func pollWait(every time.Duration, fails int, rnd func(int64) int64) time.Duration {
	if fails == 0 {
		return every
	}
	limit, d := max(every, maxPollBackoff), every
	for range fails {
		if d >= limit {
			break
		}
		d *= 2
	}
	d = min(d, limit)
	return d/2 + time.Duration(rnd(int64(d/2)+1))
}

// downloadTimeout bounds one download, so a stalled bucket cannot hold the follower.
const downloadTimeout = 30 * time.Minute

// Poll reads the manifest and, when it names a snapshot other than the one in service,
// downloads, checks and serves it. It reports whether it swapped. An object that fails
// its checks is not downloaded again until the manifest changes; one that could not be
// fetched (the network, the disk) is tried again at the next poll.
func (f *Follower) Poll(ctx context.Context) (bool, error) {
	f.stages = &stages{at: time.Now()}
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	m, err := ReadManifest(rctx, f.Bucket)
	cancel()
	f.stages.lap("manifest")
	if IsNotFound(err) {
		f.Log.Debug("nothing published yet")
		return false, nil
	}
	if err != nil {
		return false, err
	}
	cur := f.Live.Load()
	if f.served.Object == "" && cur != nil && cur.Version() == m.DataVersion && cur.Built().Equal(m.Built) {
		f.served = m // the snapshot file read at start is this one
		f.swapped(m, cur)
		f.File.downloaded(cur)
	}
	switch {
	case m.id() == f.served.id():
		f.Live.SetNextRefresh(m.NextRefresh.Add(f.Every))
		f.Metrics.polled.SetToCurrentTime()
		return false, nil
	case m.id() == f.bad.id() && m.Object == f.bad.Object && m.Published.Equal(f.bad.Published):
		return false, nil // logged when it failed; a new publish writes a new manifest
	case cur != nil && m.Built.Before(cur.Built()): // served from the bucket or from the file read at start
		f.bad = m
		return false, fmt.Errorf("snapshot %s: built %s, before the one served (%s): not served", m.Object, m.Built, cur.Built())
	}
	dctx, cancel := context.WithTimeout(ctx, downloadTimeout)
	defer cancel()
	snap, keep, err := f.fetch(dctx, m)
	if err != nil {
		f.Metrics.downloads.WithLabelValues("error").Inc()
		var bad *badObject
		if errors.As(err, &bad) {
			f.bad = m
		}
		return false, fmt.Errorf("snapshot %s: %w", m.Object, err)
	}
	f.Metrics.polled.SetToCurrentTime()
	f.Metrics.downloads.WithLabelValues("ok").Inc()
	f.served = m
	f.Live.Publish(snap)
	f.stages.lap("publish")
	f.Log.Info("published snapshot served", append([]any{"object", m.Object, "gigs", snap.Len(), "data_version", m.DataVersion,
		"published", m.Published}, f.stages.logAttrs()...)...)
	// Served first; then the file is made durable in its place, and only then may the
	// File record it (and its cursor as published): a crash in between leaves the
	// cursor with the file a restart serves, never ahead of it.
	err = keep()
	f.swapped(m, snap)
	if err != nil {
		f.Log.Error("published snapshot served, but not kept as the snapshot file: a restart may serve the file's older one",
			"object", m.Object, "file", f.Path, "err", err)
	}
	f.File.kept(snap, err)
	return true, nil
}

// swapped follows s, m's snapshot, put into service, before the File records it.
func (f *Follower) swapped(m Manifest, s *engine.Snapshot) {
	f.Live.SetNextRefresh(m.NextRefresh.Add(f.Every))
	f.Metrics.published.Set(float64(m.Published.UnixNano()) / 1e9)
	if f.Swapped != nil {
		f.Swapped(s)
	}
}

// objectReader keeps the error of its reads, other than the end: those are the
// network's, not the object's.
type objectReader struct {
	r   io.Reader
	err error
}

func (o *objectReader) Read(p []byte) (int, error) {
	n, err := o.r.Read(p)
	if err != nil && err != io.EOF {
		o.err = err
	}
	return n, err
}

// fileWriter keeps the error of its writes: those are the disk's, not the object's.
type fileWriter struct {
	w   io.Writer
	err error
}

func (f *fileWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil {
		f.err = err
	}
	return n, err
}

// badObject is an object that failed its checks: what the bucket holds is not what the
// manifest says, so it is not downloaded again until the manifest changes.
type badObject struct{ error }

func (e *badObject) Unwrap() error { return e.error }

// decompress writes to w the zstd stream of r, up to limit+1 bytes, and then reads r to
// its end (so that its checksum covers every byte); it returns the bytes written. A
// stream that fails to decode is refused whatever follows: the rest is not read.
func decompress(w io.Writer, r io.Reader, limit int64) (int64, error) {
	z, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderMaxMemory(2*maxWindow))
	if err != nil {
		return 0, err
	}
	defer z.Close()
	n, err := io.Copy(w, io.LimitReader(z, limit+1))
	if err != nil {
		return n, err
	}
	_, err = io.Copy(io.Discard, r)
	return n, err
}

// fetch makes m's current snapshot file beside f.Path, checks it, and returns its
// snapshot and keep, which puts the file in f.Path's place (see keeper): by the chain of
// deltas from the file at f.Path when the manifest lists one from it, else (or when that
// fails) from m's whole snapshot and the deltas after it. The file in service stays on
// any failure. keep is called once the snapshot is served, so that neither the sync nor
// the rename delays that, and before anything records it; its error (f.Path is a
// directory, say) means the snapshot is served all the same, mapped from a file no longer
// named, but a restart will not find it.
func (f *Follower) fetch(ctx context.Context, m Manifest) (*engine.Snapshot, func() error, error) {
	if from := f.chainFrom(m); from >= 0 {
		tmp, sum, err := f.applyChain(ctx, f.Path, m.Deltas[from:])
		if err == nil {
			var snap *engine.Snapshot
			snap, err = readFile(tmp, m, "", applied(sum)) // applying the last delta checked its sum
			f.stages.lap("read")
			if err == nil {
				return snap, f.keeper(tmp), nil
			}
			os.Remove(tmp)
		}
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("download: %w", ctx.Err())
		}
		f.Metrics.fallbacks.Inc()
		f.Log.Warn("deltas not applied: downloading the whole snapshot", "object", m.Object, "err", err)
	}
	tmp, err := f.download(ctx, m)
	if err != nil {
		return nil, nil, err
	}
	want, read := m.current(), engine.ReadSnapshotFile
	if after := m.afterFull(); after < len(m.Deltas) {
		whole := tmp
		var sum uint64
		tmp, sum, err = f.applyChain(ctx, whole, m.Deltas[after:])
		os.Remove(whole)
		want, read = "", applied(sum) // applying the last delta checked it
	}
	var snap *engine.Snapshot
	if err == nil {
		snap, err = readFile(tmp, m, want, read)
		f.stages.lap("read")
	}
	if err != nil {
		os.Remove(tmp)
		return nil, nil, err
	}
	return snap, f.keeper(tmp), nil
}

// readFile reads the snapshot file at tmp, made for m, with read, and checks it is m's
// current snapshot, ending with checksum sum when given.
func readFile(tmp string, m Manifest, sum string, read func(string) (*engine.Snapshot, error)) (*engine.Snapshot, error) {
	snap, err := read(tmp)
	if err != nil {
		return nil, &badObject{err}
	}
	if snap.Version() != m.DataVersion || !snap.Built().Equal(m.Built) {
		return nil, &badObject{fmt.Errorf("file holds data version %s built %s, the manifest names %s built %s",
			snap.Version(), snap.Built(), m.DataVersion, m.Built)}
	}
	if sum != "" {
		if got, err := engine.SnapshotFileSum(tmp); err != nil || fmt.Sprintf("%016x", got) != sum {
			return nil, &badObject{fmt.Errorf("snapshot file does not end with the manifest's checksum %s", sum)}
		}
	}
	return snap, nil
}

// applied returns the read of a snapshot file a delta's apply has just written, its bytes
// hashed to sum as they were: the file is not hashed again (see
// engine.ReadAppliedSnapshotFile).
func applied(sum uint64) func(string) (*engine.Snapshot, error) {
	return func(path string) (*engine.Snapshot, error) { return engine.ReadAppliedSnapshotFile(path, sum) }
}

// keeper returns the function that syncs the snapshot file at tmp, renames it to f.Path
// and syncs the directory, so that a crash after it returns nil finds the file at
// f.Path; or removes tmp. An error after the rename (the directory's sync) leaves the
// file at f.Path, not known to survive a crash.
func (f *Follower) keeper(tmp string) func() error {
	return func() error {
		file, err := os.OpenFile(tmp, os.O_RDWR, 0)
		if err == nil {
			err = file.Sync()
			if cerr := file.Close(); err == nil {
				err = cerr
			}
		}
		if err == nil {
			err = os.Rename(tmp, f.Path)
		}
		if err != nil {
			os.Remove(tmp)
			return fmt.Errorf("not kept as the snapshot file: %w", err)
		}
		if err := atomicfile.SyncDir(filepath.Dir(f.Path)); err != nil {
			return fmt.Errorf("snapshot file not synced in its directory: %w", err)
		}
		return nil
	}
}

// chainFrom returns the index in m.Deltas of the first delta to apply to the file at
// f.Path, the snapshot in service; -1 when none applies to it.
func (f *Follower) chainFrom(m Manifest) int {
	if f.Live.Load() == nil {
		return -1
	}
	sum, err := engine.SnapshotFileSum(f.Path)
	if err != nil {
		return -1
	}
	have := fmt.Sprintf("%016x", sum)
	for i := len(m.Deltas) - 1; i >= 0; i-- {
		if m.Deltas[i].From == have {
			return i
		}
	}
	return -1
}

// applyChain applies the deltas in order to the snapshot file at base, each downloaded
// and checked (its size, checksum, and the file it makes), into temporary files beside
// f.Path, and returns the last one's path and the checksum its apply hashed its bytes to
// as it wrote them. The caller removes it; base stays.
func (f *Follower) applyChain(ctx context.Context, base string, chain []Delta) (string, uint64, error) {
	from, sum := base, uint64(0)
	for _, d := range chain {
		next, to, err := f.applyDelta(ctx, from, d)
		f.Metrics.deltas.WithLabelValues(result(err)).Inc()
		if from != base {
			os.Remove(from)
		}
		if err != nil {
			return "", 0, fmt.Errorf("delta %s: %w", d.Object, err)
		}
		from, sum = next, to
	}
	return from, sum, nil
}

func result(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

// applyDelta downloads d and applies it to the snapshot file at base into a temporary
// file beside f.Path, whose path it returns, with the checksum its bytes hashed to as
// they were written (the one the delta names: Apply checks it). The delta is downloaded into a temporary file
// too (of at most the RawSize the manifest caps), mapped rather than read into memory:
// what a bucket holds never costs the heap more than a section's sources.
func (f *Follower) applyDelta(ctx context.Context, base string, d Delta) (string, uint64, error) {
	raw, err := f.getTemp(ctx, ".tmp-delta-", d.Object, d.Size, d.SHA256, d.RawSize)
	if err != nil {
		return "", 0, err
	}
	defer os.Remove(raw)
	sd, err := engine.OpenSnapshotDelta(raw)
	if err != nil {
		return "", 0, objectErr(err)
	}
	defer sd.Close()
	if fmt.Sprintf("%016x", sd.Base()) != d.From || fmt.Sprintf("%016x", sd.Sum()) != d.To || sd.Size() != d.FileSize {
		return "", 0, &badObject{fmt.Errorf("the delta turns %016x into %016x of %d bytes, the manifest says %s into %s of %d",
			sd.Base(), sd.Sum(), sd.Size(), d.From, d.To, d.FileSize)}
	}
	defer f.stages.lap("apply")
	tmp, err := f.writeTemp(".tmp-", func(w io.Writer) (int64, error) {
		n, err := sd.Apply(w, base, d.FileSize)
		return n, objectErr(err)
	}, d.FileSize)
	return tmp, sd.Sum(), err
}

// objectErr returns err, an error of applying a delta, as a *badObject unless it is the
// disk's (an *fs.PathError within), tried again.
func objectErr(err error) error {
	if err != nil && !errors.As(err, new(*fs.PathError)) {
		return &badObject{err}
	}
	return err
}

// writeTemp writes a temporary file beside f.Path, named as the snapshot file after a
// dot, then kind (".tmp-" or ".tmp-delta-": File.Load removes both after a crash), with
// write, checks that it holds size bytes, and returns its path; it removes it on any
// failure. It is not synced: a file kept as the snapshot file is when it is kept.
func (f *Follower) writeTemp(kind string, write func(io.Writer) (int64, error), size int64) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+kind+"*")
	if err != nil {
		return "", err
	}
	file := &fileWriter{w: tmp}
	n, err := write(file)
	switch {
	case file.err != nil: // the disk: tried again
		err = fmt.Errorf("cannot write %s: %w", tmp.Name(), file.err)
	case err == nil && n != size:
		err = &badObject{fmt.Errorf("%w: %d bytes, manifest %d", errSize, n, size)}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// get downloads the object at key, of size bytes in the bucket (checked from its
// metadata before a byte is read, then as read) and SHA-256 sum, and writes it to w
// decompressed, refusing more than limit bytes. An object that is not what the manifest
// says is a *badObject; a failure of the network, or of w, is not.
func (f *Follower) get(ctx context.Context, key string, size int64, sum string, limit int64, w io.Writer) error {
	got, err := statObject(ctx, f.Bucket, key)
	switch {
	case errors.Is(err, errNotRegular):
		return &badObject{err}
	case err != nil:
		return err
	case got != size:
		return &badObject{fmt.Errorf("%w: %d bytes in the bucket, manifest %d", errSize, got, size)}
	}
	r, err := f.Bucket.NewReader(ctx, key, nil)
	if err != nil {
		return err
	}
	defer r.Close()
	h := sha256.New()
	object := &counter{w: h}
	out, in := &fileWriter{w: w}, &objectReader{r: io.LimitReader(r, size+1)}
	n, err := decompress(out, io.TeeReader(in, object), limit)
	f.Metrics.bytes.Add(float64(object.n))
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("download: %w", ctx.Err())
	case in.err != nil || out.err != nil: // the network or the disk: tried again
		return fmt.Errorf("download: %w", errors.Join(in.err, out.err))
	case err != nil: // read no further than where it stopped decoding
		return &badObject{fmt.Errorf("download: the object is damaged or not zstd: %w", err)}
	case object.n != size:
		return &badObject{fmt.Errorf("%w: %d bytes, manifest %d", errSize, object.n, size)}
	case !strings.EqualFold(hex.EncodeToString(h.Sum(nil)), sum):
		return &badObject{errors.New("checksum differs from the manifest's: the object was damaged or replaced")}
	case n != limit:
		return &badObject{fmt.Errorf("%w: %d bytes decompressed, manifest %d", errSize, n, limit)}
	}
	return nil
}

// getTemp downloads the object at key (see get) into a temporary file of kind beside
// f.Path (see writeTemp), and returns its path; the caller removes it.
func (f *Follower) getTemp(ctx context.Context, kind, key string, size int64, sum string, limit int64) (string, error) {
	defer f.stages.lap("download")
	return f.writeTemp(kind, func(w io.Writer) (int64, error) {
		c := &counter{w: w}
		err := f.get(ctx, key, size, sum, limit, c)
		return c.n, err
	}, limit)
}

// download fetches m's whole snapshot file into a temporary file beside f.Path, checked
// (see get), and returns its path; the caller removes it.
func (f *Follower) download(ctx context.Context, m Manifest) (string, error) {
	tmp, err := f.getTemp(ctx, ".tmp-", m.Object, m.Size, m.SHA256, m.FileSize)
	if err != nil {
		return "", err
	}
	if after := m.afterFull(); after < len(m.Deltas) { // else fetch checks it
		if sum, err := engine.SnapshotFileSum(tmp); err != nil || fmt.Sprintf("%016x", sum) != m.Checksum {
			os.Remove(tmp)
			return "", &badObject{fmt.Errorf("snapshot file %s does not end with the manifest's checksum %s", m.Object, m.Checksum)}
		}
	}
	return tmp, nil
}
