package gzipbytes

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// Compress returns the gzip member, at level (gzip.HuffmanOnly to gzip.BestCompression),
// of raw, in a slice of its exact size.
func Compress(raw []byte, level int) ([]byte, error) {
	zw, err := acquire(level)
	if err != nil {
		return nil, err
	}
	defer pools[level-gzip.HuffmanOnly].Put(zw)
	buf, _ := compressed.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer compressed.Put(buf)
	buf.Reset()
	buf.Grow(len(raw)/4 + 64)
	zw.Reset(buf)
	if _, err := zw.Write(raw); err != nil {
		return nil, fmt.Errorf("cannot compress body: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("cannot compress body: %w", err)
	}
	return bytes.Clone(buf.Bytes()), nil
}

// compressed keeps the buffers bodies are compressed into before they are copied out at
// their exact size.
var compressed sync.Pool

// pools keep compressors by level, indexed by level - gzip.HuffmanOnly.
var pools [gzip.BestCompression - gzip.HuffmanOnly + 1]sync.Pool

func acquire(level int) (*gzip.Writer, error) {
	if level < gzip.HuffmanOnly || level > gzip.BestCompression {
		return nil, fmt.Errorf("gzip level %d out of range", level)
	}
	if zw, ok := pools[level-gzip.HuffmanOnly].Get().(*gzip.Writer); ok {
		return zw, nil
	}
	return gzip.NewWriterLevel(io.Discard, level)
}
