package server

import (
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/server/conns"
)

// Metrics are the server's Prometheus metrics. Every label value comes from a closed set:
// route templates, three method words, the status codes the server writes, and fixed
// words. Recording a request allocates nothing once its series exists.
type Metrics struct {
	requests  *prometheus.CounterVec
	series    [numRoutes][numMethods][len(knownCodes)]atomic.Pointer[prometheus.Counter]
	durations [numRoutes]prometheus.Observer
	limits    [2][2]prometheus.Counter // [read, export][allowed, limited]
	keyChecks [numKeyResults]prometheus.Counter
	export    [2]prometheus.Counter // bytes, [identity, gzip]
	changes   struct {
		entries prometheus.Counter // changes listed by /v1/changes
		expired prometheus.Counter // cursors refused as expired
	}

	memoHit, memoStored prometheus.Counter           // /v1/gigs answers found in the page memo, and kept in it
	rendered            [numViews]prometheus.Counter // gigs written into feeds and JSON-LD bodies (calendar.go)

	conns    atomic.Pointer[conns.Listener] // the guarded listener, for its gauge and counter
	rejected [2]prometheus.Counter          // connections refused, [total cap, per-client cap]
}

// The method label's values: anything but GET and HEAD is a preflight or refused.
const (
	methodGET = iota
	methodHEAD
	methodOther
	numMethods
)

var methodNames = [numMethods]string{"GET", "HEAD", "other"}

// knownCodes are the statuses the server writes; the last entry stands for any other.
var knownCodes = [...]int{200, 204, 206, 301, 304, 400, 401, 404, 405, 408, 410, 413, 416, 429, 431, 500, 503, 0}

// keyResult is the outcome of checking an X-API-Key.
type keyResult uint8

const (
	keyValid keyResult = iota
	keyMissing
	keyMalformed
	keyUnknown
	keyRevoked
	keyUnavailable
	keyError
	numKeyResults
)

var keyResultNames = [numKeyResults]string{"valid", "missing", "malformed", "unknown", "revoked", "unavailable", "error"}

// Limit indexes into Metrics.limits.
const (
	limitRead = iota
	limitExport
)

// NewMetrics registers the server's metrics with reg and returns them. Besides the request
// metrics it registers gauges read from live at scrape time: the served snapshot's gigs,
// time and export size, and the next scheduled refresh.
func NewMetrics(reg prometheus.Registerer, live *engine.Live) *Metrics {
	m := &Metrics{requests: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_http_requests_total",
		Help: "HTTP requests answered, by route template, method and status code.",
	}, []string{"route", "method", "code"})}
	durations := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "gigs_http_request_duration_seconds",
		Help: "Time from a request's arrival at the router until its response is ready to send (not the time to send it), by route template.",
		// Pages take tens of microseconds; the last buckets catch a stalled machine.
		Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
	}, []string{"route"})
	for r := range numRoutes {
		m.durations[r] = durations.WithLabelValues(routeTemplates[r])
	}
	limits := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_rate_limit_decisions_total",
		Help: "Rate-limit decisions, by limit (read: per client, on every request to the public listener; export: per key) and decision.",
	}, []string{"limit", "decision"})
	for i, l := range []string{"read", "export"} {
		for j, d := range []string{"allowed", "limited"} {
			m.limits[i][j] = limits.WithLabelValues(l, d)
		}
	}
	keyChecks := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_key_checks_total",
		Help: "X-API-Key checks on the export, by result.",
	}, []string{"result"})
	for r := range numKeyResults {
		m.keyChecks[r] = keyChecks.WithLabelValues(keyResultNames[r])
	}
	export := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_export_bytes_total",
		Help: "Bytes of export bodies handed to connections, by content encoding.",
	}, []string{"encoding"})
	m.export = [2]prometheus.Counter{export.WithLabelValues("identity"), export.WithLabelValues("gzip")}
	memo := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_page_memo_total",
		Help: "/v1/gigs answers found in the page memo (hit) and answers kept in it (stored).",
	}, []string{"result"})
	m.memoHit, m.memoStored = memo.WithLabelValues("hit"), memo.WithLabelValues("stored")
	acceptErrors := prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "gigs_accept_errors_total",
		Help: "Failed accepts on the public listener (out of file descriptors or buffers); each is retried after a backoff.",
	}, func() float64 {
		if l := m.conns.Load(); l != nil {
			return float64(l.AcceptErrors())
		}
		return 0
	})
	rejected := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_connections_rejected_total",
		Help: "Connections to the public listener refused at once, by the cap they were over: total or per_client.",
	}, []string{"cap"})
	m.rejected = [2]prometheus.Counter{rejected.WithLabelValues("total"), rejected.WithLabelValues("per_client")}
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gigs_connections_open",
		Help: "Open connections on the public listener.",
	}, func() float64 {
		if l := m.conns.Load(); l != nil {
			return float64(l.Open())
		}
		return 0
	})
	m.changes.entries = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "gigs_changes_listed_total",
		Help: "Changes (created, updated, cancelled or removed gigs) listed by /v1/changes.",
	})
	m.changes.expired = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "gigs_changes_expired_cursors_total",
		Help: "Cursors /v1/changes refused as expired (older than the tombstones kept, or of replaced data): each is a client told to download the export again.",
	})
	rendered := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gigs_view_events_rendered_total",
		Help: "Gigs written into iCalendar feeds (view=ics) and schema.org JSON-LD bodies (view=jsonld), cached or not: the cost of those views.",
	}, []string{"view"})
	m.rendered = [numViews]prometheus.Counter{rendered.WithLabelValues("ics"), rendered.WithLabelValues("jsonld")}
	reg.MustRegister(m.requests, durations, limits, keyChecks, export, memo, acceptErrors, rejected, open, m.changes.entries, m.changes.expired, rendered,
		snapshotCollector{live})
	return m
}

// connRejected records a connection refused over a cap.
func (m *Metrics) connRejected(perClient bool) {
	if perClient {
		m.rejected[1].Inc()
	} else {
		m.rejected[0].Inc()
	}
}

// request records one answered request.
func (m *Metrics) request(rt route, method []byte, code int, d time.Duration) {
	mi := methodOther
	switch string(method) {
	case "GET":
		mi = methodGET
	case "HEAD":
		mi = methodHEAD
	}
	ci := len(knownCodes) - 1
	for i, c := range knownCodes[:ci] {
		if c == code {
			ci = i
			break
		}
	}
	slot := &m.series[rt][mi][ci]
	c := slot.Load()
	if c == nil {
		label := "other"
		if ci < len(knownCodes)-1 {
			label = strconv.Itoa(code)
		}
		counter := m.requests.WithLabelValues(routeTemplates[rt], methodNames[mi], label)
		slot.CompareAndSwap(nil, &counter)
		c = slot.Load()
	}
	(*c).Inc()
	m.durations[rt].Observe(d.Seconds())
}

// limitDecision records one rate-limit decision.
func (m *Metrics) limitDecision(limit int, allowed bool) {
	if allowed {
		m.limits[limit][0].Inc()
	} else {
		m.limits[limit][1].Inc()
	}
}

// snapshotCollector reads the served snapshot when scraped, so its figures are always
// those of the data being served.
type snapshotCollector struct{ live *engine.Live }

var (
	descGigs = prometheus.NewDesc("gigs_snapshot_gigs",
		"Upcoming gigs in the served snapshot.", nil, nil)
	descGenerated = prometheus.NewDesc("gigs_snapshot_last_success_timestamp_seconds",
		"When the refresh that built the served snapshot started (its generated_at), in Unix seconds.", nil, nil)
	descExportBytes = prometheus.NewDesc("gigs_snapshot_export_bytes",
		"Size of the served snapshot's export body, by content encoding.", []string{"encoding"}, nil)
	descNextRefresh = prometheus.NewDesc("gigs_next_refresh_timestamp_seconds",
		"When the next refresh is due, in Unix seconds.", nil, nil)
	descChangeSeq = prometheus.NewDesc("gigs_changes_sequence",
		"The last change number of the served snapshot's ledger: it grows by one per gig created, changed or removed.", nil, nil)
	descTombstones = prometheus.NewDesc("gigs_changes_tombstones",
		"Removed gigs whose tombstones the served snapshot keeps (30 days).", nil, nil)
	descChanged = prometheus.NewDesc("gigs_snapshot_changed_timestamp_seconds",
		"When the served data last changed (its changed_at, the Last-Modified of its bodies), in Unix seconds.", nil, nil)
)

func (c snapshotCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descGigs
	ch <- descGenerated
	ch <- descExportBytes
	ch <- descNextRefresh
	ch <- descChangeSeq
	ch <- descTombstones
	ch <- descChanged
}

// Collect sends nothing about a snapshot before the first one is published, so that an
// alert on its age sees an absent series rather than a zero time.
func (c snapshotCollector) Collect(ch chan<- prometheus.Metric) {
	if next := c.live.NextRefresh(); !next.IsZero() {
		ch <- prometheus.MustNewConstMetric(descNextRefresh, prometheus.GaugeValue, float64(next.UnixMilli())/1e3)
	}
	s := c.live.Load()
	if s == nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(descGigs, prometheus.GaugeValue, float64(s.Len()))
	ch <- prometheus.MustNewConstMetric(descGenerated, prometheus.GaugeValue, float64(s.Built().Unix()))
	ch <- prometheus.MustNewConstMetric(descChangeSeq, prometheus.GaugeValue, float64(s.Cursor().Seq))
	ch <- prometheus.MustNewConstMetric(descTombstones, prometheus.GaugeValue, float64(s.Tombstones()))
	ch <- prometheus.MustNewConstMetric(descChanged, prometheus.GaugeValue, float64(s.Changed().Unix()))
	e := s.Export()
	ch <- prometheus.MustNewConstMetric(descExportBytes, prometheus.GaugeValue, float64(e.Size), "identity")
	ch <- prometheus.MustNewConstMetric(descExportBytes, prometheus.GaugeValue, float64(e.GzipSize), "gzip")
}
