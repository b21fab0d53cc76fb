// Package engine is the domain of the API: the immutable, read-optimized snapshot it
// serves, the queries on it, and the bodies it serves, whose JSON wire format (the gig,
// venue, city, artist, genre, meta and version objects) is written by this package alone.
//
// Build turns a normalized Dataset into a *Snapshot: gigs in start order (then id), so that
// a date range is a range of positions found by binary search; the positions per city,
// country, venue, artist and genre, each with its members counted by venue-local day, so
// that a date range's total is two lookups; every gig's JSON rendered and compressed once,
// with its hash, which the ETags of assembled bodies are made from; and the bodies that
// are the same for every caller (the directories, venue and artist details, /v1/meta's
// fixed part and the export) rendered and compressed once. An artist's MBID is a key of
// the artist postings too ("mbid:<uuid>", folded), so artist=mbid:<uuid> is a filter like
// any other. Gigs, strings and bodies live in flat arrays
// and byte arenas, looked up by id and slug through pointer-free hash tables, so that the
// garbage collector marks a snapshot in objects counted in hundreds, not millions.
//
// A Query's filters meet within its date range, in scratch the query owns, so that a query
// allocates nothing. A radius around a point is one more filter, the gigs of the venues
// within it, found through an index of the venues' positions (geo.go); with no other
// filter than dates it is counted and paged from the postings of the few areas, tiles and
// points within the radius one by one (nearalone.go, geoareas.go); a page by distance walks
// those venues nearest first. The postings of search words on a 32nd of the gigs or more
// are also kept as a bit per gig, which a query intersects a word at a time
// (densewords.go), and each such word crossed with each large posting of a filter keeps
// its shared members counted per block, so that a frequent word with one city, country or
// genre is counted from those counts (pairs.go); crossed likewise with the large postings
// of the areas, tiles and points, a frequent word near a point is counted and paged from
// the candidates one by one, each narrowed to the word (nearwords.go). The directories of cities, venues and artists keep,
// per build, where each entry lies in their rendered bodies, a words index of their names
// and (cities, venues) an index of their points, so that a typeahead, a radius and a page
// of a directory are bits over its entries and copies of their bytes (directory.go). The
// bodies assembled per request (a page of gigs, a gig, a venue's or an artist's detail, a
// filtered directory or a page of one, /v1/meta with its next refresh, the change feed)
// are written from the rendered parts; the gzip bodies of a
// page, a gig, a venue and an artist are made of the gigs' compressed parts, without
// compressing anything per request.
//
// A build given the snapshot it replaces (Options.Prev) costs what changed in what it
// renders: a gig whose input is as it was is taken whole from Prev, body, hashes and
// deflate fragment, and every fragment is made with Prev's code, so that the snapshot is
// byte for byte what rendering everything would make (reuse.go).
//
// The iCalendar feeds (calendar.go) list, beside a query's or an entity's gigs, the gigs
// no source lists any more as cancelled while their tombstones last: their JSON, kept by
// the ledger, is laid out once per snapshot, when a feed first needs it, as a snapshot of
// their own by Build's machinery, on which a feed's query runs as on the live gigs
// (calendargone.go).
//
// A Snapshot is never modified after Build returns: its postings are only read with
// non-mutating calls, its byte slices must not be written by callers, and it may be used
// from any number of goroutines. Live holds the snapshot currently served; the loader
// publishes a new one atomically and readers load the pointer once per request.
// WriteFile and ReadSnapshotFile keep a snapshot in a file, which a restart or a replica
// serves without a rebuild; WriteDataset and ReadDataset keep a Dataset (gigsd -dataset).
//
// The engine knows nothing of HTTP or of upstream formats: the server gives it the
// numbers and the links of a page, and the loader a normalized Dataset. Machinery that
// knows nothing of gigs lives in packages of its own under engine/internal (deflate, crc,
// gzipbytes, binfile, mapfile), and package atomicfile writes the files every store keeps.
package engine
