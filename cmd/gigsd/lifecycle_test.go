package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// daemon is a gigsd binary running under a test, on the demo corpus.
type daemon struct {
	cmd         *exec.Cmd
	addr, admin string // from its "gigsd listening" log line
	mu          sync.Mutex
	log         strings.Builder
	exited      chan error
}

// buildGigsd builds the gigsd binary into a temporary directory.
func buildGigsd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gigsd")
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startDaemon starts bin with args and the variables vars added to the environment, and
// waits until it listens.
func startDaemon(t *testing.T, bin string, vars map[string]string, args ...string) *daemon {
	t.Helper()
	d := &daemon{cmd: exec.Command(bin, args...), exited: make(chan error, 1)}
	d.cmd.Env = os.Environ()
	for k, v := range vars {
		d.cmd.Env = append(d.cmd.Env, k+"="+v)
	}
	stderr, err := d.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.cmd.Process.Kill() })
	listening := make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			d.mu.Lock()
			d.log.WriteString(sc.Text() + "\n")
			d.mu.Unlock()
			var l struct {
				Msg, Addr string
				AdminAddr string `json:"admin_addr"`
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "gigsd listening" {
				listening <- [2]string{l.Addr, l.AdminAddr}
			}
		}
		d.exited <- d.cmd.Wait()
	}()
	select {
	case a := <-listening:
		d.addr, d.admin = "http://"+a[0], a[1]
	case err := <-d.exited:
		t.Fatalf("gigsd exited before listening: %v\n%s", err, d.logs())
	case <-time.After(30 * time.Second):
		t.Fatalf("gigsd did not listen:\n%s", d.logs())
	}
	return d
}

func (d *daemon) logs() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.log.String()
}

// waitFor polls until ok or the deadline passes.
func waitFor(t *testing.T, what string, timeout time.Duration, ok func() bool) {
	t.Helper()
	defer func(start time.Time) { t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond)) }(time.Now())
	for deadline := time.Now().Add(timeout); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func getStatus(url string) int {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// demoDaemon serves the demo corpus through a fixture and starts gigsd on it, with a read
// limit its tests' polling never reaches; it returns the daemon and the corpus directory.
func demoDaemon(t *testing.T, args ...string) (*daemon, string) {
	dir := demoCorpus(t)
	vars, _ := demoUpstream(t, dir)
	args = append([]string{"-addr", "127.0.0.1:0", "-admin-addr", "127.0.0.1:0", "-sources", filepath.Join(dir, "sources.json"),
		"-data-dir", filepath.Join(dir, "data"), "-read-limit", "1000000"}, args...)
	d := startDaemon(t, buildGigsd(t), vars, args...)
	// Probes poll the admin listener's /readyz, which no rate limit counts.
	waitFor(t, "gigsd to be ready", 60*time.Second, func() bool { return getStatus("http://"+d.admin+"/readyz") == 200 })
	return d, dir
}

// TestSignals runs the gigsd binary and sends it real signals: SIGHUP reloads the sources
// configuration (a broken file changes nothing); SIGTERM turns /readyz to 503 at once on
// an open connection, the export being read arrives whole, the idle connection is closed
// and gigsd exits 0. (The demo export may fit in the sockets' buffers, so that it is no
// longer in gigsd's hands: TestShutdown holds a request in its handler to prove the wait.)
func TestSignals(t *testing.T) {
	d, dir := demoDaemon(t, "-drain-delay", "1500ms", "-shutdown-timeout", "20s", "-key-sync", "100ms")

	// SIGHUP with a configuration of fewer sources.
	path := filepath.Join(dir, "sources.json")
	var cfg map[string][]json.RawMessage
	raw, _ := os.ReadFile(path)
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["venues"] = cfg["venues"][:10]
	want := len(cfg["platforms"]) + 10
	raw, _ = json.Marshal(cfg)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the reloaded sources in /v1/meta", 60*time.Second, func() bool {
		if strings.Contains(d.logs(), "refresh failed") {
			t.Fatalf("refresh failed after the reload:\n%s", d.logs())
		}
		resp, err := http.Get(d.addr + "/v1/meta")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var m struct {
			Data struct{ Sources []json.RawMessage }
		}
		return json.NewDecoder(resp.Body).Decode(&m) == nil && len(m.Data.Sources) == want
	})
	// A broken configuration changes nothing and is logged.
	if err := os.WriteFile(path, []byte(`{"venues": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = d.cmd.Process.Signal(syscall.SIGHUP)
	waitFor(t, "the reload error in the log", 10*time.Second, func() bool {
		return strings.Contains(d.logs(), "sources not reloaded, keeping the current ones")
	})

	// An idle keep-alive connection, and an export being read slowly.
	key := issueKey(t, filepath.Join(dir, "data"))
	host := strings.TrimPrefix(d.addr, "http://")
	idle, idleR := dialHTTP(t, host)
	if s := roundTrip(t, idle, idleR, "/readyz", ""); s != 200 {
		t.Fatalf("readyz: %d", s)
	}
	var export *http.Response
	waitFor(t, "the new key to be known", 30*time.Second, func() bool {
		c, r := dialHTTP(t, host)
		_ = c.(*net.TCPConn).SetReadBuffer(64 << 10) // the server cannot write the whole export at once
		fmt.Fprintf(c, "GET /v1/gigs/download HTTP/1.1\r\nHost: gigs\r\nX-API-Key: %s\r\n\r\n", key)
		resp, err := http.ReadResponse(r, nil)
		if err != nil || resp.StatusCode != 200 {
			c.Close()
			return false
		}
		export = resp
		return true
	})
	start := time.Now()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "readyz to turn 503 on the open connection", time.Second, func() bool {
		return roundTrip(t, idle, idleR, "/readyz", "") == 503
	})
	if time.Since(start) > time.Second {
		t.Errorf("readyz turned 503 only after %s", time.Since(start))
	}
	time.Sleep(2 * time.Second) // past the drain delay: the server is shutting down, the export in flight
	body, err := io.ReadAll(export.Body)
	if err != nil || int64(len(body)) != export.ContentLength {
		t.Errorf("export in flight: %d of %d bytes, %v", len(body), export.ContentLength, err)
	}
	t.Logf("export read: %s after SIGTERM", time.Since(start).Round(time.Millisecond))
	_ = idle.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := idleR.ReadByte(); err != io.EOF {
		t.Errorf("idle connection: %v, want it closed", err)
	}
	t.Logf("idle closed: %s after SIGTERM", time.Since(start).Round(time.Millisecond))
	select {
	case err := <-d.exited:
		t.Logf("exited: %s after SIGTERM", time.Since(start).Round(time.Millisecond))
		if err != nil {
			t.Errorf("gigsd exited with %v\n%s", err, d.logs())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("gigsd did not exit\n%s", d.logs())
	}
}

func dialHTTP(t *testing.T, host string) (net.Conn, *bufio.Reader) {
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

// roundTrip sends one GET on an open connection and returns the status, 0 on error.
func roundTrip(t *testing.T, c net.Conn, r *bufio.Reader, path, header string) int {
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: gigs\r\n%s\r\n", path, header); err != nil {
		return 0
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestShutdown checks what shutdown promises with a request held in its handler: idle
// keep-alive connections are closed at once, the running request finishes and is answered
// in full, and shutdown returns when it has; a request that outlives the timeout is cut off,
// and shutdown says so.
func TestShutdown(t *testing.T) {
	for _, tt := range []struct {
		name    string
		timeout time.Duration
		release time.Duration // when the held request is let go
		wantErr bool
	}{
		{"in flight finishes", 10 * time.Second, 500 * time.Millisecond, false},
		{"deadline passes", 300 * time.Millisecond, 5 * time.Second, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			release, started := make(chan struct{}), make(chan struct{}, 1)
			srv := &fasthttp.Server{CloseOnShutdown: true, Handler: func(ctx *fasthttp.RequestCtx) {
				if string(ctx.Path()) == "/slow" {
					started <- struct{}{}
					<-release
				}
				ctx.SetBodyString("done")
			}}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = srv.Serve(ln) }()
			host := ln.Addr().String()
			idle, idleR := dialHTTP(t, host)
			if s := roundTrip(t, idle, idleR, "/fast", ""); s != 200 {
				t.Fatalf("fast: %d", s)
			}
			slow, slowR := dialHTTP(t, host)
			fmt.Fprint(slow, "GET /slow HTTP/1.1\r\nHost: gigs\r\n\r\n")
			<-started
			time.AfterFunc(tt.release, func() { close(release) })
			done := make(chan error, 1)
			begin := time.Now()
			go func() { done <- shutdown(srv, tt.timeout) }()

			_ = idle.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := idleR.ReadByte(); err != io.EOF || time.Since(begin) > tt.release {
				t.Errorf("idle connection: %v after %s, want closed before the held request ends", err, time.Since(begin))
			}
			err = <-done
			took := time.Since(begin)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "cut off") || took > 3*time.Second {
					t.Errorf("shutdown: %v after %s, want cut off at the timeout", err, took)
				}
				return
			}
			if err != nil || took < tt.release {
				t.Errorf("shutdown: %v after %s, want nil once the request finished", err, took)
			}
			resp, err := http.ReadResponse(slowR, nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if string(body) != "done" || !resp.Close {
				t.Errorf("the held request: %q, Connection: close %v", body, resp.Close)
			}
		})
	}
}
