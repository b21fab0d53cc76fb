package binfile

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"
)

// A Reader reads the sections of a file held in memory. Its first error stops every
// later read and is returned by Done.
type Reader struct {
	data []byte // the file less its checksum
	at   int
	err  error
}

var errDamaged = errors.New("damaged: its checksum does not match")

// NewReader returns a Reader of the sections of data from offset at, past the caller's
// header, if the checksum that ends data matches; data must hold at least at+8 bytes.
func NewReader(data []byte, at int) (*Reader, error) {
	body := data[:len(data)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(data[len(data)-8:]) {
		return nil, errDamaged
	}
	return &Reader{data: body, at: at}, nil
}

// NewReaderSummed returns a Reader of the sections of data as NewReader does, of a file
// whose bytes the caller hashed as it wrote them, to sum (see Writer.Sum): the checksum
// that ends data must be sum, and data is not hashed again.
func NewReaderSummed(data []byte, at int, sum uint64) (*Reader, error) {
	body := data[:len(data)-8]
	if binary.LittleEndian.Uint64(data[len(data)-8:]) != sum {
		return nil, errDamaged
	}
	return &Reader{data: body, at: at}, nil
}

// Fail records err, unless an error is recorded already.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Section returns the next section's bytes, capped: a view of the file's bytes.
func (r *Reader) Section() []byte {
	if r.err != nil {
		return nil
	}
	if len(r.data)-r.at < 8 {
		r.Fail(errors.New("cut short"))
		return nil
	}
	n := binary.LittleEndian.Uint64(r.data[r.at:])
	r.at += 8
	r.at += pad(r.at)
	if r.at > len(r.data) || n > uint64(len(r.data)-r.at) {
		r.Fail(errors.New("cut short"))
		return nil
	}
	b := r.data[r.at : r.at+int(n) : r.at+int(n)]
	r.at += int(n)
	return b
}

// Done returns the first error of the reads, or one if bytes follow the last section read.
func (r *Reader) Done() error {
	if r.err != nil {
		return r.err
	}
	if r.at != len(r.data) {
		return fmt.Errorf("%d bytes after the last section", len(r.data)-r.at)
	}
	return nil
}

// Split returns the sections of data, a whole file, from offset at past the caller's
// header: views of data's bytes. It does not check the file's checksum (NewReader does);
// a file whose sections do not end where its checksum begins is an error.
func Split(data []byte, at int) ([][]byte, error) {
	if len(data) < at+8 {
		return nil, errors.New("cut short")
	}
	r := &Reader{data: data[:len(data)-8], at: at}
	var out [][]byte
	for r.err == nil && r.at < len(r.data) {
		out = append(out, r.Section())
	}
	return out, r.Done()
}

// Checksum returns the checksum that ends data, a whole file, without checking it.
func Checksum(data []byte) uint64 { return binary.LittleEndian.Uint64(data[len(data)-8:]) }
