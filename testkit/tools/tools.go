// Package tools finds the programs tests drive (redis-server, nginx, prometheus, …).
package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Need returns the path of the program name. When it is missing the test is skipped,
// unless GIGS_REQUIRE_TOOLS is set (make test sets it, having installed them): then it
// fails.
func Need(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("GIGS_REQUIRE_TOOLS") != "" {
			t.Fatalf("%s is not installed (make tools installs it): %v", name, err)
		}
		t.Skipf("%s is not installed; make tools installs it", name)
	}
	return path
}

// NeedInstalled returns the path of a program make tools installs under var/tools of the
// repository (rel, such as "inspector/node_modules/.bin/mcp-inspector"), skipping or
// failing as Need does when it is missing.
func NeedInstalled(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	for err == nil {
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			err = os.ErrNotExist
		}
		dir = parent
	}
	path := filepath.Join(dir, "var", "tools", rel)
	if err == nil {
		_, err = os.Stat(path)
	}
	if err != nil {
		if os.Getenv("GIGS_REQUIRE_TOOLS") != "" {
			t.Fatalf("%s is not installed (make tools installs it): %v", rel, err)
		}
		t.Skipf("%s is not installed; make tools installs it", rel)
	}
	return path
}
