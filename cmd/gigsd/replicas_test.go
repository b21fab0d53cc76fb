package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/replica"
	"github.com/gigs/gigs/server/redis"
	"github.com/gigs/gigs/testkit/redisserver"
	"github.com/gigs/gigs/testkit/scale"
)

// writeDataset writes a dataset of n gigs to path, as gigsctl dataset does.
func writeDataset(t *testing.T, path string, n int) {
	t.Helper()
	var buf bytes.Buffer
	if err := engine.WriteDataset(&buf, scale.Generate(scale.Config{Gigs: n, Seed: uint64(n), Now: time.Now()})); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replicaMain starts an in-process gigsd with args, on free loopback ports, until the
// test closes it, or ends.
func replicaMain(t *testing.T, args ...string) *Main {
	t.Helper()
	m := NewMain()
	args = append([]string{"-addr", "127.0.0.1:0", "-admin-addr", "127.0.0.1:0", "-log-level", "error"}, args...)
	if err := m.ParseFlags(args, env(nil), io.Discard); err != nil {
		t.Fatal(err)
	}
	start(t, m)
	return m
}

// get does a GET of path on m as the client at address client (through X-Forwarded-For,
// which m trusts from loopback), with more headers; a transport error is status 0.
func get(m *Main, path, client string, header ...string) (int, http.Header, []byte) {
	req, _ := http.NewRequest("GET", "http://"+m.Addr().String()+path, nil)
	req.Header.Set("X-Forwarded-For", client)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, []byte(err.Error())
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body
}

var metaClients atomic.Int64

// dataVersion is the data_version m's /v1/meta reports, asked as a new client each time.
func dataVersion(m *Main) string {
	n := metaClients.Add(1)
	_, _, body := get(m, "/v1/meta", fmt.Sprintf("100.64.%d.%d", n/250%250, n%250))
	var meta struct {
		Data struct {
			DataVersion string `json:"data_version"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &meta)
	return meta.Data.DataVersion
}

// TestReplicas runs what make cluster runs, in-process on real listeners: a real
// redis-server, a publisher building from a dataset file into a directory bucket, and two
// followers that share keys and limits in Redis. Both followers serve the publisher's
// data version and bytes within seconds of each publish; a client's quota holds across
// them; a key created once works on both and, revoked, is refused by both within a
// second; a corrupt publish is never served; Redis killed and restarted under load fails
// no read.
func TestReplicas(t *testing.T) {
	redisSrv := redisserver.Start(t)
	dir := t.TempDir()
	dataset, bucket := filepath.Join(dir, "dataset"), filepath.Join(dir, "bucket")
	writeDataset(t, dataset, 300)
	pub := replicaMain(t, "-dataset", dataset, "-refresh", "500ms", "-publish", bucket, "-data-dir", filepath.Join(dir, "publisher"))
	waitFor(t, "the first publish", 30*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(bucket, replica.ManifestKey))
		return err == nil
	})
	var followers [2]*Main
	for i := range followers {
		followers[i] = replicaMain(t, "-follow", bucket, "-follow-every", "100ms", "-redis", redisSrv.URL(), "-read-limit", "10",
			"-trusted-proxies", "127.0.0.1", "-data-dir", filepath.Join(dir, fmt.Sprint("follower", i)))
	}
	sameVersion := func(what string) {
		t.Helper()
		want := pub.Live.Load().Version()
		waitFor(t, what, 10*time.Second, func() bool { return dataVersion(followers[0]) == want && dataVersion(followers[1]) == want })
		_, h0, b0 := get(followers[0], "/v1/gigs?page_size=50", "192.0.2.251")
		_, h1, b1 := get(followers[1], "/v1/gigs?page_size=50", "192.0.2.252")
		_, hp, bp := get(pub, "/v1/gigs?page_size=50", "192.0.2.253")
		if !bytes.Equal(b0, bp) || !bytes.Equal(b1, bp) || h0.Get("ETag") != hp.Get("ETag") || h1.Get("ETag") != hp.Get("ETag") ||
			h0.Get("Last-Modified") != hp.Get("Last-Modified") {
			t.Fatalf("%s: the followers' page differs from the publisher's (ETags %s %s %s)", what, h0.Get("ETag"), h1.Get("ETag"), hp.Get("ETag"))
		}
	}
	sameVersion("both followers serve the first publish")

	t.Run("refreshes that change nothing still tell the next", func(t *testing.T) {
		// The dataset is the same at every refresh (each 500 ms): the manifest's next
		// refresh moves all the same, and the followers' with it (plus a poll).
		for i, f := range followers {
			before := f.Live.NextRefresh()
			waitFor(t, fmt.Sprint("follower ", i, "'s next refresh to move on"), 20*time.Second, func() bool {
				return f.Live.NextRefresh().After(before.Add(time.Second))
			})
		}
	})

	t.Run("a client's quota is shared", func(t *testing.T) {
		const client = "198.51.100.7"
		for i := range 10 {
			if code, _, body := get(followers[i%2], "/v1/cities", client); code != 200 {
				t.Fatalf("read %d: %d %s", i+1, code, body)
			}
		}
		for i, f := range followers {
			code, h, _ := get(f, "/v1/cities", client)
			if code != 429 || h.Get("Retry-After") == "" || h.Get("X-RateLimit-Remaining") != "0" {
				t.Fatalf("the 11th read of 10, from follower %d: %d %v", i, code, h)
			}
		}
		if code, _, _ := get(followers[1], "/v1/cities", "198.51.100.8"); code != 200 {
			t.Fatalf("another client: %d", code)
		}
	})

	t.Run("keys are shared", func(t *testing.T) {
		c, err := redis.Dial(redisSrv.URL())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		store, err := redis.OpenKeyStore(c, true) // as gigsctl keys -redis create does
		if err != nil {
			t.Fatal(err)
		}
		key, rec, err := store.Create("mirror@example.org", "a mirror", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the new key store picked up", 30*time.Second, func() bool {
			a, _, _ := get(followers[0], "/v1/gigs/download", "203.0.113.1", "X-API-Key", key)
			b, _, _ := get(followers[1], "/v1/gigs/download", "203.0.113.2", "X-API-Key", key)
			return a == 200 && b == 200
		})
		if _, err := store.Revoke(rec.ID, "leaked", time.Now()); err != nil {
			t.Fatal(err)
		}
		revokedAt := time.Now()
		for i, f := range followers {
			code, _, body := get(f, "/v1/gigs/download", fmt.Sprint("203.0.113.", 10+i), "X-API-Key", key)
			if code != 401 || !strings.Contains(string(body), "leaked") {
				t.Fatalf("follower %d, a revoked key: %d %s", i, code, body)
			}
		}
		if took := time.Since(revokedAt); took > time.Second {
			t.Fatalf("the revocation took %s to reach both followers", took)
		}
		if got, err := store.Find(rec.ID); err != nil || got.LastUsed.IsZero() {
			t.Fatalf("the key's last use is not in Redis: %+v, %v", got, err)
		}
	})

	t.Run("a new publish reaches both followers", func(t *testing.T) {
		before := pub.Live.Load().Version()
		writeDataset(t, dataset, 400)
		waitFor(t, "the publisher's refresh", 30*time.Second, func() bool { return pub.Live.Load().Version() != before })
		published := time.Now()
		sameVersion("both followers serve the new publish")
		t.Logf("both followers served the publish %s after the publisher", time.Since(published).Round(time.Millisecond))
	})

	t.Run("a corrupt publish is never served", func(t *testing.T) {
		good := pub.Live.Load().Version()
		data, err := os.ReadFile(filepath.Join(bucket, replica.ManifestKey))
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(filepath.Join(bucket, replica.ManifestKey), data, 0o644) // the good one back
		var m replica.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		file, err := os.ReadFile(filepath.Join(bucket, filepath.FromSlash(m.Object)))
		if err != nil {
			t.Fatal(err)
		}
		file[len(file)/3] ^= 1
		m.Object, m.DataVersion, m.Published = replica.SnapshotPrefix+"corrupt", "0000000000000000", time.Now()
		if err := os.WriteFile(filepath.Join(bucket, "snapshots", "corrupt"), file, 0o644); err != nil {
			t.Fatal(err)
		}
		data, _ = json.Marshal(m)
		if err := os.WriteFile(filepath.Join(bucket, replica.ManifestKey), data, 0o644); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(time.Second) // ten polls
		for time.Now().Before(deadline) {
			for i, f := range followers {
				if v := dataVersion(f); v != good {
					t.Fatalf("follower %d serves %q after a corrupt publish, want %s", i, v, good)
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("Redis killed and restarted under load", func(t *testing.T) {
		var reads, failed atomic.Int64
		var firstFailure atomic.Value
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for i := 0; ctx.Err() == nil; i++ {
					client := fmt.Sprintf("10.%d.%d.%d", w, i/250%250, i%250) // each client far under its quota
					code, _, body := get(followers[i%2], "/v1/gigs?page_size=5", client)
					reads.Add(1)
					if code != 200 {
						failed.Add(1)
						firstFailure.CompareAndSwap(nil, fmt.Sprintf("%d %s", code, body))
					}
				}
			})
		}
		time.Sleep(500 * time.Millisecond)
		redisSrv.Kill()
		time.Sleep(2 * time.Second)
		redisSrv.Restart()
		time.Sleep(2 * redis.ProbeEvery)
		stop()
		wg.Wait()
		if failed.Load() > 0 {
			t.Fatalf("%d of %d reads failed across the outage; first: %v", failed.Load(), reads.Load(), firstFailure.Load())
		}
		for i, f := range followers {
			resp, err := http.Get("http://" + f.AdminAddr().String() + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			// The gauge is back at 0, and the counter (which exists at 0 from the start) shows
			// the decisions made without Redis while it was down.
			m := fallbacksRE.FindSubmatch(body)
			if !strings.Contains(string(body), `gigs_redis_fallback{use="read-limit"} 0`) || m == nil || string(m[1]) == "0" {
				t.Fatalf("follower %d after Redis came back: the metrics do not show a fallback that ended:\n%s", i, grepLines(body, "gigs_redis"))
			}
		}
		t.Logf("%d reads, none failed, across a Redis outage of 2s", reads.Load())
	})

	t.Run("a publisher that lost its data directory carries on", func(t *testing.T) {
		closeMain(t, pub)
		before, err := os.ReadFile(filepath.Join(bucket, replica.ManifestKey))
		if err != nil {
			t.Fatal(err)
		}
		want := followers[0].Live.Load()
		again := replicaMain(t, "-dataset", dataset, "-refresh", "500ms", "-publish", bucket, "-data-dir", filepath.Join(dir, "new-publisher"))
		if got := again.Live.Load(); got == nil || got.Version() != want.Version() || got.Cursor() != want.Cursor() {
			t.Fatalf("the new publisher listens without the published snapshot")
		}
		time.Sleep(2 * time.Second) // refreshes of the same data
		if got := again.Live.Load(); got.Cursor() != want.Cursor() || got.Changed() != want.Changed() {
			t.Fatalf("after its refreshes of the same data: cursor %v, changed %s; want %v, %s", got.Cursor(), got.Changed(), want.Cursor(), want.Changed())
		}
		var was, is replica.Manifest
		after, _ := os.ReadFile(filepath.Join(bucket, replica.ManifestKey))
		if err := errors.Join(json.Unmarshal(before, &was), json.Unmarshal(after, &is)); err != nil || is.Object != was.Object ||
			is.SHA256 != was.SHA256 || !is.NextRefresh.After(was.NextRefresh) {
			t.Fatalf("the same data was published again, or its next refresh not moved (%v):\n%s\n%s", err, before, after)
		}
	})
}

// fallbacksRE reads the read limit's count of decisions made without Redis.
var fallbacksRE = regexp.MustCompile(`(?m)^gigs_redis_fallbacks_total\{use="read-limit"\} (\S+)$`)
