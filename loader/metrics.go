package loader

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the refreshes' Prometheus metrics, updated from each refresh's report by
// Observe (Run calls it when Options.Metrics is set). The source label takes the names in
// the sources configuration: bounded by it, and a source's series go when a reload
// removes it. Observe must not be called concurrently.
type Metrics struct {
	builds      *prometheus.CounterVec
	duration    prometheus.Histogram
	fetches     *prometheus.CounterVec
	srcSuccess  *prometheus.GaugeVec
	srcEvents   *prometheus.GaugeVec
	srcStale    *prometheus.GaugeVec
	srcDropped  *prometheus.CounterVec
	srcLastErr  *prometheus.GaugeVec
	srcTimeouts *prometheus.CounterVec
	requests    prometheus.Counter
	notModified prometheus.Counter
	bytes       prometheus.Counter
	sources     map[string]bool // the source label values in use
}

// NewMetrics registers the refresh metrics with reg and returns them.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		builds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gigs_snapshot_builds_total",
			Help: "Refreshes, by result: published, or failed (not built, or refused by the sanity checks; the previous snapshot keeps serving).",
		}, []string{"result"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gigs_snapshot_build_duration_seconds",
			Help:    "Time a refresh takes: fetching every source, merging, building and publishing.",
			Buckets: []float64{1, 2.5, 5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600},
		}),
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gigs_source_fetches_total",
			Help: "Fetches of each source, by result: ok, or failed (an error, or a sharp shrink taken for a broken page).",
		}, []string{"source", "result"}),
		srcSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gigs_source_last_success_timestamp_seconds",
			Help: "When each source last answered with events that were used, in Unix seconds; 0 when it never has.",
		}, []string{"source"}),
		srcEvents: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gigs_source_events",
			Help: "Events each source contributed to the last refresh (its last good ones when stale).",
		}, []string{"source"}),
		srcStale: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gigs_source_stale",
			Help: "1 when a source failed in the last refresh and its last good events were used.",
		}, []string{"source"}),
		srcDropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gigs_source_dropped_records_total",
			Help: "Records of each source that could not be used, by reason: not_music, no_venue, no_place, no_start, date_tba, out_of_range, unreadable, unsupported, capped, other.",
		}, []string{"source", "reason"}),
		srcLastErr: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gigs_source_last_error_timestamp_seconds",
			Help: "When each source last failed, in Unix seconds; 0 when it has not (the message is in /v1/meta and the logs).",
		}, []string{"source"}),
		srcTimeouts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gigs_source_timeouts_total",
			Help: "Fetches of each source stopped at its time budget (its timeout in the sources file, 2 minutes by default); each is also a failed fetch.",
		}, []string{"source"}),
		requests: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gigs_fetch_requests_total",
			Help: "HTTP requests sent to upstreams: every attempt, redirect and robots.txt.",
		}),
		notModified: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gigs_fetch_not_modified_total",
			Help: "Upstream answers 304 Not Modified to conditional requests.",
		}),
		bytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gigs_fetch_received_bytes_total",
			Help: "Body bytes received from upstreams, before decompression.",
		}),
		sources: map[string]bool{},
	}
	reg.MustRegister(m.builds, m.duration, m.fetches, m.srcSuccess, m.srcEvents, m.srcStale,
		m.srcDropped, m.srcLastErr, m.srcTimeouts, m.requests, m.notModified, m.bytes)
	for _, r := range []string{"published", "failed"} {
		m.builds.WithLabelValues(r)
	}
	return m
}

// Sources gives each of the sources about to be fetched (by name) its fetch series at zero, before
// its first refresh, so that an alert on the increase of failed fetches sees the first.
// Series of sources no longer fetched go at the next Observe.
func (m *Metrics) Sources(names []string) {
	if m.sources == nil {
		m.sources = map[string]bool{}
	}
	for _, name := range names {
		m.sources[name] = true
		m.fetches.WithLabelValues(name, "ok")
		m.fetches.WithLabelValues(name, "failed")
		m.srcTimeouts.WithLabelValues(name)
	}
}

// Observe records a refresh's report and error.
func (m *Metrics) Observe(rep Report, err error) {
	result := "published"
	if err != nil {
		result = "failed"
	}
	m.builds.WithLabelValues(result).Inc()
	m.duration.Observe(rep.Duration.Seconds())
	m.requests.Add(float64(rep.Fetch.Requests))
	m.notModified.Add(float64(rep.Fetch.NotModified))
	m.bytes.Add(float64(rep.Fetch.BytesWire))

	seen := make(map[string]bool, len(rep.Sources))
	for _, s := range rep.Sources {
		seen[s.Name] = true
		result, stale := "ok", 0.0
		if s.Err != nil {
			result = "failed"
		}
		if s.Stale {
			stale = 1
		}
		m.fetches.WithLabelValues(s.Name, result).Inc()
		if errors.Is(s.Err, ErrOverBudget) {
			m.srcTimeouts.WithLabelValues(s.Name).Inc()
		}
		last := 0.0 // never: an alert on the time since sees it at once
		if !s.LastSuccess.IsZero() {
			last = float64(s.LastSuccess.Unix())
		}
		m.srcSuccess.WithLabelValues(s.Name).Set(last)
		m.srcEvents.WithLabelValues(s.Name).Set(float64(s.Events))
		m.srcStale.WithLabelValues(s.Name).Set(stale)
		for reason, n := range s.DroppedBy() {
			m.srcDropped.WithLabelValues(s.Name, reason).Add(float64(n))
		}
		lastErr := 0.0
		if !s.LastErrorAt.IsZero() {
			lastErr = float64(s.LastErrorAt.Unix())
		}
		m.srcLastErr.WithLabelValues(s.Name).Set(lastErr)
	}
	for name := range m.sources {
		if !seen[name] {
			for _, v := range []interface{ DeletePartialMatch(prometheus.Labels) int }{m.fetches, m.srcSuccess, m.srcEvents, m.srcStale, m.srcDropped, m.srcLastErr, m.srcTimeouts} {
				v.DeletePartialMatch(prometheus.Labels{"source": name})
			}
		}
	}
	m.sources = seen
}
