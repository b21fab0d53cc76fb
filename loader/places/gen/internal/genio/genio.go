// Package genio holds what the gazetteer's generators share: reading a package's JSON
// file, and writing a table gzipped, as package places embeds it.
package genio

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"log"
	"os"
)

// ReadJSON decodes the JSON file at path into v; it exits on an error.
func ReadJSON(path string, v any) {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
}

// WriteGzip writes text to path gzipped at the best compression, and returns the size
// written; it exits on an error.
func WriteGzip(path string, text []byte) int {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(text)
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	return z.Len()
}
