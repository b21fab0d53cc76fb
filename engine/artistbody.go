package engine

import (
	"cmp"
	"fmt"
	"slices"
)

// Artist returns an artist's detail body, {"data":{…the artist…,"upcoming":[…its gigs…]}}:
// the artist as the directory lists it, with the gigs it plays from the build time on,
// whatever their status, in start order (the gigs its upcoming_tour_dates counts). Every
// artist of the directory has one, and no other.
func (s *Snapshot) Artist(slug string) (DetailBody, bool) {
	return s.artistDetail.find(s, slug)
}

// artistItems returns the directory entry of every artist on a gig of the snapshot, in
// slug order, and their indices in the dataset.
func artistItems(artists []Artist, u upcoming) ([]artistJSON, []int32) {
	var order []int32
	for i := range artists {
		if u.listed[i] {
			order = append(order, int32(i))
		}
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(artists[a].Slug, artists[b].Slug) })
	items := make([]artistJSON, len(order))
	for k, i := range order {
		a := &artists[i]
		items[k] = artistJSON{Slug: a.Slug, Name: a.Name, MBID: a.MBID, TourDates: u.artist[i], Genres: append([]string{}, a.Genres...)}
	}
	return items, order
}

// renderArtistDetails lays out the detail body of every artist of the directory: its
// entry, and the positions of its gigs from the build time on. items and order are what
// artistItems returned, the artist directory's entries, which it takes rendered.
func (s *Snapshot) renderArtistDetails(rows []gigRow, cat *catalog, u upcoming, items []artistJSON, order []int32) error {
	now := s.built.Unix()
	at, pos := groupPositions(len(cat.ds.Artists), func(emit func(int32, uint32)) {
		for i := range rows {
			if rows[i].key >= now {
				for _, a := range cat.artists(&rows[i]) {
					emit(a, uint32(i))
				}
			}
		}
	})
	slugs, positions := make([]string, len(items)), make([][]uint32, len(items))
	for k, a := range order {
		slugs[k], positions[k] = items[k].Slug, pos[at[a]:at[a+1]]
	}
	entry := func(k int) []byte { return s.entry(DirArtists, k) }
	var err error
	if s.artistDetail, err = s.renderDetails(entry, slugs, positions); err != nil {
		return fmt.Errorf("cannot render the artists' pages: %w", err)
	}
	return nil
}
