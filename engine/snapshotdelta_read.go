package engine

// ReadAppliedSnapshotFile reads the snapshot file at path as ReadSnapshotFile does, one
// that a SnapshotDelta's Apply has just written, whose bytes it hashed to sum (the
// delta's Sum, which Apply checked) as it wrote them: the checksum that ends the file
// must be sum, but the file (1.5 GB at a million gigs) is not hashed again. A restart
// reads the file with ReadSnapshotFile, which does.
func ReadAppliedSnapshotFile(path string, sum uint64) (*Snapshot, error) {
	return readSnapshotFile(path, &sum)
}
