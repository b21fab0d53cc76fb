package engine

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
)

// datasetMagic starts a dataset file; the byte after it is the format's version.
const (
	datasetMagic   = "gigs-dataset\n"
	datasetVersion = 1
)

// WriteDataset writes ds to w as a dataset file: a magic line, a version byte, and the
// dataset in encoding/gob. gigsd -dataset serves such a file (the bench suite writes one
// of synthetic gigs); Build is what checks its content.
func WriteDataset(w io.Writer, ds *Dataset) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(datasetMagic)
	bw.WriteByte(datasetVersion)
	if err := gob.NewEncoder(bw).Encode(ds); err != nil {
		return fmt.Errorf("cannot encode dataset: %w", err)
	}
	return bw.Flush()
}

// ReadDataset reads a dataset file WriteDataset wrote. A file that is not one, of another
// version, or cut short is an error.
func ReadDataset(r io.Reader) (*Dataset, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head := make([]byte, len(datasetMagic)+1)
	if _, err := io.ReadFull(br, head); err != nil || string(head[:len(datasetMagic)]) != datasetMagic {
		return nil, fmt.Errorf("not a dataset file")
	}
	if v := head[len(datasetMagic)]; v != datasetVersion {
		return nil, fmt.Errorf("dataset file of version %d; this build reads version %d", v, datasetVersion)
	}
	var ds Dataset
	if err := gob.NewDecoder(br).Decode(&ds); err != nil {
		return nil, fmt.Errorf("cannot decode dataset: %w", err)
	}
	return &ds, nil
}
