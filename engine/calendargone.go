package engine

import (
	"cmp"
	"slices"
	"time"

	"github.com/goccy/go-json"
)

// The gone index: the gigs no source lists any more (tombstones of ReasonGone, which keep
// the gig's JSON as it was last listed) that begin from the snapshot's build day on, laid
// out as a snapshot of their own by the machinery of Build (orderRows, indexRows) but
// with nothing rendered, so that a query runs on them as on the live gigs (Run): every
// filter, the search, near and its order by distance, the date range. The feeds list
// them as cancelled while their tombstones last (see AppendQueryCalendar).
//
// A gone gig is matched as if it were still listed, and as cancelled (status=cancelled
// finds it, status=scheduled does not): its city, venue, artists and genres as it named
// them when last listed, a genre by the name the genre directory gives it (its slug
// otherwise, which folds like its name). A value that folds like a slug of the snapshot's
// own cities, venues, artists or genres names that entity alone here too, as it does
// among the live gigs (catalog.claims). An artist's MBID is known when the artist is in
// the artist directory.
//
// It is built once per snapshot, when a feed first needs it (Snapshot.calendarIndex):
// one pass over the tombstones, then Build's work on the gone gigs kept, at most
// maxCalendarGone of them, the first by start.

// maxCalendarGone bounds the gigs of a gone index, and so its memory and the time it
// takes to build: past it, the gone gigs that begin last are left out of every feed.
const maxCalendarGone = 1 << 16

// goneIndex is the gone index of a snapshot. Immutable once built.
type goneIndex struct {
	snap *Snapshot // the gone gigs' positions, keys, postings, words and points; never nil
	tomb []int32   // the tombstone of each position of snap
	// byEntity holds, by "venue:<slug>" and "artist:<slug>", the ascending positions of
	// the entity's gone gigs from the build time on.
	byEntity map[string][]uint32
}

// indexGone builds the snapshot's gone index; an index of no gigs when the tombstones'
// JSON cannot be laid out again, which a snapshot's own JSON always can.
func (s *Snapshot) indexGone() goneIndex {
	x := goneIndex{snap: &Snapshot{built: s.built}}
	type goneGig struct {
		t int
		g *gigDoc
	}
	var list []goneGig
	// keep sorts list by start and keeps its first maxCalendarGone: run whenever list
	// holds twice that, it bounds the gigs decoded and held at once, however many
	// tombstones there are.
	keep := func() {
		slices.SortFunc(list, func(a, b goneGig) int { return cmp.Or(a.g.start.Compare(b.g.start), cmp.Compare(a.g.ID, b.g.ID)) })
		clear(list[min(len(list), maxCalendarGone):])
		list = list[:min(len(list), maxCalendarGone)]
	}
	for t := range s.tomb.len() {
		body := s.tomb.gig(t)
		if Reason(s.tomb.reason[t]) != ReasonGone || body == nil {
			continue
		}
		g, err := decodeGig(body)
		if err != nil || dayNumber(g.start) < dayNumber(s.built.In(g.loc)) {
			continue // past: Build would drop it too
		}
		if list = append(list, goneGig{t, g}); len(list) == 2*maxCalendarGone {
			keep()
		}
	}
	keep()

	ds := &Dataset{Gigs: make([]Gig, 0, len(list))}
	seen := map[string]bool{}
	first := func(kind, slug string) bool {
		k := kind + ":" + slug
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	genreNames := s.genreNames()
	for _, e := range list {
		g := e.g
		if first("city", g.City.Slug) {
			ds.Cities = append(ds.Cities, City{Slug: g.City.Slug, Name: g.City.Name, Country: g.Country, Timezone: g.Timezone})
		}
		if first("venue", g.Venue.Slug) {
			v := Venue{Slug: g.Venue.Slug, Name: g.Venue.Name, City: g.City.Slug}
			if g.Venue.Lat != nil && g.Venue.Lon != nil {
				v.Lat, v.Lon, v.HasGeo = *g.Venue.Lat, *g.Venue.Lon, true
			}
			ds.Venues = append(ds.Venues, v)
		}
		gig := Gig{ID: g.ID, Title: g.Title, Status: StatusCancelled, Venue: g.Venue.Slug, Start: g.start, TimeTBA: g.TimeTBA,
			Genres: g.Genres}
		for _, a := range g.Artists {
			if first("artist", a.Slug) {
				ds.Artists = append(ds.Artists, Artist{Slug: a.Slug, Name: a.Name, MBID: s.artistMBID(a.Slug)})
			}
			gig.Artists = append(gig.Artists, Billing{Artist: a.Slug, Headliner: a.Headliner})
		}
		for _, slug := range g.Genres {
			if first("genre", slug) {
				name, ok := genreNames[slug]
				if !ok {
					name = slug
				}
				ds.Genres = append(ds.Genres, Genre{Slug: slug, Name: name})
			}
		}
		ds.Gigs = append(ds.Gigs, gig)
	}
	cat, err := newCatalog(ds)
	if err != nil {
		return x
	}
	cat.claims = s.claims(ds, genreNames)
	rows, err := cat.selectGigs(s.built)
	if err != nil {
		return x
	}
	rows = cat.inOrder(rows, rowOrder(rows))
	m := &Snapshot{built: s.built}
	if m.orderRows(rows) != nil || m.indexRows(rows, cat) != nil {
		return x
	}
	x.snap, x.tomb, x.byEntity = m, make([]int32, len(rows)), map[string][]uint32{}
	now := s.built.Unix()
	for i := range rows {
		r := &rows[i]
		t, _ := s.tomb.ids.find(r.g.ID)
		x.tomb[i] = int32(t)
		if r.key < now {
			continue // begun before the build: no longer upcoming
		}
		k := "venue:" + ds.Venues[r.venue].Slug
		x.byEntity[k] = append(x.byEntity[k], uint32(i))
		for _, a := range cat.artists(r) {
			k := "artist:" + ds.Artists[a].Slug
			x.byEntity[k] = append(x.byEntity[k], uint32(i))
		}
	}
	return x
}

// claims returns, per dimension, the folded slugs of the snapshot's cities, venues,
// artists and genres (genreNames: the genre directory's) that fold like the name of an
// entity of ds, which folds unlike its own slug: those the snapshot's own entities keep
// from it. A name that folds like its own slug is its entity's own key anyway, so that
// the snapshot's slugs are folded only when a name of ds does not (rare).
func (s *Snapshot) claims(ds *Dataset, genreNames map[string]string) [numDims][]string {
	var names [numDims]map[string]bool
	note := func(d Dim, slug, name string) {
		if k := Fold(name); k != Fold(slug) {
			if names[d] == nil {
				names[d] = map[string]bool{}
			}
			names[d][k] = true
		}
	}
	for _, c := range ds.Cities {
		note(DimCity, c.Slug, c.Name)
	}
	for _, v := range ds.Venues {
		note(DimVenue, v.Slug, v.Name)
	}
	for _, a := range ds.Artists {
		note(DimArtist, a.Slug, a.Name)
	}
	for _, g := range ds.Genres {
		note(DimGenre, g.Slug, g.Name)
	}
	var out [numDims][]string
	claim := func(d Dim, slug string) {
		if k := Fold(slug); names[d][k] {
			out[d] = append(out[d], k)
		}
	}
	if names[DimCity] != nil {
		var cities struct {
			Data []struct{ Slug string } `json:"data"`
		}
		_ = json.Unmarshal(s.cities.Raw, &cities)
		for _, c := range cities.Data {
			claim(DimCity, c.Slug)
		}
	}
	if names[DimGenre] != nil {
		for slug := range genreNames {
			claim(DimGenre, slug)
		}
	}
	if names[DimVenue] != nil {
		for i := range s.venueDetail.slugs.len() {
			claim(DimVenue, string(s.venueDetail.slugs.key(i)))
		}
	}
	if names[DimArtist] != nil {
		for i := range s.artistDetail.slugs.len() {
			claim(DimArtist, string(s.artistDetail.slugs.key(i)))
		}
	}
	return out
}

// genreNames returns the names of the genres of the genre directory by slug.
func (s *Snapshot) genreNames() map[string]string {
	var genres struct {
		Data []struct{ Slug, Name string } `json:"data"`
	}
	_ = json.Unmarshal(s.genres.Raw, &genres)
	names := make(map[string]string, len(genres.Data))
	for _, g := range genres.Data {
		names[g.Slug] = g.Name
	}
	return names
}

// artistMBID returns the MBID of the artist with slug in the artist directory; "" when it
// has none, or is not there.
func (s *Snapshot) artistMBID(slug string) string {
	var a struct {
		MBID string `json:"mbid"`
	}
	b, ok := s.Artist(slug)
	b.decode(ok, &a)
	return a.MBID
}

// begun returns how many gone gigs of the index begin before t (see Begun).
func (x *goneIndex) begun(t time.Time) int { return x.snap.positions(AtInstant(t), Bound{}).lo }
