package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gigs/gigs/testkit/tools"
)

// TestPrometheusScrapes has a real Prometheus server scrape gigsd's admin listener and
// answer a query about the served snapshot, and promtool lint what it scraped.
func TestPrometheusScrapes(t *testing.T) {
	prom, promtool := tools.Need(t, "prometheus"), tools.Need(t, "promtool")
	m := runDemo(t)
	admin := m.AdminAddr()

	// promtool's lint of the exposition, once a snapshot is served.
	var body []byte
	waitFor(t, "the snapshot metrics", 60*time.Second, func() bool {
		resp, err := http.Get("http://" + admin.String() + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ = io.ReadAll(resp.Body)
		return bytes.Contains(body, []byte("\ngigs_snapshot_gigs "))
	})
	check := exec.Command(promtool, "check", "metrics")
	check.Stdin = bytes.NewReader(body)
	if out, err := check.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}

	// Prometheus itself, scraping every second.
	work := t.TempDir()
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: gigsd\n    static_configs:\n      - targets: [%q]\n", admin.String())
	if err := os.WriteFile(filepath.Join(work, "prometheus.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	promAddr := ln.Addr().String()
	ln.Close()
	var promLog bytes.Buffer
	cmd := exec.Command(prom, "--config.file="+filepath.Join(work, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(work, "data"),
		"--web.listen-address="+promAddr)
	cmd.Stdout, cmd.Stderr = &promLog, &promLog
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	query := func(q string) (float64, bool) {
		resp, err := http.Get("http://" + promAddr + "/api/v1/query?query=" + q)
		if err != nil {
			return 0, false
		}
		defer resp.Body.Close()
		var r struct {
			Status string
			Data   struct{ Result []struct{ Value [2]any } }
		}
		if json.NewDecoder(resp.Body).Decode(&r) != nil || r.Status != "success" || len(r.Data.Result) != 1 {
			return 0, false
		}
		s, _ := r.Data.Result[0].Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	var gigs float64
	waitFor(t, "Prometheus to answer a query about gigsd", 60*time.Second, func() bool {
		var ok bool
		gigs, ok = query(`gigs_snapshot_gigs{job="gigsd"}`)
		return ok
	})
	if want := float64(m.Live.Load().Len()); gigs != want {
		t.Errorf("Prometheus says %v gigs, gigsd serves %v", gigs, want)
	}
	if up, ok := query(`up{job="gigsd"}`); !ok || up != 1 {
		t.Errorf("up = %v (%v)\n%s", up, ok, promLog.String())
	}
}
