package engine

import "strconv"

// The bodies assembled per request, from JSON rendered at build time. They are written
// here, with every other body of the API's resources, so that one package owns the wire
// format; the server only supplies the numbers and the links.

// PageMeta is what a page of gigs says of itself.
type PageMeta struct {
	Page, PageSize, Total, TotalPages int
}

// Link is one link of a page: its relation ("self", "next", ...) and its URL, written
// into the body as it is (the caller escapes it).
type Link struct {
	Rel string
	URL []byte
}

// AppendGigsPage appends the body of a page of gigs to dst: the gigs at positions (a
// Query's Page), the page's meta and its links. It allocates nothing when dst has room.
func (s *Snapshot) AppendGigsPage(dst []byte, positions []int, m PageMeta, links []Link) []byte {
	dst = append(dst, `{"data":[`...)
	for i, pos := range positions {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, s.GigJSON(pos)...)
	}
	dst = append(dst, `],"meta":{"page":`...)
	dst = strconv.AppendInt(dst, int64(m.Page), 10)
	dst = append(dst, `,"page_size":`...)
	dst = strconv.AppendInt(dst, int64(m.PageSize), 10)
	dst = append(dst, `,"total":`...)
	dst = strconv.AppendInt(dst, int64(m.Total), 10)
	dst = append(dst, `,"total_pages":`...)
	dst = strconv.AppendInt(dst, int64(m.TotalPages), 10)
	dst = AppendVersion(dst, s)
	dst = append(dst, `},"links":{`...)
	for i, l := range links {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, l.Rel...)
		dst = append(dst, `":"`...)
		dst = append(dst, l.URL...)
		dst = append(dst, '"')
	}
	return append(dst, "}}"...)
}

// AppendGig appends the body of the gig with id to dst, and reports whether there is one.
func (s *Snapshot) AppendGig(dst []byte, id string) ([]byte, bool) {
	g, ok := s.GigByID(id)
	if !ok {
		return dst, false
	}
	dst = append(dst, `{"data":`...)
	dst = append(dst, g...)
	return append(dst, '}'), true
}

// AppendVenueList appends the body of a filtered venue directory to dst: the venues at
// positions (a Query's Page after FilterVenues) and their count.
func (s *Snapshot) AppendVenueList(dst []byte, positions []int) []byte {
	dst = append(dst, `{"data":[`...)
	for i, v := range positions {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, s.VenueItem(v)...)
	}
	dst = append(dst, "],"...)
	return append(appendMeta(dst, len(positions), s), '}')
}
