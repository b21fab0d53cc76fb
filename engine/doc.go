// Package engine holds the immutable, read-optimized snapshot the API serves, and owns the
// JSON wire format of every resource it serves.
//
// Build turns a normalized Dataset into a *Snapshot: gigs in start order (then id), a
// roaring bitmap of gig positions per city, country, venue, artist and genre, a bitmap per
// venue-local day, every gig's JSON rendered once, and the bodies that are the same for
// every caller (the directories, venue details, /v1/meta's fixed part and the export)
// rendered and gzip-compressed once. The bodies assembled per request (a page of gigs, a
// gig, a filtered venue directory, /v1/meta with its next refresh) are written here too,
// from those rendered parts: the gig, venue, city, artist, genre, meta and version
// objects are written by this package alone.
//
// A Snapshot is never modified after Build returns: its bitmaps are only read with
// non-mutating calls, its byte slices must not be written by callers, and it may be used
// from any number of goroutines. Live holds the snapshot currently served; the loader
// publishes a new one atomically and readers load the pointer once per request.
//
// The engine knows nothing of HTTP or of upstream formats: the server gives it the
// numbers and the links of a page, and the loader a normalized Dataset. WriteDataset and
// ReadDataset keep a Dataset in a file (gigsd -dataset); package atomicfile writes the
// files every store keeps.
package engine
