package demo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Options controls a corpus; the same Options always give byte-identical files.
type Options struct {
	Today time.Time // the day the corpus is for (its UTC calendar date is used)
	Seed  uint64
	// Revision 0 is the corpus as first fetched; 1 is the same sources an hour later: some
	// titles edited, shows rescheduled, cancelled and added, one platform's listings
	// changed. Concert ids and unchanged records' refs are the same in both.
	Revision int
}

// Summary counts what was written.
type Summary struct {
	Venues, Cities, Countries int // venues with and without a website
	Sites                     int // venue websites, broken ones included
	JSONLD, Microdata, ICal   int // working websites by format
	Broken                    int // websites that fail one way or another
	Gigs                      int // events on venue websites, past ones and broken sites included
	Upcoming                  int // of Gigs, those whose venue-local start date is Today or later
	Cancelled                 int // of Gigs, by the status the site states
	Postponed                 int
	Rescheduled               int
	TimeTBA                   int // of Gigs, those with a date but no time
	Listings                  int // platform listings, all platforms
	Concerts                  int // concerts in expected-merges.json
}

// Pool sizes: touring acts drawn by popularity, and local acts for residencies and the
// shows revision 1 adds.
const (
	artistCount = 1000
	localCount  = 100
)

// Independent random streams, so that a change to one stage leaves the others' draws alone.
const (
	streamArtists = iota + 1
	streamStyles
	streamSlots
	streamBooking
	streamGigs
	streamVenues
	streamSites
	streamExtras
	streamPlatforms
	streamRevision
	streamOversize
)

// corpus is the generator's model: venues with their gigs, each gig one concert with its
// listings.
type corpus struct {
	opt         Options
	today       time.Time // midnight UTC of the corpus day
	stamp       time.Time // when the corpus was made: today, an hour later for revision 1
	venues      []*venue
	artists     []*artist // the touring pool, then the local acts
	made        []*artist // acts of hand-made cases, outside both
	diary       diary     // bookings of artists, by rank
	locals      int       // local acts taken
	residencies []*residency
	brokenOnly  int // broken sites that left a show to the platforms
	concerts    int // the highest concert number

	pvenues map[[2]string]*platformVenue // by platform and venue key
	ids     map[[2]string]bool           // listing ids taken, by platform
}

// Generate writes the corpus into dir (created if missing) and returns its counts. Files
// it owns are overwritten only when their content changes, so unchanged files keep their
// modification time; files under dir/sites and dir/platforms that the corpus no longer
// has are removed; nothing else in dir is touched. It fails when Today is zero, Revision
// is not 0 or 1, or a file cannot be written.
func Generate(dir string, opt Options) (Summary, error) {
	if opt.Today.IsZero() {
		return Summary{}, errors.New("cannot generate demo corpus: Options.Today is zero")
	}
	if opt.Revision < 0 || opt.Revision > 1 {
		return Summary{}, fmt.Errorf("cannot generate demo corpus: unknown revision %d", opt.Revision)
	}
	c, err := build(opt)
	if err != nil {
		return Summary{}, err
	}
	files, err := c.files()
	if err != nil {
		return Summary{}, err
	}
	if err := write(dir, files); err != nil {
		return Summary{}, err
	}
	return c.summarize(), nil
}

// today returns midnight UTC of the corpus day.
func today(opt Options) time.Time {
	y, m, d := opt.Today.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// build returns the corpus model for opt.
func build(opt Options) (*corpus, error) {
	stream := func(n uint64) *rand.Rand { return rand.New(rand.NewPCG(opt.Seed, n)) }
	vs, err := loadVenues(stream(streamVenues))
	if err != nil {
		return nil, err
	}
	c := &corpus{opt: opt, today: today(opt), venues: vs}
	c.stamp = c.today.Add(time.Duration(opt.Revision) * time.Hour)
	assignSites(stream(streamSites), vs)
	c.artists = newArtists(stream(streamArtists), artistCount+localCount)
	assignStyles(stream(streamStyles), vs)
	slots := planSlots(stream(streamSlots), vs, c.today)
	c.diary = book(stream(streamBooking), slots, c.artists)
	makeGigs(stream(streamGigs), slots, c.today)
	c.addExtras(stream(streamExtras))
	for _, v := range vs {
		numberGigs(v)
		for _, g := range v.gigs {
			c.concerts++
			g.concert = c.concerts
		}
	}
	c.listPlatforms(stream(streamPlatforms))
	if opt.Revision == 1 {
		c.revise(stream(streamRevision))
	}
	return c, nil
}

// write writes files under dir, leaving files whose content is unchanged alone, and
// removes files under dir/sites and dir/platforms that are not in files.
func write(dir string, files map[string][]byte) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	made := map[string]bool{} // directories created; lookups only
	for _, p := range paths {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[p]) {
			continue
		}
		if d := filepath.Dir(path); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("cannot create directory %q: %w", d, err)
			}
			made[d] = true
		}
		if err := os.WriteFile(path, files[p], 0o644); err != nil {
			return fmt.Errorf("cannot write %q: %w", path, err)
		}
	}
	for _, sub := range []string{"sites", "platforms"} {
		if err := prune(dir, sub, files); err != nil {
			return err
		}
	}
	return nil
}

// prune removes the files under dir/sub that keep is missing, and directories left empty.
func prune(dir, sub string, keep map[string][]byte) error {
	root := filepath.Join(dir, sub)
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, path)
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if _, ok := keep[filepath.ToSlash(rel)]; !ok {
			return os.Remove(path)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot prune %q: %w", root, err)
	}
	for _, d := range slices.Backward(dirs) {
		if entries, err := os.ReadDir(d); err == nil && len(entries) == 0 {
			os.Remove(d)
		}
	}
	return nil
}

// summarize counts the corpus.
func (c *corpus) summarize() Summary {
	s := Summary{Venues: len(c.venues)}
	cities, countries := map[*city]bool{}, map[string]bool{} // counted only
	for _, v := range c.venues {
		cities[v.city], countries[v.city.country] = true, true
		for _, g := range v.gigs {
			s.Listings += len(g.listings)
		}
		if v.site == nil {
			continue
		}
		s.Sites++
		switch {
		case v.site.fault != noFault:
			s.Broken++
		case v.site.format == jsonLD:
			s.JSONLD++
		case v.site.format == microdata:
			s.Microdata++
		case v.site.format == iCal:
			s.ICal++
		}
		for _, g := range v.listed() {
			s.Gigs++
			if dayIndex(c.today, g.shown()) >= 0 {
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
	s.Concerts = len(c.merges())
	return s
}
