package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/fetch"
	"github.com/gigs/gigs/loader/source"
)

// namedSource yields its events, or fails with err when it is set; safe to change between
// refreshes.
type namedSource struct {
	name   string
	mu     sync.Mutex
	events []source.Event
	err    error
}

func (s *namedSource) Name() string { return s.name }

func (s *namedSource) Fetch(context.Context) (source.Batch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return source.Batch{Events: s.events}, s.err
}

func (s *namedSource) fail(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// TestSourceLogsThrottled runs refreshes an hour apart and checks which lines are logged:
// a failure when it starts, when its error changes, and again once LogEvery has passed; a
// recovery once.
func TestSourceLogsThrottled(t *testing.T) {
	ev := event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")
	ev.Ref = "wet-leg"
	src := &namedSource{name: "venue-garage", events: []source.Event{ev}}
	other := &namedSource{name: "venue-other", events: []source.Event{ev}}
	now := noon
	var logs bytes.Buffer
	l := New(Options{Sources: []Source{{Source: src, Role: RoleVenue}, {Source: other, Role: RoleVenue}}, Live: &engine.Live{},
		Now: func() time.Time { return now }, Logger: slog.New(slog.NewJSONHandler(&logs, nil)), LogEvery: 6 * time.Hour})
	steps := []struct {
		err  error
		want []string // source lines logged for venue-garage, by msg and repeats
	}{
		{nil, nil},
		{errors.New("503 Service Unavailable"), []string{"source failed 0"}},
		{errors.New("503 Service Unavailable"), nil},
		{errors.New("503 Service Unavailable"), nil},
		{errors.New("connection refused"), []string{"source failed 2"}}, // changed: at once
		{errors.New("connection refused"), nil},
		{errors.New("connection refused"), nil},
		{errors.New("read tcp 10.0.0.5:51234: connection reset"), []string{"source failed 2"}},
		{errors.New("read tcp 10.0.0.5:51999: connection reset"), nil}, // the same but for the port
		{errors.New("connection refused"), []string{"source failed 1"}},
		{errors.New("connection refused"), nil},
		{errors.New("connection refused"), nil},
		{errors.New("connection refused"), nil},
		{errors.New("connection refused"), nil},
		{errors.New("connection refused"), nil},
		{errors.New("connection refused"), []string{"source failed 5"}}, // 6 h after it was logged
		{nil, []string{"source recovered 0"}},
		{nil, nil},
	}
	for i, st := range steps {
		src.fail(st.err)
		logs.Reset()
		rep, err := l.RunOnce(t.Context())
		l.logRun(rep, err)
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			var e struct {
				Msg, Source string
				Repeats     int
			}
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatal(err)
			}
			if e.Source == "venue-garage" {
				got = append(got, e.Msg+" "+string(rune('0'+e.Repeats)))
			}
		}
		if strings.Join(got, ";") != strings.Join(st.want, ";") {
			t.Errorf("refresh %d: logged %q, want %q\n%s", i, got, st.want, logs.String())
		}
		now = now.Add(time.Hour)
	}
}

// TestReload checks that Run refreshes at once with reloaded sources, keeps the last good
// events of the sources it keeps, and reports each source's last success.
func TestReload(t *testing.T) {
	ev := event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")
	ev.Ref = "wet-leg"
	ev2 := event("Fontaines D.C.", "Roundhouse", "London", "GB", "2026-12-06T20:00")
	ev2.Ref = "fdc"
	a := &namedSource{name: "a", events: []source.Event{ev}}
	b := &namedSource{name: "b", events: []source.Event{ev2}}
	now := noon
	var mu sync.Mutex
	reports := make(chan Report, 4)
	live := &engine.Live{}
	l := New(Options{Sources: []Source{{Source: a, Role: RoleVenue}}, Live: live,
		Now:    func() time.Time { mu.Lock(); defer mu.Unlock(); return now },
		Logger: slog.New(slog.DiscardHandler), OnRun: func(r Report, _ error) { reports <- r }})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go l.Run(ctx)
	next := func() Report {
		select {
		case r := <-reports:
			return r
		case <-time.After(10 * time.Second):
			t.Fatal("no refresh")
		}
		return Report{}
	}
	first := next()
	if len(first.Sources) != 1 || !first.Sources[0].LastSuccess.Equal(noon) {
		t.Fatalf("first refresh: %+v", first.Sources)
	}
	mu.Lock()
	now = noon.Add(time.Hour)
	mu.Unlock()
	a.fail(errors.New("down"))
	l.Reload([]Source{{Source: a, Role: RoleVenue}, {Source: b, Role: RoleVenue}}) // long before the hourly refresh
	rep := next()
	if len(rep.Sources) == 1 {
		// Run may have timed its next refresh after the clock moved an hour (its jitter
		// then fires it at once), before the reload: the refresh after it has both.
		rep = next()
	}
	if len(rep.Sources) != 2 || rep.Gigs != 2 {
		t.Fatalf("after reload: %d sources, %d gigs", len(rep.Sources), rep.Gigs)
	}
	if sa := rep.Sources[0]; !sa.Stale || !sa.LastSuccess.Equal(noon) || sa.Events != 1 {
		t.Errorf("failing source kept: %+v, want stale with its last success at noon", sa)
	}
	if sb := rep.Sources[1]; sb.Err != nil || !sb.LastSuccess.Equal(noon.Add(time.Hour)) {
		t.Errorf("new source: %+v", sb)
	}
	meta := string(live.Load().AppendMeta(nil, time.Time{}))
	if !strings.Contains(meta, `{"name":"a","ok":false,"events":1,"stale":true,"last_success_at":"2026-`) ||
		!strings.Contains(meta, `{"name":"b","ok":true,"events":1,"stale":false,"last_success_at":"2026-`) {
		t.Errorf("meta: %s", meta)
	}
}

// TestReloadNewestWins reloads twice before Run takes the sources: the newer set is used,
// in a refresh right after the first.
func TestReloadNewestWins(t *testing.T) {
	ev := event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")
	ev.Ref = "wet-leg"
	a := &namedSource{name: "a", events: []source.Event{ev}}
	b := &namedSource{name: "b", events: []source.Event{ev}}
	reports := make(chan Report, 4)
	l := New(Options{Sources: []Source{{Source: a, Role: RoleVenue}}, Live: &engine.Live{}, Now: func() time.Time { return noon },
		Logger: slog.New(slog.DiscardHandler), OnRun: func(r Report, _ error) { reports <- r }})
	l.Reload([]Source{{Source: b, Role: RoleVenue}})
	l.Reload([]Source{{Source: a, Role: RoleVenue}, {Source: b, Role: RoleVenue}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go l.Run(ctx)
	var names []string
	for range 2 {
		select {
		case r := <-reports:
			var n []string
			for _, s := range r.Sources {
				n = append(n, s.Name)
			}
			names = append(names, strings.Join(n, "+"))
		case <-time.After(10 * time.Second):
			t.Fatalf("refreshes: %v", names)
		}
	}
	if strings.Join(names, " ") != "a a+b" {
		t.Errorf("refreshes used %v, want [a a+b]", names)
	}
}

// TestLastErrorOutlivesRecovery checks /v1/meta's per-source last error and drops: the
// failure shows while it lasts and after the source recovers, its message cut to hosts.
func TestLastErrorOutlivesRecovery(t *testing.T) {
	ev := event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")
	ev.Ref = "wet-leg"
	sport := event("Leeds v Wigan", "Headingley", "Leeds", "GB", "2026-12-06T19:45")
	sport.Ref, sport.Kinds = "match", []string{"SportsEvent"}
	src := &namedSource{name: "venue-garage", events: []source.Event{ev, sport}}
	now := noon
	live := &engine.Live{}
	l := New(Options{Sources: []Source{{Source: src, Role: RoleVenue}}, Live: live, Now: func() time.Time { return now }})
	meta := func() map[string]any {
		var m struct {
			Data struct{ Sources []map[string]any }
		}
		if err := json.Unmarshal(live.Load().AppendMeta(nil, time.Time{}), &m); err != nil || len(m.Data.Sources) != 1 {
			t.Fatalf("meta: %v %+v", err, m)
		}
		return m.Data.Sources[0]
	}
	if _, err := l.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s := meta(); s["dropped"] != 1.0 || s["dropped_by_reason"].(map[string]any)["not_music"] != 1.0 || s["last_error"] != nil {
		t.Errorf("first refresh: %v", s)
	}
	src.fail(errors.New(`cannot fetch "https://thegarage.example/whats-on?key=1": status 503`))
	now = now.Add(time.Hour)
	_, _ = l.RunOnce(context.Background())
	failedAt := now
	src.fail(nil)
	now = now.Add(time.Hour)
	if _, err := l.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := meta()
	last, _ := s["last_error"].(map[string]any)
	if s["ok"] != true || last == nil || last["message"] != `cannot fetch "https://thegarage.example/…": status 503` ||
		last["at"] != failedAt.UTC().Format(time.RFC3339) {
		t.Errorf("after recovery: %v", s)
	}
}

// hangSource never answers, and asks no fetch client for anything (as a file's would).
type hangSource struct{}

func (hangSource) Name() string { return "venue-idle" }

func (hangSource) Fetch(ctx context.Context) (source.Batch, error) {
	<-ctx.Done()
	return source.Batch{}, ctx.Err()
}

// TestSourceTimeout serves four feeds on one host whose robots.txt asks for a second
// between requests, each redirected once: three answer at once, one never; a fifth source
// asks no host for anything and never answers. The two that never answer fail on their own,
// saying so, once they have spent their Timeout; the three others succeed though their turns
// at the host (the redirect's included, and the wait for another source's read of robots.txt
// once it expired) came seconds apart. A clock started when a source
// was queued, or at its first request, failed healthy feeds sharing a host; one started at
// the first request never ran for a source that made none (reviews of this stop).
func TestSourceTimeout(t *testing.T) {
	const feed = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:%s\r\n" +
		"DTSTART:20261205T200000Z\r\nSUMMARY:%s\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 1\n")
		case strings.HasSuffix(r.URL.Path, ".ics"):
			http.Redirect(w, r, strings.TrimSuffix(r.URL.Path, ".ics")+"/", http.StatusMovedPermanently)
		case r.URL.Path == "/hang/":
			<-r.Context().Done()
		default:
			w.Header().Set("Content-Type", "text/calendar")
			fmt.Fprintf(w, feed, r.URL.Path, "Act "+r.URL.Path)
		}
	}))
	defer srv.Close()
	client := fetch.New(fetch.Options{Contact: "ops@gigs.example", Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		Timeout: time.Minute, Retries: -1, RobotsTTL: 2 * time.Second}) // robots.txt expires while they queue
	defer client.CloseIdleConnections()
	cfg := &Config{}
	for _, name := range []string{"a", "b", "c", "hang"} {
		cfg.Venues = append(cfg.Venues, VenueConfig{Name: "venue-" + name, Format: "ical", URL: srv.URL + "/" + name + ".ics",
			Venue: &VenueHint{Name: "Hall " + name, City: "London", Country: "GB"}})
	}
	srcs, err := Sources(cfg, client, func(string) string { return "" }, func() time.Time { return noon })
	if err != nil {
		t.Fatal(err)
	}
	srcs = append(srcs, Source{Source: hangSource{}, Role: RoleVenue})
	for i := range srcs {
		srcs[i].Timeout = 1500 * time.Millisecond
	}
	l := New(Options{Sources: srcs, Live: &engine.Live{}, Now: func() time.Time { return noon }, Deadline: time.Minute})
	start := time.Now()
	rep, err := l.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the refresh took %v", took)
	}
	for _, sr := range rep.Sources {
		hangs := sr.Name == "venue-hang" || sr.Name == "venue-idle"
		switch {
		case hangs && (sr.Err == nil || !strings.Contains(sr.Err.Error(), "over its time budget: fetching took longer than 1.5s (its timeout")):
			t.Errorf("%s: %v", sr.Name, sr.Err)
		case !hangs && (sr.Err != nil || sr.Events != 1):
			t.Errorf("%s: %v, %d events", sr.Name, sr.Err, sr.Events)
		}
	}
}

// TestBudgetStopsForGood: a request that ends its wait after its fetch is done (stop) does
// not start the clock again (a review's case: the timer outlived the fetch).
func TestBudgetStopsForGood(t *testing.T) {
	_, b := newBudget(context.Background(), 50*time.Millisecond)
	b.Waiting()
	b.stop()
	b.Started()
	time.Sleep(150 * time.Millisecond)
	b.mu.Lock()
	restarted := b.timer != nil
	b.mu.Unlock()
	if restarted || b.Spent() {
		t.Errorf("after stop: clock restarted %v, spent %v", restarted, b.Spent())
	}
}
