// Command soak runs gigsd for a while under a mixed load, with a refresh every minute and
// hostile upstreams among its sources, and fails when it does not hold steady (make soak).
//
// The sources are the demo corpus (make demo), served by the fixture server, and three
// hostile upstreams on the same listener:
//
//   - soak-forever: a continuation platform that pages forever, one new event and a new
//     token a page (its timeout in the sources file is 20s, so a refresh fits a minute);
//   - soak-trickle: a venue page that sends a byte a second and never ends;
//   - soak-bomb: a venue page of 256 MiB of zeros gzipped to a quarter of a megabyte.
//
// The load, from the first refresh on: reads (gig lists, a gig, a venue, an artist, the
// directories, meta), an export with an API key every 10 s, change-feed polls following the
// export's cursor, and bad requests (a bad parameter, an unknown route, a forged cursor, a
// header line with a space in its name). Every 10 s it samples gigsd's resident memory
// (/proc), goroutines and 5xx answers (the admin listener's /metrics) and the refreshes
// (gigsd's log), into OUT/samples.tsv and on stdout.
//
// It fails when, compared with the time between the first and second refresh (see judge):
// resident memory's level or peak grows more than 10%, goroutines grow (by more than a
// margin for idle upstream connections), any answer is a 5xx or none at all, or a refresh
// neither published nor was refused with a reason (a refresh that logs neither in time
// counts as such).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gigs/gigs/testkit/emulator"
	"github.com/gigs/gigs/testkit/fixture"
)

func main() {
	gigsd := flag.String("gigsd", "bin/gigsd", "the gigsd binary")
	gigsctl := flag.String("gigsctl", "bin/gigsctl", "the gigsctl binary (to make an API key)")
	demo := flag.String("demo", "var/demo", "the demo corpus (make demo)")
	out := flag.String("out", "var/soak", "where the sources file, data, gigsd's log and the samples go")
	refresh := flag.Duration("refresh", time.Minute, "gigsd's -refresh")
	every := flag.Duration("sample", 10*time.Second, "time between samples")
	flag.Parse()
	duration := 10 * time.Minute
	if v := os.Getenv("SOAK_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			fmt.Fprintf(os.Stderr, "soak: SOAK_DURATION %q: want a duration of a minute or more\n", v)
			os.Exit(2)
		}
		duration = d
	}
	s := &soak{gigsd: *gigsd, gigsctl: *gigsctl, demo: *demo, out: *out, refresh: *refresh, every: *every, duration: duration}
	failures, err := s.run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if len(failures) > 0 {
		for _, f := range failures {
			fmt.Println("FAIL:", f)
		}
		os.Exit(1)
	}
	fmt.Println("PASS")
}

type soak struct {
	gigsd, gigsctl, demo, out string
	refresh, every, duration  time.Duration

	api, admin string // base URLs of gigsd's listeners
	key        string // an API key for exports

	refreshes refreshLog
	load      loadCounts
}

// sample is one look at gigsd.
type sample struct {
	at         time.Duration // since the load started
	rss, hwm   int64         // resident bytes, now and at their peak so far (VmRSS, VmHWM)
	goroutines int
	server5xx  int // gigs_http_requests_total with a 5xx code, all together
	published  int // refreshes published so far
	refused    int // refreshes refused, with a reason, so far
}

func (s *soak) run() ([]string, error) {
	if err := os.RemoveAll(s.out); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(s.out, "data"), 0o755); err != nil {
		return nil, err
	}
	fx, env, err := fixture.OpenDemo(s.demo, fixture.Options{})
	if err != nil {
		return nil, fmt.Errorf("the demo corpus (make demo): %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: hostile(fx), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()

	if err := s.writeSources(); err != nil {
		return nil, err
	}
	if s.key, err = s.makeKey(); err != nil {
		return nil, err
	}
	apiAddr, adminAddr := freeAddr(), freeAddr()
	s.api, s.admin = "http://"+apiAddr, "http://"+adminAddr
	cmd := exec.Command(s.gigsd, "-sources", filepath.Join(s.out, "sources.json"), "-data-dir", filepath.Join(s.out, "data"),
		"-addr", apiAddr, "-admin-addr", adminAddr, "-refresh", s.refresh.String(), "-retry", s.refresh.String(),
		"-read-limit", "100000000", "-export-limit", "100000", "-contact", "soak@gigs.example")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM} // gigsd ends with the soak, however it ends
	cmd.Env = append(os.Environ(), "GIGS_FETCH_PROXY=http://"+ln.Addr().String(), "SOAK_FOREVER_KEY=soak")
	for _, k := range slices.Sorted(maps.Keys(env)) {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	logFile, err := os.Create(filepath.Join(s.out, "gigsd.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		s.refreshes.read(io.TeeReader(stderr, logFile))
	}()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		<-logged
		cmd.Wait()
	}()

	fmt.Printf("soak: gigsd on %s (admin %s), upstreams on %s, for %v after the first refresh\n", s.api, s.admin, ln.Addr(), s.duration)
	if err := s.refreshes.waitFirst(5 * time.Minute); err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	s.startLoad(ctx, &wg)
	samples, failures := s.watch(cmd.Process.Pid)
	stop()
	wg.Wait()
	if err := s.writeSamples(samples); err != nil {
		return nil, err
	}
	return append(failures, s.judge(samples)...), nil
}

// watch samples gigsd every s.every for s.duration, printing each sample.
func (s *soak) watch(pid int) ([]sample, []string) {
	start := time.Now()
	var samples []sample
	var failures []string
	fmt.Println("t\trss_mib\tpeak_mib\tgoroutines\tserver_5xx\tclient_5xx\trequests\tpublished\trefused")
	for {
		time.Sleep(s.every)
		sm, err := s.sample(pid)
		if err != nil {
			failures = append(failures, err.Error())
			return samples, failures
		}
		sm.at = time.Since(start).Round(time.Second)
		samples = append(samples, sm)
		fmt.Printf("%v\t%.1f\t%.1f\t%d\t%d\t%d\t%d\t%d\t%d\n", sm.at, mib(sm.rss), mib(sm.hwm), sm.goroutines, sm.server5xx,
			s.load.status5xx.Load(), s.load.requests.Load(), sm.published, sm.refused)
		if time.Since(start) >= s.duration {
			return samples, failures
		}
	}
}

func (s *soak) sample(pid int) (sample, error) {
	var sm sample
	var err error
	if sm.rss, sm.hwm, err = rss(pid); err != nil {
		return sm, fmt.Errorf("gigsd is gone: %w", err)
	}
	resp, err := http.Get(s.admin + "/metrics")
	if err != nil {
		return sm, fmt.Errorf("metrics: %w", err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		name, value, ok := metricLine(line)
		switch {
		case !ok:
		case name == "go_goroutines":
			sm.goroutines = int(value)
		case strings.HasPrefix(name, "gigs_http_requests_total{") && code5xx.MatchString(name):
			sm.server5xx += int(value)
		}
	}
	sm.published, sm.refused = s.refreshes.counts()
	return sm, sc.Err()
}

var code5xx = regexp.MustCompile(`code="5\d\d"`)

// metricLine splits a line of the Prometheus text format into its series and value.
func metricLine(line string) (string, float64, bool) {
	if strings.HasPrefix(line, "#") {
		return "", 0, false
	}
	i := strings.LastIndexByte(line, ' ')
	if i < 0 {
		return "", 0, false
	}
	v, err := strconv.ParseFloat(line[i+1:], 64)
	return line[:i], v, err == nil
}

// judge applies the soak's rules to the samples; see the package comment. Memory and
// goroutines rise while a refresh fetches and builds (two snapshots live until the old one
// is let go), so they are compared cycle by cycle: a cycle is the samples between two
// refreshes published, its level their median. Every later cycle's RSS level may pass the
// level after the first refresh by 10%; the peak (VmHWM) at the end may pass the peak once
// the second refresh, the first built beside a snapshot served, published, by 10%. The
// goroutine level may pass the level after the second refresh by goroutineMargin: the
// upstream connections a refresh leaves idle for 90 s (two goroutines each, up to one per
// source fetched at once) make it vary, and the first refresh leaves fewer.
func (s *soak) judge(samples []sample) []string {
	var failures []string
	cycles := map[int][]sample{}
	for _, sm := range samples {
		cycles[sm.published] = append(cycles[sm.published], sm)
	}
	first, ok := cycles[1]
	if !ok || len(cycles[2]) == 0 {
		return []string{"the load saw fewer than two refreshes published: run it for longer"}
	}
	last := samples[len(samples)-1]
	// The first refresh built with no snapshot before it; the second is the first to build
	// beside one served, as every later refresh does: its peak is the first of its kind.
	firstPeak := cycles[2][0].hwm
	baseRSS := median(first, func(sm sample) int64 { return sm.rss })
	baseG := median(cycles[2], func(sm sample) int64 { return int64(sm.goroutines) })
	fmt.Printf("after refresh 1: rss level %.1f MiB, goroutine level %d\n", mib(baseRSS), median(first, func(sm sample) int64 { return int64(sm.goroutines) }))
	for _, k := range slices.Sorted(maps.Keys(cycles)) {
		c := cycles[k]
		if k < 2 || len(c) < 3 {
			continue // before the first refresh ended, or too short a cycle to have a level
		}
		lvl, g := median(c, func(sm sample) int64 { return sm.rss }), median(c, func(sm sample) int64 { return int64(sm.goroutines) })
		fmt.Printf("after refresh %d: rss level %.1f MiB (%+.1f%%), goroutine level %d\n", k, mib(lvl), 100*(float64(lvl)/float64(baseRSS)-1), g)
		if float64(lvl) > 1.10*float64(baseRSS) {
			failures = append(failures, fmt.Sprintf("rss level %.1f MiB after refresh %d, more than 10%% over %.1f MiB after the first", mib(lvl), k, mib(baseRSS)))
		}
		if g > baseG+goroutineMargin {
			failures = append(failures, fmt.Sprintf("goroutine level %d after refresh %d, up from %d after the second", g, k, baseG))
		}
	}
	fmt.Printf("rss peak: %.1f MiB after refresh 2, %.1f MiB at the end (%+.1f%%)\n", mib(firstPeak), mib(last.hwm), 100*(float64(last.hwm)/float64(firstPeak)-1))
	if float64(last.hwm) > 1.10*float64(firstPeak) {
		failures = append(failures, fmt.Sprintf("rss peak %.1f MiB, more than 10%% over %.1f MiB after the second refresh", mib(last.hwm), mib(firstPeak)))
	}
	fmt.Printf("load: %d requests, %d 5xx seen by clients, %d transport errors, %d exports, %d change polls, %d bad requests\n",
		s.load.requests.Load(), s.load.status5xx.Load(), s.load.errors.Load(), s.load.exports.Load(), s.load.polls.Load(), s.load.bad.Load())
	fmt.Printf("refreshes: %d published, %d refused with a reason\n", last.published, last.refused)
	if last.server5xx > 0 || s.load.status5xx.Load() > 0 {
		failures = append(failures, fmt.Sprintf("%d 5xx answers counted by gigsd, %d seen by clients", last.server5xx, s.load.status5xx.Load()))
	}
	if n := s.load.errors.Load(); n > 0 {
		failures = append(failures, fmt.Sprintf("%d requests failed without an answer", n))
	}
	if s.load.exports.Load() == 0 || s.load.polls.Load() == 0 {
		failures = append(failures, "no export or no change-feed poll succeeded")
	}
	return append(failures, s.refreshes.problems(s.refresh)...)
}

// goroutineMargin is how far the goroutine level may vary between cycles: 16 idle
// upstream connections, a quarter of the 64 sources fetched at once.
const goroutineMargin = 32

// median is the median of f over samples.
func median(samples []sample, f func(sample) int64) int64 {
	v := make([]int64, len(samples))
	for i, sm := range samples {
		v[i] = f(sm)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func (s *soak) writeSamples(samples []sample) error {
	var b bytes.Buffer
	b.WriteString("seconds\trss_bytes\tpeak_rss_bytes\tgoroutines\tserver_5xx\tpublished\trefused\n")
	for _, sm := range samples {
		fmt.Fprintf(&b, "%d\t%d\t%d\t%d\t%d\t%d\t%d\n", int(sm.at.Seconds()), sm.rss, sm.hwm, sm.goroutines, sm.server5xx, sm.published, sm.refused)
	}
	return os.WriteFile(filepath.Join(s.out, "samples.tsv"), b.Bytes(), 0o644)
}

// writeSources writes OUT/sources.json: the demo's sources and the hostile ones.
func (s *soak) writeSources() error {
	var cfg map[string]any
	data, err := os.ReadFile(filepath.Join(s.demo, "sources.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return err
	}
	platforms, _ := cfg["platforms"].([]any)
	venues, _ := cfg["venues"].([]any)
	cfg["platforms"] = append(platforms, map[string]any{"name": "soak-forever", "kind": "continuation",
		"url": "http://" + foreverHost + "/v3/events", "credential_env": "SOAK_FOREVER_KEY", "timeout": "20s"})
	hint := map[string]any{"name": "Soak Hall", "city": "London", "country": "GB"}
	cfg["venues"] = append(venues,
		map[string]any{"name": "soak-trickle", "format": "jsonld", "url": "http://" + trickleHost + "/", "venue": hint, "timeout": "20s"},
		map[string]any{"name": "soak-bomb", "format": "jsonld", "url": "http://" + bombHost + "/", "venue": hint})
	out, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.out, "sources.json"), out, 0o644)
}

// makeKey makes an API key in OUT/data with gigsctl.
func (s *soak) makeKey() (string, error) {
	out, err := exec.Command(s.gigsctl, "keys", "create", "-owner", "soak@gigs.example", "-use", "soak exports",
		"-data-dir", filepath.Join(s.out, "data")).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("gigsctl keys create: %v: %s", err, out)
	}
	for line := range strings.Lines(string(out)) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "gigs_") {
			return l, nil
		}
	}
	return "", fmt.Errorf("gigsctl keys create printed no key: %s", out)
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// rss is a process's resident memory and its peak, from /proc.
func rss(pid int) (cur, peak int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for line := range strings.Lines(string(data)) {
		name, rest, _ := strings.Cut(line, ":")
		kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		switch name {
		case "VmRSS":
			cur = kb << 10
		case "VmHWM":
			peak = kb << 10
		}
	}
	if cur == 0 || peak == 0 {
		return 0, 0, errors.New("no VmRSS or VmHWM")
	}
	return cur, peak, nil
}

// refreshLog follows gigsd's log for the outcome of each refresh.
type refreshLog struct {
	mu        sync.Mutex
	published []time.Time
	refused   []string // each refused refresh's reason ("" when it logged none)
	last      time.Time
	first     chan struct{}
	firstOnce sync.Once
}

func (r *refreshLog) read(rd io.Reader) {
	r.mu.Lock()
	if r.first == nil {
		r.first = make(chan struct{})
	}
	r.mu.Unlock()
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var l struct {
			Msg string `json:"msg"`
			Err string `json:"err"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		r.mu.Lock()
		switch {
		case l.Msg == "refresh published":
			r.published = append(r.published, time.Now())
		case strings.HasPrefix(l.Msg, "refresh failed"):
			r.refused = append(r.refused, l.Err)
		default:
			r.mu.Unlock()
			continue
		}
		r.last = time.Now()
		r.mu.Unlock()
		r.firstOnce.Do(func() { close(r.first) })
	}
}

func (r *refreshLog) waitFirst(limit time.Duration) error {
	for {
		r.mu.Lock()
		ch := r.first
		r.mu.Unlock()
		if ch != nil {
			select {
			case <-ch:
				return nil
			case <-time.After(limit):
				return fmt.Errorf("no refresh ended within %v", limit)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (r *refreshLog) counts() (published, refused int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.published), len(r.refused)
}

// problems are the refreshes that neither published nor were refused with a reason: a
// refusal without one, and a refresh overdue (none ended for the interval, its jitter and
// the longest a refresh may fetch, its sources' budgets of two minutes).
func (r *refreshLog) problems(interval time.Duration) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for i, reason := range r.refused {
		if reason == "" {
			out = append(out, fmt.Sprintf("refused refresh %d gave no reason", i+1))
		}
	}
	if overdue := time.Duration(1.1*float64(interval)) + 2*time.Minute + 30*time.Second; time.Since(r.last) > overdue {
		out = append(out, fmt.Sprintf("no refresh ended for %v", time.Since(r.last).Round(time.Second)))
	}
	return out
}

// Hosts of the hostile upstreams, served beside the demo's.
const (
	foreverHost = "api.forever.soak.test"
	trickleHost = "www.trickle.soak.test"
	bombHost    = "www.bomb.soak.test"
)

// hostile serves the hostile upstreams by host, and the demo fixture every other host.
func hostile(fx http.Handler) http.Handler {
	var endless emulator.Endless
	bomb := gzipBomb(256 << 20)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		switch strings.ToLower(host) {
		case foreverHost:
			endless.ServeHTTP(w, r)
		case trickleHost:
			if r.URL.Path == "/robots.txt" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><head>")
			for {
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(time.Second):
				}
				if _, err := io.WriteString(w, " "); err != nil {
					return
				}
			}
		case bombHost:
			if r.URL.Path == "/robots.txt" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		default:
			fx.ServeHTTP(w, r)
		}
	})
}

// gzipBomb is n zero bytes, gzipped.
func gzipBomb(n int) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range n >> 20 {
		zw.Write(zero)
	}
	zw.Close()
	return b.Bytes()
}
