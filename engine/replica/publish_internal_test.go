package replica

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// TestDeltaCapped writes deltas through a capWriter: one over its cap stops there, having
// written no more than it, with errOverCap (a publisher then uploads the file whole), and
// one under it is written whole.
func TestDeltaCapped(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var paths []string
	for i, seed := range []uint64{1, 2} { // unrelated data: a delta of about the file's size
		s, err := engine.Build(scale.Generate(scale.Config{Gigs: 400, Seed: seed, Now: now}), engine.Options{Now: now.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, filepath.Join(dir, string(rune('a'+i))))
		if err := s.WriteFile(paths[i]); err != nil {
			t.Fatal(err)
		}
	}
	var whole bytes.Buffer
	if err := engine.WriteSnapshotDelta(&whole, paths[0], paths[1]); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cap  int64
		want error
	}{
		{int64(whole.Len()) / 3, errOverCap},
		{int64(whole.Len()) - 1, errOverCap},
		{int64(whole.Len()), nil},
	} {
		var out bytes.Buffer
		err := engine.WriteSnapshotDelta(&capWriter{w: &out, left: tc.cap}, paths[0], paths[1])
		if !errors.Is(err, tc.want) || int64(out.Len()) > tc.cap {
			t.Errorf("cap %d of a delta of %d bytes: %v after %d bytes, want %v", tc.cap, whole.Len(), err, out.Len(), tc.want)
		}
		if tc.want == nil && !bytes.Equal(out.Bytes(), whole.Bytes()) {
			t.Errorf("cap %d: the delta written differs", tc.cap)
		}
	}
}
