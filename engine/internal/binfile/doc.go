// Package binfile writes and reads files of sections: after a header of the caller's, each
// section is a little-endian uint64 byte length, zero padding to an Align-byte boundary of
// the file, and its bytes; the file ends with the xxhash64 of everything before it.
// Sections start at Align-byte boundaries so that a file mapped at a page boundary is read
// in place: a section of words is viewed as a slice of them, without a copy, where the
// host stores them as the file does (little-endian) and they are aligned.
//
// A Codec writes or reads sections with the same calls, so that one function lists a
// file's sections for both: what the sections mean, and whether what is read from them is
// consistent, is the caller's. A Reader's sections are views of the bytes it was given,
// which must not be written while they are in use. The package knows nothing of what the
// files hold; it imports the standard library and xxhash only.
package binfile
