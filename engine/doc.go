// Package engine holds the immutable, read-optimized snapshot the API serves.
//
// Build turns a normalized Dataset into a *Snapshot: gigs in start order (then id), a
// roaring bitmap of gig positions per city, country, venue, artist and genre, a bitmap per
// venue-local day, every gig's JSON rendered once, and the bodies that are the same for
// every caller (directories, venue details) rendered and gzip-compressed once.
//
// A Snapshot is never modified after Build returns: its bitmaps are only read with
// non-mutating calls, its byte slices must not be written by callers, and it may be used
// from any number of goroutines. Live holds the snapshot currently served; the loader
// publishes a new one atomically and readers load the pointer once per request.
//
// The engine knows nothing of HTTP or of upstream formats.
package engine
