// Package crc combines CRC-32 (IEEE) checksums: given the checksums of A and B and the
// length of B, Combine returns the checksum of A‖B without reading either, as zlib's
// crc32_combine does, so that a stream made of parts whose checksums are kept is
// checksummed in a few operations per part. It knows nothing of what the bytes are; it
// imports the standard library only, and its tables are built once, on first use, and
// only read after.
package crc
