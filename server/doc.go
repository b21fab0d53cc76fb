// Package server answers the public HTTP API from the current engine snapshot.
//
// Every /v1 handler loads the snapshot once and uses only that one; bodies that are the
// same for every caller are served from bytes rendered at build time, and /v1/gigs pages
// are assembled from pre-rendered gig objects without allocating per gig. Handlers return
// errors; one place turns them into RFC 9457 problem bodies, and only internal errors are
// logged. The server never imports the loader: it serves whatever snapshot is current.
//
// Against abuse: every request to the public listener, whatever its path and answer, is
// charged to its client's read limit before its handler runs (the router's own answers
// and unparsable requests included; package limit); the listener
// from Listen caps connections in all and per client and waits out accept failures
// (package conns); time limits close slow and idle connections.
package server
