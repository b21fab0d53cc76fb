package redis

import "bytes"

// Parts of the key store that the tests of package redis_test check. Those tests cannot be
// in package redis: they start redis-server with testkit/redisserver, which imports it.
var (
	RevokeIdle = (*KeyStore).revokeIdle
	MarkUsed   = (*KeyStore).used
)

// SameSecret reports whether two stores hash keys with the same secret.
func SameSecret(a, b *KeyStore) bool { return bytes.Equal(a.secret, b.secret) }
