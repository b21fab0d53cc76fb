package mapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestMap maps a file and finds its bytes, then the same bytes after the file has been
// replaced by another (as a snapshot file is): the mapping keeps the file it mapped.
func TestMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file")
	want := bytes.Repeat([]byte("mapped "), 1000)
	if err := os.WriteFile(path, want, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Map(f, len(want))
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer m.UnmapAfter(0)
	if !bytes.Equal(m.Bytes(), want) {
		t.Fatalf("mapped %d bytes, want the file's %d", len(m.Bytes()), len(want))
	}
	other := path + ".new"
	if err := os.WriteFile(other, []byte("another file"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.Bytes(), want) {
		t.Fatal("the mapping changed when its file was replaced")
	}
}
