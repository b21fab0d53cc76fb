package main

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/testkit/emulator"
)

// TestSourcesCheckTimeout checks a platform that pages forever (one new event and a new
// token a page) with a timeout of 1s in the sources file: the check stops there and says
// so, rather than paging to the cap of 2,000 requests at 4 a second.
func TestSourcesCheckTimeout(t *testing.T) {
	plat := &emulator.Endless{}
	up := httptest.NewServer(plat)
	defer up.Close()
	dir := t.TempDir()
	cfg := fmt.Sprintf(`{"allow_networks": ["127.0.0.1/32"], "platforms": [{"name": "forever", "kind": "continuation",
		"url": %q, "credential_env": "FOREVER_KEY", "timeout": "1s"}]}`, up.URL+"/v3/events")
	if err := os.WriteFile(filepath.Join(dir, "sources.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	start := time.Now()
	err := run([]string{"sources", "check", "-sources", filepath.Join(dir, "sources.json")},
		func(k string) string { return map[string]string{"FOREVER_KEY": "k"}[k] }, &stdout, &stderr)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the check took %v", took)
	}
	if err == nil || !strings.Contains(err.Error(), "1 source(s) failed") {
		t.Errorf("error %v", err)
	}
	if re := `(?m)^forever: FAILED after \S+: over its time budget: fetching took longer than 1s \(its timeout`; !regexp.MustCompile(re).MatchString(stdout.String()) {
		t.Errorf("no line matches %s in:\n%s", re, stdout.String())
	}
	if n := plat.Pages.Load(); n < 2 {
		t.Errorf("%d pages", n)
	}
}
