package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Options controls a corpus; the same Options always give byte-identical files.
type Options struct {
	Today time.Time // the day the corpus is for (its UTC calendar date is used)
	Seed  uint64
}

// Summary counts what was written.
type Summary struct {
	Venues, Cities, Countries int
	Gigs                      int // every event on every page, past ones included
	Upcoming                  int // events whose venue-local start date is Today or later
	Cancelled                 int
	Postponed                 int
	Rescheduled               int
	TimeTBA                   int // events with a date-only startDate
}

// artistCount is the size of the artist pool.
const artistCount = 500

// Independent random streams, so that a change to one stage leaves the others' draws alone.
const (
	streamArtists = iota + 1
	streamStyles
	streamSlots
	streamBooking
	streamGigs
)

// Generate writes the corpus into dir (created if missing; files it owns are overwritten,
// nothing else in dir is touched) and returns its counts. It fails when Today is zero or a
// file cannot be written.
func Generate(dir string, opt Options) (Summary, error) {
	if opt.Today.IsZero() {
		return Summary{}, errors.New("cannot generate demo corpus: Options.Today is zero")
	}
	vs, err := build(opt)
	if err != nil {
		return Summary{}, err
	}
	if err := write(dir, vs, opt); err != nil {
		return Summary{}, err
	}
	return summarize(vs, today(opt)), nil
}

// today returns midnight UTC of the corpus day.
func today(opt Options) time.Time {
	y, m, d := opt.Today.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// build returns the venues, styled, with their gigs.
func build(opt Options) ([]*venue, error) {
	vs, err := loadVenues()
	if err != nil {
		return nil, err
	}
	stream := func(n uint64) *rand.Rand { return rand.New(rand.NewPCG(opt.Seed, n)) }
	artists := newArtists(stream(streamArtists), artistCount)
	assignStyles(stream(streamStyles), vs)
	slots := planSlots(stream(streamSlots), vs, today(opt))
	book(stream(streamBooking), slots, artists)
	makeGigs(stream(streamGigs), vs, slots, today(opt))
	return vs, nil
}

// write writes every venue page, sources.json and GENERATED under dir.
func write(dir string, vs []*venue, opt Options) error {
	for _, v := range vs {
		body, err := page(v)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(dir, "sites", v.slug, "index.html"), body); err != nil {
			return err
		}
	}
	cfg, err := sourcesJSON(vs)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "sources.json"), cfg); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "GENERATED"), []byte(today(opt).Format(dateLayout)+"\n"))
}

func writeFile(path string, body []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot create directory %q: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	return nil
}

// sourceEntry is one source of sources.json.
type sourceEntry struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	URL  string `json:"url"` // relative to the directory of sources.json
}

// sourcesJSON returns the sources configuration: one jsonld source per venue, sorted by
// name, indented with two spaces, with a trailing newline.
func sourcesJSON(vs []*venue) ([]byte, error) {
	var cfg struct {
		Sources []sourceEntry `json:"sources"`
	}
	for _, v := range vs {
		cfg.Sources = append(cfg.Sources, sourceEntry{"venue-" + v.slug, "jsonld", "sites/" + v.slug + "/index.html"})
	}
	slices.SortFunc(cfg.Sources, func(a, b sourceEntry) int { return strings.Compare(a.Name, b.Name) })
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cfg); err != nil {
		return nil, fmt.Errorf("cannot encode sources.json: %w", err)
	}
	return b.Bytes(), nil
}

// summarize counts the corpus.
func summarize(vs []*venue, today time.Time) Summary {
	s := Summary{Venues: len(vs)}
	cities, countries := map[*city]bool{}, map[string]bool{} // counted only
	for _, v := range vs {
		cities[v.city], countries[v.city.country] = true, true
		for _, g := range v.gigs {
			s.Gigs++
			if dayIndex(today, g.start) >= 0 {
				s.Upcoming++
			}
			switch g.status {
			case cancelled:
				s.Cancelled++
			case postponed:
				s.Postponed++
			case rescheduled:
				s.Rescheduled++
			}
			if g.dateOnly {
				s.TimeTBA++
			}
		}
	}
	s.Cities, s.Countries = len(cities), len(countries)
	return s
}
