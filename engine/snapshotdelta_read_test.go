package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestReadAppliedSnapshotFile reads the file a delta's Apply wrote with the sum Apply
// hashed it to: the snapshot ReadSnapshotFile reads; another sum is refused.
func TestReadAppliedSnapshotFile(t *testing.T) {
	dir := t.TempDir()
	pa, pb := refreshFiles(t, dir, 300, scale.Churn{Edited: 0.02, Added: 0.01, Removed: 0.01, Seed: 5})
	d, err := os.Create(filepath.Join(dir, "delta"))
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.WriteSnapshotDelta(d, pa, pb); err != nil {
		t.Fatal(err)
	}
	d.Close()
	sd, err := engine.OpenSnapshotDelta(d.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	made, err := os.Create(filepath.Join(dir, "made"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sd.Apply(made, pa, 1<<30); err != nil {
		t.Fatal(err)
	}
	made.Close()
	want, err := engine.ReadSnapshotFile(pb)
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.ReadAppliedSnapshotFile(made.Name(), sd.Sum())
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != want.Len() || got.Version() != want.Version() || string(got.GigJSON(7)) != string(want.GigJSON(7)) {
		t.Errorf("read %d gigs of version %s, the file's %d of %s", got.Len(), got.Version(), want.Len(), want.Version())
	}
	if _, err := engine.ReadAppliedSnapshotFile(made.Name(), sd.Sum()+1); err == nil {
		t.Error("a file read with a sum other than its checksum")
	}
}
