package loader

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// TestMBIDMerging: the sources that list an act may state its MusicBrainz id, or not, or
// disagree. The MBID most sources state wins (a source counted once, however many of its
// records state it), then the one the source first by name states; every disagreement is
// logged with what each source stated; acts of other names never take another's.
func TestMBIDMerging(t *testing.T) {
	const (
		a = "aaaaaaaa-0000-4000-8000-000000000000"
		b = "bbbbbbbb-0000-4000-8000-000000000000"
		c = "cccccccc-0000-4000-8000-000000000000"
	)
	type stated struct{ source, mbid string } // one record of the act, at its own show
	for _, tt := range []struct {
		name   string
		states []stated
		want   string
		logged bool
	}{
		{"none", []stated{{"venue-x", ""}, {"songkick", ""}}, "", false},
		{"one source", []stated{{"venue-x", ""}, {"songkick", a}}, a, false},
		{"agreeing", []stated{{"bandsintown", a}, {"songkick", a}, {"venue-x", ""}}, a, false},
		{"most sources", []stated{{"bandsintown", b}, {"songkick", a}, {"venue-x", a}}, a, true},
		{"records of one source count once", []stated{{"bandsintown", b}, {"bandsintown", b}, {"bandsintown", b}, {"songkick", a}, {"venue-x", a}}, a, true},
		{"a tie: the first source by name", []stated{{"songkick", a}, {"bandsintown", b}}, b, true},
		{"three ways", []stated{{"venue-y", c}, {"songkick", a}, {"bandsintown", b}, {"venue-x", c}}, c, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			n := newNormalizer(noon, len(tt.states)+1)
			n.log = slog.New(slog.NewTextHandler(&logs, nil))
			var srcs []string
			for i, s := range tt.states {
				ev := event("Night Owls", "Hall "+fmt.Sprint(i), "Berlin", "DE", fmt.Sprintf("2026-12-%02dT20:00", i+1))
				ev.Source, ev.Ref = s.source, fmt.Sprint(i)
				ev.Performers = []source.Performer{{Name: "Night Owls", MBID: s.mbid}}
				if !strings.HasPrefix(s.source, "venue") {
					ev.Performers = append(ev.Performers, source.Performer{Name: "Support " + s.source, MBID: c})
				}
				k := len(srcs)
				for j, x := range srcs {
					if x == s.source {
						k = j
					}
				}
				if k == len(srcs) {
					srcs = append(srcs, s.source)
				}
				if err := n.add(&ev, k, RolePlatform); err != nil {
					t.Fatal(err)
				}
			}
			other := event("Day Larks", "Hall 9", "Berlin", "DE", "2026-12-20T20:00")
			other.Ref = "other"
			if err := n.add(&other, 0, RoleVenue); err != nil {
				t.Fatal(err)
			}
			ds := n.dataset(NewIDStore().begin(), n.clusters())
			mbids := map[string]string{}
			for _, ar := range ds.Artists {
				mbids[ar.Name] = ar.MBID
			}
			if mbids["Night Owls"] != tt.want || mbids["Day Larks"] != "" {
				t.Errorf("MBIDs %v, want Night Owls' %q", mbids, tt.want)
			}
			if got := strings.Contains(logs.String(), "different MusicBrainz ids"); got != tt.logged {
				t.Errorf("logged %v, want %v: %s", got, tt.logged, logs.String())
			}
			if tt.logged && !strings.Contains(logs.String(), "kept="+tt.want) {
				t.Errorf("the log does not say what was kept: %s", logs.String())
			}
			if _, err := engine.Build(&ds, engine.Options{Now: noon}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
