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
	datasetVersion = 2
)

// datasetBatch is how many gigs one value of a dataset file holds: a reader appends them
// to a slice made at its size once, never growing (and copying) hundreds of megabytes.
const datasetBatch = 4096

// maxDatasetGigs bounds the gigs a dataset file may announce, and so what reading one
// allocates before its gigs are read.
const maxDatasetGigs = 1 << 26

// WriteDataset writes ds to w as a dataset file: a magic line, a version byte, then in
// encoding/gob the dataset without its gigs and their number, and the gigs in batches.
// gigsd -dataset serves such a file (the bench suite writes one of synthetic gigs); Build
// is what checks its content.
func WriteDataset(w io.Writer, ds *Dataset) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(datasetMagic)
	bw.WriteByte(datasetVersion)
	enc := gob.NewEncoder(bw)
	head := *ds
	head.Gigs = nil
	err := enc.Encode(datasetHead{Dataset: head, Gigs: len(ds.Gigs)})
	for lo := 0; err == nil && lo < len(ds.Gigs); lo += datasetBatch {
		err = enc.Encode(ds.Gigs[lo:min(lo+datasetBatch, len(ds.Gigs))])
	}
	if err != nil {
		return fmt.Errorf("cannot encode dataset: %w", err)
	}
	return bw.Flush()
}

// datasetHead is a dataset file's first value.
type datasetHead struct {
	Dataset Dataset // without its gigs
	Gigs    int     // how many follow
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
	dec := gob.NewDecoder(br)
	var top datasetHead
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("cannot decode dataset: %w", err)
	}
	if top.Gigs < 0 || top.Gigs > maxDatasetGigs {
		return nil, fmt.Errorf("cannot decode dataset: %d gigs announced, at most %d read", top.Gigs, maxDatasetGigs)
	}
	ds := top.Dataset
	ds.Gigs = make([]Gig, 0, top.Gigs)
	for len(ds.Gigs) < top.Gigs {
		var batch []Gig // new each time: gob leaves a reused element's zero fields as they were
		if err := dec.Decode(&batch); err != nil {
			return nil, fmt.Errorf("cannot decode dataset: after %d gigs: %w", len(ds.Gigs), err)
		}
		if len(batch) == 0 || len(batch) > top.Gigs-len(ds.Gigs) {
			return nil, fmt.Errorf("cannot decode dataset: a batch of %d gigs after %d of %d", len(batch), len(ds.Gigs), top.Gigs)
		}
		ds.Gigs = append(ds.Gigs, batch...)
	}
	return &ds, nil
}
