// Package engine holds the immutable, read-optimized snapshot the API serves, and owns the
// JSON wire format of every resource it serves.
//
// Build turns a normalized Dataset into a *Snapshot: gigs in start order (then id), so that
// a date range is a range of positions found by binary search; the positions per city,
// country, venue, artist and genre (sorted lists, or roaring bitmaps in the portable format
// for the large ones, each with its members counted by venue-local day, so that a date
// range's total is two lookups); every gig's JSON rendered once, with its hash, which the
// ETags of assembled bodies are made from; and the bodies that are the same
// for every caller (the directories, venue details, /v1/meta's fixed part and the export)
// rendered and gzip-compressed once. It holds no pointer per gig, key or body: gigs,
// strings and bodies live in flat arrays and byte arenas, and lookups by id and slug go
// through pointer-free hash tables, so that the garbage collector marks a snapshot in
// objects counted in hundreds (thousands at a million gigs: one per large bitmap
// container), not millions. A query's filters meet within its date range: the positions
// of a small one are probed in the others' postings, and large ones are read from their
// portable bytes, only the containers within the range, and combined as words in scratch
// the query owns, so that a query allocates nothing. The bodies assembled per request (a
// page of gigs, a gig, a filtered venue directory, /v1/meta with its next refresh) are
// written here too, from those rendered parts: the gig, venue, city, artist, genre, meta
// and version objects are written by this package alone.
//
// A Snapshot is never modified after Build returns: its postings are only read with
// non-mutating calls, its byte slices must not be written by callers, and it may be used
// from any number of goroutines. Live holds the snapshot currently served; the loader
// publishes a new one atomically and readers load the pointer once per request.
//
// The engine knows nothing of HTTP or of upstream formats: the server gives it the
// numbers and the links of a page, and the loader a normalized Dataset. WriteDataset and
// ReadDataset keep a Dataset in a file (gigsd -dataset); package atomicfile writes the
// files every store keeps.
package engine
