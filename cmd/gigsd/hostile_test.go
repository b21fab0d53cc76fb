package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The hostile suite: gigsd, in-process or as its binary, against upstreams that attack it
// and against a machine out of resources. The request-level attacks on the public
// listener are in package server (hostile_test.go), the fetcher's in loader/fetch.

// logBuffer is a log sink safe for concurrent writes.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *logBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// hostileUpstream serves, on 127.0.0.2 (the only network the sources file allows):
//   - /garage.ics, The Garage's own calendar: Wet Leg in ten days;
//   - /evil.html, a venue page whose home is the Evil Bar (two shows there, one titled
//     with a right-to-left override), that also lists Wet Leg at The Garage as cancelled,
//     moved, with its own ticket link;
//   - /bomb.ics, 200 events recurring daily;
//   - /metrics and /metadata, redirects to gigsd's admin /metrics and to cloud metadata.
func hostileUpstream(t *testing.T, admin string) string {
	t.Helper()
	day := func(d int) time.Time {
		return time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, d).Add(20 * time.Hour)
	}
	ics := func(t time.Time) string { return t.Format("20060102T150405Z") }
	jsonld := func(name, venue, status, offer string, at time.Time) string {
		return fmt.Sprintf(`{"@context":"https://schema.org","@type":"MusicEvent","name":%q,"startDate":%q,"eventStatus":"https://schema.org/%s",`+
			`"location":{"@type":"Place","name":%q,"address":{"@type":"PostalAddress","addressLocality":"London","addressCountry":"GB"}}%s}`,
			name, at.Format(time.RFC3339), status, venue, offer)
	}
	var bomb strings.Builder
	bomb.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
	for i := range 200 {
		fmt.Fprintf(&bomb, "BEGIN:VEVENT\r\nUID:r%d\r\nSUMMARY:Residency %d\r\nDTSTART:%s\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\n", i, i, ics(day(2)))
	}
	bomb.WriteString("END:VCALENDAR\r\n")
	pages := map[string]string{
		"/garage.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:wet-leg\r\nSUMMARY:Wet Leg\r\nDTSTART:" + ics(day(10)) +
			"\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
		"/evil.html": `<html><script type="application/ld+json">[` +
			jsonld("Evil Night \u202egnaG", "Evil Bar", "EventScheduled", "", day(11)) + "," +
			jsonld("Evil Matinee", "Evil Bar", "EventScheduled", "", day(12)) + "," +
			jsonld("Wet Leg", "The Garage", "EventCancelled", `,"offers":{"@type":"Offer","url":"https://evil.example/phish","price":"5","priceCurrency":"GBP"}`,
				day(10).Add(time.Hour)) +
			`]</script></html>`,
		"/bomb.ics": bomb.String(),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/metrics":
			http.Redirect(w, r, "http://"+admin+"/metrics", http.StatusFound)
		case "/metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusMovedPermanently)
		default:
			body, ok := pages[r.URL.Path]
			if !ok {
				http.NotFound(w, r)
				return
			}
			io.WriteString(w, body)
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// freeAddr returns a loopback address nothing listens on yet.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestHostileUpstreams runs gigsd on sources that attack it: a redirect into its own
// admin listener and to cloud metadata, a recurrence bomb, and a venue page forging
// another venue's gig with invisible text in its own. Each fails or is contained, and the
// API shows only what the honest sources say.
func TestHostileUpstreams(t *testing.T) {
	admin := freeAddr(t)
	up := hostileUpstream(t, admin)
	dir := t.TempDir()
	sources := fmt.Sprintf(`{
  "allow_networks": ["127.0.0.2/32"],
  "venues": [
    {"name": "venue-garage", "format": "ical", "url": %q, "venue": {"name": "The Garage", "city": "London", "country": "GB"}},
    {"name": "venue-evil", "format": "jsonld", "url": %q},
    {"name": "venue-bomb", "format": "ical", "url": %q, "venue": {"name": "Bomb Hall", "city": "London", "country": "GB"}},
    {"name": "venue-metrics", "format": "jsonld", "url": %q},
    {"name": "venue-metadata", "format": "jsonld", "url": %q}
  ]
}`, up+"/garage.ics", up+"/evil.html", up+"/bomb.ics", up+"/metrics", up+"/metadata")
	if err := os.WriteFile(filepath.Join(dir, "sources.json"), []byte(sources), 0o644); err != nil {
		t.Fatal(err)
	}
	m := demoMain(t, dir, env(nil), "-admin-addr", admin, "-read-limit", "1000")
	var logs logBuffer
	m.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	start(t, m)
	base := "http://" + m.Addr().String()
	// The refresh's report is logged after its snapshot is published: wait for both.
	waitFor(t, "the first snapshot", 60*time.Second, func() bool {
		return getStatus("http://"+admin+"/readyz") == 200 && strings.Contains(logs.String(), `"msg":"refresh published"`)
	})

	failed := map[string]string{}
	for _, line := range strings.Split(logs.String(), "\n") {
		var l struct{ Msg, Source, Err string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "source failed" {
			failed[l.Source] = l.Err
		}
	}
	for src, want := range map[string]string{
		"venue-metrics":  "address not allowed: 127.0.0.1 is loopback",
		"venue-metadata": "address not allowed: 169.254.169.254 is link-local",
		"venue-bomb":     "too many events: more than 2000 (max_events)",
	} {
		if !strings.Contains(failed[src], want) {
			t.Errorf("%s failed with %q, want %q", src, failed[src], want)
		}
	}
	if len(failed) != 3 {
		t.Errorf("failed sources %v", failed)
	}

	status, body := fetchChecked(t, base+"/v1/gigs", nil)
	var page struct {
		Data []struct {
			Title, Status string
			StartsAt      string `json:"starts_at"`
			Venue         struct{ Name string }
			Tickets       []struct{ URL string }
			Sources       []struct{ Name string }
		}
	}
	if err := json.Unmarshal(body, &page); err != nil || status != 200 {
		t.Fatalf("/v1/gigs: %d %v", status, err)
	}
	titles := map[string]bool{}
	for _, g := range page.Data {
		titles[g.Title+" @ "+g.Venue.Name] = true
		if g.Title == "Wet Leg" && (g.Status != "scheduled" || len(g.Tickets) != 0 || len(g.Sources) != 1 || !strings.HasSuffix(g.StartsAt, "T20:00:00+00:00")) {
			t.Errorf("the forged gig spoke: %+v", g)
		}
	}
	for _, want := range []string{"Wet Leg @ The Garage", "Evil Night gnaG @ Evil Bar", "Evil Matinee @ Evil Bar"} {
		if !titles[want] {
			t.Errorf("no gig %q in %v", want, titles)
		}
	}
	if len(page.Data) != 3 {
		t.Errorf("%d gigs, want 3: %v", len(page.Data), titles)
	}
	for _, bad := range []string{"\u202e", "gigs_http_requests_total", "go_goroutines", "evil.example"} {
		if bytes.Contains(body, []byte(bad)) {
			t.Errorf("the API shows %q", bad)
		}
	}
}

// TestBadKeyStoreStopsGigsd starts gigsd on a damaged key store: it stops with an error
// naming the file and does not listen, rather than serve with no keys.
func TestBadKeyStoreStopsGigsd(t *testing.T) {
	dir := demoCorpus(t)
	vars, _ := demoUpstream(t, dir)
	data := filepath.Join(dir, "data")
	issueKey(t, data)
	if err := os.WriteFile(filepath.Join(data, "keys.json"), []byte(`{"version": 1, "keys": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	m := demoMain(t, dir, env(vars), "-log-level", "error")
	err := m.Run(t.Context())
	closeMain(t, m)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(data, "keys.json")) {
		t.Fatalf("Run: %v, want an error naming keys.json", err)
	}
	if m.Addr() != nil {
		t.Error("gigsd listened")
	}
}

// TestOutOfFileDescriptors runs the gigsd binary with 256 file descriptors and holds 400
// idle connections to it: accepts fail with EMFILE, and gigsd backs off, logs it at most
// once a second, counts it, and serves again once the connections go.
func TestOutOfFileDescriptors(t *testing.T) {
	bin := buildGigsd(t)
	dir := demoCorpus(t)
	vars, _ := demoUpstream(t, dir)
	shell := filepath.Join(t.TempDir(), "gigsd-ulimit")
	script := "#!/bin/sh\nulimit -n 256 || exit 3\nexec " + bin + ` "$@"` + "\n"
	if err := os.WriteFile(shell, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// No connection cap below the descriptor limit, so the accepts themselves fail.
	d := startDaemon(t, shell, vars, "-addr", "127.0.0.1:0", "-admin-addr", "127.0.0.1:0", "-sources", filepath.Join(dir, "sources.json"),
		"-data-dir", filepath.Join(dir, "data"), "-max-conns", "10000", "-max-conns-per-client", "-1", "-read-limit", "100000")
	var conns []net.Conn
	for range 400 {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(d.addr, "http://"), time.Second)
		if err != nil {
			break // the listen backlog is full: gigsd stopped accepting, as it should
		}
		conns = append(conns, c)
	}
	time.Sleep(3 * time.Second) // gigsd meets EMFILE, backs off, tries again
	for _, c := range conns {
		c.Close()
	}
	select {
	case err := <-d.exited:
		t.Fatalf("gigsd exited: %v\n%s", err, d.logs())
	default:
	}
	waitFor(t, "gigsd to answer again", 30*time.Second, func() bool { return getStatus(d.addr+"/livez") == 200 })
	logged := strings.Count(d.logs(), `"cannot accept connections, retrying"`)
	if logged < 1 || logged > 5 {
		t.Errorf("accept failures logged %d times in about 3 s; want once a second at most", logged)
	}
	resp, err := http.Get("http://" + d.admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	metrics, _ := io.ReadAll(resp.Body)
	if !bytes.Contains(metrics, []byte("gigs_accept_errors_total ")) || bytes.Contains(metrics, []byte("gigs_accept_errors_total 0\n")) {
		t.Errorf("accept errors not counted:\n%s", grepLines(metrics, "gigs_accept"))
	}
	_ = d.cmd.Process.Signal(os.Interrupt)
	if err := <-d.exited; err != nil {
		t.Errorf("exit after SIGINT: %v\n%s", err, d.logs())
	}
}

func grepLines(b []byte, word string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
