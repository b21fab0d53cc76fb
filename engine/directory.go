package engine

import "fmt"

// Directories that answer queries: /v1/cities, /v1/venues and /v1/artists searched by
// words (a typeahead: every word of the query begins a word of the entry's name, folded
// as the gigs' search is, see words.go), within a radius of a point (cities at their
// centre, venues where gigs near a point put them: see venuePosition), and paged. Each
// directory keeps, per build, where each entry lies in its pre-rendered body (so that a
// page copies its entries' bytes), a words index over its entries' names, and for cities
// and venues an index of their points (geo.go), all numbered by the entries' places in
// the directory's order (by slug). A typeahead, one search token and nothing else, is
// one posting: a directory's words index gives every prefix of up to everyPrefixBytes
// that begins two tokens or more a posting of its own (at most 1.3 MB for the artists and
// venues of 1M gigs, built in the index's time), so its page is the posting's entries
// from the offset and its total the posting's size, whatever the number of entries.
// Other queries intersect their groups (each search token's postings, the points within
// the radius, a venue's city and country values) as bits, a word per 64 entries: a pass
// over a few thousand words at 100k artists, no scan of the entries themselves.

// Directory names a directory that answers queries (RunDirectory).
type Directory uint8

// The directories that answer queries.
const (
	DirCities Directory = iota
	DirVenues
	DirArtists
	numDirectories
)

// directory is a directory's entries made searchable. Immutable once built.
type directory struct {
	// at: entry i is body.Raw[at[i]:at[i+1]-1], in the directory's body (a comma, or the
	// closing bracket, follows each entry).
	at    []uint32
	words wordIndex // the words of each entry's name (a venue's, then its city's)
	geo   geoIndex  // each entry's position: cities and venues; empty for artists
}

// entries returns the number of entries of d.
func (x *directory) entries() int { return max(len(x.at)-1, 0) }

// body returns directory d's whole body.
func (s *Snapshot) body(d Directory) *Body {
	switch d {
	case DirCities:
		return s.cities
	case DirVenues:
		return s.venues
	}
	return s.artists
}

// entry returns entry i of directory d, 0 <= i < its entries.
func (s *Snapshot) entry(d Directory, i int) []byte {
	at := s.dirs[d].at
	return s.body(d).Raw[at[i] : at[i+1]-1 : at[i+1]-1]
}

// dataOffset is where a directory body's array begins: after `{"data":`.
const dataOffset = len(`{"data":`)

// appendEntries appends the JSON array of n entries, entry(i) each, to dst, and returns
// it with where each entry begins, counted from dataOffset before dst's end, and where
// one more would (see directory.at). Entry by entry, it writes the bytes encoding the
// slice whole would.
func appendEntries(dst []byte, n int, entry func(i int) any) ([]byte, []uint32, error) {
	base := len(dst) - dataOffset
	at := make([]uint32, 0, n+1)
	dst = append(dst, '[')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		at = append(at, uint32(len(dst)-base))
		var err error
		if dst, err = appendJSON(dst, entry(i)); err != nil {
			return dst, nil, err
		}
	}
	dst = append(dst, ']')
	return dst, append(at, uint32(len(dst)-base)), nil
}

// indexDirectory makes directory d's words index of n entries, whose names are
// names(i), and its index of points, pointOf(i) in pts (none when -1; no index when pts
// is nil).
func (s *Snapshot) indexDirectory(d Directory, n int, names func(i int) []string, pts []geoPoint, pointOf func(i int) int32) error {
	x := &s.dirs[d]
	var err error
	if x.words, err = directoryWords(n, names, true); err != nil {
		return err
	}
	if pts == nil {
		return nil
	}
	x.geo, err = newGeoIndex(pts, n, pointOf, nil)
	return err
}

// directoryWords returns the words index of n entries whose names are names(i), every
// prefix that begins two tokens or more with a posting of its own when everyPrefix is set
// (see wordIndexBuilder).
func directoryWords(n int, names func(i int) []string, everyPrefix bool) (wordIndex, error) {
	b := wordIndexBuilder{everyPrefix: everyPrefix}
	at, toks := make([]uint32, 1, n+1), []int32(nil)
	for i := range n {
		for _, name := range names(i) {
			toks = b.tokenize(toks, name)
		}
		at = append(at, uint32(len(toks)))
	}
	tokAt, pos := groupPositions(len(b.tokens), func(emit func(int32, uint32)) {
		for i := range n {
			for _, t := range toks[at[i]:at[i+1]] {
				emit(t, uint32(i))
			}
		}
	})
	return b.build(tokAt, pos, n)
}

// RunDirectory evaluates q on directory d: q.Total gets the number of d's entries that
// hold every token of q's search (see Search), lie within q's radius (see Near; cities
// and venues), and, in the venues, match q's DimCity and DimCountry values as FilterVenues
// does; other dimensions and the bounds are ignored. q.Page gets the numbers of at most
// q.Limit of them after skipping q.Offset, for AppendDirectoryPage: in d's order (by
// slug), or, near a point, nearest first, then by slug, with q.Dist their distances in
// metres (whatever Near's byDistance). It allocates nothing once q's scratch has grown.
func (s *Snapshot) RunDirectory(d Directory, q *Query) {
	q.Total, q.Page, q.Dist = 0, q.Page[:0], q.Dist[:0]
	x := &s.dirs[d]
	n := x.entries()
	if n == 0 {
		return
	}
	m, total, ok := s.directoryMembers(d, q)
	if !ok {
		return
	}
	q.Total = total
	if q.Offset >= q.Total || q.Limit <= 0 {
		return
	}
	want := min(q.Limit, q.Total-q.Offset)
	skip := q.Offset
	if !q.near.set {
		m.each(q, m.at(skip), n, func(p int) bool {
			q.Page = append(q.Page, p)
			return len(q.Page) < want
		})
		return
	}
	for len(q.ring) > 0 && len(q.Page) < want {
		grp := x.geo.nextNearest(q)
		x.geo.eachAt(q, grp, 0, n, func(p int) bool {
			switch {
			case !m.contains(p):
			case skip > 0:
				skip--
			default:
				q.Page = append(q.Page, p)
				q.Dist = append(q.Dist, grp[0].metres)
			}
			return len(q.Page) < want
		})
	}
}

// directoryMembers returns the entries of directory d that pass q's groups, and their
// number; ok is false when none can. A query of one posting (one search token that begins
// at most one token, or a prefix with a posting of its own: every prefix of two
// tokens or more, unless the snapshot was read from a file written before they had) or of none is that posting, or every
// entry, as it is; others are intersected as bits in q's scratch.
func (s *Snapshot) directoryMembers(d Directory, q *Query) (m members, total int, ok bool) {
	x := &s.dirs[d]
	n := x.entries()
	if !q.near.set && (d != DirVenues || len(q.vals[DimCity])+len(q.vals[DimCountry]) == 0) && len(q.toks) <= 1 {
		if len(q.toks) == 0 {
			return members{all: true}, n, true
		}
		t := q.toks[0]
		g, ok := x.words.group(q.text[t.lo:t.hi])
		if !ok {
			return members{}, 0, false
		}
		if g.alts() == 1 {
			p := x.words.posting(&g, 0)
			return members{bm: p.bm, list: p.list}, int(p.card()), true
		}
	}
	words := (n + 63) >> 6
	acc, one := grown(&q.dense[0], words), grown(&q.dense[1], words)
	clear(acc)
	setBits(acc, 0, n)
	and := func() {
		for w := range acc {
			acc[w] &= one[w]
		}
	}
	if d == DirVenues {
		for _, dim := range [...]Dim{DimCity, DimCountry} {
			if len(q.vals[dim]) == 0 {
				continue
			}
			clear(one)
			for _, v := range q.vals[dim] {
				q.scratch = append(append(q.scratch[:0], venueKeyPrefix[dim]...), q.keys[v.lo:v.hi]...)
				if p, ok := s.venueIndex.lookupBytes(q.scratch); ok {
					orInto(one, p)
				}
			}
			and()
		}
	}
	for _, t := range q.toks {
		g, ok := x.words.group(q.text[t.lo:t.hi])
		if !ok {
			return members{}, 0, false
		}
		clear(one)
		for i := range g.alts() {
			orInto(one, x.words.posting(&g, i))
		}
		and()
	}
	if q.near.set {
		q.clearNear()
		q.near.byDistance = true // the ring of every point within the radius, for the page
		if !x.geo.findNear(q) {
			return members{}, 0, false
		}
		clear(one)
		for _, c := range q.cand {
			if c.tile {
				orInto(one, x.geo.tilePosting(int(c.point)))
			} else {
				orInto(one, x.geo.post.posting(int(c.point)))
			}
		}
		and()
	}
	m, _ = finishDense(acc, &q.cum, 0, n)
	return m, int(m.cum[len(m.cum)-1]), true
}

// venueKeyPrefix is what the venue index files a city's or a country's key under.
var venueKeyPrefix = [...]string{DimCity: "city:", DimCountry: "country:"}

// orInto sets in dst, a word per 64 positions, the bits of p's positions.
func orInto(dst []uint64, p posting) {
	if p.bm != nil {
		orPortable(dst, p.raw, 0, len(dst), false)
		return
	}
	for _, x := range p.list {
		dst[x>>6] |= 1 << (x & 63)
	}
}

// AppendDirectoryPage appends the body of a page of directory d after RunDirectory to
// dst: q.Page's entries as the whole directory has them, each with its distance_km (a
// tenth of a kilometre) before its closing brace when q is near a point, then the page's
// meta and links as a page of gigs has them. Its tag hashes the body. It allocates nothing
// when dst has room.
func (s *Snapshot) AppendDirectoryPage(dst []byte, d Directory, q *Query, m PageMeta, links []Link) ([]byte, Tag) {
	start := len(dst)
	dst = append(dst, pageOpen...)
	for i, e := range q.Page {
		if i > 0 {
			dst = append(dst, ',')
		}
		entry := s.entry(d, e)
		if q.near.set {
			dst = append(appendDistance(append(dst, entry[:len(entry)-1]...), q.Dist[i]), '}')
			continue
		}
		dst = append(dst, entry...)
	}
	dst = appendPageTail(dst, m, links)
	return dst, TagOf(dst[start:])
}

// validDirectories checks the directories read from a file: each entry within its body,
// which holds counts' entries, and the indexes' positions below their number.
func (s *Snapshot) validDirectories() bool {
	counts := [numDirectories]int{DirCities: s.counts.Cities, DirVenues: s.counts.Venues, DirArtists: s.counts.Artists}
	for d := range numDirectories {
		x := &s.dirs[d]
		n, raw := counts[d], s.body(d).Raw
		if len(x.at) != n+1 || !ascending(x.at, true) || x.at[0] < uint32(dataOffset) || int(x.at[n]) > len(raw) ||
			!x.words.valid(n) || d != DirArtists && !x.geo.valid(n, -1) || d == DirArtists && x.geo.points() != 0 {
			return false
		}
	}
	return true
}

// viewDirectories makes what directories read from a file derive from their arrays.
func (s *Snapshot) viewDirectories() error {
	for d := range numDirectories {
		x := &s.dirs[d]
		n := x.entries()
		for _, ps := range []*postings{&x.words.words, &x.words.prefixes} {
			if err := ps.reindex(n); err != nil {
				return err
			}
		}
		if d == DirArtists {
			continue
		}
		for _, ps := range []*postings{&x.geo.post, &x.geo.tilePost} {
			if err := ps.reindex(n); err != nil {
				return err
			}
		}
		if err := x.geo.agrees(); err != nil {
			return err
		}
		x.geo.setTrig()
		if err := x.geo.setAreas(n, nil); err != nil {
			return err
		}
	}
	return nil
}

// indexDirectories indexes the directories whose bodies renderDirectories made: at[d]
// is where directory d's entries begin (see directory.at), and cityOrder, venueOrder
// and artistOrder are the entries' indices in the dataset.
func (s *Snapshot) indexDirectories(cat *catalog, at [numDirectories][]uint32, cityOrder, venueOrder, artistOrder []int32) error {
	ds := cat.ds
	for d := range numDirectories {
		s.dirs[d].at = at[d]
	}
	cityPts, ofCity := make([]geoPoint, 0, len(cityOrder)), make([]int32, len(cityOrder))
	for k, i := range cityOrder {
		ofCity[k] = -1
		if c := &ds.Cities[i]; c.HasGeo && ValidPosition(c.Lat, c.Lon) {
			ofCity[k] = int32(len(cityPts))
			cityPts = append(cityPts, geoPoint{c.Lat, c.Lon, geoRow(c.Lat)})
		}
	}
	if err := s.indexDirectory(DirCities, len(cityOrder), func(k int) []string { return []string{ds.Cities[cityOrder[k]].Name} },
		cityPts, func(k int) int32 { return ofCity[k] }); err != nil {
		return fmt.Errorf("cannot index the cities: %w", err)
	}
	venuePts, ofVenue := venuePoints(cat)
	if venuePts == nil {
		venuePts = []geoPoint{}
	}
	if err := s.indexDirectory(DirVenues, len(venueOrder), func(k int) []string {
		v := venueOrder[k]
		return []string{ds.Venues[v].Name, ds.Cities[cat.venueCity[v]].Name}
	}, venuePts, func(k int) int32 { return ofVenue[venueOrder[k]] }); err != nil {
		return fmt.Errorf("cannot index the venues: %w", err)
	}
	if err := s.indexDirectory(DirArtists, len(artistOrder), func(k int) []string { return []string{ds.Artists[artistOrder[k]].Name} },
		nil, nil); err != nil {
		return fmt.Errorf("cannot index the artists: %w", err)
	}
	return nil
}
