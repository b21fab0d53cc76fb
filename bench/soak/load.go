package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// loadCounts are the load's answers.
type loadCounts struct {
	requests, status5xx, errors atomic.Int64
	exports, polls, bad         atomic.Int64
}

// targets are what the readers read: ids and slugs from the first page of gigs.
type targets struct {
	gigs, venues, artists, cities []string
}

// startLoad starts the load's workers until ctx ends: 4 readers, an exporter, a change-feed
// poller and a sender of bad requests, each on its own keep-alive connections.
func (s *soak) startLoad(ctx context.Context, wg *sync.WaitGroup) {
	var cursor atomic.Value // the export's meta.cursor, then the feed's
	var tg atomic.Pointer[targets]
	tg.Store(s.targets())
	for range 4 {
		wg.Go(func() {
			c := &http.Client{Timeout: time.Minute}
			for pause(ctx, 50*time.Millisecond) {
				t := tg.Load()
				u := []string{
					"/v1/gigs", "/v1/gigs?limit=100", "/v1/gigs?sort=date&limit=20&city=" + pick(t.cities),
					"/v1/gigs/" + pick(t.gigs), "/v1/venues/" + pick(t.venues), "/v1/artists/" + pick(t.artists),
					"/v1/cities", "/v1/venues", "/v1/artists", "/v1/genres", "/v1/meta",
					"/v1/gigs?q=" + url.QueryEscape(pick(t.artists)), "/v1/gigs?from=2026-12-01&to=2026-12-31",
				}[rand.IntN(13)]
				s.get(c, u, nil)
			}
		})
	}
	wg.Go(func() { // the exporter: an export with a key every 10 s
		c := &http.Client{Timeout: time.Minute}
		for pause(ctx, 10*time.Second) {
			body := s.get(c, "/v1/gigs/download", http.Header{"X-API-Key": {s.key}}) // gzip, which the client decodes
			var e struct {
				Meta struct {
					Cursor string `json:"cursor"`
				} `json:"meta"`
			}
			if json.Unmarshal(body, &e) == nil && e.Meta.Cursor != "" {
				s.load.exports.Add(1)
				cursor.CompareAndSwap(nil, e.Meta.Cursor)
			}
			tg.Store(s.targets())
		}
	})
	wg.Go(func() { // the mirror: polls the change feed from the export's cursor
		c := &http.Client{Timeout: time.Minute}
		for pause(ctx, 5*time.Second) {
			since, _ := cursor.Load().(string)
			if since == "" {
				continue
			}
			for {
				body := s.get(c, "/v1/changes?limit=1000&since="+url.QueryEscape(since), nil)
				var p struct {
					Meta struct {
						Cursor  string `json:"cursor"`
						HasMore bool   `json:"has_more"`
					} `json:"meta"`
				}
				if json.Unmarshal(body, &p) != nil || p.Meta.Cursor == "" {
					break
				}
				s.load.polls.Add(1)
				since = p.Meta.Cursor
				cursor.Store(since)
				if !p.Meta.HasMore {
					break
				}
			}
		}
	})
	wg.Go(func() { // bad requests
		c := &http.Client{Timeout: time.Minute}
		bad := []string{
			"/v1/gigs?limit=banana", "/v1/gigs?near=999,999&radius=5furlongs", "/v1/nowhere", "/v1/gigs/%00",
			"/v1/changes?since=not-a-cursor", "/v1/changes?since=0000000000000000-1", "/v1/gigs?from=2026-13-45",
			"/v1/gigs?" + strings.Repeat("a=1&", 2000), "/v1/venues/" + strings.Repeat("x", 4000),
		}
		for i := 0; pause(ctx, 200*time.Millisecond); i++ {
			s.load.bad.Add(1)
			switch i % (len(bad) + 2) {
			case len(bad):
				s.get(c, "/v1/gigs/download", http.Header{"X-API-Key": {"gigs_forged"}})
			case len(bad) + 1:
				s.rawRequest("GET /v1/meta HTTP/1.1\r\nHost: soak\r\nBad Name: 1\r\n\r\n")
			default:
				s.get(c, bad[i%(len(bad)+2)], nil)
			}
		}
	})
}

// pause waits d, reporting false once ctx has ended.
func pause(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

func pick(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return list[rand.IntN(len(list))]
}

// get requests path on the API and returns the body, counting the answer.
func (s *soak) get(c *http.Client, path string, h http.Header) []byte {
	req, err := http.NewRequest(http.MethodGet, s.api+path, nil)
	if err != nil {
		panic(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	s.load.requests.Add(1)
	resp, err := c.Do(req)
	if err != nil {
		s.load.errors.Add(1)
		fmt.Println("soak: request failed:", path[:min(len(path), 80)], err)
		return nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		s.load.errors.Add(1)
		fmt.Println("soak: reading an answer failed:", path[:min(len(path), 80)], err)
	}
	if resp.StatusCode >= 500 {
		s.load.status5xx.Add(1)
		fmt.Printf("soak: %s answered %d: %.200s\n", path[:min(len(path), 80)], resp.StatusCode, body)
	}
	return body
}

// rawRequest sends a request as written on its own connection, reading the status line.
func (s *soak) rawRequest(raw string) {
	s.load.requests.Add(1)
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(s.api, "http://"), 10*time.Second)
	if err != nil {
		s.load.errors.Add(1)
		return
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(conn, raw)
	line, _ := bufio.NewReader(conn).ReadString('\n')
	if strings.HasPrefix(line, "HTTP/1.1 5") {
		s.load.status5xx.Add(1)
		fmt.Printf("soak: a raw request answered %s", line)
	}
}

// targets reads ids and slugs from the first page of gigs.
func (s *soak) targets() *targets {
	body := s.get(http.DefaultClient, "/v1/gigs?limit=100", nil)
	var p struct {
		Data []struct {
			ID    string `json:"id"`
			Venue struct {
				Slug string `json:"slug"`
			} `json:"venue"`
			City struct {
				Slug string `json:"slug"`
			} `json:"city"`
			Artists []struct {
				Slug string `json:"slug"`
			} `json:"artists"`
		} `json:"data"`
	}
	json.Unmarshal(body, &p)
	t := &targets{}
	for _, g := range p.Data {
		t.gigs = append(t.gigs, g.ID)
		t.venues = append(t.venues, g.Venue.Slug)
		t.cities = append(t.cities, g.City.Slug)
		for _, a := range g.Artists {
			t.artists = append(t.artists, a.Slug)
		}
	}
	return t
}
