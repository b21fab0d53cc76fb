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

	"github.com/gigs/gigs/loader/source"
)

// LastGoodStore keeps each source's last good events in a directory, so a restart while an
// upstream is down does not lose its gigs: the events of each source in <name>.events.json,
// written only when they change, and when each source was last fetched good in
// fetched.json, written on every save (the fetch time decides when stale events expire).
// Every file is replaced atomically. Files of sources no longer configured are left alone.
// Not safe for concurrent use: the goroutine running refreshes owns it.
type LastGoodStore struct {
	dir     string
	sums    map[string][sha256.Size]byte // per source, of the events file last read or written
	fetched map[string]time.Time         // per source, as last read or written
}

// lastGoodVersion is the format of the files; a file of another version is not read.
const lastGoodVersion = 1

const fetchedFile = "fetched.json"

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

// OpenLastGood returns the store in dir, making dir when it is missing.
func OpenLastGood(dir string) (*LastGoodStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make last-good directory: %w", err)
	}
	return &LastGoodStore{dir: dir, sums: map[string][sha256.Size]byte{}, fetched: map[string]time.Time{}}, nil
}

// load reads the last good events of the named sources. A source without a file has none;
// a file that cannot be read is reported in errs and skipped, so one damaged file costs
// only its own source's fallback (fetched.json, all of them).
func (s *LastGoodStore) load(names []string) (lkg map[string]lastGood, errs []error) {
	lkg = map[string]lastGood{}
	var f lastGoodFetched
	switch err := s.read(fetchedFile, &f); {
	case errors.Is(err, fs.ErrNotExist):
		return lkg, nil
	case err == nil && f.Version != lastGoodVersion:
		err = fmt.Errorf("version %d, want %d", f.Version, lastGoodVersion)
		fallthrough
	case err != nil:
		return lkg, []error{fmt.Errorf("cannot read when sources were last fetched, %q: %w", s.path(fetchedFile), err)}
	}
	for _, name := range names {
		at, ok := f.Fetched[name]
		if !ok {
			continue
		}
		var ev lastGoodEvents
		err := s.read(eventsFile(name), &ev)
		if err == nil && (ev.Version != lastGoodVersion || ev.Source != name) {
			err = fmt.Errorf("version %d of source %q, want version %d of %q", ev.Version, ev.Source, lastGoodVersion, name)
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
	data, err := os.ReadFile(s.path(name))
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
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot encode last good events of %q: %w", name, err))
			continue
		}
		if sum := sha256.Sum256(data); s.sums[name] != sum {
			if err := writeFileAtomic(s.path(eventsFile(name)), data); err != nil {
				errs = append(errs, err)
				continue
			}
			s.sums[name] = sum
		}
		s.fetched[name] = lg.at
	}
	data, err := json.Marshal(lastGoodFetched{Version: lastGoodVersion, Fetched: s.fetched})
	if err == nil {
		err = writeFileAtomic(s.path(fetchedFile), data)
	}
	return errors.Join(append(errs, err)...)
}

// path is a file of the store.
func (s *LastGoodStore) path(file string) string { return filepath.Join(s.dir, file) }

// eventsFile names the file of a source's events; source names are safe file names
// (ReadConfig), and none gives fetchedFile.
func eventsFile(source string) string { return source + ".events.json" }

// writeFileAtomic replaces the file at path with data: a synced temporary file beside it,
// renamed over it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	return nil
}
