// Package gzipbytes gzip-compresses bodies that are rendered once and served many times:
// Compress a small one whole, with a compressor from a pool (one holds about a megabyte of
// state, too much to allocate per body), and a PartsWriter a large one in blocks on
// several goroutines (or on the caller's alone, in the same bytes), into parts of a fixed
// size, so that no buffer of its size is grown or copied. Either makes one gzip member.
// The package knows nothing of what the bodies are; it imports the standard library,
// klauspost/compress and klauspost/pgzip only.
package gzipbytes
