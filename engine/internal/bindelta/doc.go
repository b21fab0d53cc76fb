// Package bindelta writes a file of binfile sections as a delta against another such
// file (its base), and rebuilds the file from the base and the delta: the same bytes, the
// checksum that ends the file included. It knows nothing of what the sections hold.
//
// A delta holds the file's header whole, and each section as operations on a source:
// copy this many bytes from there, or add these bytes. The source is the section of the
// base at the same place, or one the caller makes on both sides from what it knows of
// the sections (a Predictor): a body compressed from others, positions renumbered. A
// section of words whose values shift between the files (offsets into an arena, which
// every row added or removed before them moves) is coded as the differences of
// neighbouring words, on either side, so that the runs of rows that did not change are
// copies again. Nothing else is assumed: a file unrelated to its base makes a delta as
// large as the file.
//
// The layout, every integer an unsigned varint unless said otherwise:
//
//	"gigs-bindelta\n" version
//	header length, header bytes
//	base checksum, file checksum (8 bytes each, little-endian)
//	file size, section count
//	per section: its source (0 the base's section, k the caller's k-th, see
//	Predictor), transform (one byte: 0 none, 1 differences of 4-byte words, 2 of
//	8-byte words), size, then operations up to size bytes, each:
//	add length, that many bytes, copy length, copy offset (a zigzag varint from the
//	end of the previous copy of the section)
//
// A delta is outside input: Apply caps what it writes at a limit given before a byte is
// written, refuses operations out of their section or that produce nothing, and checks
// the file it rebuilt against the checksum the delta names. It never panics on any input.
package bindelta
