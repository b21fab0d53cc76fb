// Package replica lets many gigsd serve one built snapshot: a publisher uploads each
// snapshot file it writes to a bucket, zstd-compressed (about half the bytes), then a
// small manifest naming it with its sizes, SHA-256 and times; followers watch the
// manifest, download the object it names, check its size and checksum, and serve it. A follower fetches nothing upstream, and serves the
// publisher's bytes, so every replica gives the same bodies, ETags and change cursors.
//
// Buckets are opened with gocloud.dev/blob: a local directory by default (a plain path or
// file:///path), S3 (s3://bucket?region=...), Google Cloud Storage (gs://bucket) or Azure
// Blob Storage (azblob://container), with each service's usual credentials from the
// environment.
//
// Nothing a follower downloads is served unless it is whole: the manifest is written
// after the file it names, an upload of either is atomic in every one of these services,
// and a follower checks the size and checksum, then decodes the file with every check of
// engine.ReadSnapshotFile, before it swaps. A bad manifest or file is logged and counted,
// and the snapshot served until then stays.
package replica
