package loader

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// idsOf merges listings with ids from store and returns each gig's id by the ref of its
// first source record.
func idsOf(t *testing.T, store *IDStore, ls ...listing) map[string]string {
	t.Helper()
	ds := merged(t, store, ls...)
	out := map[string]string{}
	for _, g := range ds.Gigs {
		out[g.Title] = g.ID
	}
	return out
}

func TestIDsSurviveEditsReschedulesAndRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ids")
	store, err := OpenIDStore(path)
	if err != nil {
		t.Fatal(err)
	}
	before := idsOf(t, store,
		listing{source: "site", venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive", ref: "https://garage.test/e/1"},
		listing{source: "tix", venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", ref: "T1"},
		listing{source: "site", venue: "The Garage", start: "2026-12-06T20:00", title: "Bicep", performer: "Bicep", ref: "https://garage.test/e/2"},
		listing{source: "feed", venue: "Jazz Cafe", start: "2026-12-07T21:00", title: "Nubya Garcia", ref: "https://jazz.test/feed#3", positional: true},
		listing{source: "feed", venue: "Jazz Cafe", start: "2026-12-08T21:00", title: "Ezra Collective", ref: "https://jazz.test/feed#4", positional: true},
	)
	if len(before) != 4 {
		t.Fatalf("%d gigs, want 4: %v", len(before), before)
	}
	if err := store.Save(); err != nil {
		t.Fatal(err)
	}
	// A restart: the store comes back from its file.
	store, err = OpenIDStore(path)
	if err != nil {
		t.Fatal(err)
	}
	// An hour later: the venue edits a title, the platform moves Bicep (the venue has not
	// caught up yet, then has), a feed gains an event that shifts its positions, and Nubya
	// Garcia is rescheduled in a feed without ids, stating the previous date.
	after := idsOf(t, store,
		listing{source: "site", venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive (30th anniversary)", performer: "Slowdive", ref: "https://garage.test/e/1"},
		listing{source: "tix", venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", ref: "T1"},
		listing{source: "site", venue: "The Garage", start: "2026-12-13T20:00", title: "Bicep", performer: "Bicep", ref: "https://garage.test/e/2"},
		listing{source: "feed", venue: "Jazz Cafe", start: "2026-12-01T21:00", title: "Yussef Dayes", ref: "https://jazz.test/feed#3", positional: true},
		listing{source: "feed", venue: "Jazz Cafe", start: "2026-12-14T21:00", title: "Nubya Garcia", ref: "https://jazz.test/feed#4", positional: true, prev: "2026-12-07T21:00"},
		listing{source: "feed", venue: "Jazz Cafe", start: "2026-12-08T21:00", title: "Ezra Collective", ref: "https://jazz.test/feed#5", positional: true},
	)
	for title, id := range map[string]string{
		"Slowdive (30th anniversary)": before["Slowdive"],
		"Bicep":                       before["Bicep"],
		"Nubya Garcia":                before["Nubya Garcia"],
		"Ezra Collective":             before["Ezra Collective"],
	} {
		if after[title] != id {
			t.Errorf("%s: id %q, was %q", title, after[title], id)
		}
	}
	if id := after["Yussef Dayes"]; id == "" || id == before["Nubya Garcia"] || id == before["Ezra Collective"] {
		t.Errorf("the new event got id %q, taken from another gig (%v)", id, before)
	}
}

func TestIDStoreRefusesDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "ids")
	store, err := OpenIDStore(good)
	if err != nil {
		t.Fatal(err)
	}
	idsOf(t, store, listing{source: "s", venue: "Hall", start: "2026-12-05T20:00", title: "A", ref: "1"})
	if err := store.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), data...)
	flipped[len(idMagic)+10] ^= 1
	for name, body := range map[string][]byte{
		"truncated":   data[:len(data)-7],
		"bit flipped": flipped,
		"not a store": []byte(`{"ids": {}}`),
		"empty":       nil,
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(path, body, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenIDStore(path); err == nil {
			t.Errorf("%s: opened without error", name)
		}
	}
	// A sparse file of 16 GiB is refused before it is read, a FIFO before it is opened
	// (opening one would wait for a writer for ever).
	huge, fifo := filepath.Join(dir, "huge"), filepath.Join(dir, "fifo")
	if err := os.WriteFile(huge, nil, 0o600); err != nil || os.Truncate(huge, 16<<30) != nil || syscall.Mkfifo(fifo, 0o600) != nil {
		t.Fatal("cannot make the files")
	}
	for _, path := range []string{huge, fifo} {
		if _, err := OpenIDStore(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", path, err)
		}
	}
	reopened, err := OpenIDStore(good)
	if err != nil || reopened.Len() != store.Len() || store.Len() == 0 {
		t.Fatalf("reopened %d entries (err %v), saved %d", reopened.Len(), err, store.Len())
	}
}

func TestIDsNeverCollide(t *testing.T) {
	store := NewIDStore()
	// Two shows of one act at one venue and time can only be told apart by their source;
	// a platform that splits one gig into two must not give both the old id.
	first := idsOf(t, store,
		listing{source: "site", venue: "Hall", start: "2026-12-05T20:00", title: "A", ref: "1"},
		listing{source: "tix", venue: "Hall", start: "2026-12-05T20:00", title: "A", ref: "T1"},
	)
	ds := merged(t, store,
		listing{source: "site", venue: "Hall", start: "2026-12-05T20:00", title: "A", ref: "1"},
		listing{source: "tix", venue: "Hall", start: "2026-12-05T20:00", title: "A", ref: "T1"},
		listing{source: "tix", venue: "Hall", start: "2026-12-05T20:30", title: "A", ref: "T2"},
	)
	if len(ds.Gigs) != 2 || ds.Gigs[0].ID == ds.Gigs[1].ID || ds.Gigs[0].ID != first["A"] {
		t.Errorf("gigs %+v; the first should keep id %s", ds.Gigs, first["A"])
	}
}

// TestMergesNamed checks that when the records of two gigs come to make one, the gig
// whose id is not kept is named as merged into the one whose id is.
func TestMergesNamed(t *testing.T) {
	store := NewIDStore()
	first := merged(t, store,
		listing{source: "site", venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive", ref: "https://garage.test/e/1"},
		listing{source: "tix", venue: "The Garage", start: "2026-12-09T20:00", title: "Slowdive", ref: "T1"},
	)
	if len(first.Gigs) != 2 || len(first.Merges) != 0 {
		t.Fatalf("first refresh: %d gigs, merges %v; want 2 gigs, no merge", len(first.Gigs), first.Merges)
	}
	// The platform corrects its date: both records are one gig.
	second := merged(t, store,
		listing{source: "site", venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive", ref: "https://garage.test/e/1"},
		listing{source: "tix", venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", ref: "T1"},
	)
	if len(second.Gigs) != 1 || len(second.Merges) != 1 {
		t.Fatalf("second refresh: %d gigs, merges %v; want 1 gig, 1 merge", len(second.Gigs), second.Merges)
	}
	m, kept := second.Merges[0], second.Gigs[0].ID
	ids := []string{first.Gigs[0].ID, first.Gigs[1].ID}
	if m.Into != kept || m.From == kept || !slices.Contains(ids, m.From) || !slices.Contains(ids, kept) {
		t.Errorf("merge %+v, kept %s, first ids %v", m, kept, ids)
	}
}
