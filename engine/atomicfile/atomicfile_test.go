package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.json")
	for _, content := range []string{"first", "second, longer", "3"} {
		if err := Write(path, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path, 100)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
	if err := Write(filepath.Join(dir, "missing", "x"), []byte("x"), 0o600); err == nil || !strings.Contains(err.Error(), "missing/x") {
		t.Errorf("write into a missing directory: %v", err)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"empty": "", "blank": " \n\t\n"} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o600)
		if _, err := Read(path, 100); err == nil || !strings.Contains(err.Error(), "is empty") || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "none"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	// A file larger than its kind may be is refused before it is read: a sparse one of
	// 16 GiB costs nothing to make and would take as much memory.
	huge := filepath.Join(dir, "huge")
	if err := os.WriteFile(huge, nil, 0o600); err != nil || os.Truncate(huge, 16<<30) != nil {
		t.Fatal(err)
	}
	if _, err := Read(huge, 1<<20); err == nil || !strings.Contains(err.Error(), "more than the 1048576") || !strings.Contains(err.Error(), huge) {
		t.Errorf("16 GiB: %v", err)
	}
	full := filepath.Join(dir, "full")
	os.WriteFile(full, []byte("12345"), 0o600)
	if got, err := Read(full, 5); err != nil || string(got) != "12345" {
		t.Errorf("at the limit: %q, %v", got, err)
	}
	if _, err := Read(full, 4); err == nil {
		t.Error("over the limit: no error")
	}
}

func TestClean(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".keys.json.tmp-1", ".keys.json.tmp-2", ".key-secret.tmp-3", "keys.json", ".hidden"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600)
	}
	if err := Clean(filepath.Join(dir, "keys.json")); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); got != ".hidden .key-secret.tmp-3 keys.json" {
		t.Errorf("after Clean: %s", got)
	}
	if err := CleanDir(dir); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); got != ".hidden keys.json" {
		t.Errorf("after CleanDir: %s", got)
	}
}

func names(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return strings.Join(out, " ")
}

// TestSyncDir syncs a directory, and fails naming what is not there.
func TestSyncDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  string
		ok   bool
	}{
		{"a directory", t.TempDir(), true},
		{"missing", filepath.Join(t.TempDir(), "gone"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := SyncDir(tc.dir); (err == nil) != tc.ok {
				t.Errorf("SyncDir(%s): %v, want ok %v", tc.dir, err, tc.ok)
			}
		})
	}
}
