// Package deflate compresses many short bodies into deflate fragments with one shared
// Huffman code, and writes gzip members made of such fragments and stored bytes, so that
// a body assembled from parts compressed once is sent gzip without compressing it again.
//
// A Coder is made once from a sample of the bodies (NewCoder), or read back from the
// header of a fragment it wrote (ReadCoder): every byte, length and distance has a code
// in it, so any body can be compressed with it, whatever the sample held. A fragment (Coder.AppendFragment) is one dynamic-Huffman block, not final, whose
// matches reach only inside its own body, then an empty stored block that ends it on a
// byte boundary: fragments and stored blocks may follow one another in any order, and a
// final block ends the stream. A Coder is immutable and may be used from any number of
// goroutines; each compresses with a Matcher of its own.
//
// A GzipWriter appends a gzip member: its header, stored blocks, fragments and its
// trailer, whose CRC-32 is kept as the parts are written, and combined from a part's
// known checksum where the caller has one (see package crc). The package knows nothing
// of what the bodies are; it imports the standard library and package crc only.
package deflate
