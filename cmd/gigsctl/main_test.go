package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		out  string
		err  string
	}{
		{"demo", []string{"demo", "-out", dir, "-today", "2026-11-22", "-seed", "3"}, "wrote " + dir, ""},
		{"bad day", []string{"demo", "-out", dir, "-today", "22/11/2026"}, "", "-today: want YYYY-MM-DD"},
		{"no command", nil, "", "no command"},
		{"unknown command", []string{"frobnicate"}, "", `unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(tt.args, func(string) string { return "" }, &stdout, &stderr)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !strings.Contains(stdout.String(), tt.out) {
			t.Errorf("%s: output %q, error %v", tt.name, stdout.String(), err)
		}
	}
	if day, err := os.ReadFile(filepath.Join(dir, "GENERATED")); err != nil || strings.TrimSpace(string(day)) != "2026-11-22" {
		t.Errorf("GENERATED = %q, %v", day, err)
	}
}
