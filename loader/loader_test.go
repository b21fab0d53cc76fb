package loader

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// staticSource yields the same events, or fails, on every fetch.
type staticSource struct {
	events []source.Event
	err    error
}

func (s staticSource) Name() string { return "static" }

func (s staticSource) Fetch(context.Context) (source.Batch, error) {
	return source.Batch{Events: s.events}, s.err
}

// TestRunSchedulesRefreshes checks the time Run announces for the next refresh: the
// interval after a published refresh, the retry time after a failed one, each within the
// jitter, announced before OnRun runs (a publisher tells its followers then).
func TestRunSchedulesRefreshes(t *testing.T) {
	ev := event("Wet Leg", "The Garage", "London", "GB", "2026-12-05T20:00")
	ev.Ref = "wet-leg"
	tests := []struct {
		name string
		src  staticSource
		want time.Duration
	}{
		{"published", staticSource{events: []source.Event{ev}}, time.Hour},
		{"failed", staticSource{err: errors.New("down")}, 5 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := &engine.Live{}
			var atRun time.Time // the next refresh as OnRun finds it
			l := New(Options{Sources: []Source{{Source: tt.src, Role: RoleVenue}}, Live: live, Now: func() time.Time { return noon },
				Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), OnRun: func(Report, error) { atRun = live.NextRefresh() }})
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{})
			go func() { defer close(done); l.Run(ctx) }()
			for deadline := time.Now().Add(10 * time.Second); live.NextRefresh().IsZero(); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("Run announced no next refresh")
				}
			}
			cancel()
			<-done
			wait := live.NextRefresh().Sub(noon)
			if lo, hi := tt.want*9/10, tt.want*11/10; wait < lo || wait > hi {
				t.Errorf("next refresh in %s, want %s ±10%%", wait, tt.want)
			}
			if !atRun.Equal(live.NextRefresh()) {
				t.Errorf("OnRun found the next refresh at %s, want %s", atRun, live.NextRefresh())
			}
			if published := live.Load() != nil; published != (tt.src.err == nil) {
				t.Errorf("published %v", published)
			}
		})
	}
}
