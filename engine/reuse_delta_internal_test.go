package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gigs/gigs/engine/internal/binfile"
)

// TestDeltaFragmentsUseBaseCode: a delta's source of the gigs' fragments, made from its
// base and the file's sections, is the file's fragments byte for byte when the file was
// built with the base as Prev, changed gigs compressed with the base's code.
func TestDeltaFragmentsUseBaseCode(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ds := &Dataset{
		Cities: []City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
		Venues: []Venue{{Slug: "big", Name: "Big", City: "berlin"}},
	}
	for i := range 40 {
		ds.Gigs = append(ds.Gigs, Gig{ID: fmt.Sprintf("g%02d", i), Title: fmt.Sprintf("Night %d", i), Venue: "big", Start: now.Add(time.Duration(i+1) * time.Hour)})
	}
	prev, err := Build(ds, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 { // half the bodies unlike any before: a sample of them makes another code
		ds.Gigs[i].Title = fmt.Sprintf("Всё новое «%d» ~ ünïcode ~ %d", i, i*7919)
	}
	s, err := Build(ds, Options{Now: now.Add(time.Hour), Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	base, file := fileSections(t, prev), fileSections(t, s)
	var made [][][]byte
	for _, sec := range file[:sectionZArena] {
		made = append(made, [][]byte{sec})
	}
	p := &snapshotSources{}
	got, err := p.fragments(base, made)
	if err != nil {
		t.Fatal(err)
	}
	if got := joined(got); !bytes.Equal(got, file[sectionZArena]) {
		t.Errorf("the fragments made from the base (%d bytes) are not the file's (%d bytes)", len(got), len(file[sectionZArena]))
	}
	if !bytes.Equal(p.zoff, file[sectionZArena+1]) {
		t.Errorf("the fragments' offsets made are not the file's")
	}
}

// fileSections writes s to a snapshot file and returns the file's sections.
func fileSections(t testing.TB, s *Snapshot) [][]byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "snapshot")
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	secs, err := binfile.Split(data, snapshotHead)
	if err != nil {
		t.Fatal(err)
	}
	return secs
}
