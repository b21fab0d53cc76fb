package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gigs/gigs/testkit/tools"
)

// TestDocumentedPrometheusExamples has promtool check the Prometheus configuration and
// alerting rules of docs/operations.md, so that an operator can paste them as they are.
func TestDocumentedPrometheusExamples(t *testing.T) {
	promtool := tools.Need(t, "promtool")
	readme, err := os.ReadFile(operationsDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	checked := 0
	for _, b := range blocks {
		var what string
		switch {
		case strings.HasPrefix(b[1], "groups:"):
			what = "rules"
		case strings.HasPrefix(b[1], "scrape_configs:"):
			what = "config"
		default:
			continue
		}
		path := filepath.Join(t.TempDir(), what+".yml")
		if err := os.WriteFile(path, []byte(b[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(promtool, "check", what, path).CombinedOutput(); err != nil {
			t.Errorf("promtool check %s: %v\n%s\n%s", what, err, out, b[1])
		}
		checked++
	}
	if checked != 2 {
		t.Errorf("checked %d blocks, want the scrape configuration and the rules", checked)
	}
}
