package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"runtime/debug"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gigs/gigs/server"
)

// adminServer serves the admin listener: /metrics for Prometheus, the runtime profiles
// under /debug/pprof/, and /livez and /readyz as the public listener answers them but
// without a rate limit, for probes. It is for operators only: keep it on loopback or a
// private network.
func adminServer(reg *prometheus.Registry, log *slog.Logger, api *server.Server) *http.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		ready, why := api.Readiness()
		if !ready {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_, _ = io.WriteString(w, why+"\n")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelError),
		EnableOpenMetrics: true,
	}))
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
}

// buildInfo is gigs_build_info: the revision and Go version gigsd was built from.
func buildInfo() prometheus.Collector {
	revision, goVersion := "unknown", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "gigs_build_info",
		Help:        "Always 1; its labels say which revision and Go version gigsd was built from.",
		ConstLabels: prometheus.Labels{"revision": revision, "goversion": goVersion},
	})
	g.Set(1)
	return g
}
