package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
)

// TestChangesCursorAhead asks a follower and its publisher, on real listeners, for the
// changes after cursors ahead of their data: no client input is a 5xx. On the follower a
// cursor a refresh ahead (a replica behind its peers) is no changes yet, keeping the
// client's cursor; one further than any refresh reaches is a 400 naming since, on both.
func TestChangesCursorAhead(t *testing.T) {
	dir := t.TempDir()
	dataset, bucket := filepath.Join(dir, "dataset"), filepath.Join(dir, "bucket")
	writeDataset(t, dataset, 200)
	pub := replicaMain(t, "-dataset", dataset, "-publish", bucket, "-data-dir", filepath.Join(dir, "publisher"))
	waitFor(t, "the first publish", 30*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(bucket, replica.ManifestKey))
		return err == nil
	})
	follower := replicaMain(t, "-follow", bucket, "-follow-every", "100ms", "-data-dir", filepath.Join(dir, "follower"))
	want := pub.Live.Load().Version()
	waitFor(t, "the follower to serve the publish", 10*time.Second, func() bool { return dataVersion(follower) == want })
	cur := pub.Live.Load().Cursor()
	epoch := strconv.FormatUint(cur.Epoch, 16)
	next := epoch + "-" + strconv.FormatUint(cur.Seq+1, 10)
	for _, tc := range []struct {
		name   string
		m      *Main
		since  string
		status int
		in     string // in the body
	}{
		{"follower, a refresh ahead", follower, next, 200, `"cursor":"` + next + `"`},
		{"follower, the largest cursor", follower, epoch + "-18446744073709551615", 400, `"name":"since"`},
		{"follower, past the reach", follower, engine.Cursor{Epoch: cur.Epoch, Seq: cur.Seq + pub.Live.Load().AheadReach() + 1}.String(), 400, `"name":"since"`},
		{"publisher, a refresh ahead", pub, next, 410, "never given here"},
		{"publisher, the largest cursor", pub, epoch + "-18446744073709551615", 400, `"name":"since"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, body := get(tc.m, "/v1/changes?since="+tc.since, "192.0.2.44")
			if code != tc.status || !strings.Contains(string(body), tc.in) {
				t.Fatalf("%d %s, want %d with %s", code, body, tc.status, tc.in)
			}
			if code == 200 {
				var page struct{ Data []json.RawMessage }
				if err := json.Unmarshal(body, &page); err != nil || len(page.Data) != 0 {
					t.Fatalf("no changes yet, but %s", body)
				}
			}
		})
	}
}
