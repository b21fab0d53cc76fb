package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob"

	"github.com/gigs/gigs/engine/replica"
)

// followEvery is how often the refresh run's follower reads the bucket's manifest: a
// tenth of the apply goal's second, so that the wait for its next read is a small part of
// what the goal measures (an operator's -follow-every is 5 s by default).
const followEvery = 100 * time.Millisecond

// followPoll is how often the bench asks the follower for its data version while it waits
// for the refresh: the apply's resolution.
const followPoll = 10 * time.Millisecond

// followResult is what a follower gigsd did with the refresh run's rebuild, which the
// publisher put in the bucket the follower follows.
type followResult struct {
	Every             time.Duration // the follower's -follow-every
	Whole             int64         // the bucket's whole snapshot object, which the follower downloaded first
	Delta             int64         // the delta that makes the refreshed snapshot, as the manifest names it; 0 when none
	Upload            time.Duration // the publisher's upload of the refresh, from its log
	Downloaded        int64         // bytes the follower downloaded for the refresh (gigs_follow_downloaded_bytes_total)
	Deltas, Fallbacks int           // deltas it applied for it, and polls on which it fell back to the whole object
	// Apply is from the refresh's publication (the manifest's published time) to the
	// follower's first answer from the refreshed snapshot.
	Apply time.Duration
	// Stages is where the follower's poll that served the refresh spent its time, from its
	// log line (manifest 2ms, download 150ms, apply …); "" when it logged none.
	Stages string
}

// followStages are the steps the follower's log line of a snapshot served times, in order.
var followStages = []string{"manifest", "download", "apply", "read", "publish"}

// follower is a gigsd the bench started to follow a bucket.
type follower struct {
	p           *process
	base, admin string
	bucket      *blob.Bucket
	first       replica.Manifest // the bucket's manifest when the follower started: the snapshot it serves
	counts      followCounts     // its counters once it served it
}

// startFollower starts a gigsd following the directory bucket, with its data directory in
// work, pinned to the load tool's CPU (idle during the refresh run) so that it shares no
// CPU with the publisher; it returns once the follower serves the bucket's snapshot.
func startFollower(ctx context.Context, cfg benchConfig, work, bucket string) (*follower, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	admin, err := freeAddr()
	if err != nil {
		return nil, err
	}
	f := &follower{base: "http://" + addr, admin: admin}
	if f.bucket, err = replica.OpenBucket(ctx, bucket); err != nil {
		return nil, err
	}
	if f.first, err = replica.ReadManifest(ctx, f.bucket); err != nil {
		f.bucket.Close()
		return nil, fmt.Errorf("the bucket's manifest: %w", err)
	}
	f.p, err = start(ctx, loadCPU, f.base+"/readyz", 10*time.Minute, cfg.Gigsd, "-follow", bucket, "-follow-every", followEvery.String(),
		"-addr", addr, "-admin-addr", admin, "-data-dir", filepath.Join(work, "follower"), "-read-limit", "1000000000",
		"-max-conns-per-client", "-1", "-log-level", "info")
	if err != nil {
		f.bucket.Close()
		return nil, err
	}
	if v := dataVersion(f.base); v != f.first.DataVersion {
		f.stop()
		return nil, fmt.Errorf("the follower serves data version %q, the bucket's manifest names %q", v, f.first.DataVersion)
	}
	if f.counts, err = readFollowCounts(admin); err != nil {
		f.stop()
		return nil, err
	}
	return f, nil
}

// stop stops the follower and closes the bucket.
func (f *follower) stop() {
	f.p.stop()
	f.bucket.Close()
}

// follow waits, up to wait, for the follower to answer from a snapshot other than the
// one it served at start, which the publisher p puts in the bucket after its rebuild,
// and returns what that cost it. It asks the follower every followPoll from when it is
// called, which must be before that publish.
func (f *follower) follow(ctx context.Context, p *process, wait time.Duration) (followResult, error) {
	r := followResult{Every: followEvery, Whole: f.first.Size}
	var seen time.Time
	var version string
	for deadline := time.Now().Add(wait); ; {
		if v := dataVersion(f.base); v != "" && v != f.first.DataVersion {
			seen, version = time.Now(), v
			break
		}
		if time.Now().After(deadline) {
			return r, fmt.Errorf("the follower still served data version %s %s after the rebuild", f.first.DataVersion, wait)
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(followPoll):
		}
	}
	l := p.nthLogged("snapshot published", 2, time.Minute)
	if l == nil {
		return r, fmt.Errorf("the publisher did not log the publish of its rebuild")
	}
	r.Upload = logDuration(l, "took")
	man, err := replica.ReadManifest(ctx, f.bucket)
	if err != nil {
		return r, fmt.Errorf("the bucket's manifest: %w", err)
	}
	if man.DataVersion != version {
		return r, fmt.Errorf("the follower serves data version %s, the bucket's manifest names %s", version, man.DataVersion)
	}
	if n := len(man.Deltas); n > 0 { // the last delta makes the current snapshot
		r.Delta = man.Deltas[n-1].Size
	}
	r.Apply = seen.Sub(man.Published)
	if l := f.p.nthLogged("published snapshot served", 2, time.Minute); l != nil && l["data_version"] == version {
		var steps []string
		for _, k := range followStages {
			if d, ok := l[k]; ok {
				steps = append(steps, fmt.Sprintf("%s %s", k, d))
			}
		}
		r.Stages = strings.Join(steps, ", ")
	}
	after, err := readFollowCounts(f.admin)
	if err != nil {
		return r, err
	}
	r.Downloaded = after.bytes - f.counts.bytes
	r.Deltas, r.Fallbacks = int(after.deltas-f.counts.deltas), int(after.fallbacks-f.counts.fallbacks)
	return r, nil
}

// dataVersion is the data_version gigsd at base reports in /v1/meta; "" when it answers
// none.
func dataVersion(base string) string {
	status, body, _ := get(base+"/v1/meta", nil)
	var meta struct {
		Data struct {
			DataVersion string `json:"data_version"`
		} `json:"data"`
	}
	if status != 200 || json.Unmarshal(body, &meta) != nil {
		return ""
	}
	return meta.Data.DataVersion
}

// followCounts are a follower's download counters.
type followCounts struct {
	bytes, deltas, fallbacks int64
}

// readFollowCounts reads a follower's download counters from its metrics at admin.
func readFollowCounts(admin string) (followCounts, error) {
	status, body, _ := get("http://"+admin+"/metrics", nil)
	if status != 200 {
		return followCounts{}, fmt.Errorf("%s/metrics: %d", admin, status)
	}
	values := map[string]float64{} // by series, its name and labels as written
	for _, line := range strings.Split(string(body), "\n") {
		if i := strings.LastIndexByte(line, ' '); i > 0 && !strings.HasPrefix(line, "#") {
			if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
				values[line[:i]] = v
			}
		}
	}
	var c followCounts
	for _, s := range []struct {
		series string
		to     *int64
	}{
		{"gigs_follow_downloaded_bytes_total", &c.bytes},
		{`gigs_follow_deltas_total{result="ok"}`, &c.deltas},
		{"gigs_follow_delta_fallbacks_total", &c.fallbacks},
	} {
		v, ok := values[s.series]
		if !ok {
			return c, fmt.Errorf("no %s in %s/metrics", s.series, admin)
		}
		*s.to = int64(v)
	}
	return c, nil
}
