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
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	_ "time/tzdata" // venue zones must resolve on machines without a zoneinfo database

	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/server"
	"github.com/gigs/gigs/server/keys"
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
	if err := m.Run(ctx); err != nil {
		m.Logger.Error("gigsd stopped", "err", err)
		os.Exit(1)
	}
}

// Config is gigsd's configuration; every field is a flag with an environment fallback.
type Config struct {
	Addr            string
	Sources         string
	Refresh         time.Duration
	Retry           time.Duration
	MaxStale        time.Duration
	Contact         string
	LogLevel        string
	ShutdownTimeout time.Duration
	ReadLimit       int
	ExportLimit     int
	TrustedProxies  []netip.Prefix
	DataDir         string
	KeySync         time.Duration
	FetchProxy      string
}

// Main is the daemon: ParseFlags, then Run until the context ends.
type Main struct {
	Config Config
	Logger *slog.Logger
	Live   engine.Live

	getenv func(string) string // the environment ParseFlags read; platform credentials come from it
	ln     net.Listener        // set before ready is closed, then immutable
	ready  chan struct{}       // closed once Run has opened ln or failed before it could
	opened func()              // closes ready, once
}

// NewMain returns a Main with default configuration.
func NewMain() *Main {
	m := &Main{Logger: slog.Default(), getenv: os.Getenv, ready: make(chan struct{})}
	m.opened = sync.OnceFunc(func() { close(m.ready) })
	return m
}

// ParseFlags reads the configuration from args and the environment.
func (m *Main) ParseFlags(args []string, getenv func(string) string, out io.Writer) error {
	fs := flag.NewFlagSet("gigsd", flag.ContinueOnError)
	fs.SetOutput(out)
	m.getenv = getenv
	c := &m.Config
	fs.StringVar(&c.Addr, "addr", ":8080", "public listen address, host:port")
	fs.StringVar(&c.Sources, "sources", "", "sources configuration file (JSON); required")
	fs.DurationVar(&c.Refresh, "refresh", time.Hour, "time between refreshes, varied by ±10%")
	fs.DurationVar(&c.Retry, "retry", 5*time.Minute, "time before retrying a failed refresh")
	fs.DurationVar(&c.MaxStale, "max-stale", 48*time.Hour, "how long a failing source's last good events are served")
	fs.StringVar(&c.Contact, "contact", "", "operator contact (URL or e-mail): sent in the User-Agent to upstreams, and named where users ask for keys")
	fs.StringVar(&c.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 15*time.Second, "how long in-flight requests may finish on shutdown")
	fs.IntVar(&c.ReadLimit, "read-limit", 60, "requests per minute each client may make to /v1")
	fs.IntVar(&c.ExportLimit, "export-limit", 10, "exports per minute each API key may make")
	fs.StringVar(&c.DataDir, "data-dir", "var/data", "directory of the key store (shared with gigsctl keys), the key secret, the gig id store and the sources' last good events")
	fs.DurationVar(&c.KeySync, "key-sync", 10*time.Second, "how often key uses are saved and key changes picked up")
	fs.StringVar(&c.FetchProxy, "fetch-proxy", "", "send every upstream request through this HTTP proxy URL (default: the HTTP_PROXY environment)")
	fs.Func("trusted-proxies", "comma-separated networks or addresses of reverse proxies whose X-Forwarded-For is believed", func(v string) error {
		c.TrustedProxies = c.TrustedProxies[:0]
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			p, err := netip.ParsePrefix(f)
			if err != nil {
				a, aerr := netip.ParseAddr(f)
				if aerr != nil {
					return fmt.Errorf("%q is neither a network (10.0.0.0/8) nor an address", f)
				}
				p = netip.PrefixFrom(a, a.BitLen())
			}
			c.TrustedProxies = append(c.TrustedProxies, p.Masked())
		}
		return nil
	})
	fs.Usage = flagenv.Usage(fs, "usage: gigsd [flags]\n\nServes the gigs read API from sources refreshed every hour.")
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.Sources == "" {
		return fmt.Errorf("no sources: set -sources or %s", flagenv.Name("sources"))
	}
	for name, d := range map[string]time.Duration{"refresh": c.Refresh, "retry": c.Retry, "max-stale": c.MaxStale, "shutdown-timeout": c.ShutdownTimeout, "key-sync": c.KeySync} {
		if d <= 0 {
			return fmt.Errorf("-%s must be positive, not %s", name, d)
		}
	}
	for name, n := range map[string]int{"read-limit": c.ReadLimit, "export-limit": c.ExportLimit} {
		if n < 1 {
			return fmt.Errorf("-%s must be at least 1, not %d", name, n)
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	m.Logger = slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	return nil
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

// Run loads the sources, serves the API and refreshes on schedule until ctx ends, then
// shuts the server down gracefully.
func (m *Main) Run(ctx context.Context) error {
	defer m.opened()
	cfg, err := loader.ReadConfig(m.Config.Sources)
	if err != nil {
		return err
	}
	proxy, err := loader.ProxyFunc(m.Config.FetchProxy)
	if err != nil {
		return fmt.Errorf("-fetch-proxy: %w", err)
	}
	fetcher := fetch.New(fetch.Options{Contact: m.Config.Contact, Proxy: proxy})
	srcs, err := loader.Sources(cfg, fetcher, m.getenv, time.Now)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(m.Config.DataDir, 0o700); err != nil {
		return fmt.Errorf("cannot make the data directory: %w", err)
	}
	ids, err := loader.OpenIDStore(filepath.Join(m.Config.DataDir, "gig-ids"))
	if err != nil {
		return err
	}
	lastGood, err := loader.OpenLastGood(filepath.Join(m.Config.DataDir, "last-good"))
	if err != nil {
		return err
	}
	ld := loader.New(loader.Options{
		Sources:  srcs,
		IDs:      ids,
		LastGood: lastGood,
		Stats:    fetcher.Stats,
		Live:     &m.Live,
		Logger:   m.Logger,
		Interval: m.Config.Refresh,
		Retry:    m.Config.Retry,
		MaxStale: m.Config.MaxStale,
	})
	store, err := keys.Open(m.Config.DataDir)
	if err != nil {
		return err
	}
	checker, err := keys.NewChecker(store, time.Now, m.Logger)
	if err != nil {
		return fmt.Errorf("cannot load the key store: %w", err)
	}
	srv := server.New(server.Options{Live: &m.Live, Logger: m.Logger, ReadLimit: m.Config.ReadLimit,
		TrustedProxies: m.Config.TrustedProxies, Keys: checker, ExportLimit: m.Config.ExportLimit,
		Contact: m.Config.Contact}).HTTPServer()
	m.ln, err = net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %q: %w", m.Config.Addr, err)
	}
	m.opened()
	m.Logger.Info("gigsd listening", "addr", m.ln.Addr().String(), "sources", len(srcs))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	loaded, synced := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(loaded)
		ld.Run(ctx)
	}()
	keysCtx, stopKeys := context.WithCancel(context.Background())
	defer stopKeys()
	go func() {
		defer close(synced)
		checker.Run(keysCtx, m.Config.KeySync) // saves key uses once more when stopped
	}()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(m.ln) }()
	select {
	case err = <-served:
		cancel()
	case <-ctx.Done():
		m.Logger.Info("shutting down", "timeout", m.Config.ShutdownTimeout)
		err = shutdown(srv, m.Config.ShutdownTimeout)
	}
	<-loaded
	stopKeys() // after the server has drained, so the last requests' key uses are saved
	<-synced
	return err
}

func shutdown(srv *fasthttp.Server, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return srv.ShutdownWithContext(ctx)
}
