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

// LastGoodStore keeps each source's last good events in a directory, one file per source
// (<name>.json), so a restart while an upstream is down does not lose its gigs. A file is
// written, atomically, only when its source's events changed. Files of sources no longer
// configured are left alone. Not safe for concurrent use: the goroutine running refreshes
// owns it.
type LastGoodStore struct {
	dir  string
	sums map[string][sha256.Size]byte // per source, of the file last read or written
}

// lastGoodVersion is the format of the files; a file of another version is not read.
const lastGoodVersion = 1

type lastGoodFile struct {
	Version   int            `json:"version"`
	Source    string         `json:"source"`
	FetchedAt time.Time      `json:"fetched_at"`
	Events    []source.Event `json:"events"`
}

// OpenLastGood returns the store in dir, making dir when it is missing.
func OpenLastGood(dir string) (*LastGoodStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make last-good directory: %w", err)
	}
	return &LastGoodStore{dir: dir, sums: map[string][sha256.Size]byte{}}, nil
}

// load reads the last good events of the named sources. A source without a file has none;
// a file that cannot be read is reported in errs and skipped, so one damaged file costs
// only its own source's fallback.
func (s *LastGoodStore) load(names []string) (lkg map[string]lastGood, errs []error) {
	lkg = map[string]lastGood{}
	for _, name := range names {
		path := s.path(name)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var f lastGoodFile
		if err == nil {
			err = json.Unmarshal(data, &f)
		}
		if err == nil && (f.Version != lastGoodVersion || f.Source != name) {
			err = fmt.Errorf("version %d of source %q, want version %d of %q", f.Version, f.Source, lastGoodVersion, name)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot read last good events %q: %w", path, err))
			continue
		}
		lkg[name] = lastGood{events: f.Events, at: f.FetchedAt}
		s.sums[name] = sha256.Sum256(data)
	}
	return lkg, errs
}

// save writes the files of the sources in lkg whose events changed since they were last
// read or written.
func (s *LastGoodStore) save(lkg map[string]lastGood) error {
	var errs []error
	for name, lg := range lkg {
		data, err := json.Marshal(lastGoodFile{Version: lastGoodVersion, Source: name, FetchedAt: lg.at, Events: lg.events})
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot encode last good events of %q: %w", name, err))
			continue
		}
		sum := sha256.Sum256(data)
		if old, ok := s.sums[name]; ok && old == sum {
			continue
		}
		if err := writeFileAtomic(s.path(name), data); err != nil {
			errs = append(errs, err)
			continue
		}
		s.sums[name] = sum
	}
	return errors.Join(errs...)
}

// path is a source's file; source names are checked to be safe file names (ReadConfig).
func (s *LastGoodStore) path(name string) string { return filepath.Join(s.dir, name+".json") }

// writeFileAtomic replaces the file at path with data: a synced temporary file renamed over it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
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
