package main

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/server/limit"
	"github.com/gigs/gigs/server/redis"
)

// sharedState is where keys and limits live: the key file in -data-dir and per-replica
// limits, or Redis with -redis.
type sharedState struct {
	keys           keyChecker
	reads, exports limit.Limiter    // nil: per replica
	limiters       []*redis.Limiter // reads and exports with -redis, closed by close
	client         *goredis.Client  // nil without -redis
}

// keyChecker is keys.FileChecker or redis.KeyChecker.
type keyChecker interface {
	keys.Checker
	// Run saves key uses and picks up key changes every interval until ctx ends.
	Run(ctx context.Context, every time.Duration)
}

// openShared opens the key store and the limits. Redis need not answer: until it does,
// limits are counted per replica and keys refused (see package server/redis).
func (m *Main) openShared() (*sharedState, error) {
	if m.Config.Redis == "" {
		store, err := keys.Open(m.Config.DataDir)
		if err != nil {
			return nil, err
		}
		checker, err := keys.NewFileChecker(store, time.Now, m.Logger)
		if err != nil {
			return nil, fmt.Errorf("cannot load the key store: %w", err)
		}
		return &sharedState{keys: checker}, nil
	}
	c, err := redis.Dial(m.Config.Redis)
	if err != nil {
		return nil, fmt.Errorf("-redis: %w", err)
	}
	if err := redis.Ping(c); err != nil {
		m.Logger.Error("redis does not answer yet: limits per replica, and keys refused, until it does", "err", err)
	}
	sm := redis.NewMetrics(m.Registry)
	const clients = 1 << 20 // as server.Options.MaxClients
	reads := redis.NewLimiter(c, "read", m.Config.ReadLimit, time.Minute, clients, m.Logger, sm)
	exports := redis.NewLimiter(c, "export", m.Config.ExportLimit, time.Minute, clients, m.Logger, sm)
	return &sharedState{client: c, keys: redis.NewKeyChecker(c, time.Now, m.Logger, sm),
		reads: reads, exports: exports, limiters: []*redis.Limiter{reads, exports}}, nil
}

// close stops the limiters and the Redis client, once the server has stopped.
func (s *sharedState) close() {
	for _, l := range s.limiters {
		l.Close()
	}
	if s.client != nil {
		s.client.Close()
	}
}
