package engine

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/gzip"
)

// Dim is a dimension gigs can be filtered by.
type Dim uint8

// The filter dimensions.
const (
	DimCity Dim = iota
	DimCountry
	DimVenue
	DimArtist
	DimGenre
	numDims
)

// Widest UTC offsets in use: a venue-local date spans instants from its midnight at +14:00
// to its midnight at -12:00.
const (
	maxEast = 14 * 3600
	maxWest = 12 * 3600
)

// Counts summarizes a snapshot.
type Counts struct {
	Gigs, Cities, Venues, Artists, Genres int
}

// Snapshot is an immutable, indexed dataset; see the package documentation.
type Snapshot struct {
	version string    // data_version: hash of the content, independent of build time
	built   time.Time // generated_at, whole seconds
	counts  Counts

	keys  []int64  // sort key (Unix seconds) per position, ascending
	arena []byte   // gig JSON objects in position order, separated by commas
	off   []int    // gig i is arena[off[i]:off[i+1]-1]; len(off) == len(keys)+1
	// gigHash is the xxhash64 of each gig's JSON, which the tags of assembled bodies are
	// made from.
	gigHash []uint64
	ids   keyTable // position by gig id

	days  []int32 // venue-local day number (days since 1970-01-01) per position
	index [numDims]postings
	// The day tables' window (see dayTable), and the table of every position.
	dayBase int32
	dayN    int
	allDays dayTable

	cities, venues, artists, genres *Body
	venueSlugs                      keyTable    // venue number by slug, in slug order
	venueDetail                     venueBodies // each venue's detail body, by number
	venueItems                      []byte      // each venue's directory entry, back to back
	venueOff                        []uint32    // venue i's entry is venueItems[venueOff[i]:venueOff[i+1]]
	venueIndex                      postings    // "city:" or "country:" and a folded key → venue numbers
	export                          *Export
	metaHead, metaTail              []byte // /v1/meta around its next_refresh_at
}

// Version returns the snapshot's data_version: equal content gives an equal version.
func (s *Snapshot) Version() string { return s.version }

// Built returns when the snapshot was built (whole seconds, UTC).
func (s *Snapshot) Built() time.Time { return s.built }

// Counts returns the numbers of entities in the snapshot.
func (s *Snapshot) Counts() Counts { return s.counts }

// Len returns the number of gigs.
func (s *Snapshot) Len() int { return len(s.keys) }

// GigJSON returns the JSON object of the gig at position i, 0 <= i < Len().
// The slice is capped: appending to it copies and never writes into the snapshot.
func (s *Snapshot) GigJSON(i int) []byte {
	end := s.off[i+1] - 1
	return s.arena[s.off[i]:end:end]
}

// GigsJSON returns the JSON objects of every gig in order, separated by commas (the inside
// of a JSON array). The slice is capped like GigJSON's.
func (s *Snapshot) GigsJSON() []byte { return s.arena[:len(s.arena):len(s.arena)] }

// GigByID returns the JSON object of a gig by id.
func (s *Snapshot) GigByID(id string) ([]byte, bool) {
	i, ok := s.ids.find(id)
	if !ok {
		return nil, false
	}
	return s.GigJSON(i), true
}

// Cities returns the city directory body.
func (s *Snapshot) Cities() *Body { return s.cities }

// Venues returns the venue directory body.
func (s *Snapshot) Venues() *Body { return s.venues }

// Artists returns the artist directory body.
func (s *Snapshot) Artists() *Body { return s.artists }

// Genres returns the genre directory body (genres with an upcoming gig only).
func (s *Snapshot) Genres() *Body { return s.genres }

// Options control Build.
type Options struct {
	// Now is the build time. Gigs whose venue-local date is before the venue-local date of
	// Now are left out; counts of upcoming gigs are as of Now.
	Now time.Time
}

type gigRow struct {
	g     *Gig
	key   int64 // sort key
	day   int32 // venue-local day number
	venue *Venue
	city  *City
	loc   *time.Location
}

// Build validates a dataset and builds a snapshot from it. It fails on a duplicate slug or
// id, a dangling reference, an unknown status or time zone, or a gig without a start.
func Build(ds *Dataset, opt Options) (*Snapshot, error) {
	cities, locs, err := indexCities(ds.Cities)
	if err != nil {
		return nil, err
	}
	venues := make(map[string]*Venue, len(ds.Venues))
	for i := range ds.Venues {
		v := &ds.Venues[i]
		if err := checkSlug("venue", v.Slug, venues); err != nil {
			return nil, err
		}
		if cities[v.City] == nil {
			return nil, fmt.Errorf("venue %q: unknown city %q", v.Slug, v.City)
		}
		venues[v.Slug] = v
	}
	artists := make(map[string]*Artist, len(ds.Artists))
	genres := make(map[string]*Genre, len(ds.Genres))
	for i := range ds.Genres {
		if err := checkSlug("genre", ds.Genres[i].Slug, genres); err != nil {
			return nil, err
		}
		genres[ds.Genres[i].Slug] = &ds.Genres[i]
	}
	for i := range ds.Artists {
		a := &ds.Artists[i]
		if err := checkSlug("artist", a.Slug, artists); err != nil {
			return nil, err
		}
		for _, g := range a.Genres {
			if genres[g] == nil {
				return nil, fmt.Errorf("artist %q: unknown genre %q", a.Slug, g)
			}
		}
		artists[a.Slug] = a
	}

	rows, err := selectGigs(ds.Gigs, opt.Now, venues, cities, locs, artists, genres)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{built: opt.Now.UTC().Truncate(time.Second)}
	s.keys, s.days = make([]int64, len(rows)), make([]int32, len(rows))
	ids := make([]string, len(rows))
	for i, r := range rows {
		s.keys[i], s.days[i], ids[i] = r.key, r.day, r.g.ID
	}
	s.ids = newKeyTable(ids)
	s.dayWindow()
	s.allDays.cum, s.allDays.first = s.appendDayTable(nil, nil, nil)
	s.renderGigs(rows, artists)
	if err := s.buildIndexes(rows, cities, venues, artists, genres); err != nil {
		return nil, err
	}
	if err := s.renderDirectories(ds, rows, cities, artists, genres); err != nil {
		return nil, err
	}
	return s, nil
}

func checkSlug[T any](kind, slug string, seen map[string]*T) error {
	if slug == "" {
		return fmt.Errorf("%s without a slug", kind)
	}
	if seen[slug] != nil {
		return fmt.Errorf("duplicate %s slug %q", kind, slug)
	}
	return nil
}

func indexCities(list []City) (map[string]*City, map[string]*time.Location, error) {
	cities := make(map[string]*City, len(list))
	locs := make(map[string]*time.Location, len(list))
	for i := range list {
		c := &list[i]
		if err := checkSlug("city", c.Slug, cities); err != nil {
			return nil, nil, err
		}
		loc, err := time.LoadLocation(c.Timezone)
		if err != nil || c.Timezone == "" {
			return nil, nil, fmt.Errorf("city %q: unknown time zone %q", c.Slug, c.Timezone)
		}
		if len(c.Country) != 2 {
			return nil, nil, fmt.Errorf("city %q: country %q is not an ISO 3166-1 alpha-2 code", c.Slug, c.Country)
		}
		cities[c.Slug] = c
		locs[c.Slug] = loc
	}
	return cities, locs, nil
}

// dayNumber returns the days since 1970-01-01 of t's calendar date in its own location.
func dayNumber(t time.Time) int32 {
	y, m, d := t.Date()
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// selectGigs checks every gig, keeps those from the venue-local today on, and sorts them by
// start (a gig whose time is to be announced sorts at the end of its venue-local day), then id.
func selectGigs(gigs []Gig, now time.Time, venues map[string]*Venue, cities map[string]*City,
	locs map[string]*time.Location, artists map[string]*Artist, genres map[string]*Genre) ([]gigRow, error) {
	rows := make([]gigRow, 0, len(gigs))
	seen := make(map[string]struct{}, len(gigs))
	for i := range gigs {
		g := &gigs[i]
		if err := checkGig(g, seen, venues, artists, genres); err != nil {
			return nil, err
		}
		v := venues[g.Venue]
		loc := locs[v.City]
		start := g.Start.In(loc)
		day := dayNumber(start)
		if day < dayNumber(now.In(loc)) {
			continue
		}
		key := start.Unix()
		if g.TimeTBA {
			y, m, d := start.Date()
			key = time.Date(y, m, d, 23, 59, 59, 0, loc).Unix()
		}
		rows = append(rows, gigRow{g: g, key: key, day: day, venue: v, city: cities[v.City], loc: loc})
	}
	slices.SortFunc(rows, func(a, b gigRow) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.g.ID, b.g.ID))
	})
	return rows, nil
}

func checkGig(g *Gig, seen map[string]struct{}, venues map[string]*Venue, artists map[string]*Artist, genres map[string]*Genre) error {
	if g.ID == "" {
		return errors.New("gig without an id")
	}
	if _, dup := seen[g.ID]; dup {
		return fmt.Errorf("duplicate gig id %q", g.ID)
	}
	seen[g.ID] = struct{}{}
	if venues[g.Venue] == nil {
		return fmt.Errorf("gig %q: unknown venue %q", g.ID, g.Venue)
	}
	if g.Start.IsZero() {
		return fmt.Errorf("gig %q: no start", g.ID)
	}
	if g.Status != "" && !g.Status.Valid() {
		return fmt.Errorf("gig %q: unknown status %q", g.ID, g.Status)
	}
	for _, b := range g.Artists {
		if artists[b.Artist] == nil {
			return fmt.Errorf("gig %q: unknown artist %q", g.ID, b.Artist)
		}
	}
	for _, gn := range g.Genres {
		if genres[gn] == nil {
			return fmt.Errorf("gig %q: unknown genre %q", g.ID, gn)
		}
	}
	for _, t := range g.Tickets {
		for _, p := range []*float64{t.PriceMin, t.PriceMax} {
			if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0) {
				return fmt.Errorf("gig %q: price %v is not a finite, non-negative number", g.ID, *p)
			}
		}
	}
	return nil
}

// renderChunk is how many gigs one rendering task covers: small enough that no buffer grows
// large (copying hundreds of megabytes at once stalls the garbage collector), large enough
// to keep the workers busy.
const renderChunk = 4096

// renderGigs serializes every gig once, in parallel chunks, then copies the chunks into one
// arena of exactly the right size.
func (s *Snapshot) renderGigs(rows []gigRow, artists map[string]*Artist) {
	type chunk struct {
		buf  []byte
		offs []int // start of each gig within buf
	}
	chunks := make([]chunk, (len(rows)+renderChunk-1)/renderChunk)
	s.gigHash = make([]uint64, len(rows))
	_ = parallel(len(chunks), func(c int) error {
		lo, hi := c*renderChunk, min((c+1)*renderChunk, len(rows))
		ch := chunk{buf: make([]byte, 0, (hi-lo)*768), offs: make([]int, 0, hi-lo)}
		for i := lo; i < hi; i++ {
			at := len(ch.buf)
			ch.offs = append(ch.offs, at)
			ch.buf = appendGig(ch.buf, &rows[i], artists)
			s.gigHash[i] = xxhash.Sum64(ch.buf[at:])
			ch.buf = append(ch.buf, ',')
		}
		chunks[c] = ch
		return nil
	})
	size := 0
	for _, c := range chunks {
		size += len(c.buf)
	}
	s.arena = make([]byte, 0, size)
	s.off = make([]int, 0, len(rows)+1)
	for i := range chunks {
		base := len(s.arena)
		for _, o := range chunks[i].offs {
			s.off = append(s.off, base+o)
		}
		s.arena = append(s.arena, chunks[i].buf...)
		chunks[i] = chunk{} // let it go
	}
	s.off = append(s.off, len(s.arena))
	if len(s.arena) > 0 {
		s.arena = s.arena[:len(s.arena)-1] // no comma after the last gig
	}
}

// buildIndexes makes the postings of positions: one per entity, filed under the search key
// of its slug and of its name (entities whose names fold alike share the union). Keys are
// folded once per entity, not per gig.
func (s *Snapshot) buildIndexes(rows []gigRow, cities map[string]*City, venues map[string]*Venue, artists map[string]*Artist, genres map[string]*Genre) error {
	bySlug := [numDims]map[string][]uint32{} // positions per entity slug (country: code)
	for d := range bySlug {
		bySlug[d] = map[string][]uint32{}
	}
	add := func(d Dim, slug string, pos uint32) {
		l := bySlug[d][slug]
		if n := len(l); n == 0 || l[n-1] != pos {
			bySlug[d][slug] = append(l, pos)
		}
	}
	for i, r := range rows {
		p := uint32(i)
		add(DimCity, r.city.Slug, p)
		add(DimCountry, r.city.Country, p)
		add(DimVenue, r.venue.Slug, p)
		for _, b := range r.g.Artists {
			add(DimArtist, b.Artist, p)
		}
		for _, gn := range r.g.Genres {
			add(DimGenre, gn, p)
		}
	}
	names := [numDims]func(slug string) string{
		DimCity:    func(slug string) string { return cities[slug].Name },
		DimCountry: func(code string) string { return code },
		DimVenue:   func(slug string) string { return venues[slug].Name },
		DimArtist:  func(slug string) string { return artists[slug].Name },
		DimGenre:   func(slug string) string { return genres[slug].Name },
	}
	for d := range bySlug {
		var b postingsBuilder
		// In slug order, so that equal datasets give equal snapshots.
		for _, slug := range slices.Sorted(maps.Keys(bySlug[d])) {
			b.add(bySlug[d][slug], Fold(slug), Fold(names[d](slug)))
		}
		var err error
		if s.index[d], err = b.build(len(rows), s); err != nil {
			return err
		}
	}
	return nil
}

// upcoming counts what the directories count: per city, venue, artist and genre, the
// gigs from the build time on that are not cancelled; and, per venue, the positions of its
// upcoming gigs, cancelled ones included; and every artist on a gig of the snapshot.
type upcoming struct {
	city, venue, artist, genre map[string]int
	byVenue                    map[string][]int
	listed                     map[string]bool
}

func countUpcoming(rows []gigRow, now int64) upcoming {
	u := upcoming{city: map[string]int{}, venue: map[string]int{}, artist: map[string]int{}, genre: map[string]int{},
		byVenue: map[string][]int{}, listed: map[string]bool{}}
	for i, r := range rows {
		for _, b := range r.g.Artists {
			u.listed[b.Artist] = true
		}
		if r.key < now {
			continue // started earlier today: still served by id, no longer upcoming
		}
		u.byVenue[r.venue.Slug] = append(u.byVenue[r.venue.Slug], i)
		if r.g.Status == StatusCancelled {
			continue
		}
		u.city[r.city.Slug]++
		u.venue[r.venue.Slug]++
		for _, b := range r.g.Artists {
			u.artist[b.Artist]++
		}
		for _, g := range r.g.Genres {
			u.genre[g]++
		}
	}
	return u
}

// cityDirectory is the JSON array of every city, in slug order.
func cityDirectory(list []City, u upcoming) ([]byte, int, error) {
	items := make([]cityJSON, 0, len(list))
	for _, c := range list {
		items = append(items, cityJSON{c.Slug, c.Name, c.Country, c.Timezone, u.city[c.Slug]})
	}
	slices.SortFunc(items, func(a, b cityJSON) int { return cmp.Compare(a.Slug, b.Slug) })
	b, err := appendJSON(nil, items)
	return b, len(items), err
}

// venueDirectory is every venue's entry, in slug order.
func venueDirectory(list []Venue, cities map[string]*City, u upcoming) []venueJSON {
	items := make([]venueJSON, 0, len(list))
	for _, v := range list {
		items = append(items, venueView(&v, cities[v.City], u.venue[v.Slug]))
	}
	slices.SortFunc(items, func(a, b venueJSON) int { return cmp.Compare(a.Slug, b.Slug) })
	return items
}

// artistDirectory is the JSON array of every artist on a gig of the snapshot, in slug order.
func artistDirectory(artists map[string]*Artist, u upcoming) ([]byte, int, error) {
	items := make([]artistJSON, 0, len(u.listed))
	for slug := range u.listed {
		a := artists[slug]
		items = append(items, artistJSON{a.Slug, a.Name, u.artist[slug], append([]string{}, a.Genres...)})
	}
	slices.SortFunc(items, func(a, b artistJSON) int { return cmp.Compare(a.Slug, b.Slug) })
	b, err := appendJSON(nil, items)
	return b, len(items), err
}

// genreDirectory is the JSON array of the genres with an upcoming gig, in slug order.
func genreDirectory(genres map[string]*Genre, u upcoming) ([]byte, int, error) {
	items := make([]genreJSON, 0, len(u.genre))
	for slug, n := range u.genre {
		items = append(items, genreJSON{slug, genres[slug].Name, n})
	}
	slices.SortFunc(items, func(a, b genreJSON) int { return cmp.Compare(a.Slug, b.Slug) })
	b, err := appendJSON(nil, items)
	return b, len(items), err
}

// renderDirectories renders the directories and venue details, then the export and
// /v1/meta. A venue's upcoming list holds its gigs from the build time on, cancelled ones
// included (with their status); the counts (upcoming_gigs, upcoming_tour_dates) are of the
// same gigs less the cancelled ones, and a genre appears only when it has such a gig. The
// snapshot's version is the hash of every gig and directory.
func (s *Snapshot) renderDirectories(ds *Dataset, rows []gigRow, cities map[string]*City, artists map[string]*Artist, genres map[string]*Genre) error {
	u := countUpcoming(rows, s.built.Unix())
	venueItems := venueDirectory(ds.Venues, cities, u)
	type directory struct {
		dst  **Body
		data []byte
		n    int
	}
	var dirs [4]directory
	var err error
	dirs[0].dst, dirs[1].dst, dirs[2].dst, dirs[3].dst = &s.cities, &s.venues, &s.artists, &s.genres
	if dirs[0].data, dirs[0].n, err = cityDirectory(ds.Cities, u); err != nil {
		return fmt.Errorf("cannot render the cities: %w", err)
	}
	if dirs[1].data, err = s.indexVenues(venueItems); err != nil {
		return err
	}
	dirs[1].n = len(venueItems)
	if dirs[2].data, dirs[2].n, err = artistDirectory(artists, u); err != nil {
		return fmt.Errorf("cannot render the artists: %w", err)
	}
	if dirs[3].data, dirs[3].n, err = genreDirectory(genres, u); err != nil {
		return fmt.Errorf("cannot render the genres: %w", err)
	}
	h := xxhash.New()
	_, _ = h.Write(s.arena)
	for _, d := range dirs {
		_, _ = h.Write(d.data)
	}
	s.version = fmt.Sprintf("%016x", h.Sum64())
	s.counts = Counts{Gigs: len(rows), Cities: dirs[0].n, Venues: dirs[1].n, Artists: dirs[2].n, Genres: dirs[3].n}
	for _, d := range dirs {
		raw := make([]byte, 0, len(d.data)+128)
		raw = append(raw, `{"data":`...)
		raw = append(raw, d.data...)
		raw = append(raw, ',')
		raw = appendMeta(raw, d.n, s)
		raw = append(raw, '}')
		b, err := newBody(raw, gzip.DefaultCompression)
		if err != nil {
			return err
		}
		*d.dst = b
	}
	if err := s.renderExport(); err != nil {
		return err
	}
	if err := s.renderMeta(ds.Sources); err != nil {
		return err
	}
	return s.renderVenueDetails(venueItems, u.byVenue)
}

// indexVenues renders each venue's directory entry into one arena and indexes them by
// city and country for filtered directories; it returns the JSON array of all entries.
func (s *Snapshot) indexVenues(items []venueJSON) ([]byte, error) {
	s.venueOff = make([]uint32, 1, len(items)+1)
	var b postingsBuilder
	lists := map[string][]uint32{}
	for i := range items {
		var err error
		if s.venueItems, err = appendJSON(s.venueItems, &items[i]); err != nil {
			return nil, fmt.Errorf("cannot render venue %q: %w", items[i].Slug, err)
		}
		s.venueOff = append(s.venueOff, uint32(len(s.venueItems)))
		for _, k := range []string{"city:" + Fold(items[i].City.Slug), "city:" + Fold(items[i].City.Name), "country:" + Fold(items[i].Country)} {
			if l := lists[k]; len(l) == 0 || l[len(l)-1] != uint32(i) {
				lists[k] = append(l, uint32(i))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(lists)) {
		b.add(lists[k], k)
	}
	var err error
	if s.venueIndex, err = b.build(len(items), nil); err != nil {
		return nil, err
	}
	all := make([]byte, 0, len(s.venueItems)+len(items)+2)
	all = append(all, '[')
	for i := range items {
		if i > 0 {
			all = append(all, ',')
		}
		all = append(all, s.VenueItem(i)...)
	}
	return append(all, ']'), nil
}

func venueView(v *Venue, c *City, upcoming int) venueJSON {
	j := venueJSON{Slug: v.Slug, Name: v.Name, City: ref{c.Slug, c.Name}, Country: c.Country,
		Address: v.Address, Website: v.Website, Upcoming: upcoming}
	if v.HasGeo {
		lat, lon := v.Lat, v.Lon
		j.Lat, j.Lon = &lat, &lon
	}
	return j
}
