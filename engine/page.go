package engine

import (
	"encoding/binary"
	"strconv"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/internal/deflate"
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

// AppendGigsPage appends the body of a page of gigs to dst, gzip-compressed when gz is
// set (see gzipbody.go): the gigs at positions (a Query's Page), the page's meta and its
// links. It returns the body and its tag, the same for either encoding, made from the
// gigs' hashes kept in the snapshot and the rest of the body, so that the gigs' bytes are
// not hashed again per request. It allocates nothing when dst has room.
func (s *Snapshot) AppendGigsPage(dst []byte, positions []int, m PageMeta, links []Link, gz bool) ([]byte, Tag) {
	return s.appendGigsPage(dst, positions, nil, nil, m, links, gz)
}

// appendGigsPage is AppendGigsPage with, when dists is not nil, each gig's distance in
// metres (dists[i] the i-th's) spliced into it as distance_km (see appendDistance),
// written in insert's room (scratch the caller owns: what the checksum reads escapes).
func (s *Snapshot) appendGigsPage(dst []byte, positions []int, dists []uint32, insert []byte, m PageMeta, links []Link, gz bool) ([]byte, Tag) {
	var h xxhash.Digest
	h.Reset()
	var hashes [64 * 8]byte // the gigs' hashes are written to h 64 at a time
	for rest := positions; len(rest) > 0; {
		n := min(len(rest), 64)
		b := hashes[:0]
		for _, pos := range rest[:n] {
			b = binary.LittleEndian.AppendUint64(b, s.gigHash[pos])
		}
		_, _ = h.Write(b)
		rest = rest[n:]
	}
	if len(dists) > 0 {
		b := hashes[:0] // the distances' text, written to h as it would be one by one
		for _, d := range dists {
			if len(b) > len(hashes)-32 {
				_, _ = h.Write(b)
				b = hashes[:0]
			}
			b = appendDistance(b, d)
		}
		_, _ = h.Write(b)
	}
	if !gz {
		dst = append(dst, `{"data":[`...)
		for i, pos := range positions {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dists != nil {
				g := s.GigJSON(pos)
				dst = append(appendDistance(append(dst, g[:len(g)-1]...), dists[i]), '}')
				continue
			}
			dst = append(dst, s.GigJSON(pos)...)
		}
		tail := len(dst)
		dst = appendPageTail(dst, m, links)
		_, _ = h.Write(dst[tail:])
		return dst, Tag(h.Sum64())
	}
	// The tail is written first, where the body will begin, then the body after it, which
	// is moved down over it (the compressed body is small).
	start := len(dst)
	dst = appendPageTail(dst, m, links)
	_, _ = h.Write(dst[start:])
	end := len(dst)
	w := deflate.NewGzipWriter(dst)
	w.Raw(pageOpen)
	for i, pos := range positions {
		if dists != nil {
			s.spliceGig(&w, i > 0, pos, appendDistance(insert[:0], dists[i]))
			continue
		}
		if i == 0 {
			w.Fragment(s.gigZ(pos), s.GigJSON(pos))
		} else {
			crc, known := s.listCRC(pos)
			w.ListFragment(comma, s.gigZ(pos), s.GigJSON(pos), crc, known)
		}
	}
	w.Raw(dst[start:end])
	dst = w.Finish()
	n := copy(dst[start:], dst[end:])
	return dst[:start+n], Tag(h.Sum64())
}

// The identity bytes of assembled bodies around their gigs, which gzip bodies store (and
// comma).
var (
	pageOpen = []byte(`{"data":[`)
	gigOpen  = []byte(`{"data":`)
	gigClose = []byte{'}'}
)

// appendPageTail appends what follows a page's gigs: `],"meta":{...},"links":{...}}`.
func appendPageTail(dst []byte, m PageMeta, links []Link) []byte {
	dst = append(dst, `],"meta":{"page":`...)
	dst = strconv.AppendInt(dst, int64(m.Page), 10)
	dst = append(dst, `,"page_size":`...)
	dst = strconv.AppendInt(dst, int64(m.PageSize), 10)
	dst = append(dst, `,"total":`...)
	dst = strconv.AppendInt(dst, int64(m.Total), 10)
	dst = append(dst, `,"total_pages":`...)
	dst = strconv.AppendInt(dst, int64(m.TotalPages), 10)
	return appendLinks(dst, links)
}

// appendLinks closes a meta object and appends the links object after it, closing the
// body: `},"links":{...}}`.
func appendLinks(dst []byte, links []Link) []byte {
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

// AppendChanges appends the body of a page of the change feed: the entries ChangesSince
// returned after since, the cursor after them, whether more follow, and the page's links.
// Each entry is the gig's change ("created" when it is new since the cursor, "cancelled"
// when its status is, else "updated") with its body, or its removal with its tombstone.
// It allocates nothing when dst has room.
func (s *Snapshot) AppendChanges(dst []byte, entries []uint32, since, next Cursor, more bool, links []Link) []byte {
	dst = append(dst, `{"data":[`...)
	for i, e := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		if int(e) >= s.Len() {
			t := int(e) - s.Len()
			dst = append(dst, `{"change":"removed","id":`...)
			dst = appendString(dst, string(s.tomb.ids.key(t)))
			dst = append(dst, `,"tombstone":`...)
			dst = append(s.tomb.appendJSON(dst, t), '}')
			continue
		}
		change := "updated"
		switch {
		case s.firstSeq[e] > since.Seq:
			change = "created"
		case s.status[e] == StatusCancelled.code():
			change = "cancelled"
		}
		dst = append(dst, `{"change":"`...)
		dst = append(dst, change...)
		dst = append(dst, `","id":`...)
		dst = appendString(dst, string(s.ids.key(int(e))))
		dst = append(dst, `,"gig":`...)
		dst = append(append(dst, s.GigJSON(int(e))...), '}')
	}
	dst = append(dst, `],"meta":{"cursor":"`...)
	dst = next.Append(dst)
	dst = append(dst, `","has_more":`...)
	dst = strconv.AppendBool(dst, more)
	return appendLinks(dst, links)
}

// AppendGig appends the body of the gig with id to dst, gzip-compressed when gz is set,
// and reports whether there is one; its tag is the gig's hash kept in the snapshot.
func (s *Snapshot) AppendGig(dst []byte, id string, gz bool) ([]byte, Tag, bool) {
	i, ok := s.ids.find(id)
	if !ok {
		return dst, 0, false
	}
	if !gz {
		dst = append(dst, `{"data":`...)
		dst = append(dst, s.GigJSON(i)...)
		return append(dst, '}'), Tag(s.gigHash[i]), true
	}
	w := deflate.NewGzipWriter(dst)
	w.Raw(gigOpen)
	w.Fragment(s.gigZ(i), s.GigJSON(i))
	w.Raw(gigClose)
	return w.Finish(), Tag(s.gigHash[i]), true
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
	dst = append(appendMeta(dst, len(positions)), '}')
	return dst, TagOf(dst[start:])
}
