package fetch

import (
	"sync/atomic"
	"time"
)

// Stats are a Client's counters since New, for the refresh report. Take one with
// Client.Stats before a run and one after; after.Sub(before) is the run's.
type Stats struct {
	Requests     int64 // HTTP requests sent: every attempt, redirect hop and robots.txt request
	Responses2xx int64 // answers by status class
	Responses3xx int64 // redirects and 304s
	Responses4xx int64
	Responses5xx int64
	NetErrors    int64 // attempts that got no answer: connect, TLS, timeouts, resets, cancellation
	NotModified  int64 // 304s to conditional requests (also in Responses3xx)
	Retries      int64
	Redirects    int64 // redirects followed by Get (robots.txt redirects not counted)

	RobotsFetches  int64 // robots.txt files read (once per scheme and host per RobotsTTL)
	RobotsRefusals int64 // Gets refused because robots.txt disallows the URL or is unreachable

	TooLarge         int64 // documents refused for being over MaxBytes
	CharsetFallbacks int64 // text read as windows-1252 because it was not the utf-8 it claimed
	Files            int64 // file:// reads

	BytesWire int64 // body bytes read from the network, before decompression
	BytesBody int64 // bytes of the bodies returned by Get after decompression and decoding (304s excluded)

	PoliteWait time.Duration // total time requests waited for their host's slot and gap
}

// Sub returns the counts since prev, an earlier snapshot of the same Client.
func (s Stats) Sub(prev Stats) Stats {
	return Stats{
		Requests:         s.Requests - prev.Requests,
		Responses2xx:     s.Responses2xx - prev.Responses2xx,
		Responses3xx:     s.Responses3xx - prev.Responses3xx,
		Responses4xx:     s.Responses4xx - prev.Responses4xx,
		Responses5xx:     s.Responses5xx - prev.Responses5xx,
		NetErrors:        s.NetErrors - prev.NetErrors,
		NotModified:      s.NotModified - prev.NotModified,
		Retries:          s.Retries - prev.Retries,
		Redirects:        s.Redirects - prev.Redirects,
		RobotsFetches:    s.RobotsFetches - prev.RobotsFetches,
		RobotsRefusals:   s.RobotsRefusals - prev.RobotsRefusals,
		TooLarge:         s.TooLarge - prev.TooLarge,
		CharsetFallbacks: s.CharsetFallbacks - prev.CharsetFallbacks,
		Files:            s.Files - prev.Files,
		BytesWire:        s.BytesWire - prev.BytesWire,
		BytesBody:        s.BytesBody - prev.BytesBody,
		PoliteWait:       s.PoliteWait - prev.PoliteWait,
	}
}

// Stats returns a snapshot of the counters. Each counter is read atomically; the snapshot
// as a whole is not, so counts of requests still under way may be off by one between fields.
func (c *Client) Stats() Stats {
	t := &c.stats
	return Stats{
		Requests:         t.requests.Load(),
		Responses2xx:     t.status[2].Load(),
		Responses3xx:     t.status[3].Load(),
		Responses4xx:     t.status[4].Load(),
		Responses5xx:     t.status[5].Load(),
		NetErrors:        t.netErrors.Load(),
		NotModified:      t.notModified.Load(),
		Retries:          t.retries.Load(),
		Redirects:        t.redirects.Load(),
		RobotsFetches:    t.robotsFetches.Load(),
		RobotsRefusals:   t.robotsRefusals.Load(),
		TooLarge:         t.tooLarge.Load(),
		CharsetFallbacks: t.charsetFallbacks.Load(),
		Files:            t.files.Load(),
		BytesWire:        t.bytesWire.Load(),
		BytesBody:        t.bytesBody.Load(),
		PoliteWait:       time.Duration(t.politeWait.Load()),
	}
}

// counters are the live Stats.
type counters struct {
	requests         atomic.Int64
	status           [6]atomic.Int64 // by class: status[2] counts 2xx; [0] anything out of range
	netErrors        atomic.Int64
	notModified      atomic.Int64
	retries          atomic.Int64
	redirects        atomic.Int64
	robotsFetches    atomic.Int64
	robotsRefusals   atomic.Int64
	tooLarge         atomic.Int64
	charsetFallbacks atomic.Int64
	files            atomic.Int64
	bytesWire        atomic.Int64
	bytesBody        atomic.Int64
	politeWait       atomic.Int64 // nanoseconds
}

func (t *counters) countStatus(code int) {
	class := code / 100
	if class < 1 || class > 5 {
		class = 0
	}
	t.status[class].Add(1)
}
