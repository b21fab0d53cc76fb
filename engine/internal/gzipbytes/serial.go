package gzipbytes

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"time"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/pgzip"
)

// pgzip's block layout, which serialWriter makes again: blocks of blockSize bytes, each
// compressed with the previous block's last tailSize bytes as its dictionary and ended
// with a sync flush, the last one closed.
const (
	blockSize = 1 << 20 // as PartsWriter sets it (SetConcurrency)
	tailSize  = 16384   // pgzip's
)

// serialWriter writes the bytes a pgzip.Writer with blocks of blockSize writes for the
// same input, every block compressed on the caller's goroutine as it fills. pgzip
// compresses each block on a goroutine of its own, even one block at a time; those run
// wherever the scheduler puts them, so a caller that runs its work on a thread of its own
// at a low priority (gigsd's refresh) would have the compression compete with the
// server's requests as their equal. TestSerialWriterIsPgzip holds the bytes equal, so
// that a snapshot's compressed export does not depend on how many workers made it.
type serialWriter struct {
	w          io.Writer
	fw         *flate.Writer
	level      int
	block      []byte // filling, up to blockSize
	tail       []byte // the last block's end, the next one's dictionary; nil at first
	out        bytes.Buffer
	crc        uint32
	size       uint32
	header     bool
	closed     bool
	err        error
	headerTime uint32
}

func newSerialWriter(w io.Writer, level int) (*serialWriter, error) {
	fw, err := flate.NewWriterDict(nil, level, nil)
	if err != nil {
		return nil, err
	}
	// pgzip writes the Unix time of its zero ModTime, truncated.
	return &serialWriter{w: w, fw: fw, level: level, block: make([]byte, 0, blockSize),
		headerTime: uint32(time.Time{}.Unix())}, nil
}

// Write implements io.Writer.
func (z *serialWriter) Write(p []byte) (int, error) {
	if z.err == nil && !z.header {
		z.writeHeader()
	}
	n := len(p)
	for z.err == nil && len(p) > 0 {
		k := min(len(p), blockSize-len(z.block))
		z.crc = crc32.Update(z.crc, crc32.IEEETable, p[:k])
		z.size += uint32(k)
		z.block = append(z.block, p[:k]...)
		p = p[k:]
		if len(z.block) == blockSize {
			z.compress(false)
		}
	}
	if z.err != nil {
		return 0, z.err
	}
	return n, nil
}

func (z *serialWriter) writeHeader() {
	z.header = true
	h := [10]byte{0: 0x1f, 1: 0x8b, 2: 8, 9: 255}
	binary.LittleEndian.PutUint32(h[4:8], z.headerTime)
	switch z.level {
	case pgzip.BestCompression:
		h[8] = 2
	case pgzip.BestSpeed:
		h[8] = 4
	}
	_, z.err = z.w.Write(h[:])
}

// compress compresses the block, last or not, writes it out and keeps its end as the
// next block's dictionary.
func (z *serialWriter) compress(last bool) {
	z.out.Reset()
	z.fw.ResetDict(&z.out, z.tail)
	_, _ = z.fw.Write(z.block) // into a bytes.Buffer: no error
	_ = z.fw.Flush()
	if last {
		_ = z.fw.Close()
	}
	if _, err := z.w.Write(z.out.Bytes()); err != nil {
		z.err = err
		return
	}
	z.tail = z.tail[:0]
	if len(z.block) > tailSize {
		z.tail = append(z.tail, z.block[len(z.block)-tailSize:]...)
	} else {
		z.tail = nil
	}
	z.block = z.block[:0]
}

// Close compresses the last block (empty when the input filled whole blocks, as pgzip's
// is) and writes the trailer.
func (z *serialWriter) Close() error {
	if z.closed || z.err != nil {
		return z.err
	}
	z.closed = true
	if !z.header {
		z.writeHeader()
	}
	if z.err == nil {
		z.compress(true)
	}
	if z.err == nil {
		var t [8]byte
		binary.LittleEndian.PutUint32(t[0:4], z.crc)
		binary.LittleEndian.PutUint32(t[4:8], z.size)
		_, z.err = z.w.Write(t[:])
	}
	return z.err
}
