package loader

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gigs/gigs/engine/atomicfile"
	"github.com/gigs/gigs/loader/source"
)

// LastGoodStore keeps each source's last good events in a directory, so a restart while an
// upstream is down does not lose its gigs: the events of each source in <name>.events.json,
// written only when they change, and when each source was last fetched good in
// fetched.json, written on every save (the fetch time decides when stale events expire).
// An events file's modification time is also set to its source's fetch time, so that a
// fetched.json lost or damaged costs no source its fallback. Every file is replaced
// atomically (package atomicfile). Files of sources no longer configured are left alone.
// Not safe for concurrent use: the goroutine running refreshes owns it.
type LastGoodStore struct {
	dir     string
	sums    map[string][sha256.Size]byte // per source, of the events file last read or written
	fetched map[string]time.Time         // per source, as last read or written
}

// lastGoodVersion is the format of the files; a file of another version is not read.
const lastGoodVersion = 1

const fetchedFile = "fetched.json"

// maxLastGoodBytes bounds a file of the store read: the events of a platform's 200,000
// records, a few times over.
const maxLastGoodBytes = 1 << 30

type (
	lastGoodEvents struct {
		Version int            `json:"version"`
		Source  string         `json:"source"`
		Events  []source.Event `json:"events"`
	}
	lastGoodFetched struct {
		Version int                  `json:"version"`
		Fetched map[string]time.Time `json:"fetched"` // by source
	}
)

// OpenLastGood returns the store in dir, making dir when it is missing and removing the
// temporary files of writes cut short.
func OpenLastGood(dir string) (*LastGoodStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make last-good directory: %w", err)
	}
	if err := atomicfile.CleanDir(dir); err != nil {
		return nil, fmt.Errorf("cannot remove the temporary files of the last good events: %w", err)
	}
	return &LastGoodStore{dir: dir, sums: map[string][sha256.Size]byte{}, fetched: map[string]time.Time{}}, nil
}

// load reads the last good events of the named sources as of now. A source without an
// events file has none; a file that cannot be read is reported in errs and skipped, so one
// damaged file costs only its own source's fallback. When fetched.json is missing a
// source, or cannot be read at all (reported in errs), the events file's modification
// time stands for the fetch time. A fetch time after now (a clock set back, a hand) is
// skipped too: its events would never grow too old to serve.
func (s *LastGoodStore) load(names []string, now time.Time) (lkg map[string]lastGood, errs []error) {
	lkg = map[string]lastGood{}
	var f lastGoodFetched
	switch err := s.read(fetchedFile, &f); {
	case err == nil && f.Version != lastGoodVersion:
		err = fmt.Errorf("version %d, want %d", f.Version, lastGoodVersion)
		fallthrough
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		errs = append(errs, fmt.Errorf("cannot read when sources were last fetched, %q (the events files' times stand for it): %w", s.path(fetchedFile), err))
		f.Fetched = nil
	}
	for _, name := range names {
		var ev lastGoodEvents
		err := s.read(eventsFile(name), &ev)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && (ev.Version != lastGoodVersion || ev.Source != name) {
			err = fmt.Errorf("version %d of source %q, want version %d of %q", ev.Version, ev.Source, lastGoodVersion, name)
		}
		at, ok := f.Fetched[name]
		if err == nil && !ok {
			var fi fs.FileInfo
			if fi, err = os.Stat(s.path(eventsFile(name))); err == nil {
				at = fi.ModTime()
			}
		}
		if err == nil && at.After(now.Add(time.Minute)) {
			err = fmt.Errorf("fetched at %s, after now", at.UTC().Format(time.RFC3339))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot read last good events %q: %w", s.path(eventsFile(name)), err))
			continue
		}
		lkg[name] = lastGood{events: ev.Events, at: at}
		s.fetched[name] = at
	}
	return lkg, errs
}

// read decodes the file name of the store into v, noting the checksum of an events file.
func (s *LastGoodStore) read(name string, v any) error {
	data, err := atomicfile.Read(s.path(name), maxLastGoodBytes)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	if ev, ok := v.(*lastGoodEvents); ok {
		s.sums[ev.Source] = sha256.Sum256(data)
	}
	return nil
}

// save writes the events of the sources in lkg that changed since they were last read or
// written, then the fetch times of all sources the store knows.
func (s *LastGoodStore) save(lkg map[string]lastGood) error {
	var errs []error
	for name, lg := range lkg {
		data, err := json.Marshal(lastGoodEvents{Version: lastGoodVersion, Source: name, Events: lg.events})
		if err == nil && len(data) > maxLastGoodBytes {
			err = fmt.Errorf("%d bytes, more than the %d a last good file may hold (lower the source's max_events)", len(data), maxLastGoodBytes)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot encode last good events of %q: %w", name, err))
			continue
		}
		if sum := sha256.Sum256(data); s.sums[name] != sum {
			if err := atomicfile.Write(s.path(eventsFile(name)), data, 0o600); err != nil {
				errs = append(errs, err)
				continue
			}
			s.sums[name] = sum
		}
		if err := os.Chtimes(s.path(eventsFile(name)), lg.at, lg.at); err != nil {
			errs = append(errs, fmt.Errorf("cannot stamp last good events of %q with their fetch time: %w", name, err))
		}
		s.fetched[name] = lg.at
	}
	data, err := json.Marshal(lastGoodFetched{Version: lastGoodVersion, Fetched: s.fetched})
	if err == nil {
		err = atomicfile.Write(s.path(fetchedFile), data, 0o600)
	}
	return errors.Join(append(errs, err)...)
}

// path is a file of the store.
func (s *LastGoodStore) path(file string) string { return filepath.Join(s.dir, file) }

// eventsFile names the file of a source's events; source names are safe file names
// (ReadConfig), and none gives fetchedFile.
func eventsFile(source string) string { return source + ".events.json" }
