package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gigs/gigs/testkit/redisserver"
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
		{"dataset", []string{"dataset", "-gigs", "300", "-out", filepath.Join(dir, "dataset"), "-today", "2026-11-22"}, "wrote " + dir + "/dataset: 300 gigs", ""},
		{"no gigs", []string{"dataset", "-gigs", "0", "-out", filepath.Join(dir, "none")}, "", "-gigs must be at least 1"},
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

// TestKeysCommands runs every keys command on a key directory and, through GIGS_REDIS, on
// a real redis-server.
func TestKeysCommands(t *testing.T) {
	t.Run("data-dir", func(t *testing.T) {
		dir := t.TempDir()
		testKeysCommands(t, []string{"-data-dir", dir}, func(string) string { return "" })
	})
	// A mistyped -data-dir, a wrong working directory or an unknown command makes no store:
	// a key created in one would never be accepted.
	t.Run("no store", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "typo")
		noenv := func(string) string { return "" }
		for _, cmd := range [][]string{{"keys", "list", "-data-dir", dir}, {"keys", "revoke", "key_x", "-data-dir", dir},
			{"keys", "lst", "-data-dir", dir}, {"keys", "-h", "-data-dir", dir}} {
			var stdout, stderr bytes.Buffer
			err := run(cmd, noenv, &stdout, &stderr)
			if _, statErr := os.Stat(dir); !errors.Is(statErr, fs.ErrNotExist) {
				t.Errorf("%v made %s (%v)", cmd, dir, err)
			}
			if cmd[1] == "-h" != (err == nil) {
				t.Errorf("%v: %v", cmd, err)
			}
		}
		var stdout, stderr bytes.Buffer
		if err := run([]string{"keys", "create", "-owner", "ops@example.org", "-use", "x", "-data-dir", dir}, noenv, &stdout, &stderr); err != nil ||
			!strings.Contains(stderr.String(), "a new key store") {
			t.Errorf("create in a new directory: %v, stderr %q", err, stderr.String())
		}
	})
	t.Run("redis", func(t *testing.T) {
		srv := redisserver.Start(t)
		getenv := func(k string) string { return map[string]string{"GIGS_REDIS": srv.URL()}[k] }
		var stdout, stderr bytes.Buffer
		for _, cmd := range [][]string{{"keys", "list"}, {"keys", "create", "-owner", "ops@example.org", "-use", "x"}} {
			if err := run(cmd, getenv, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "holds no key store") {
				t.Fatalf("%v before keys init: %v", cmd, err)
			}
		}
		if err := run([]string{"keys", "init"}, getenv, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "ready") {
			t.Fatalf("keys init: %q %v", stdout.String(), err)
		}
		testKeysCommands(t, nil, getenv)
	})
}

func testKeysCommands(t *testing.T, flags []string, getenv func(string) string) {
	run1 := func(args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := run(append(args, flags...), getenv, &stdout, &stderr)
		return stdout.String(), err
	}
	out, err := run1("keys", "create", "-owner", "ops@example.org", "-use", "nightly sync")
	if err != nil || !strings.Contains(out, "gigs_") {
		t.Fatalf("create: %q %v", out, err)
	}
	id := strings.Fields(out)[1]
	key := strings.TrimSpace(out[strings.LastIndex(out, "\n\n"):])
	for _, tt := range []struct {
		args []string
		out  string
		err  string
	}{
		{[]string{"keys", "list"}, id + "  ops@example.org  nightly sync", ""},
		{[]string{"keys", "show", id}, "state:      active", ""},
		{[]string{"keys", "revoke", id, "-reason", "leaked"}, "revoked:", ""},
		{[]string{"keys", "show", id}, "(leaked)", ""},
		{[]string{"keys", "revoke", "key_nope"}, "", `no key "key_nope"`},
		{[]string{"keys", "show"}, "", "needs a key id"},
		{[]string{"keys", "create", "-owner", "nobody", "-use", "x"}, "", "must be an e-mail address"},
		{[]string{"keys", "create", "-owner", "a@example.org"}, "", "needs an owner and a use"},
		{[]string{"keys", "frob"}, "", `unknown keys command "frob"`},
	} {
		out, err := run1(tt.args...)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !strings.Contains(out, tt.out) {
			t.Errorf("%v: %q, %v; want %q", tt.args, out, err, tt.out)
		}
		if strings.Contains(out, key) {
			t.Errorf("%v prints the key again", tt.args)
		}
	}
}
