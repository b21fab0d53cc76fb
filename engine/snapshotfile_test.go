package engine_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// roundTrip writes s to a snapshot file and reads it back.
func roundTrip(t testing.TB, s *engine.Snapshot) *engine.Snapshot {
	t.Helper()
	path := filepath.Join(t.TempDir(), "snapshot")
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := engine.ReadSnapshotFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSnapshotFileRoundTrip checks that a snapshot read from its file serves the same
// bytes as the one built: every gig, body, venue and meta (queries are checked against the
// oracle by TestQueryMatchesReference, on both).
func TestSnapshotFileRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 30_000} {
		ds := scale.Generate(scale.Config{Gigs: n, Seed: 3, Now: now})
		if n == 0 {
			ds = &engine.Dataset{}
		}
		s := build(t, ds)
		got := roundTrip(t, s)
		if got.Version() != s.Version() || !got.Built().Equal(s.Built()) || got.Counts() != s.Counts() || got.Len() != s.Len() {
			t.Fatalf("%d gigs: read %s %v %+v, built %s %v %+v", n, got.Version(), got.Built(), got.Counts(), s.Version(), s.Built(), s.Counts())
		}
		if engine.BitmapsChecksum(got) != engine.BitmapsChecksum(s) {
			t.Errorf("%d gigs: the postings differ", n)
		}
		if !bytes.Equal(bytes.Join(got.GigsJSON(), nil), bytes.Join(s.GigsJSON(), nil)) {
			t.Errorf("%d gigs: the gigs differ", n)
		}
		for i := range s.Len() {
			id := pageIDs(t, s, []int{i})[0]
			b, ok := got.GigByID(id)
			if !ok || !bytes.Equal(b, s.GigJSON(i)) {
				t.Fatalf("%d gigs: gig %q not found by id, or different", n, id)
			}
		}
		for name, pair := range map[string][2]*engine.Body{"cities": {got.Cities(), s.Cities()}, "venues": {got.Venues(), s.Venues()},
			"artists": {got.Artists(), s.Artists()}, "genres": {got.Genres(), s.Genres()}} {
			sameBody(t, name, pair[0], pair[1])
		}
		for i := range s.Counts().Venues {
			if !bytes.Equal(got.VenueItem(i), s.VenueItem(i)) {
				t.Fatalf("venue item %d differs", i)
			}
		}
		for _, v := range ds.Venues {
			a, okA := got.Venue(v.Slug)
			b, okB := s.Venue(v.Slug)
			if okA != okB || a.ETag != b.ETag || okA && (!bytes.Equal(engine.VenueBytes(t, a, false), engine.VenueBytes(t, b, false)) ||
				!bytes.Equal(engine.VenueBytes(t, a, true), engine.VenueBytes(t, b, true))) {
				t.Fatalf("venue %q differs", v.Slug)
			}
		}
		if _, ok := got.Venue("no-such-venue"); ok {
			t.Error("an unknown venue is found")
		}
		ea, eb := got.Export(), s.Export()
		if ea.Size != eb.Size || ea.ETag != eb.ETag || ea.GzipSize != eb.GzipSize || !bytes.Equal(bytes.Join(ea.Gzip, nil), bytes.Join(eb.Gzip, nil)) ||
			!bytes.Equal(ea.Head, eb.Head) || !bytes.Equal(ea.Tail, eb.Tail) {
			t.Error("the export differs")
		}
		next := now.Add(time.Hour)
		if !bytes.Equal(got.AppendMeta(nil, next), s.AppendMeta(nil, next)) {
			t.Error("/v1/meta differs")
		}
	}
}

func sameBody(t *testing.T, name string, a, b *engine.Body) bool {
	t.Helper()
	if !bytes.Equal(a.Raw, b.Raw) || !bytes.Equal(a.Gzip, b.Gzip) || (a.Gzip == nil) != (b.Gzip == nil) || a.ETag != b.ETag {
		t.Errorf("%s: body differs", name)
		return false
	}
	return true
}

// TestBadSnapshotFiles checks that a file that is not a whole snapshot of this version is
// an error naming it, never a panic.
func TestBadSnapshotFiles(t *testing.T) {
	s := build(t, scale.Generate(scale.Config{Gigs: 2000, Seed: 3, Now: now}))
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := s.WriteFile(good); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := bytes.Clone(data)
		b[i] ^= 0x40
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a snapshot file"},
		{"other file", []byte(`{"data":[]}` + strings.Repeat(" ", 64)), "not a snapshot file"},
		{"other version", flip(len("gigs-snapshot\n")), "format version"},
		{"cut in half", data[:len(data)/2], "checksum"},
		{"last byte lost", data[:len(data)-1], "checksum"},
		{"a byte changed", flip(len(data) / 3), "checksum"},
		{"checksum changed", flip(len(data) - 1), "checksum"},
		{"bytes added", append(bytes.Clone(data), 0), "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := engine.ReadSnapshotFile(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("got %v, want an error naming the file and saying %q", err, tc.want)
			}
		})
	}
	if _, err := engine.ReadSnapshotFile(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not-exist", err)
	}
	if _, err := engine.ReadSnapshotFile(dir); err == nil {
		t.Error("a directory is read as a snapshot")
	}
}
