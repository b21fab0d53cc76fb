// Package redis is the Redis backend of the key and limit concepts, what gigsd's
// replicas share through Redis: the client every part uses (Dial, with its timeouts and
// pool caps), the rate limits counted in Redis (Limiter, a limit.Limiter), the key store
// in Redis and its checker (KeyStore, a keys.Store; KeyChecker, a keys.Checker), and the
// Breaker that has each of them fall back to per-replica state while Redis cannot be
// reached, and go back to Redis on its own once it answers again.
//
// Redis is never on the critical path of an answer: a failed or slow Redis call costs the
// request that made it at most the client's timeouts, and then, until Redis answers a
// probe, none at all. Nor is it trusted with memory: a reply is refused, as a failed
// call, at its first byte past the bounds of resp.go (MaxBulk, MaxReplyLine, MaxDepth,
// ReplyBudget), before the client library sizes anything from it.
//
// The concepts are packages server/keys and server/limit: this package implements their
// interfaces, and keeps keys as those packages say (NewRecord, CheckText, Refusal), so a
// key or a limit means the same in Redis as in a file or in memory. They never import it.
package redis
