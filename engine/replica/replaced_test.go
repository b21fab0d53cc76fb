package replica_test

import (
	"os"
	"strings"
	"testing"
)

// TestServedFileReplaced replaces the follower's snapshot file under it, as a disk or an
// operator could, between two publishes: by another snapshot file, by a copy with a byte
// flipped that still ends with the served snapshot's checksum (so it passes for the base
// of the delta), by a file cut short. The follower never serves what a delta makes of
// it: it falls back to the whole object, counted and logged, and serves the publisher's
// file byte for byte.
func TestServedFileReplaced(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace func(served, other []byte) []byte
	}{
		{"another snapshot file", func(_, other []byte) []byte { return other }},
		{"a byte flipped, its checksum kept", func(served, _ []byte) []byte {
			b := append([]byte(nil), served...)
			b[len(b)/2] ^= 1
			return b
		}},
		{"cut short, its checksum kept", func(served, _ []byte) []byte {
			return append(append([]byte(nil), served[:len(served)/3]...), served[len(served)-8:]...)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bucket(t)
			r := newRefresher(t, b, 600, 1) // every snapshot whole too, and a delta beside
			f := newDeltaFollower(t, b)
			r.refresh()
			other := r.file()
			r.refresh()
			f.poll(t, r, "the second publish")
			served, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			// A new file renamed into place, as a copy would be: the served snapshot keeps
			// the mapping of the file it was read from.
			tmp := f.Path + ".replaced"
			if err := os.WriteFile(tmp, tc.replace(served, other), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, f.Path); err != nil {
				t.Fatal(err)
			}
			m := r.refresh()
			f.poll(t, r, "the publish after the file was replaced")
			if got := f.metric(t, "gigs_follow_deltas_total", "ok"); got != 0 {
				t.Fatalf("%v deltas applied to a replaced file, want none", got)
			}
			fellBack := f.metric(t, "gigs_follow_delta_fallbacks_total", "") == 1
			if tc.name != "another snapshot file" && (!fellBack || !strings.Contains(f.logs.String(), m.Object)) {
				t.Fatalf("no fallback counted, or not logged with %s:\n%s", m.Object, f.logs)
			}
		})
	}
}

// TestServedLogsSteps follows a publish whole and then a delta: each log line of a
// snapshot served times the steps the poll took, a delta's with its application.
func TestServedLogsSteps(t *testing.T) {
	b := bucket(t)
	r := newRefresher(t, b, 300, 3)
	f := newDeltaFollower(t, b)
	for i, steps := range [][]string{{"manifest", "download", "read", "publish"}, {"manifest", "download", "apply", "read", "publish"}} {
		r.refresh()
		f.poll(t, r, "a publish")
		lines := strings.Split(strings.TrimSpace(f.logs.String()), "\n")
		served := lines[len(lines)-1]
		if !strings.Contains(served, "published snapshot served") {
			t.Fatalf("publish %d: the last log line is not the snapshot served: %s", i, served)
		}
		for _, s := range steps {
			if !strings.Contains(served, " "+s+"=") {
				t.Errorf("publish %d: no %s in %s", i, s, served)
			}
		}
		if strings.Contains(served, " apply=") != (i == 1) {
			t.Errorf("publish %d: apply logged %v, want %v: %s", i, !(i == 1), i == 1, served)
		}
	}
}
