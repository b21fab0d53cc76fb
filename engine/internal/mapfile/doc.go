// Package mapfile gives a file's bytes to a reader without reading them into fresh
// memory: Map maps a regular file read-only (on Linux; elsewhere it reads the file into a
// buffer of its size), and UnmapAfter hands the pages back at once and removes the
// mapping only after a grace period, so that whoever still holds a slice of it (a
// response being written) finishes first. The bytes must never be written, and the file
// must not be changed in place while it is mapped (replacing it with another file is
// safe). It imports the standard library only.
package mapfile
