// Package keys is the personal API key concept: what a key is, how it is checked, what a
// store of keys keeps, and the embedded store, a JSON file under the data directory that
// gigsctl edits and gigsd reloads while it runs.
//
// A key is "gigs_" followed by 256 random bits and a CRC-32C checksum, in 58 characters
// of lower-case base32: a fixed prefix for secret scanners, and a checksum that lets
// malformed or mistyped keys be refused without a look-up (Check). A store never holds a
// key, only its HMAC-SHA256 (Hash) under a secret that is generated on first use and kept
// beside the records.
//
// Store is what every store of keys does, Checker what every checker answers; FileStore
// and FileChecker are the ones of the key file. A store kept elsewhere (package
// server/redis keeps one in Redis) makes its records with NewRecord, checks texts with
// CheckText and refuses keys with Refusal, so that every store issues, keeps and refuses
// keys alike; it depends on this package, never the reverse.
package keys
