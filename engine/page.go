package engine

import (
	"encoding/binary"
	"strconv"

	"github.com/cespare/xxhash/v2"
)

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
// Query's Page), the page's meta and its links. It returns the body and its tag, made from
// the gigs' hashes kept in the snapshot and the rest of the body, so that the gigs' bytes
// are not hashed again per request. It allocates nothing when dst has room.
func (s *Snapshot) AppendGigsPage(dst []byte, positions []int, m PageMeta, links []Link) ([]byte, Tag) {
	var h xxhash.Digest
	h.Reset()
	var sum [8]byte
	for _, pos := range positions {
		_, _ = h.Write(binary.LittleEndian.AppendUint64(sum[:0], s.gigHash[pos]))
	}
	dst = append(dst, `{"data":[`...)
	for i, pos := range positions {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, s.GigJSON(pos)...)
	}
	tail := len(dst)
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
	dst = append(dst, "}}"...)
	_, _ = h.Write(dst[tail:])
	return dst, Tag(h.Sum64())
}

// AppendGig appends the body of the gig with id to dst, and reports whether there is one;
// its tag is the gig's hash kept in the snapshot.
func (s *Snapshot) AppendGig(dst []byte, id string) ([]byte, Tag, bool) {
	i, ok := s.ids.find(id)
	if !ok {
		return dst, 0, false
	}
	dst = append(dst, `{"data":`...)
	dst = append(dst, s.GigJSON(i)...)
	return append(dst, '}'), Tag(s.gigHash[i]), true
}

// AppendVenueList appends the body of a filtered venue directory to dst: the venues at
// positions (a Query's Page after FilterVenues) and their count; its tag hashes the body.
func (s *Snapshot) AppendVenueList(dst []byte, positions []int) ([]byte, Tag) {
	start := len(dst)
	dst = append(dst, `{"data":[`...)
	for i, v := range positions {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, s.VenueItem(v)...)
	}
	dst = append(dst, "],"...)
	dst = append(appendMeta(dst, len(positions), s), '}')
	return dst, TagOf(dst[start:])
}
