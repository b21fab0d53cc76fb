package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Timeouts of a Redis call unless the URL sets its own (dial_timeout, read_timeout,
// write_timeout, pool_timeout): short, because a request waits for them.
const (
	DialTimeout = 250 * time.Millisecond
	CallTimeout = 200 * time.Millisecond
)

// Dial returns a client of the Redis server at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS), with the timeouts above, no retries (a failed call falls back at
// once), a pool sized for a busy server, and connections that refuse a reply past the
// bounds of MaxBulk, MaxDepth, MaxReplyLine and ReplyBudget. It does not connect until
// first used.
func Dial(url string) (*goredis.Client, error) {
	opt, err := goredis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis URL: %w", err)
	}
	if opt.DialTimeout == 0 {
		opt.DialTimeout = DialTimeout
	}
	if opt.ReadTimeout == 0 {
		opt.ReadTimeout = CallTimeout
	}
	if opt.WriteTimeout == 0 {
		opt.WriteTimeout = CallTimeout
	}
	if opt.PoolTimeout == 0 {
		opt.PoolTimeout = CallTimeout
	}
	if opt.PoolSize == 0 {
		opt.PoolSize = 128
	}
	opt.Dialer = boundedDialer(goredis.NewDialer(opt)) // replies within the bounds of resp.go
	opt.MaxRetries = -1
	opt.DisableIdentity = true // CLIENT SETINFO is Redis 7.2's; older servers answer an error
	return goredis.NewClient(opt), nil
}

// go-redis logs to the standard logger; a Breaker logs what an operator needs, once.
func init() { goredis.SetLogger(silent{}) }

type silent struct{}

func (silent) Printf(context.Context, string, ...any) {}

// Ping reports whether the server answers, within the call timeout.
func Ping(c *goredis.Client) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*CallTimeout)
	defer cancel()
	return c.Ping(ctx).Err()
}
