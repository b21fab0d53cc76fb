package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// missingTool skips the test for a missing tool, or fails it when GIGS_REQUIRE_TOOLS is set
// (make test sets it, having installed the tools).
func missingTool(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("GIGS_REQUIRE_TOOLS") != "" {
		t.Fatal(err)
	}
	t.Skip(err)
}

// TestSmoke runs the bench suite's smoke mode end to end, as make test does: gigsd and
// this runner built, a small dataset, one short run of each measurement. It checks that the
// report has every goal and figures that are not zero, not that the goals are met.
func TestSmoke(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		missingTool(t, fmt.Errorf("wrk is not installed; make tools installs it: %w", err))
	}
	dir := t.TempDir()
	for _, b := range [][2]string{{"gigsd", "../../cmd/gigsd"}, {"run", "."}} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, b[0]), b[1]).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	out := filepath.Join(dir, "out")
	history := filepath.Join(dir, "history.md")
	cmd := exec.Command(filepath.Join(dir, "run"), "-mode", "smoke", "-out", out, "-gigsd", filepath.Join(dir, "gigsd"),
		"-history", history, "-note", "smoke | test")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bench -mode smoke: %v\n%s", err, b)
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Goals", "of the ceiling", "p99 at half of peak load", "first byte", "failed requests across 3 swaps", "**page run**", "### Discovery queries", "### Typeahead", "p99 at half of its peak load", "sort=distance, run for each request", "near, 25 km, and q, one common word", "mix vs the static server answering the same 1,000 requests", "the same filtered query run for each request (no memo) vs the ceiling (2k gigs)",
		"## Refresh", "rebuild after 4% of gigs changed", "a follower applying it, from its publication to the first answer from it (2k gigs)", "mix ceiling: taskset", "## Commands", "taskset -c 1 wrk", "typeahead half, ceiling: taskset -c 1 wrk"} {
		if !strings.Contains(string(report), want) && !strings.Contains(string(report), strings.ReplaceAll(want, "of the ceiling", "vs the ceiling")) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	// The size row: every rate is a positive number.
	row := regexp.MustCompile(`(?m)^\| 2k \| ([\d.]+) s \| ([\d.]+) \| .* \| ([\d.]+) \| ([\d.]+) \| (\d+)% \|`).FindStringSubmatch(string(report))
	if row == nil {
		t.Fatalf("no 2k row in the report:\n%s", report)
	}
	for _, v := range row[2:] {
		if strings.Trim(v, "0.") == "" {
			t.Errorf("a zero figure in %q", row[0])
		}
	}
	// The follower took the refresh by a delta, and downloaded bytes for it.
	share := regexp.MustCompile(`(?m)^\| bytes a follower downloads for that refresh, of the whole snapshot object \(2k gigs\) \| ≤ 5% \| ([\d.]+)% \([\d.]+ of [\d.]+ MB; deltas applied: 1, fallbacks to the whole object: 0\) \|`).FindSubmatch(report)
	if share == nil || strings.Trim(string(share[1]), "0.") == "" {
		t.Errorf("the report lacks the follower's bytes, downloaded by one delta:\n%s", report)
	}
	if chart, err := os.ReadFile(filepath.Join(out, "chart.svg")); err != nil || !strings.Contains(string(chart), "<polyline") {
		t.Errorf("chart.svg: %v", err)
	}
	// The history: a title, the goals' header and one row with the run's note.
	h, err := os.ReadFile(history)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^# Bench history\n[^|]*\n\| date \| commit \| mode \| note \| filtered .* \| goals met \|\n\|(---\|)+\n\| \d{4}-\d\d-\d\d \| \w+ \| smoke \| smoke \\\| test \| .* \| \d+ of \d+ \|\n$`).Match(h) {
		t.Errorf("bench history:\n%s", h)
	}
}
