//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesSpecialFiles puts what is not a regular file where a file is read: each is
// refused at once, naming the path. A FIFO would block the open until a writer came.
func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, link, dir, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, err := Read(path, 100); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %v", path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading after 5 s", path)
		}
	}
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("ok"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(regular, link+"2"); err != nil {
		t.Fatal(err)
	}
	if f, size, err := OpenRegular(link + "2"); err != nil || size != 2 {
		t.Errorf("a link to a regular file: %d, %v", size, err)
	} else {
		f.Close()
	}
}
