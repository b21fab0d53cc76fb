// Package replica is where a built snapshot persists and how it travels: the snapshot
// file a daemon keeps in its data directory, and the bucket through which many gigsd
// serve one built snapshot. Of this module it imports only the engine room; what
// builds snapshots (the loader) and what serves them (the server) do not come in.
//
// A File keeps the last published snapshot in <data-dir>/snapshot, so that a restart
// serves it at once, and, for a daemon that builds, the change-feed cursor it published
// last in <data-dir>/published-cursor, so that no client's cursor is ever read as changes
// numbered anew. A file that is not whole, too old or from the future is logged and not
// served; the first refresh replaces it.
//
// A Publisher uploads each snapshot file its daemon writes to a bucket, zstd-compressed
// (about half the bytes): a delta from the file it published before (see
// engine.WriteSnapshotDelta) at every publish, and the file whole every FullEvery
// publishes; then a small manifest naming the newest whole object and the chain of deltas
// from it to the current snapshot, with their sizes, SHA-256 and the checksums of the
// snapshot files each turns one into the other, and times. A Follower watches the
// manifest; when the chain leads from the file it serves, it downloads and applies the
// deltas after it, else (or when any fails) it downloads the whole object and the deltas
// after that, checks each object's size and checksum and each file made, and serves the
// result. Deltas pass through the disk, never whole through memory: a publisher writes
// one to a temporary file and stops at the size followers accept, a follower downloads
// one to a temporary file and maps it. A follower serves the snapshot it made before it
// syncs its file and puts it in place (its directory synced too), and records it (for a
// daemon that builds, its cursor as published) only after: a crash never leaves the
// published cursor ahead of the file a restart serves. A follower fetches nothing
// upstream, and serves the publisher's bytes, so every replica gives the same bodies,
// ETags and change cursors.
//
// Buckets are opened with gocloud.dev/blob: a local directory by default (a plain path or
// file:///path), S3 (s3://bucket?region=...), Google Cloud Storage (gs://bucket) or Azure
// Blob Storage (azblob://container), with each service's usual credentials from the
// environment.
//
// Nothing a follower downloads is served unless it is whole: the manifest is written
// after the file it names, an upload of either is atomic in every one of these services,
// and a follower checks the size and checksum, then decodes the file with every check of
// engine.ReadSnapshotFile (a file a delta made, whose checksum its apply computed as it
// wrote it, with engine.ReadAppliedSnapshotFile: every check but that one hash again),
// before it swaps. A bad manifest or file is logged and counted,
// and the snapshot served until then stays. The manifest and the object are refused from
// their metadata before a byte is read when they are not regular files (a named pipe
// would block the read forever) or not of the size allowed or named; polls that fail in
// a row back off, so a bucket that names a new unusable object at every poll costs a
// stat now and then.
//
// Metrics are registered on the prometheus.Registerer each constructor is given, never
// globally. Each type is used from one goroutine at a time: its daemon's start, then its
// refresh loop.
package replica
