package loader

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// Options configure a Loader. Zero durations and ratios take the defaults shown.
type Options struct {
	Sources  []Source
	IDs      *IDStore           // keeps gig ids across refreshes; nil keeps them in memory for the Loader's life
	LastGood *LastGoodStore     // keeps sources' last good events across restarts; nil keeps them in memory
	Stats    func() fetch.Stats // the fetcher's counters, for each run's report; may be nil
	Live     *engine.Live
	Logger   *slog.Logger
	Now      func() time.Time // time.Now
	Interval time.Duration    // 1h between refreshes
	Jitter   float64          // 0.1: each interval varies by up to ±10%
	Retry    time.Duration    // 5m after a failed refresh
	MaxStale time.Duration    // 48h: how long a failing source's last good events are used
	MaxDrop  float64          // 0.5: a build with fewer than half the gigs of the last one is refused
	Parallel int              // 64 sources fetched at once (per-host politeness is the fetcher's)
	Deadline time.Duration    // 10m: a refresh's fetching stops here; sources not done by then fail
	// Places locates venues (places.Default() when nil).
	Places *places.Gazetteer
	// MaxRecords caps the events of one refresh, all sources together (DefaultMaxRecords
	// when zero): a refresh with more is not built, and the last snapshot keeps serving.
	MaxRecords int
	// LogEvery is how often a source's unchanged failure, notes or dropped records are
	// logged again while they last (6h); a change is logged at once.
	LogEvery time.Duration
	// Metrics, when set, records each refresh Run makes (NewMetrics).
	Metrics *Metrics
	// OnRun, when set, is called by Run after each refresh with its report and error.
	OnRun func(Report, error)
	// Building, when set, runs each refresh's merge and build (build) as the process wants
	// that work run: gigsd gives the runtime a P more for it.
	Building func(build func())
	// Published, when set, gives each build the change-feed cursor published last (see
	// engine.Options.Published), and BeforePublish is called with each snapshot built and
	// checked before it is published: an error leaves it unpublished, the refresh failed.
	// gigsd records the snapshot's cursor there.
	Published     func() engine.Cursor
	BeforePublish func(*engine.Snapshot) error
}

// DefaultMaxRecords is Options.MaxRecords when zero: a million gigs listed about twice.
const DefaultMaxRecords = 2_000_000

// Loader runs refreshes. RunOnce and Run must not be called concurrently.
type Loader struct {
	o Options

	// Owned by the goroutine running RunOnce.
	lkg       map[string]lastGood // per source name, as of the last published snapshot
	lastErr   map[string]failure  // per source name, its last failure
	published int                 // gigs in the last published snapshot
	refused   int                 // consecutive builds refused for a sharp drop
	rng       *rand.Rand
	logs      logThrottle

	reload chan []Source // sources to use from the next refresh on, sent by Reload
}

// failure is a source's failure as /v1/meta shows it.
type failure struct {
	msg string
	at  time.Time
}

type lastGood struct {
	events []source.Event
	at     time.Time
}

// New returns a Loader.
func New(o Options) *Loader {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Interval == 0 {
		o.Interval = time.Hour
	}
	if o.Jitter == 0 {
		o.Jitter = 0.1
	}
	if o.Retry == 0 {
		o.Retry = 5 * time.Minute
	}
	if o.MaxStale == 0 {
		o.MaxStale = 48 * time.Hour
	}
	if o.MaxDrop == 0 {
		o.MaxDrop = 0.5
	}
	if o.Parallel == 0 {
		o.Parallel = 64
	}
	if o.Deadline == 0 {
		o.Deadline = 10 * time.Minute
	}
	if o.LogEvery == 0 {
		o.LogEvery = 6 * time.Hour
	}
	if o.MaxRecords == 0 {
		o.MaxRecords = DefaultMaxRecords
	}
	if o.IDs == nil {
		o.IDs = NewIDStore()
	}
	l := &Loader{o: o, lkg: map[string]lastGood{}, lastErr: map[string]failure{}, rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
		logs: logThrottle{every: o.LogEvery, last: map[logKey]trouble{}}, reload: make(chan []Source, 1)}
	l.loadLastGood(o.Sources)
	if o.Metrics != nil {
		o.Metrics.Sources(sourceNames(o.Sources))
	}
	return l
}

// loadLastGood reads from the store the last good events of the sources that have none
// in memory.
func (l *Loader) loadLastGood(srcs []Source) {
	if l.o.LastGood == nil {
		return
	}
	var names []string
	for _, src := range srcs {
		if _, ok := l.lkg[src.Name()]; !ok {
			names = append(names, src.Name())
		}
	}
	found, errs := l.o.LastGood.load(names, l.o.Now())
	maps.Copy(l.lkg, found)
	for _, err := range errs {
		l.o.Logger.Error("source starts without its last good events", "err", err)
	}
}

// Reload replaces the sources from the next refresh on, which Run starts at once. The
// last good events of sources kept are kept; a new source's are read from the store.
// Safe to call from any goroutine; when called again before Run has taken the sources,
// the newer ones win.
func (l *Loader) Reload(srcs []Source) {
	for {
		select {
		case l.reload <- srcs:
			return
		case <-l.reload: // drop the older set not taken yet
		}
	}
}

// SourceReport says what one source gave in a run.
type SourceReport struct {
	Name    string
	Events  int            // events used (from this run, or last good ones when Stale)
	Dropped []source.Drop  // records the adapter or normalization could not use
	Notes   []string       // what the fetch noticed, such as a charset guessed
	Places  []PlaceReading // where the events kept were placed, and what decided it
	Err     error          // the fetch error, when the source failed
	Stale   bool           // the source failed and its last good events were used
	// LastSuccess is when the source last answered with events that were used: this run's
	// start when it did now; zero when it never did.
	LastSuccess time.Time
	// LastError and LastErrorAt are the source's last failure, in this run or an earlier
	// one of this process; "" and zero when it has not failed.
	LastError   string
	LastErrorAt time.Time
}

// Report says what a run did.
type Report struct {
	Sources   []SourceReport
	Records   int         // source records normalized, before merging
	Fetch     fetch.Stats // what fetching took: requests, bytes, 304s, retries
	Gigs      int         // gigs in the built snapshot
	Published bool
	Duration  time.Duration
}

// ErrNotPublished wraps every reason a run did not publish.
var ErrNotPublished = errors.New("snapshot not published")

// RunOnce fetches every source, builds a snapshot and publishes it if it passes the sanity
// checks. On error the previous snapshot stays published; when ctx ends during the
// fetches nothing is built.
func (l *Loader) RunOnce(ctx context.Context) (Report, error) {
	start := l.o.Now()
	rep, norm, fresh, err := l.gather(ctx, start)
	if err == nil {
		err = ctx.Err() // stopped: what was fetched is incomplete
	}
	if err != nil {
		rep.Duration = l.o.Now().Sub(start)
		return rep, fmt.Errorf("%w: %w", ErrNotPublished, err)
	}
	run := l.o.IDs.begin()
	var snap *engine.Snapshot
	build := func() {
		ds := norm.dataset(run, norm.clusters())
		ds.Sources = sourceHealth(rep.Sources)
		opt := engine.Options{Now: start, Prev: l.o.Live.Load()}
		if l.o.Published != nil {
			opt.Published = l.o.Published()
		}
		snap, err = engine.Build(&ds, opt)
	}
	if l.o.Building != nil {
		l.o.Building(build)
	} else {
		build()
	}
	if err == nil {
		err = l.check(snap)
	}
	if err == nil && l.o.BeforePublish != nil {
		err = l.o.BeforePublish(snap)
	}
	rep.Duration = l.o.Now().Sub(start)
	if err != nil {
		return rep, fmt.Errorf("%w: %w", ErrNotPublished, err)
	}
	rep.Gigs = snap.Len()
	l.o.Live.Publish(snap)
	l.published, l.refused = snap.Len(), 0
	maps.Copy(l.lkg, fresh)
	rep.Published = true
	run.commit(start)
	// The snapshot is out; what cannot be saved stays in memory and is saved with the next
	// refresh.
	if err := l.o.IDs.Save(); err != nil {
		l.o.Logger.Error("cannot save gig ids", "err", err)
	}
	if l.o.LastGood != nil {
		if err := l.o.LastGood.save(fresh); err != nil {
			l.o.Logger.Error("cannot save last good events", "err", err)
		}
	}
	return rep, nil
}

// gather fetches every source and normalizes what they yield, with the last good events
// of each source that failed or shrank. It returns the run's report so far, the records,
// and the events that become each source's last good ones if the run publishes; or an
// error, normalizing nothing, when the events pass Options.MaxRecords.
func (l *Loader) gather(ctx context.Context, start time.Time) (Report, *normalizer, map[string]lastGood, error) {
	rep := Report{Sources: make([]SourceReport, len(l.o.Sources))}
	var before fetch.Stats
	if l.o.Stats != nil {
		before = l.o.Stats()
	}
	batches := l.fetchAll(ctx, rep.Sources)
	if l.o.Stats != nil {
		rep.Fetch = l.o.Stats().Sub(before)
	}
	if err := ctx.Err(); err != nil {
		return rep, nil, nil, err // stopped: nothing is normalized, nothing built
	}

	fresh := map[string]lastGood{}
	for name := range l.lastErr { // a source a reload removed has no failure to show
		if !slices.ContainsFunc(l.o.Sources, func(s Source) bool { return s.Name() == name }) {
			delete(l.lastErr, name)
		}
	}
	use := make([][]source.Event, len(l.o.Sources))
	total := 0
	for i, src := range l.o.Sources {
		sr := &rep.Sources[i]
		events := batches[i].Events
		lg, hasLG := l.lkg[src.Name()]
		hasLG = hasLG && start.Sub(lg.at) <= l.o.MaxStale
		if sr.Err == nil && hasLG {
			// Far fewer upcoming events than last time looks like a broken page, not a
			// cancelled season: keep the last good ones while they are young enough.
			before, now := upcomingEvents(lg.events, start), upcomingEvents(events, start)
			if before > 0 && float64(now) < float64(before)*(1-l.o.MaxDrop) {
				sr.Err = fmt.Errorf("%w: %d upcoming events, down from %d", errSourceShrank, now, before)
			}
		}
		switch {
		case sr.Err == nil:
			fresh[src.Name()] = lastGood{events: events, at: start}
			sr.LastSuccess = start
		case hasLG:
			events, sr.Stale = lg.events, true
		}
		if sr.Err != nil {
			sr.LastSuccess = lg.at // zero when there is none
			l.lastErr[src.Name()] = failure{publicError(sr.Err), start}
		}
		f := l.lastErr[src.Name()]
		sr.LastError, sr.LastErrorAt = f.msg, f.at
		use[i] = events
		total += len(events)
	}
	if total > l.o.MaxRecords {
		return rep, nil, nil, fmt.Errorf("the sources gave %d events, over the cap of %d a refresh (-max-records)", total, l.o.MaxRecords)
	}
	norm := newNormalizer(start, total)
	norm.log = l.o.Logger
	if l.o.Places != nil {
		norm.places = l.o.Places
	}
	for i, src := range l.o.Sources {
		if err := ctx.Err(); err != nil {
			return rep, nil, nil, err // a stop waits for one source's events at most
		}
		norm.addAll(use[i], i, src, &rep.Sources[i])
	}
	rep.Records = len(norm.recs)
	return rep, norm, fresh, nil
}

// CheckOptions configure Check.
type CheckOptions struct {
	Now    time.Time         // the refresh's moment: what is upcoming; time.Now() when zero
	Places *places.Gazetteer // places.Default() when nil
}

// CheckResult is what Check makes of one source.
type CheckResult struct {
	Report SourceReport
	Events []source.Event // the events a refresh would use
	// Snapshot holds the source's gigs alone, as a refresh at Now would build them (ids
	// made afresh); nil when the source failed.
	Snapshot *engine.Snapshot
}

// Check fetches one source once, within its Timeout, and normalizes and builds what it yields, publishing
// nothing. The source's own clock (its parsers' "now") is the caller's to set.
func Check(ctx context.Context, src Source, o CheckOptions) CheckResult {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	r := CheckResult{Report: SourceReport{Name: src.Name()}}
	sr := &r.Report
	b, err := src.fetch(ctx)
	sr.Dropped, sr.Notes, sr.Err = b.Dropped, b.Notes, err
	if err != nil {
		return r
	}
	n := newNormalizer(o.Now, len(b.Events))
	if o.Places != nil {
		n.places = o.Places
	}
	n.addAll(b.Events, 0, src, sr)
	r.Events = make([]source.Event, len(n.recs))
	for i := range n.recs {
		r.Events[i] = *n.recs[i].ev
	}
	ds := n.dataset(NewIDStore().begin(), n.clusters())
	ds.Sources = sourceHealth([]SourceReport{*sr})
	if r.Snapshot, err = engine.Build(&ds, engine.Options{Now: o.Now}); err != nil {
		sr.Err = fmt.Errorf("cannot build its gigs: %w", err)
	}
	return r
}

var errSourceShrank = errors.New("source shrank")

// sourceHealth is what /v1/meta tells of each source.
func sourceHealth(reports []SourceReport) []engine.SourceHealth {
	h := make([]engine.SourceHealth, len(reports))
	for i, r := range reports {
		h[i] = engine.SourceHealth{Name: r.Name, OK: r.Err == nil, Events: r.Events, Stale: r.Stale, LastSuccess: r.LastSuccess,
			Dropped: r.DroppedBy(), LastError: r.LastError, LastErrorAt: r.LastErrorAt}
	}
	return h
}

// upcomingEvents counts the events that start from yesterday on (a day of slack for zones).
func upcomingEvents(events []source.Event, now time.Time) int {
	n := 0
	for i := range events {
		if !events[i].Start.Wall.Before(now.AddDate(0, 0, -1)) {
			n++
		}
	}
	return n
}

// maxRefusals is how many refreshes in a row a sharp drop in gigs is refused before it is
// taken as real and published (with a warning).
const maxRefusals = 3

func (l *Loader) check(s *engine.Snapshot) error {
	if s.Len() == 0 {
		return errors.New("no upcoming gigs")
	}
	if l.published > 0 && float64(s.Len()) < float64(l.published)*(1-l.o.MaxDrop) {
		if l.refused++; l.refused < maxRefusals {
			return fmt.Errorf("gigs fell from %d to %d, more than the allowed %.0f%% (refusal %d of %d)",
				l.published, s.Len(), l.o.MaxDrop*100, l.refused, maxRefusals)
		}
		l.o.Logger.Warn("publishing a sharp drop in gigs seen on consecutive refreshes", "from", l.published, "to", s.Len(), "refreshes", l.refused)
	}
	return nil
}

func (l *Loader) fetchAll(ctx context.Context, reports []SourceReport) []source.Batch {
	ctx, cancel := context.WithTimeout(ctx, l.o.Deadline)
	defer cancel()
	batches := make([]source.Batch, len(l.o.Sources))
	sem := make(chan struct{}, l.o.Parallel)
	var wg sync.WaitGroup
	for i, src := range l.o.Sources {
		reports[i].Name = src.Name()
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			b, err := src.fetch(ctx)
			batches[i], reports[i].Err = b, err
			reports[i].Dropped, reports[i].Notes = b.Dropped, b.Notes
		})
	}
	wg.Wait()
	return batches
}

// ErrOverBudget is the error of a source whose fetch passed its Timeout.
var ErrOverBudget = errors.New("over its time budget")

// fetch fetches src within its Timeout (see budget): past it, its fetch is stopped and
// fails with ErrOverBudget.
func (src Source) fetch(ctx context.Context) (source.Batch, error) {
	if src.Timeout <= 0 {
		return src.Fetch(ctx)
	}
	sctx, bud := newBudget(ctx, src.Timeout)
	defer bud.stop()
	b, err := src.Fetch(sctx)
	if err != nil && bud.Spent() {
		err = fmt.Errorf("%w: fetching took longer than %v (its timeout; waits behind other sources at its hosts not counted): %w",
			ErrOverBudget, src.Timeout, err)
	}
	return b, err
}

// A budget is a source's Timeout, spent while it fetches but not while one of its
// requests waits its turn at its host behind other sources' requests (see fetch.WithQueue):
// a source queued behind its host's other sources (a Crawl-delay shared by many feeds) is
// not slow, but the gaps the host asks between its own requests are its own time. Its context ends
// when the budget is spent, or when the refresh's does. Its clock stops while any request
// waits, which is exact for a source that makes one request at a time (a page's, a feed's).
type budget struct {
	cancel context.CancelFunc

	mu      sync.Mutex
	left    time.Duration // unspent when the clock last stopped
	since   time.Time     // when the clock last started
	timer   *time.Timer   // nil while stopped
	waiting int           // requests waiting their turn
	spent   bool
	stopped bool // its fetch is done: the clock never starts again
}

// newBudget starts a budget of timeout for a fetch made with the context it returns.
func newBudget(ctx context.Context, timeout time.Duration) (context.Context, *budget) {
	sctx, cancel := context.WithCancel(ctx)
	b := &budget{cancel: cancel, left: timeout}
	b.mu.Lock()
	b.start()
	b.mu.Unlock()
	return fetch.WithQueue(sctx, b), b
}

func (b *budget) start() {
	b.since = time.Now()
	b.timer = time.AfterFunc(b.left, func() {
		b.mu.Lock()
		b.spent = true
		b.mu.Unlock()
		b.cancel()
	})
}

// Waiting stops the clock while any request waits its turn.
func (b *budget) Waiting() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.waiting++; b.waiting == 1 && b.timer != nil {
		if b.timer.Stop() {
			b.left -= time.Since(b.since)
		}
		b.timer = nil
	}
}

// Started starts the clock again once no request waits.
func (b *budget) Started() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.waiting--; b.waiting == 0 && b.timer == nil && !b.spent && !b.stopped {
		b.start()
	}
}

// Spent reports whether the budget, not the refresh, ended the context.
func (b *budget) Spent() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// stop releases the budget once its fetch is done.
func (b *budget) stop() {
	b.mu.Lock()
	b.stopped = true
	if b.timer != nil {
		b.timer.Stop()
	}
	b.mu.Unlock()
	b.cancel()
}

// Run refreshes at once and then on schedule until ctx is done, telling the Live when the
// next refresh is due before OnRun runs (which may publish that time) and keeping to it
// however long OnRun takes. A failed refresh is retried sooner; the last good snapshot
// keeps serving meanwhile. Sources given to Reload are used from a refresh started at once.
func (l *Loader) Run(ctx context.Context) {
	for {
		rep, err := l.RunOnce(ctx)
		if ctx.Err() != nil {
			return // a refresh cut short by the stop is not worth a report
		}
		l.logRun(rep, err)
		if l.o.Metrics != nil {
			l.o.Metrics.Observe(rep, err)
		}
		wait := l.jittered(l.o.Interval)
		if err != nil {
			wait = l.jittered(l.o.Retry)
		}
		next := l.o.Now().Add(wait)
		l.o.Live.SetNextRefresh(next)
		if l.o.OnRun != nil {
			l.o.OnRun(rep, err)
		}
		t := time.NewTimer(max(next.Sub(l.o.Now()), 0))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case srcs := <-l.reload:
			t.Stop()
			l.useSources(srcs)
		case <-t.C:
		}
	}
}

func sourceNames(srcs []Source) []string {
	names := make([]string, len(srcs))
	for i, src := range srcs {
		names[i] = src.Name()
	}
	return names
}

// useSources makes srcs the sources of the next refreshes, forgetting the last good events
// of the sources dropped. The sharp-drop check starts afresh, as after a restart: sources
// removed on purpose take their gigs with them.
func (l *Loader) useSources(srcs []Source) {
	kept := make(map[string]bool, len(srcs))
	for _, src := range srcs {
		kept[src.Name()] = true
	}
	maps.DeleteFunc(l.lkg, func(name string, _ lastGood) bool { return !kept[name] })
	l.logs.forget(kept)
	l.loadLastGood(srcs)
	l.o.Sources = srcs
	if l.o.Metrics != nil {
		l.o.Metrics.Sources(sourceNames(srcs))
	}
	l.published, l.refused = 0, 0
	l.o.Logger.Info("sources reloaded", "sources", len(srcs))
}

func (l *Loader) jittered(d time.Duration) time.Duration {
	return d + time.Duration((l.rng.Float64()*2-1)*l.o.Jitter*float64(d))
}
