// Package limit is the rate-limit concept: Limiter, what the server counts its read and
// export limits with, the client Key a limit is counted per and the Decision a request
// gets; and Memory, the in-memory Limiter that counts them in this process.
//
// Every Limiter applies the generic cell rate algorithm (GCRA: a token bucket kept as one
// timestamp per client) and reports its state in the same Decision, so the rate-limit
// headers mean the same wherever a limit is counted. A Limiter kept elsewhere
// (package server/redis keeps one in Redis) depends on this package, never the reverse.
//
// Memory's memory stays bounded however many distinct clients come: a client's state
// expires as soon as its bucket is full again, and at a hard cap arbitrary clients' state
// is evicted (they start again with a full quota). It is safe for concurrent use. Times
// are passed in, so tests drive it with a fake clock.
package limit
