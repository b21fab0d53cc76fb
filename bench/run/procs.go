package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// process is a server the bench started, pinned to one CPU.
type process struct {
	cpu    int
	name   string
	args   []string
	cmd    *exec.Cmd
	mu     sync.Mutex
	logs   []map[string]any // its JSON log lines
	exited chan error
	ended  sync.Once // stop or kill
}

// freeAddr returns a loopback address with a port free right now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// start runs name with args pinned to cpu, collecting its JSON log lines from stderr, and
// waits until url answers 200 (within wait).
func start(ctx context.Context, cpu int, url string, wait time.Duration, name string, args ...string) (*process, error) {
	p := &process{cpu: cpu, name: name, args: args, exited: make(chan error, 1),
		cmd: exec.CommandContext(ctx, "taskset", append([]string{"-c", strconv.Itoa(cpu), name}, args...)...)}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				p.mu.Lock()
				p.logs = append(p.logs, line)
				p.mu.Unlock()
			}
		}
		p.exited <- p.cmd.Wait()
	}()
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		if status, _, _ := get(url, nil); status == 200 {
			return p, nil
		}
		select {
		case err := <-p.exited:
			return nil, fmt.Errorf("%s exited before it was ready: %v", name, err)
		default:
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("%s not ready at %s after %s", name, url, wait)
		}
	}
}

// logged waits up to wait for a log line whose msg is msg and returns the first one; nil
// when none came.
func (p *process) logged(msg string, wait time.Duration) map[string]any {
	return p.nthLogged(msg, 1, wait)
}

// nthLogged waits up to wait for the nth log line (from 1) whose msg is msg and returns
// it; nil when it did not come.
func (p *process) nthLogged(msg string, nth int, wait time.Duration) map[string]any {
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		p.mu.Lock()
		seen := 0
		for _, l := range p.logs {
			if l["msg"] == msg {
				if seen++; seen == nth {
					p.mu.Unlock()
					return l
				}
			}
		}
		p.mu.Unlock()
		if time.Now().After(deadline) {
			return nil
		}
	}
}

// rss returns the process's resident and peak resident memory, in bytes.
func (p *process) rss() (cur, peak int64, err error) {
	// taskset execs the server: the pid is the server's.
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			cur = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return cur, peak, nil
}

// restart starts p's command again once p has ended, and returns the new process and the
// time from its start until url answered 200.
func (p *process) restart(ctx context.Context, url string, wait time.Duration) (*process, time.Duration, error) {
	began := time.Now()
	q, err := start(ctx, p.cpu, url, wait, p.name, p.args...)
	return q, time.Since(began), err
}

// kill ends the process at once, as a crash would, and waits for it.
func (p *process) kill() {
	p.ended.Do(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
}

// stop ends the process and waits for it; once ended, a process is not stopped again.
func (p *process) stop() {
	p.ended.Do(func() {
		_ = p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(30 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
}

// get fetches url with headers, returning the status, body and headers.
func get(url string, header map[string]string) (int, []byte, http.Header) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return 0, nil, nil
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body, resp.Header
}

// client asks for nothing it does not say: no gzip unless a header asks for it.
var client = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 5 * time.Minute}
