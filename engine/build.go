package engine

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/internal/deflate"
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
	DimStatus // a status's name: scheduled, cancelled, postponed, rescheduled
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
	read    bool // read from a snapshot file, not built by this process

	keys []int64 // sort key (Unix seconds) per position, ascending
	// arena holds the gig JSON objects in position order, separated by commas, in parts of
	// renderChunk gigs; off is where each gig starts in the parts back to back, and where
	// the next would (len(off) == len(keys)+1): see GigJSON.
	arena [][]byte
	off   []int
	// zarena holds each gig's deflate fragment (see gzipbody.go) in position order, in the
	// arena's parts; zoff is where each starts in the parts back to back, and where the next
	// would (len(zoff) == len(keys)+1).
	zarena [][]byte
	zoff   []int
	// gigHash is the xxhash64 of each gig's JSON, which the tags of assembled bodies are
	// made from.
	gigHash []uint64
	// gigCRC is the CRC-32 of a comma and each gig's JSON, which the checksums of gzip
	// bodies are combined from (see gzipbody.go), once crcReady is set. A build computes it
	// before it returns. It is not in the snapshot file: a snapshot read from one computes
	// it in the background (a fifth of a second at a million gigs, which a restart does not
	// wait for), and its bodies checksum their gigs' bytes until then.
	gigCRC   []uint32
	crcReady atomic.Bool
	// pairs crosses the dense word copies with the filters' and the geo index's large
	// postings (pairs.go): set by a build before it returns, and in the background after a
	// read (completeRead); nil until then.
	pairs atomic.Pointer[wordPairs]
	ids   keyTable // position by gig id
	// inputs is the hash of what each gig was rendered from (see reuse.go), nil in a
	// snapshot read from a file.
	inputs []uint64

	days   []int32 // venue-local day number (days since 1970-01-01) per position
	status []uint8 // the code of each gig's status (see Statuses)
	index  [numDims]postings
	words  wordIndex // the words of each gig's title, artists, venue and city (words.go)
	// The day tables' window (see dayTable), and the table of every position.
	dayBase int32
	dayN    int
	allDays dayTable
	// hourAt[h] is the first position whose key is in hour hourBase+h (Unix hours) or
	// later, for the hours of the day window: where search starts.
	hourBase int64
	hourAt   []uint32

	cities, venues, artists, genres *Body
	venueDetail                     detailPages // each venue's detail body, by number in slug order
	venueItems                      []byte      // each venue's directory entry, back to back
	venueOff                        []uint32    // venue i's entry is venueItems[venueOff[i]:venueOff[i+1]]
	venueIndex                      postings    // "city:" or "country:" and a folded key → venue numbers
	export                          *Export
	metaHead, metaTail              []byte // /v1/meta around its next_refresh_at
	ledger

	artistDetail detailPages        // each listed artist's detail body (artistbody.go)
	geo          geoIndex           // the venues' positions, for near queries (see geo.go)
	calTombs     calendarTombstones // lazily: the tombstones the calendar feeds list (calendar.go)
	// The directories that answer queries, by Directory (directory.go).
	dirs [numDirectories]directory
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
	c := i / renderChunk
	base := s.off[c*renderChunk]
	end := s.off[i+1] - 1 - base
	return s.arena[c][s.off[i]-base : end : end]
}

// GigsJSON returns the JSON objects of every gig in order, separated by commas (the inside
// of a JSON array), in parts that are capped like GigJSON's slices.
func (s *Snapshot) GigsJSON() [][]byte {
	parts := make([][]byte, len(s.arena))
	for i, p := range s.arena {
		parts[i] = p[:len(p):len(p)]
	}
	return parts
}

// gigsSize returns the bytes of GigsJSON's parts together.
func (s *Snapshot) gigsSize() int {
	if len(s.off) < 2 {
		return 0
	}
	return s.off[len(s.off)-1] - 1
}

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
	// Prev is the snapshot served before this one, whose ledger (see ledger.go) this one
	// carries on; nil starts a new ledger, in which every gig is created at Now.
	Prev *Snapshot
	// Published is the change-feed cursor of the last snapshot published from where Prev
	// came from, when known (zero: Prev's own). When it is not Prev's own cursor, Prev is
	// older than what clients have seen (a snapshot file read after a crash, or a failed
	// write, between publishing and saving): this build numbers its changes after both,
	// and its feed refuses every earlier cursor of the ledger as expired, since changes a
	// client holds may be lost. A cursor of another ledger expires all of Prev's.
	Published Cursor
	// fresh renders and compresses every gig, taking nothing from Prev but its ledger and
	// its code (see reuse.go): what a build reusing Prev is tested against.
	fresh bool
}

// Build validates a dataset and builds a snapshot from it. It fails on a duplicate slug, a
// gig id twice among the gigs it keeps (a past gig is dropped before ids are compared), a
// dangling reference, an unknown status or time zone, or a gig without a start.
func Build(ds *Dataset, opt Options) (*Snapshot, error) {
	cat, err := newCatalog(ds)
	if err != nil {
		return nil, err
	}
	rows, err := cat.selectGigs(opt.Now)
	if err != nil {
		return nil, err
	}
	w, ru, order := newGigWriter(cat), reuseOf(opt), rowOrder(rows)
	ru.locate(rows, order)
	contents := renderContents(rows, w, &ru)
	rows = cat.inOrder(rows, order)
	s := &Snapshot{built: opt.Now.UTC().Truncate(time.Second)}
	if err := s.orderRows(rows); err != nil {
		return nil, err
	}
	s.renderGigs(rows, contents, &ru)
	s.crcReady.Store(true)
	if err := s.carryLedger(opt.Prev, opt.Published, ds.Merges, prevKept(rows, opt.Prev)); err != nil {
		return nil, err
	}
	if err := s.indexRows(rows, cat); err != nil {
		return nil, err
	}
	if err := s.renderDirectories(rows, cat, opt.Prev); err != nil {
		return nil, err
	}
	return s, nil
}

// orderRows lays out the positions of rows, sorted (rowOrder): their keys, days,
// statuses and ids, and what finds a range of them (search, the day tables' window).
func (s *Snapshot) orderRows(rows []gigRow) error {
	s.keys, s.days, s.status = make([]int64, len(rows)), make([]int32, len(rows)), make([]uint8, len(rows))
	ids := make([]string, len(rows))
	for i, r := range rows {
		s.keys[i], s.days[i], s.status[i], ids[i] = r.key, r.day, r.status, r.g.ID
	}
	var err error
	if s.ids, err = newKeyTable(ids); err != nil {
		var dup *duplicateKeyError
		if errors.As(err, &dup) {
			err = fmt.Errorf("duplicate gig id %q", dup.key)
		}
		return err
	}
	s.indexHours()
	s.dayWindow()
	s.allDays.cum, s.allDays.first = s.appendDayTable(nil, nil, nil)
	return nil
}

// indexRows makes what Run filters the positions of rows by: the postings of every
// dimension, the words and the venues' points.
func (s *Snapshot) indexRows(rows []gigRow, cat *catalog) error {
	if err := s.buildIndexes(rows, cat); err != nil {
		return err
	}
	if err := s.indexWords(rows, cat); err != nil {
		return err
	}
	if err := s.buildGeo(rows, cat); err != nil {
		return err
	}
	s.pairs.Store(s.countWordPairs())
	return nil
}

// dayNumber returns the days since 1970-01-01 of t's calendar date in its own location.
func dayNumber(t time.Time) int32 {
	_, day, _ := localClock(t)
	return int32(day)
}

// renderChunk is how many gigs one rendering task covers, and one part of the arena holds:
// large enough to keep the workers busy and the parts few, small enough that a worker's
// buffer stays in cache.
const renderChunk = 4096

// sampleGigs returns up to 512 gigs spread over rows, as they would be in a snapshot
// built at now, for deflate.NewCoder to learn their bodies' bytes from. Rows must be in
// the snapshot's order, so that the sample (and so every fragment) does not depend on the
// dataset's.
func sampleGigs(rows []gigRow, contents [][]byte, now int64) [][]byte {
	return sampleOf(len(rows), func(i int) []byte { return rows[i].content(contents) }, now)
}

// sampleOf returns the sample sampleGigs makes of n gigs, content(i) the JSON of the
// i-th less its times, capped (appending the times copies it).
func sampleOf(n int, content func(int) []byte, now int64) [][]byte {
	var sample [][]byte
	for i := 0; i < n; i += (n + 511) / 512 {
		sample = append(sample, appendGigTimes(content(i), now, now))
	}
	return sample
}

// renderContents renders each row's gig less its times (gigWriter.appendGig) in the
// dataset's order, in parallel chunks of renderChunk rows, each copied into a part of
// exactly its size, and files in each row where its JSON went, its hash, its input hash
// and its position in prev, which reuse.locate guessed (see gigRow); a row that is prev's
// gig unchanged (gigRow.isPrevs) is not rendered. A dataset read from a file lays its
// gigs out in memory in that order; rendering them in the snapshot's order (by start)
// reads each gig's struct, strings and lists far from the last gig's, a cache and TLB
// miss each, with nothing to overlap them. In one process on the same 1M gigs read back
// from a dataset file, old and new alternating, it took an eighth to a quarter off the
// build; the loader's datasets point into its sources' records, in their order, which was
// not measured. The parts cost memory for a while: the size of the gigs rendered (on a
// first build nearly the arena's), until renderGigs has copied them.
func renderContents(rows []gigRow, w *gigWriter, ru *reuse) [][]byte {
	parts := make([][]byte, (len(rows)+renderChunk-1)/renderChunk)
	in := newGigInputs(w)
	type scratch struct{ b, in []byte }
	var scratches sync.Pool
	_ = parallel(len(parts), func(c int) error {
		sc, _ := scratches.Get().(*scratch)
		if sc == nil {
			sc = new(scratch)
		}
		buf := sc.b[:0]
		for i := c * renderChunk; i < min((c+1)*renderChunk, len(rows)); i++ {
			r := &rows[i]
			r.input, sc.in = in.sum(sc.in, w.cat, r)
			r.part, r.at = int32(c), len(buf)
			if r.same = r.isPrevs(); r.same {
				r.size = 0
				continue
			}
			ru.confirm(r)
			buf = w.appendGig(buf, r)
			r.size, r.hash = len(buf)-r.at, xxhash.Sum64(buf[r.at:])
		}
		parts[c] = bytes.Clone(buf)
		sc.b = buf
		scratches.Put(sc)
		return nil
	})
	return parts
}

// renderGigs serializes every gig once, in parallel chunks (see renderChunk): each is
// copied from its content (see renderContents) and its times appended, into a part of
// the arena of exactly the chunk's size, so that no buffer of hundreds of megabytes is
// grown or copied; its deflate fragment likewise into zarena, copied from prev for a gig
// whose body did not change (compressing is a third of a first build), and every byte of
// it for a gig that is prev's unchanged (gigRow.isPrevs). Each gig's times are what prev
// knew of it (see priorOf), or the build time; the sequence numbers of new and changed
// gigs are left 0 for carryLedger to give.
func (s *Snapshot) renderGigs(rows []gigRow, contents [][]byte, ru *reuse) {
	chunks := (len(rows) + renderChunk - 1) / renderChunk
	n, now := len(rows), s.built.Unix()
	s.arena, s.zarena = make([][]byte, chunks), make([][]byte, chunks)
	s.off, s.zoff = make([]int, n+1), make([]int, n+1)
	s.gigHash, s.content, s.gigCRC = make([]uint64, n), make([]uint64, n), make([]uint32, n)
	s.created, s.updated = make([]int64, n), make([]int64, n)
	s.firstSeq, s.lastSeq = make([]uint64, n), make([]uint64, n)
	s.inputs = make([]uint64, n)
	coder := ru.coder
	if coder == nil {
		coder = deflate.NewCoder(sampleGigs(rows, contents, now))
	}
	var scratches sync.Pool
	_ = parallel(chunks, func(c int) error {
		sc, _ := scratches.Get().(*gigScratch)
		if sc == nil {
			sc = new(gigScratch)
		}
		s.renderChunk(c, rows, contents, ru, coder, sc)
		scratches.Put(sc)
		return nil
	})
	base, zbase := 0, 0
	for c, part := range s.arena {
		lo, hi := c*renderChunk, min((c+1)*renderChunk, len(rows))
		for i := lo; i < hi; i++ {
			s.off[i] += base
			s.zoff[i] += zbase
		}
		base += len(part)
		zbase += len(s.zarena[c])
	}
	s.zoff[len(rows)] = zbase
	if len(rows) > 0 {
		s.off[len(rows)] = base + 1 // as if the last gig were followed by a comma
	}
}

// buildIndexes makes the postings of positions: one per entity, filed under the search key
// of its slug and of its name (entities whose names fold alike share the union; a name
// that folds like another entity's slug is that entity's alone: see postingsBuilder.add).
// Keys are folded once per entity, not per gig.
func (s *Snapshot) buildIndexes(rows []gigRow, cat *catalog) error {
	ds := cat.ds
	// each calls emit with the entities of every row and its position, row by row: a
	// loop per dimension, with no call per row but emit's.
	type each = func(emit func(int32, uint32))
	single := func(of func(r *gigRow) int32) each {
		return func(emit func(int32, uint32)) {
			for i := range rows {
				emit(of(&rows[i]), uint32(i))
			}
		}
	}
	refs := func(of func(r *gigRow) []int32) each {
		return func(emit func(int32, uint32)) {
			for i := range rows {
				for _, e := range of(&rows[i]) {
					emit(e, uint32(i))
				}
			}
		}
	}
	dims := [numDims]struct {
		n    int
		each each
		slug func(e int32) string
		name func(e int32) string
	}{
		DimCity: {len(ds.Cities), single(func(r *gigRow) int32 { return r.city }),
			func(e int32) string { return ds.Cities[e].Slug }, func(e int32) string { return ds.Cities[e].Name }},
		DimCountry: {len(cat.countries), single(func(r *gigRow) int32 { return cat.countryOf[r.city] }),
			func(e int32) string { return cat.countries[e] }, func(e int32) string { return cat.countries[e] }},
		DimVenue: {len(ds.Venues), single(func(r *gigRow) int32 { return r.venue }),
			func(e int32) string { return ds.Venues[e].Slug }, func(e int32) string { return ds.Venues[e].Name }},
		DimArtist: {len(ds.Artists), refs(cat.artists),
			func(e int32) string { return ds.Artists[e].Slug }, func(e int32) string { return ds.Artists[e].Name }},
		DimGenre: {len(ds.Genres), refs(cat.genres),
			func(e int32) string { return ds.Genres[e].Slug }, func(e int32) string { return ds.Genres[e].Name }},
		DimStatus: {len(Statuses), single(func(r *gigRow) int32 { return int32(r.status) }),
			func(e int32) string { return string(Statuses[e]) }, func(e int32) string { return string(Statuses[e]) }},
	}
	for d, dim := range dims {
		at, pos := groupPositions(dim.n, dim.each)
		var b postingsBuilder
		b.reserve(2*dim.n + len(cat.claims[d]))
		for _, key := range cat.claims[d] {
			b.add(nil, key)
		}
		// In slug order, so that equal datasets give equal snapshots.
		for _, e := range bySlug(dim.n, dim.slug) {
			b.add(pos[at[e]:at[e+1]], Fold(dim.slug(e)), Fold(dim.name(e)))
			if d == int(DimArtist) && ds.Artists[e].MBID != "" {
				b.claim(mbidKey(ds.Artists[e].MBID), at[e+1] > at[e])
			}
		}
		var err error
		if s.index[d], err = b.build(len(rows), s); err != nil {
			return err
		}
	}
	return nil
}

// upcoming counts what the directories count, by entity index: per city, venue, artist
// and genre, the gigs from the build time on, whatever their status (what /v1/gigs lists
// by default, from that time); per venue, the positions of those gigs; and every artist
// on a gig of the snapshot.
type upcoming struct {
	city, venue, artist, genre []int
	listed                     []bool
	venueAt, venuePos          []uint32 // venue v's upcoming positions are venuePos[venueAt[v]:venueAt[v+1]]
}

func countUpcoming(rows []gigRow, cat *catalog, now int64) upcoming {
	ds := cat.ds
	u := upcoming{city: make([]int, len(ds.Cities)), venue: make([]int, len(ds.Venues)), artist: make([]int, len(ds.Artists)),
		genre: make([]int, len(ds.Genres)), listed: make([]bool, len(ds.Artists))}
	for i := range rows {
		r := &rows[i]
		for _, a := range cat.artists(r) {
			u.listed[a] = true
		}
		if r.key < now {
			continue // started earlier today: still served by id, no longer upcoming
		}
		u.city[r.city]++
		u.venue[r.venue]++
		for _, a := range cat.artists(r) {
			u.artist[a]++
		}
		for _, g := range cat.genres(r) {
			u.genre[g]++
		}
	}
	u.venueAt, u.venuePos = groupPositions(len(ds.Venues), func(emit func(int32, uint32)) {
		for i := range rows {
			if rows[i].key >= now {
				emit(rows[i].venue, uint32(i))
			}
		}
	})
	return u
}

// cityDirectory is the JSON array of every city in slug order, where each entry begins
// (see appendEntries), and the cities' indices in that order.
func cityDirectory(list []City, u upcoming) ([]byte, []uint32, []int32, error) {
	order := bySlug(len(list), func(i int32) string { return list[i].Slug })
	data, at, err := appendEntries(nil, len(order), func(k int) any {
		i := order[k]
		c := &list[i]
		j := cityJSON{Slug: c.Slug, Name: c.Name, Country: c.Country, Timezone: c.Timezone, Upcoming: u.city[i]}
		if c.HasGeo && ValidPosition(c.Lat, c.Lon) {
			lat, lon := c.Lat, c.Lon
			j.Lat, j.Lon = &lat, &lon
		}
		return &j
	})
	return data, at, order, err
}

// venueDirectory is every venue's entry in slug order, and the venues' indices in that order.
func venueDirectory(cat *catalog, u upcoming) ([]venueJSON, []int32) {
	ds := cat.ds
	order := bySlug(len(ds.Venues), func(v int32) string { return ds.Venues[v].Slug })
	items := make([]venueJSON, 0, len(order))
	for _, v := range order {
		items = append(items, venueView(&ds.Venues[v], &ds.Cities[cat.venueCity[v]], u.venue[v]))
	}
	return items, order
}

// genreDirectory is the JSON array of the genres with an upcoming gig, in slug order.
func genreDirectory(genres []Genre, u upcoming) ([]byte, int, error) {
	var items []genreJSON
	for i, g := range genres {
		if u.genre[i] > 0 {
			items = append(items, genreJSON{g.Slug, g.Name, u.genre[i]})
		}
	}
	slices.SortFunc(items, func(a, b genreJSON) int { return cmp.Compare(a.Slug, b.Slug) })
	b, err := appendJSON(nil, items)
	return b, len(items), err
}

// renderDirectories renders the directories and venue details, then the export and
// /v1/meta. A venue's upcoming list holds its gigs from the build time on, whatever their
// status; the counts (upcoming_gigs, upcoming_tour_dates) are of the same gigs, as
// /v1/gigs lists them from that time, and a genre appears only when it has such a gig. The
// snapshot's version is the hash of every gig and directory; the ledger's change time
// moves when it differs from prev's.
func (s *Snapshot) renderDirectories(rows []gigRow, cat *catalog, prev *Snapshot) error {
	ds := cat.ds
	u := countUpcoming(rows, cat, s.built.Unix())
	venueItems, venueOrder := venueDirectory(cat, u)
	artistItems, artistOrder := artistItems(ds.Artists, u)
	var at [numDirectories][]uint32
	var cityOrder []int32
	type directory struct {
		dst  **Body
		data []byte
		n    int
	}
	var dirs [4]directory
	var err error
	dirs[0].dst, dirs[1].dst, dirs[2].dst, dirs[3].dst = &s.cities, &s.venues, &s.artists, &s.genres
	if dirs[0].data, at[DirCities], cityOrder, err = cityDirectory(ds.Cities, u); err != nil {
		return fmt.Errorf("cannot render the cities: %w", err)
	}
	dirs[0].n = len(cityOrder)
	if dirs[1].data, at[DirVenues], err = s.indexVenues(venueItems, ds.Cities); err != nil {
		return err
	}
	dirs[1].n = len(venueItems)
	if dirs[2].data, at[DirArtists], err = appendEntries(nil, len(artistItems), func(k int) any { return &artistItems[k] }); err != nil {
		return fmt.Errorf("cannot render the artists: %w", err)
	}
	dirs[2].n = len(artistItems)
	if dirs[3].data, dirs[3].n, err = genreDirectory(ds.Genres, u); err != nil {
		return fmt.Errorf("cannot render the genres: %w", err)
	}
	h := xxhash.New()
	writeGigHashes(h, s.gigHash)
	for _, d := range dirs {
		_, _ = h.Write(d.data)
	}
	s.version = fmt.Sprintf("%016x", h.Sum64())
	s.settleChanged(prev)
	s.counts = Counts{Gigs: len(rows), Cities: dirs[0].n, Venues: dirs[1].n, Artists: dirs[2].n, Genres: dirs[3].n}
	for _, d := range dirs {
		raw := make([]byte, 0, len(d.data)+128)
		raw = append(raw, `{"data":`...)
		raw = append(raw, d.data...)
		raw = append(raw, ',')
		raw = appendMeta(raw, d.n)
		raw = append(raw, '}')
		b, err := newBody(raw, gzip.DefaultCompression)
		if err != nil {
			return err
		}
		*d.dst = b
	}
	if err := s.indexDirectories(cat, at, cityOrder, venueOrder, artistOrder); err != nil {
		return err
	}
	if err := s.renderExport(); err != nil {
		return err
	}
	if err := s.renderMeta(ds.Sources); err != nil {
		return err
	}
	venuePos := make([][]uint32, len(venueOrder))
	for i, v := range venueOrder {
		venuePos[i] = u.venuePos[u.venueAt[v]:u.venueAt[v+1]]
	}
	if err := s.renderVenueDetails(venueItems, venuePos); err != nil {
		return err
	}
	return s.renderArtistDetails(rows, cat, u, artistItems, artistOrder)
}

// indexVenues renders each venue's directory entry into one arena and indexes them by
// city and country for filtered directories; it returns the JSON array of all entries,
// and where each begins (see appendEntries).
// As in the gigs' postings, a city's slug names that city alone (cities holds them all),
// though another city's name folds alike.
func (s *Snapshot) indexVenues(items []venueJSON, cities []City) ([]byte, []uint32, error) {
	s.venueOff = make([]uint32, 1, len(items)+1)
	type lists struct {
		own   []uint32 // under the key of a city's slug, or of a country's code
		named []uint32 // under the key of a city's name
		owned bool     // the key is a city's slug or a country's code
	}
	byKey := map[string]*lists{}
	entry := func(key string) *lists {
		l := byKey[key]
		if l == nil {
			l = new(lists)
			byKey[key] = l
		}
		return l
	}
	for i := range cities {
		entry("city:" + Fold(cities[i].Slug)).owned = true
	}
	file := func(p *[]uint32, i int) {
		if len(*p) == 0 || (*p)[len(*p)-1] != uint32(i) {
			*p = append(*p, uint32(i))
		}
	}
	for i := range items {
		var err error
		if s.venueItems, err = appendJSON(s.venueItems, &items[i]); err != nil {
			return nil, nil, fmt.Errorf("cannot render venue %q: %w", items[i].Slug, err)
		}
		s.venueOff = append(s.venueOff, uint32(len(s.venueItems)))
		file(&entry("city:"+Fold(items[i].City.Slug)).own, i)
		file(&entry("city:"+Fold(items[i].City.Name)).named, i)
		country := entry("country:" + Fold(items[i].Country))
		country.owned = true
		file(&country.own, i)
	}
	var b postingsBuilder
	for _, k := range slices.Sorted(maps.Keys(byKey)) { // so that equal datasets give equal snapshots
		if l := byKey[k]; l.owned {
			b.add(l.own, k)
		} else {
			b.add(l.named, "", k)
		}
	}
	var err error
	if s.venueIndex, err = b.build(len(items), nil); err != nil {
		return nil, nil, err
	}
	all, at := make([]byte, 0, len(s.venueItems)+len(items)+2), make([]uint32, 0, len(items)+1)
	all = append(all, '[')
	for i := range items {
		if i > 0 {
			all = append(all, ',')
		}
		at = append(at, uint32(dataOffset+len(all)))
		all = append(all, s.VenueItem(i)...)
	}
	all = append(all, ']')
	return all, append(at, uint32(dataOffset+len(all))), nil
}

func venueView(v *Venue, c *City, upcoming int) venueJSON {
	j := venueJSON{Slug: v.Slug, Name: v.Name, City: ref{c.Slug, c.Name}, Country: c.Country,
		Address: v.Address, Website: v.Website, Upcoming: upcoming}
	if lat, lon, approx, ok := venuePosition(v, c); ok {
		j.Lat, j.Lon, j.Approx = &lat, &lon, approx
	}
	return j
}
