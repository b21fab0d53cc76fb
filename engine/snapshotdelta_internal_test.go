package engine

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestSnapshotDeltaSections holds the section numbers predictSection reads and makes to
// the snapshot file's layout: a file's sections there are the arena, the export's head,
// tail and gzip body.
func TestSnapshotDeltaSections(t *testing.T) {
	s := withTombstone(t)
	secs := fileSections(t, s)
	e := s.Export()
	if len(s.tomb.body) == 0 {
		t.Fatal("no gone gig's JSON to find")
	}
	for _, c := range []struct {
		name string
		at   int
		want []byte
	}{
		{"arena", sectionArena, bytes.Join(s.arena, nil)},
		{"export head", sectionExportHead, e.Head},
		{"export tail", sectionExportTail, e.Tail},
		{"export gzip", sectionExportGzip, bytes.Join(e.Gzip, nil)},
		{"gig ids", sectionIDs, s.ids.arena},
		{"gig hashes", sectionGigHash, u64(s.gigHash)},
		{"gigs' content hashes", sectionContent, u64(s.ledger.content)},
		{"fragments", sectionZArena, bytes.Join(s.zarena, nil)},
		{"gone gigs' JSON", sectionTombBodies, s.tomb.body},
		{"gig ids' offsets", sectionIDs + 1, u32(s.ids.off)},
	} {
		if !bytes.Equal(secs[c.at], c.want) {
			t.Errorf("section %d is not the %s (format %d): renumber predictSection's sections", c.at, c.name, snapshotVersion)
		}
	}
	made := [][][]byte{}
	for _, sec := range secs {
		made = append(made, [][]byte{bytes.Clone(sec)}) // not views of the base's: read
	}
	// The sources made from the file's own sections before them are its sections.
	for _, at := range []int{sectionGigHash, sectionExportGzip, sectionContent} {
		if got, _, err := (&snapshotSources{}).source(at, 1, secs, made[:at]); err != nil || !bytes.Equal(joined(got), secs[at]) {
			t.Errorf("section %d made again differs from the file's (%v)", at, err)
		}
	}
}

func u32(l []uint32) []byte {
	var b []byte
	for _, w := range l {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

func u64(l []uint64) []byte {
	var b []byte
	for _, w := range l {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}
