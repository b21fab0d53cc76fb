package engine

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// catalog numbers a dataset's entities by their index in it, checks every reference, and
// resolves each gig's references once, so that the rest of a build works on numbers and
// flat arrays rather than on maps of slugs.
type catalog struct {
	ds                         *Dataset
	city, venue, artist, genre map[string]int32 // slug → index in ds
	locs                       []*time.Location // per city
	venueCity                  []int32          // per venue: its city
	countries                  []string         // the cities' country codes, sorted, once each
	countryOf                  []int32          // per city: its country in countries
	refs                       []int32          // each row's artists then genres; see gigRow.refs
	// claims holds, per dimension, the folded slugs of entities outside ds, which own
	// them as an entity's slug does (a name that folds alike gives way): an index of some
	// gigs of a larger catalog matches as that catalog would (see goneIndex).
	claims [numDims][]string
}

// gigRow is a gig the snapshot holds, with its references resolved.
type gigRow struct {
	g           *Gig
	key         int64  // sort key
	id          uint64 // the id's first 8 bytes, big-endian: it orders rows of one key mostly without g
	day         int32  // venue-local day number
	venue, city int32
	// The gig's artists are catalog.refs[refs:refs+artists], its genres follow. They and
	// status are copied from g so that indexing need not follow g, a cache miss per gig.
	refs, artists, genres int32
	status                uint8 // the code of g.Status
	// Rendered in the dataset's order (see renderContents): the gig's JSON less its times
	// is contents[part][at:at+size], hash is its xxhash64, and prevAt the gig's position
	// in the snapshot the build replaces (-1: none). input is the hash of what the JSON
	// is rendered from, and same is set when the gig is prev's unchanged (gigRow.isPrevs):
	// then it has no content and no hash (renderChunk copies prev's, in the snapshot's
	// order: read here, in the dataset's, it was a cache miss per gig). reusable and
	// prevInput are what reuse.locate found of its guess in prev.
	part, prevAt   int32
	at, size       int
	hash, input    uint64
	prevInput      uint64
	same, reusable bool
}

// content returns the row's gig less its times, from the parts renderContents made.
func (r *gigRow) content(contents [][]byte) []byte {
	return contents[r.part][r.at : r.at+r.size : r.at+r.size]
}

func (c *catalog) artists(r *gigRow) []int32 { return c.refs[r.refs : r.refs+r.artists] }

func (c *catalog) genres(r *gigRow) []int32 {
	at := r.refs + r.artists
	return c.refs[at : at+r.genres]
}

func (c *catalog) loc(r *gigRow) *time.Location { return c.locs[r.city] }

// newCatalog indexes ds's cities, venues, genres and artists, and fails on a duplicate or
// missing slug, an unknown time zone, country code, city or genre.
func newCatalog(ds *Dataset) (*catalog, error) {
	c := &catalog{ds: ds, city: make(map[string]int32, len(ds.Cities)), venue: make(map[string]int32, len(ds.Venues)),
		artist: make(map[string]int32, len(ds.Artists)), genre: make(map[string]int32, len(ds.Genres))}
	for i := range ds.Cities {
		ct := &ds.Cities[i]
		if err := checkSlug("city", ct.Slug, c.city, i); err != nil {
			return nil, err
		}
		loc, err := time.LoadLocation(ct.Timezone)
		if err != nil || ct.Timezone == "" {
			return nil, fmt.Errorf("city %q: unknown time zone %q", ct.Slug, ct.Timezone)
		}
		if len(ct.Country) != 2 {
			return nil, fmt.Errorf("city %q: country %q is not an ISO 3166-1 alpha-2 code", ct.Slug, ct.Country)
		}
		c.locs = append(c.locs, loc)
		c.countries = append(c.countries, ct.Country)
	}
	slices.Sort(c.countries)
	c.countries = slices.Compact(c.countries)
	for i := range ds.Cities {
		k, _ := slices.BinarySearch(c.countries, ds.Cities[i].Country)
		c.countryOf = append(c.countryOf, int32(k))
	}
	for i := range ds.Venues {
		v := &ds.Venues[i]
		if err := checkSlug("venue", v.Slug, c.venue, i); err != nil {
			return nil, err
		}
		ct, ok := c.city[v.City]
		if !ok {
			return nil, fmt.Errorf("venue %q: unknown city %q", v.Slug, v.City)
		}
		c.venueCity = append(c.venueCity, ct)
	}
	for i := range ds.Genres {
		if err := checkSlug("genre", ds.Genres[i].Slug, c.genre, i); err != nil {
			return nil, err
		}
	}
	for i := range ds.Artists {
		a := &ds.Artists[i]
		if err := checkSlug("artist", a.Slug, c.artist, i); err != nil {
			return nil, err
		}
		for _, g := range a.Genres {
			if _, ok := c.genre[g]; !ok {
				return nil, fmt.Errorf("artist %q: unknown genre %q", a.Slug, g)
			}
		}
		if m, ok := ParseMBID(a.MBID); a.MBID != "" && (!ok || m != a.MBID) {
			return nil, fmt.Errorf("artist %q: mbid %q is not a UUID in canonical form", a.Slug, a.MBID)
		}
	}
	return c, nil
}

// checkSlug files slug under index i in seen, or fails when it is empty or taken.
func checkSlug(kind, slug string, seen map[string]int32, i int) error {
	if slug == "" {
		return fmt.Errorf("%s without a slug", kind)
	}
	if _, dup := seen[slug]; dup {
		return fmt.Errorf("duplicate %s slug %q", kind, slug)
	}
	seen[slug] = int32(i)
	return nil
}

// selectGigs checks every gig and keeps those from the venue-local today on, in the
// dataset's order (see rowOrder for the snapshot's).
func (c *catalog) selectGigs(now time.Time) ([]gigRow, error) {
	gigs := c.ds.Gigs
	rows := make([]gigRow, 0, len(gigs))
	refs := 0
	for i := range gigs {
		refs += len(gigs[i].Artists) + len(gigs[i].Genres)
	}
	c.refs = make([]int32, 0, refs)
	today := make([]int32, len(c.ds.Cities)) // per city: the venue-local day of now
	for i, loc := range c.locs {
		today[i] = dayNumber(now.In(loc))
	}
	for i := range gigs {
		g := &gigs[i]
		refs := len(c.refs)
		v, err := c.checkGig(g)
		if err != nil {
			return nil, err
		}
		city := c.venueCity[v]
		loc := c.locs[city]
		start := g.Start.In(loc)
		day := dayNumber(start)
		if day < today[city] {
			c.refs = c.refs[:refs]
			continue
		}
		key := start.Unix()
		if g.TimeTBA {
			y, m, d := start.Date()
			key = time.Date(y, m, d, 23, 59, 59, 0, loc).Unix()
		}
		var id [8]byte
		copy(id[:], g.ID)
		rows = append(rows, gigRow{g: g, key: key, id: binary.BigEndian.Uint64(id[:]), day: day, venue: v, city: city,
			refs: int32(refs), artists: int32(len(g.Artists)), genres: int32(len(g.Genres)), status: g.Status.code()})
	}
	return rows, nil
}

// rowOrder orders rows as the snapshot's positions are: by key (the start; a gig whose
// time is to be announced sorts at the end of its venue-local day), then id: a radix sort
// of their indices by key (rows span months or years of seconds, a few 11-bit digits),
// then a comparison sort within each run of equal keys. It returns the rows' indices in
// that order (see inOrder).
func rowOrder(rows []gigRow) []uint32 {
	if len(rows) == 0 {
		return nil
	}
	lo := rows[0].key
	for i := range rows {
		lo = min(lo, rows[i].key)
	}
	order, tmp := make([]uint32, len(rows)), make([]uint32, len(rows))
	for i := range order {
		order[i] = uint32(i)
	}
	const bits = 11
	var count [1 << bits]int
	for shift := 0; shift < 64; shift += bits {
		clear(count[:])
		more := false
		for _, i := range order {
			d := uint64(rows[i].key-lo) >> shift
			more = more || d>>bits != 0
			count[d&(1<<bits-1)]++
		}
		at := 0
		for d, n := range count {
			count[d], at = at, at+n
		}
		for _, i := range order {
			d := uint64(rows[i].key-lo) >> shift & (1<<bits - 1)
			tmp[count[d]] = i
			count[d]++
		}
		order, tmp = tmp, order
		if !more {
			break
		}
	}
	byID := func(a, b uint32) int {
		if c := cmp.Compare(rows[a].id, rows[b].id); c != 0 {
			return c
		}
		return cmp.Compare(rows[a].g.ID, rows[b].g.ID)
	}
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && rows[order[end]].key == rows[order[start]].key {
			end++
		}
		if end-start > 1 {
			slices.SortFunc(order[start:end], byID)
		}
		start = end
	}
	return order
}

// inOrder returns rows in a new slice, in order, and lays their artists and genres out in
// c.refs in that order too: the indexes, counts and details read them row after row in
// the snapshot's order, each a cache miss in the dataset's.
func (c *catalog) inOrder(rows []gigRow, order []uint32) []gigRow {
	sorted, refs := make([]gigRow, len(rows)), make([]int32, 0, len(c.refs))
	for k, i := range order {
		r := rows[i]
		refs = append(refs, c.refs[r.refs:r.refs+r.artists+r.genres]...)
		r.refs = int32(len(refs)) - r.artists - r.genres
		sorted[k] = r
	}
	c.refs = refs
	return sorted
}

// checkGig checks one gig, appends its artists' and genres' indices to c.refs, and
// returns its venue's. That its id is the only one of the snapshot is checked when the
// gigs' key table is made (see Build), among the gigs kept.
func (c *catalog) checkGig(g *Gig) (int32, error) {
	if g.ID == "" {
		return 0, errors.New("gig without an id")
	}
	v, ok := c.venue[g.Venue]
	if !ok {
		return 0, fmt.Errorf("gig %q: unknown venue %q", g.ID, g.Venue)
	}
	if g.Start.IsZero() {
		return 0, fmt.Errorf("gig %q: no start", g.ID)
	}
	if g.Status != "" && !g.Status.Valid() {
		return 0, fmt.Errorf("gig %q: unknown status %q", g.ID, g.Status)
	}
	if len(c.refs)+len(g.Artists)+len(g.Genres) > math.MaxInt32 {
		return 0, errors.New("too many artists and genres on the gigs")
	}
	for _, b := range g.Artists {
		a, ok := c.artist[b.Artist]
		if !ok {
			return 0, fmt.Errorf("gig %q: unknown artist %q", g.ID, b.Artist)
		}
		c.refs = append(c.refs, a)
	}
	for _, gn := range g.Genres {
		k, ok := c.genre[gn]
		if !ok {
			return 0, fmt.Errorf("gig %q: unknown genre %q", g.ID, gn)
		}
		c.refs = append(c.refs, k)
	}
	for _, t := range g.Tickets {
		for _, p := range []*float64{t.PriceMin, t.PriceMax} {
			if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0) {
				return 0, fmt.Errorf("gig %q: price %v is not a finite, non-negative number", g.ID, *p)
			}
		}
	}
	return v, nil
}

// groupPositions lists each of n entities' positions, ascending and each once: entity e's
// are pos[at[e]:at[e+1]]. each calls emit(e, p) for every entity e of every position p, in
// ascending order of p. Two passes of counting, no map and no growing slice.
func groupPositions(n int, each func(emit func(e int32, p uint32))) (at, pos []uint32) {
	at = make([]uint32, n+1)
	last := make([]uint32, n) // the last position emitted per entity, plus one
	each(func(e int32, p uint32) {
		if last[e] != p+1 {
			last[e] = p + 1
			at[e+1]++
		}
	})
	for e := 1; e <= n; e++ {
		at[e] += at[e-1]
	}
	pos = make([]uint32, at[n])
	next := slices.Clone(at[:n])
	clear(last)
	each(func(e int32, p uint32) {
		if last[e] != p+1 {
			last[e] = p + 1
			pos[next[e]] = p
			next[e]++
		}
	})
	return at, pos
}

// bySlug returns the indices 0 … n-1 ordered by slug(i).
func bySlug(n int, slug func(i int32) string) []int32 {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(slug(a), slug(b)) })
	return order
}
