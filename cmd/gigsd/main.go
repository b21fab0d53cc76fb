// Command gigsd is the gigs daemon: it loads the configured sources every hour into an
// in-memory snapshot and serves the public read API from it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"syscall"
	"time"
	_ "time/tzdata" // venue zones must resolve on machines without a zoneinfo database

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/valyala/fasthttp"
	"gocloud.dev/blob"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
	"github.com/gigs/gigs/loader"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/server"
	"github.com/gigs/gigs/server/redis"
)

func main() {
	m := NewMain()
	if err := m.ParseFlags(os.Args[1:], os.Getenv, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "gigsd:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if m.Config.Check {
		signal.Ignore(syscall.SIGHUP) // there is nothing to reload
		if err := m.Check(ctx, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "gigsd -check:", err)
			os.Exit(1)
		}
		return
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		for range hup {
			if m.Config.Sources == "" {
				m.Logger.Info("SIGHUP: no sources file to read again (gigsd serves -dataset or -follow)")
				continue
			}
			if err := m.Reload(); err != nil {
				m.Logger.Error("sources not reloaded, keeping the current ones", "err", err)
			}
		}
	}()
	if err := m.Run(ctx); err != nil {
		_ = m.Close() // what Run opened before it failed; it returns nil, having served nothing
		m.Logger.Error("gigsd stopped", "err", err)
		os.Exit(1)
	}
	select {
	case <-ctx.Done():
	case <-m.served: // the public listener failed
	}
	if err := m.Close(); err != nil {
		m.Logger.Error("gigsd stopped", "err", err)
		os.Exit(1)
	}
}

// Config is gigsd's configuration; every field is a flag with an environment fallback.
type Config struct {
	Addr             string
	Sources          string
	Refresh          time.Duration
	Retry            time.Duration
	MaxStale         time.Duration
	Contact          string
	LogLevel         string
	ShutdownTimeout  time.Duration
	ReadLimit        int
	ExportLimit      int
	TrustedProxies   []netip.Prefix
	FetchAllow       []netip.Prefix
	DataDir          string
	KeySync          time.Duration
	FetchProxy       string
	AdminAddr        string
	AccessLog        bool
	DrainDelay       time.Duration
	Check            bool
	Dataset          string
	Snapshot         bool
	Redis            string
	Publish          string
	PublishFullEvery int
	Follow           string
	FollowEvery      time.Duration

	Places      string
	MaxRecords  int
	MemoryLimit int64 // bytes; 0 until ParseFlags settles the default

	MaxConns          int
	MaxConnsPerClient int
	IdleTimeout       time.Duration
	HeaderTimeout     time.Duration
	PageMemo          int // MiB
	PublicURL         string
}

// Main is the daemon: ParseFlags, then Run, then Close.
type Main struct {
	Config Config
	Logger *slog.Logger
	Live   engine.Live

	// Registry holds the metrics served on the admin listener; Run makes a new one when nil.
	Registry *prometheus.Registry

	getenv   func(string) string // the environment ParseFlags read; platform credentials come from it
	ln       net.Listener        // set before ready is closed, then immutable
	adminLn  net.Listener        // likewise; nil when the admin listener is off
	ld       *loader.Loader      // likewise
	fetcher  *fetch.Client       // likewise
	snapFile *replica.File       // nil with -snapshot=false; used by the refresh loop
	bucket   *blob.Bucket        // of -publish or -follow; nil without
	pub      *replica.Publisher  // nil without -publish; used by the refresh loop
	ready    chan struct{}       // closed once Run has opened ln or failed before it could
	opened   func()              // closes ready, once

	// What Run started, for Close: set by Run (shared and admin once opened, the rest once
	// it serves), then immutable.
	shared      *sharedState
	admin       *http.Server       // nil when the admin listener is off
	api         *server.Server     // nil until Run serves
	srv         *fasthttp.Server   // likewise
	served      chan struct{}      // closed when srv stops serving; nil until Run serves
	serveErr    error              // why srv stopped; read once served is closed
	stopRefresh context.CancelFunc // stops the refresh loop (or the follower)
	stopKeys    context.CancelFunc // stops saving key uses, after one last save
	refreshed   chan struct{}      // closed when the refresh loop has stopped
	synced      chan struct{}      // closed when key uses are saved for the last time

	closeOnce sync.Once
	closeErr  error // Close's, once it ran
}

// NewMain returns a Main with default configuration.
func NewMain() *Main {
	m := &Main{Logger: slog.Default(), getenv: os.Getenv, ready: make(chan struct{})}
	m.opened = sync.OnceFunc(func() { close(m.ready) })
	return m
}

// ParseFlags reads the configuration from args and the environment.
// flagSet defines gigsd's flags on m.Config, with -h writing to out.
func (m *Main) flagSet(out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gigsd", flag.ContinueOnError)
	fs.SetOutput(out)
	c := &m.Config

	fs.StringVar(&c.Addr, "addr", ":8080", "public listen address, host:port")
	fs.StringVar(&c.Sources, "sources", "", "sources configuration file (JSON); required unless -dataset or -follow is set")
	fs.DurationVar(&c.Refresh, "refresh", time.Hour, "time between refreshes, varied by ±10%")
	fs.DurationVar(&c.Retry, "retry", 5*time.Minute, "time before retrying a failed refresh")
	fs.DurationVar(&c.MaxStale, "max-stale", 48*time.Hour, "how long a failing source's last good events are served")
	fs.StringVar(&c.Contact, "contact", "", "operator contact (URL or e-mail): sent in the User-Agent to upstreams, and named where users ask for keys")
	fs.StringVar(&c.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 15*time.Second, "how long in-flight requests may finish on shutdown")
	fs.IntVar(&c.ReadLimit, "read-limit", 60, "requests per minute each client may make to the public listener (every request counts)")
	fs.IntVar(&c.ExportLimit, "export-limit", 10, "exports per minute each API key may make")
	fs.StringVar(&c.DataDir, "data-dir", "var/data", "directory of the key store (shared with gigsctl keys), the key secret, the gig id store and the sources' last good events")
	fs.DurationVar(&c.KeySync, "key-sync", 10*time.Second, "how often key uses are saved and key changes picked up")
	fs.StringVar(&c.FetchProxy, "fetch-proxy", "", "send every upstream request through this HTTP proxy URL (default: the HTTP_PROXY environment)")
	fs.StringVar(&c.AdminAddr, "admin-addr", "127.0.0.1:8081", "admin listen address for /metrics (Prometheus), /debug/pprof, and /livez and /readyz without a rate limit; keep it private; empty turns it off")
	fs.BoolVar(&c.AccessLog, "access-log", false, "log one line per request: request id, method, route, path, status, duration, bytes, client")
	fs.DurationVar(&c.DrainDelay, "drain-delay", 0, "on SIGTERM, how long to keep serving with /readyz answering 503, so load balancers stop sending requests first")
	fs.StringVar(&c.Dataset, "dataset", "", "serve the dataset file at this path (as gigsctl dataset writes), read and rebuilt every -refresh, instead of -sources: for benchmarks")
	fs.StringVar(&c.Places, "places", "", "the operator's places file: cities to add to the gazetteer or replace in it (tab-separated: slug, name, country, region code, region name, zone, latitude, longitude, population, other names)")
	fs.IntVar(&c.MaxRecords, "max-records", loader.DefaultMaxRecords, "cap on the events one refresh takes from all sources together; a refresh with more is not built")
	fs.Func("memory-limit", "soft memory limit of the Go runtime, in bytes or with a unit (512MiB, 4GiB); 0: GOMEMLIMIT when set, else 80% of the cgroup's or the machine's memory", func(v string) error {
		n, err := parseBytes(v)
		c.MemoryLimit = n
		return err
	})
	fs.IntVar(&c.MaxConns, "max-conns", 0, "cap on open connections to -addr; 0: 10000, or three quarters of the open-file limit when that is lower")
	fs.IntVar(&c.MaxConnsPerClient, "max-conns-per-client", server.DefaultMaxConnsPerClient, "cap on one client address's open connections to -addr (the direct peer; -trusted-proxies are exempt); -1: no cap")
	fs.DurationVar(&c.IdleTimeout, "idle-timeout", server.DefaultIdleTimeout, "how long a keep-alive connection may wait idle for its next request")
	fs.DurationVar(&c.HeaderTimeout, "header-timeout", server.DefaultHeaderTimeout, "how long a client may take to send a request's headers, from the connection's opening or the request's first byte")
	fs.StringVar(&c.PublicURL, "public-url", "http://localhost:8080", "the URL the public reaches the API at, the same on every replica: JSON-LD @id and url are made of it, and the iCalendar feeds' UIDs of its host")
	fs.IntVar(&c.PageMemo, "page-memo", server.DefaultPageMemo>>20, "MiB of /v1/gigs answers kept per snapshot, so that a page asked again is not run again (0: none)")
	fs.BoolVar(&c.Snapshot, "snapshot", true, "keep each published snapshot in <data-dir>/snapshot and, at start, serve the one there (when built within -max-stale) until the first refresh ends")
	fs.StringVar(&c.Redis, "redis", "", "Redis URL (redis://[user:password@]host:port/db, rediss:// for TLS) where replicas share the API keys and count the read and export limits together; empty: keys in -data-dir and limits per replica")
	fs.StringVar(&c.Publish, "publish", "", "publish each snapshot built to this bucket for -follow replicas: a directory, or a gocloud.dev URL (s3://bucket?region=..., gs://bucket, azblob://container)")
	fs.IntVar(&c.PublishFullEvery, "publish-full-every", 24, "with -publish, upload the snapshot whole every this many publishes and, at each, a delta from the one before, which -follow replicas download instead when they hold that one (1: every snapshot whole, and a delta beside)")
	fs.StringVar(&c.Follow, "follow", "", "serve the snapshots a -publish gigsd puts in this bucket (a directory or a gocloud.dev URL) instead of loading sources")
	fs.DurationVar(&c.FollowEvery, "follow-every", 5*time.Second, "with -follow, how often the bucket's manifest is read")
	fs.BoolVar(&c.Check, "check", false, "load the sources once, build a snapshot, print a summary and exit: 0 when it builds, 1 when not")
	flagenv.Networks(fs, &c.TrustedProxies, "trusted-proxies", "comma-separated networks or addresses of reverse proxies whose X-Forwarded-For is believed")
	flagenv.Networks(fs, &c.FetchAllow, "fetch-allow", "comma-separated networks or addresses that source fetches may reach although they are loopback, private, link-local or otherwise internal (added to the sources file's allow_networks)")
	fs.Usage = flagenv.Usage(fs, "usage: gigsd -sources FILE [flags]\n\n"+
		"Serves the gigs read API from sources refreshed every hour, and Prometheus metrics on\n"+
		"-admin-addr. SIGHUP reloads the sources file; SIGTERM or SIGINT drains and stops.")
	return fs
}

// maxLimit bounds -read-limit and -export-limit: a request a minute more than a billion
// times over costs nothing the limiter can count.
const maxLimit = 1_000_000_000

func (m *Main) ParseFlags(args []string, getenv func(string) string, out io.Writer) error {
	m.getenv = getenv
	fs := m.flagSet(out)
	c := &m.Config
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	switch {
	case c.Sources == "" && c.Dataset == "" && c.Follow == "":
		return fmt.Errorf("no sources: set -sources or %s (or -follow a publisher's bucket)", flagenv.Name("sources"))
	case c.Sources != "" && c.Dataset != "":
		return errors.New("-sources and -dataset exclude each other")
	case c.Follow != "" && (c.Sources != "" || c.Dataset != "" || c.Publish != "" || c.Check):
		return errors.New("-follow serves a publisher's snapshots: it excludes -sources, -dataset, -publish and -check")
	case c.Publish != "" && !c.Snapshot:
		return errors.New("-publish uploads the snapshot file: it needs -snapshot")
	}
	for name, d := range map[string]time.Duration{"refresh": c.Refresh, "retry": c.Retry, "max-stale": c.MaxStale, "shutdown-timeout": c.ShutdownTimeout,
		"key-sync": c.KeySync, "follow-every": c.FollowEvery, "idle-timeout": c.IdleTimeout, "header-timeout": c.HeaderTimeout} {
		if d <= 0 {
			return fmt.Errorf("-%s must be positive, not %s", name, d)
		}
	}
	if c.DrainDelay < 0 {
		return fmt.Errorf("-drain-delay must not be negative, not %s", c.DrainDelay)
	}
	if c.PublishFullEvery < 1 || c.PublishFullEvery > replica.MaxChain {
		return fmt.Errorf("-publish-full-every must be from 1 to %d, not %d", replica.MaxChain, c.PublishFullEvery)
	}
	for name, a := range map[string]string{"addr": c.Addr, "admin-addr": c.AdminAddr} {
		if a == "" {
			continue
		}
		_, port, err := net.SplitHostPort(a)
		if err != nil {
			return fmt.Errorf("-%s %q is not host:port: %w", name, a, err)
		}
		if _, err := net.LookupPort("tcp", port); err != nil {
			return fmt.Errorf("-%s %q: %w", name, a, err)
		}
	}
	// Values Run would only refuse once started (exit status 1 instead of 2).
	if _, err := loader.ProxyFunc(c.FetchProxy); err != nil {
		return fmt.Errorf("-fetch-proxy: %w", err)
	}
	if c.Redis != "" {
		cl, err := redis.Dial(c.Redis)
		if err != nil {
			return fmt.Errorf("-redis: %w", err)
		}
		_ = cl.Close() // nothing was dialled: the client connects on its first command
	}
	for name, b := range map[string]string{"publish": c.Publish, "follow": c.Follow} {
		if err := replica.CheckBucket(b); err != nil {
			return fmt.Errorf("-%s: %w", name, err)
		}
	}
	if c.Addr == "" {
		return errors.New("-addr must not be empty")
	}
	for name, n := range map[string]int{"read-limit": c.ReadLimit, "export-limit": c.ExportLimit} {
		if n < 1 || n > maxLimit {
			return fmt.Errorf("-%s must be from 1 to %d, not %d", name, maxLimit, n)
		}
	}
	if c.MaxRecords < 1 {
		return fmt.Errorf("-max-records must be at least 1, not %d", c.MaxRecords)
	}
	if c.MaxConns < 0 {
		return fmt.Errorf("-max-conns must not be negative, not %d", c.MaxConns)
	}
	if c.MaxConns == 0 {
		c.MaxConns = defaultMaxConns()
	}
	if c.MaxConnsPerClient == 0 || c.MaxConnsPerClient < -1 {
		return fmt.Errorf("-max-conns-per-client must be at least 1, or -1 for no cap, not %d", c.MaxConnsPerClient)
	}
	if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("-public-url must be an http or https URL with a host, such as https://gigs.example, not %q", c.PublicURL)
	}
	if c.PageMemo < 0 || c.PageMemo > 1024 {
		return fmt.Errorf("-page-memo must be from 0 to 1024 MiB, not %d", c.PageMemo)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	m.Logger = slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	return nil
}

// setMemoryLimit applies -memory-limit, or its default, to the Go runtime: the garbage
// collector then works harder as the heap nears it, rather than let the process be killed
// for memory while a hostile or huge refresh is read.
func (m *Main) setMemoryLimit() {
	limit, from := m.Config.MemoryLimit, "-memory-limit"
	switch {
	case limit > 0:
	case m.getenv("GOMEMLIMIT") != "":
		limit, from = debug.SetMemoryLimit(-1), "GOMEMLIMIT" // the runtime read it at start
	default:
		if total := machineMemory(); total > 0 {
			limit, from = total/10*8, "80% of the available memory"
		}
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit)
		m.Logger.Info("memory limit set", "bytes", limit, "from", from)
	}
}

// Addr waits until Run has opened its listener and returns its address, or nil when Run
// failed before it could listen.
func (m *Main) Addr() net.Addr {
	<-m.ready
	if m.ln == nil {
		return nil
	}
	return m.ln.Addr()
}

// AdminAddr is Addr for the admin listener; nil also when it is off.
func (m *Main) AdminAddr() net.Addr {
	<-m.ready
	if m.adminLn == nil {
		return nil
	}
	return m.adminLn.Addr()
}

// newFetcher makes the fetcher all sources share: its politeness state (robots.txt,
// validators for conditional requests, per-host pacing) lives as long as gigsd.
func (m *Main) newFetcher() (*fetch.Client, error) {
	proxy, err := loader.ProxyFunc(m.Config.FetchProxy)
	if err != nil {
		return nil, fmt.Errorf("-fetch-proxy: %w", err)
	}
	return fetch.New(fetch.Options{Contact: m.Config.Contact, Proxy: proxy, Allow: m.Config.FetchAllow}), nil
}

// gazetteer is the embedded gazetteer with -places added; nil for the embedded one alone.
func (m *Main) gazetteer() (*places.Gazetteer, error) {
	if m.Config.Places == "" {
		return nil, nil
	}
	return places.WithFile(m.Config.Places)
}

// sources reads the sources configuration and makes its sources on fetcher, which may
// from now on reach the networks -fetch-allow and the file allow.
func (m *Main) sources(fetcher *fetch.Client) ([]loader.Source, error) {
	cfg, err := loader.ReadConfig(m.Config.Sources)
	if err != nil {
		return nil, err
	}
	srcs, err := loader.Sources(cfg, fetcher, m.getenv, time.Now)
	if err != nil {
		return nil, err
	}
	fetcher.Allow(append(slices.Clone(m.Config.FetchAllow), cfg.Allow...))
	fetcher.CloseIdleConnections() // kept ones may lead to a network no longer allowed
	return srcs, nil
}

// Reload reads the sources configuration again and has the running loader use it from the
// next refresh, started at once (after the running one, if any). A configuration that does
// not load changes nothing.
func (m *Main) Reload() error {
	<-m.ready
	if m.ld == nil {
		return errors.New("gigsd is not running")
	}
	srcs, err := m.sources(m.fetcher)
	if err != nil {
		return err
	}
	m.ld.Reload(srcs)
	m.Logger.Info("sources configuration read", "file", m.Config.Sources, "sources", len(srcs))
	return nil
}

// Run opens the data directory, the snapshot file, the bucket and the key store, starts
// the refreshes (or the follower) and serves the API (and the metrics on the admin
// listener). It returns once listening, or with the error that kept it from listening;
// ctx bounds only that start. Close stops what Run started, also after an error.
func (m *Main) Run(ctx context.Context) error {
	defer m.opened()
	m.setMemoryLimit()
	m.setGC()
	if err := os.MkdirAll(m.Config.DataDir, 0o700); err != nil {
		return fmt.Errorf("cannot make the data directory: %w", err)
	}
	if m.Registry == nil {
		m.Registry = prometheus.NewRegistry()
	}
	m.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), buildInfo())
	refreshes := loader.NewMetrics(m.Registry)
	if bucket := m.Config.Publish + m.Config.Follow; bucket != "" {
		var err error
		if m.bucket, err = replica.OpenBucket(ctx, bucket); err != nil {
			return err
		}
	}
	if m.Config.Snapshot {
		m.snapFile = replica.NewFile(m.Config.DataDir, m.Config.Follow == "", &m.Live, m.Logger, m.Registry)
		if err := m.snapFile.Load(m.Config.MaxStale); err != nil {
			return err
		}
	}
	refresh := m.serveDataset(refreshes)
	switch {
	case m.Config.Follow != "":
		refresh = m.follower().Run
	case m.Config.Dataset == "":
		ld, fetcher, err := m.newLoader(refreshes)
		if err != nil {
			return err
		}
		m.ld, m.fetcher, refresh = ld, fetcher, ld.Run
	}
	if m.Config.Publish != "" {
		m.pub = &replica.Publisher{Bucket: m.bucket, Name: m.Config.Publish, File: m.snapFile, Live: &m.Live, Log: m.Logger,
			Refresh: m.Config.Refresh, Follower: m.follower, Metrics: replica.NewPublishMetrics(m.Registry), FullEvery: m.Config.PublishFullEvery}
		m.pub.Resume(ctx)
	}
	var err error
	if m.shared, err = m.openShared(); err != nil {
		return err
	}
	checker := m.shared.keys
	api := server.New(server.Options{Live: &m.Live, Logger: m.Logger, ReadLimit: m.Config.ReadLimit,
		ReadLimiter: m.shared.reads, ExportLimiter: m.shared.exports,
		TrustedProxies: m.Config.TrustedProxies, Keys: checker, ExportLimit: m.Config.ExportLimit,
		Contact: m.Config.Contact, AccessLog: m.Config.AccessLog, Metrics: server.NewMetrics(m.Registry, &m.Live),
		MaxConns: m.Config.MaxConns, MaxConnsPerClient: m.Config.MaxConnsPerClient,
		IdleTimeout: m.Config.IdleTimeout, HeaderTimeout: m.Config.HeaderTimeout, PageMemo: pageMemoBytes(m.Config.PageMemo),
		PublicURL: m.Config.PublicURL})
	srv := api.HTTPServer()
	ln, err := net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %q: %w", m.Config.Addr, err)
	}
	if m.Config.AdminAddr != "" {
		if m.adminLn, err = net.Listen("tcp", m.Config.AdminAddr); err != nil {
			ln.Close()
			return fmt.Errorf("cannot listen on -admin-addr %q: %w", m.Config.AdminAddr, err)
		}
		m.admin = adminServer(m.Registry, m.Logger, api)
		go func() { _ = m.admin.Serve(m.adminLn) }()
	}
	m.ln, m.api, m.srv = ln, api, srv
	m.opened()
	m.Logger.Info("gigsd listening", "addr", ln.Addr().String(), "admin_addr", addrString(m.adminLn))

	var refreshCtx, keysCtx context.Context
	refreshCtx, m.stopRefresh = context.WithCancel(context.Background())
	keysCtx, m.stopKeys = context.WithCancel(context.Background())
	m.refreshed, m.synced, m.served = make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(m.refreshed)
		m.inBackground()
		if m.pub != nil {
			m.pub.Publish(refreshCtx, m.Live.Load()) // the snapshot file served at start, unless published already
		}
		refresh(refreshCtx)
	}()
	go func() {
		defer close(m.synced)
		checker.Run(keysCtx, m.Config.KeySync) // saves key uses once more when stopped
	}()
	go func() {
		defer close(m.served)
		m.serveErr = srv.Serve(api.Listen(ln))
	}()
	return nil
}

// Close stops what Run started, as SIGTERM does. /readyz answers 503; after the drain
// delay the listener closes, in-flight requests have until the shutdown timeout to finish,
// and idle connections are closed; when the listener had failed on its own, Close returns
// its error instead. A refresh in progress (or the follower's download) stops at once; key
// uses are saved after the server has drained, so the last requests' uses are kept.
// Neither may hold up Close longer than the shutdown timeout. Then the admin listener, the
// limiters and the Redis client, and the bucket are closed.
//
// Close may be called after a failed Run (it closes what Run opened), or again (it
// returns the first call's error); not while Run runs.
func (m *Main) Close() error {
	m.closeOnce.Do(func() { m.closeErr = m.close() })
	return m.closeErr
}

func (m *Main) close() error {
	var err error
	if m.srv != nil {
		m.stopRefresh()
		select {
		case <-m.served:
			err = m.serveErr
		default:
			m.api.Drain()
			m.Logger.Info("shutting down", "drain_delay", m.Config.DrainDelay.String(), "timeout", m.Config.ShutdownTimeout.String())
			time.Sleep(m.Config.DrainDelay)
			err = shutdown(m.srv, m.Config.ShutdownTimeout)
		}
		m.stopKeys()
		err = errors.Join(err, m.waitStopped())
	}
	if m.admin != nil {
		m.admin.Close()
	}
	if m.shared != nil {
		m.shared.close()
	}
	if m.bucket != nil {
		m.bucket.Close()
	}
	return err
}

// waitStopped waits, up to the shutdown timeout, for the refresh loop to stop and key
// uses to be saved; it names the first that did not.
func (m *Main) waitStopped() error {
	wait := time.NewTimer(m.Config.ShutdownTimeout)
	defer wait.Stop()
	for _, c := range []struct {
		name string
		done <-chan struct{}
	}{{"refresh", m.refreshed}, {"saving key uses", m.synced}} {
		select {
		case <-c.done:
		case <-wait.C:
			return fmt.Errorf("%s did not stop within -shutdown-timeout %s", c.name, m.Config.ShutdownTimeout)
		}
	}
	return nil
}

// newLoader makes the loader of the configured sources, with its stores in the data
// directory.
func (m *Main) newLoader(refreshes *loader.Metrics) (*loader.Loader, *fetch.Client, error) {
	fetcher, err := m.newFetcher()
	if err != nil {
		return nil, nil, err
	}
	srcs, err := m.sources(fetcher)
	if err != nil {
		return nil, nil, err
	}
	gaz, err := m.gazetteer()
	if err != nil {
		return nil, nil, err
	}
	ids, err := loader.OpenIDStore(filepath.Join(m.Config.DataDir, "gig-ids"))
	if err != nil {
		return nil, nil, err
	}
	lastGood, err := loader.OpenLastGood(filepath.Join(m.Config.DataDir, "last-good"))
	if err != nil {
		return nil, nil, err
	}
	m.Logger.Info("sources configuration read", "file", m.Config.Sources, "sources", len(srcs))
	return loader.New(loader.Options{
		Sources:       srcs,
		IDs:           ids,
		LastGood:      lastGood,
		Stats:         fetcher.Stats,
		Live:          &m.Live,
		Logger:        m.Logger,
		Interval:      m.Config.Refresh,
		Retry:         m.Config.Retry,
		MaxStale:      m.Config.MaxStale,
		MaxRecords:    m.Config.MaxRecords,
		Places:        gaz,
		Metrics:       refreshes,
		Building:      m.building,
		Published:     m.snapFile.Published,
		BeforePublish: m.snapFile.MarkPublished,
		OnRun: func(rep loader.Report, err error) {
			if rep.Published {
				m.published()
			}
			m.settled()
		},
	}), fetcher, nil
}

// serveDataset returns the refresh loop of -dataset: it reads the dataset file, builds
// and publishes it at once and then every -refresh, until ctx ends. Each build counts as a
// refresh in the metrics; a file that cannot be read or built keeps the last snapshot.
func (m *Main) serveDataset(refreshes *loader.Metrics) func(context.Context) {
	return func(ctx context.Context) {
		for {
			start := time.Now()
			var read time.Time
			var snap *engine.Snapshot
			var err error
			m.building(func() {
				ds, rerr := readDataset(m.Config.Dataset)
				read, err = time.Now(), rerr
				if err == nil {
					snap, err = engine.Build(ds, engine.Options{Now: start, Prev: m.Live.Load(), Published: m.snapFile.Published()})
				}
			}) // the snapshot keeps nothing of the dataset
			rep := loader.Report{Duration: time.Since(start)}
			if err == nil {
				if err = m.snapFile.MarkPublished(snap); err != nil {
					err = fmt.Errorf("built, not served: %w", err)
				}
			}
			next := time.Now().Add(m.Config.Refresh) // before the publish, which tells it
			m.Live.SetNextRefresh(next)
			if err == nil {
				m.Live.Publish(snap)
				rep.Gigs, rep.Published = snap.Len(), true
				m.Logger.Info("dataset snapshot published", "gigs", snap.Len(), "read", read.Sub(start).String(),
					"build", time.Since(read).String())
				m.published()
			} else {
				m.Logger.Error("dataset snapshot not published, keeping the previous one", "file", m.Config.Dataset, "err", err)
			}
			m.settled()
			refreshes.Observe(rep, err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(next)):
			}
		}
	}
}

// pageMemoBytes is server.Options.PageMemo for -page-memo MiB.
func pageMemoBytes(mib int) int {
	if mib == 0 {
		return -1
	}
	return mib << 20
}

// readDataset reads the dataset file at path.
func readDataset(path string) (*engine.Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ds, err := engine.ReadDataset(f)
	if err != nil {
		return nil, fmt.Errorf("cannot read dataset file %q: %w", path, err)
	}
	return ds, nil
}

// published runs after each publish, in the settings of the refresh (see building): the
// memory of the refresh is released and the collector set back to defaultGCPercent, then
// the snapshot saved to its file (so that the file's log line finds memory settled).
func (m *Main) published() {
	start := time.Now()
	released()
	m.collectAsServing()
	m.Logger.Debug("refresh memory released", "took", time.Since(start).String())
	if m.snapFile != nil {
		m.snapFile.Save(m.Live.Load())
	}
	if m.pub != nil {
		m.pub.Publish(context.Background(), m.Live.Load())
	}
}

// follower follows the bucket (-follow's, or -publish's) into the snapshot file's place.
func (m *Main) follower() *replica.Follower {
	return &replica.Follower{Bucket: m.bucket, Path: filepath.Join(m.Config.DataDir, replica.FileName), File: m.snapFile, Live: &m.Live,
		Log: m.Logger.With("bucket", m.Config.Follow+m.Config.Publish), Every: m.Config.FollowEvery,
		Metrics: replica.NewFollowMetrics(m.Registry), Swapped: func(*engine.Snapshot) { released() }}
}

// released hands the memory of the refresh just done (its dataset, the previous
// snapshot once no request holds it) back to the operating system at once, rather than
// over the minutes the runtime's scavenger takes: resident memory then stays near the
// served snapshot's size. It costs one garbage collection per refresh.
func released() { debug.FreeOSMemory() }

// shutdown closes the listener, lets in-flight requests finish and closes idle
// connections; requests still running after timeout are cut off.
func shutdown(srv *fasthttp.Server, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.ShutdownWithContext(ctx); err != nil {
		return fmt.Errorf("requests still running after -shutdown-timeout %s were cut off: %w", timeout, err)
	}
	return nil
}

// defaultMaxConns is -max-conns when it is not set: server.DefaultMaxConns, or three
// quarters of the open-file limit when that is lower, so that the fetcher and the stores
// keep descriptors when the public listener is full.
func defaultMaxConns() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return server.DefaultMaxConns
	}
	return max(min(server.DefaultMaxConns, int(rl.Cur)*3/4), 16)
}

func addrString(ln net.Listener) string {
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}
