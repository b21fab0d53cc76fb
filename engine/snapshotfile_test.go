package engine_test

import (
	"bytes"
	"fmt"
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
		sameSnapshot(t, fmt.Sprintf("%d gigs", n), ds, roundTrip(t, s), s)
	}
}

// sameSnapshot fails t unless got serves what want serves: every gig, body, venue, page
// (identity and gzip), the export and meta; ds is the dataset want was built from.
func sameSnapshot(t *testing.T, name string, ds *engine.Dataset, got, want *engine.Snapshot) {
	t.Helper()
	if got.Version() != want.Version() || !got.Built().Equal(want.Built()) || got.Counts() != want.Counts() || got.Len() != want.Len() {
		t.Fatalf("%s: got %s %v %+v, want %s %v %+v", name, got.Version(), got.Built(), got.Counts(), want.Version(), want.Built(), want.Counts())
	}
	if engine.BitmapsChecksum(got) != engine.BitmapsChecksum(want) {
		t.Errorf("%s: the postings differ", name)
	}
	if !bytes.Equal(bytes.Join(got.GigsJSON(), nil), bytes.Join(want.GigsJSON(), nil)) {
		t.Errorf("%s: the gigs differ", name)
	}
	for i := range want.Len() {
		id := pageIDs(t, want, []int{i})[0]
		b, ok := got.GigByID(id)
		if !ok || !bytes.Equal(b, want.GigJSON(i)) {
			t.Fatalf("%s: gig %q not found by id, or different", name, id)
		}
	}
	for body, pair := range map[string][2]*engine.Body{"cities": {got.Cities(), want.Cities()}, "venues": {got.Venues(), want.Venues()},
		"artists": {got.Artists(), want.Artists()}, "genres": {got.Genres(), want.Genres()}} {
		sameBody(t, name+": "+body, pair[0], pair[1])
	}
	for i := range want.Counts().Venues {
		if !bytes.Equal(got.VenueItem(i), want.VenueItem(i)) {
			t.Fatalf("%s: venue item %d differs", name, i)
		}
	}
	for _, v := range ds.Venues {
		a, okA := got.Venue(v.Slug)
		b, okB := want.Venue(v.Slug)
		if okA != okB || a.ETag != b.ETag || okA && (!bytes.Equal(engine.VenueBytes(t, a, false), engine.VenueBytes(t, b, false)) ||
			!bytes.Equal(engine.VenueBytes(t, a, true), engine.VenueBytes(t, b, true))) {
			t.Fatalf("%s: venue %q differs", name, v.Slug)
		}
	}
	if _, ok := got.Venue("no-such-venue"); ok {
		t.Errorf("%s: an unknown venue is found", name)
	}
	ea, eb := got.Export(), want.Export()
	if ea.Size != eb.Size || ea.ETag != eb.ETag || ea.GzipSize != eb.GzipSize || !bytes.Equal(bytes.Join(ea.Gzip, nil), bytes.Join(eb.Gzip, nil)) ||
		!bytes.Equal(ea.Head, eb.Head) || !bytes.Equal(ea.Tail, eb.Tail) {
		t.Errorf("%s: the export differs", name)
	}
	for lo := 0; lo < want.Len(); lo += 500 {
		page := make([]int, 0, 500)
		for i := lo; i < min(lo+500, want.Len()); i++ {
			page = append(page, i)
		}
		m := engine.PageMeta{Page: 1, PageSize: len(page), Total: want.Len(), TotalPages: 1}
		for _, gz := range []bool{false, true} {
			a, ta := got.AppendGigsPage(nil, page, m, nil, gz)
			b, tb := want.AppendGigsPage(nil, page, m, nil, gz)
			if !bytes.Equal(a, b) || ta != tb {
				t.Fatalf("%s: the page of positions %d to %d differs (gzip %v)", name, lo, lo+len(page)-1, gz)
			}
		}
	}
	next := now.Add(time.Hour)
	if !bytes.Equal(got.AppendMeta(nil, next), want.AppendMeta(nil, next)) {
		t.Errorf("%s: /v1/meta differs", name)
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
