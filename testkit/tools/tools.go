// Package tools finds the programs tests drive (redis-server, nginx, prometheus, …).
package tools

import (
	"os"
	"os/exec"
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
