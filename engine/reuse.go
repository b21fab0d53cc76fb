package engine

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/internal/deflate"
)

// A build with Options.Prev renders and compresses only the gigs that changed: a gig
// whose input is what it was in Prev (its fields, and the rendered parts of its venue,
// city and artists, hashed together: see gigInputs) is taken whole from Prev, body,
// hashes, times and deflate fragment, and one rendered again whose body is Prev's keeps
// Prev's fragment. (The indexes, directories and export are still made from every gig:
// positions shift with each gig added or removed.) The snapshot is byte for byte what rendering and
// compressing every gig would make, since every gig's fragment is made with Prev's
// code, read back from Prev's fragments (deflate.ReadCoder): a snapshot's code is the
// first build's, made from its sample, and carried on from build to build, whether Prev
// was built by this process or read from a file. Only a build without Prev, or with an
// empty one, makes a code of its own sample. (A snapshot built by a release before this
// may hold fragments of several codes, since builds then made a code each and kept the
// fragments of unchanged bodies; every fragment stands alone, so those stay valid and are
// kept as they are until their gig changes.)
//
// What it costs: 8 bytes per gig for the input hashes (Snapshot.inputs), which only a
// built snapshot has (a snapshot read from a file renders every gig once more); and two
// inputs alike in their 64-bit hashes would keep the older body, a chance of about one
// in 2^64 per changed gig.

// reuse is what a build takes from the snapshot it replaces.
type reuse struct {
	prev *Snapshot // nil: a first build
	// coder is prev's code, nil when prev has no gig: the build makes one.
	coder *deflate.Coder
	// fragments is set when a gig whose body is prev's may take prev's fragment, and
	// inputs when one whose input hash is prev's may take its body unrendered.
	fragments, inputs bool
}

func reuseOf(opt Options) reuse {
	prev := opt.Prev
	if prev == nil || prev.Len() == 0 {
		return reuse{prev: prev}
	}
	r := reuse{prev: prev}
	// Prev's fragments were all written with one code, which no build can fail to read
	// back; if one ever did, this build would make its own and compress every gig.
	if c, err := deflate.ReadCoder(prev.gigZ(0)); err == nil {
		r.coder = c
	}
	r.fragments = !opt.fresh && r.coder != nil
	r.inputs = r.fragments && prev.inputs != nil && prev.crcReady.Load()
	return r
}

// isPrevs reports whether row r, whose input hash is set and whose position in prev locate
// guessed, is the gig at that position of prev, body and times alike: its body, hashes
// and fragment are prev's (see renderGigs). The input hash holds the id, so an equal one
// confirms the guess.
func (r *gigRow) isPrevs() bool { return r.reusable && r.input == r.prevInput }

// gigInputs hashes everything of a gig its JSON is rendered from: its own fields, and the
// parts the gig writer renders once per venue (with its city and time zone) and per
// artist, by their rendered bytes.
type gigInputs struct {
	place, billing []uint64 // per venue and artist: the xxhash64 of its part
}

func newGigInputs(w *gigWriter) *gigInputs {
	in := &gigInputs{place: make([]uint64, len(w.placeAt)-1), billing: make([]uint64, len(w.billingAt)-1)}
	for v := range in.place {
		in.place[v] = xxhash.Sum64(w.place[w.placeAt[v]:w.placeAt[v+1]])
	}
	for a := range in.billing {
		in.billing[a] = xxhash.Sum64(w.billing[w.billingAt[a]:w.billingAt[a+1]])
	}
	return in
}

// sum returns the input hash of row r of cat, using buf as scratch, and buf.
func (in *gigInputs) sum(buf []byte, cat *catalog, r *gigRow) (uint64, []byte) {
	g := r.g
	b := binary.LittleEndian.AppendUint64(buf[:0], in.place[r.venue])
	for _, a := range cat.artists(r) {
		b = binary.LittleEndian.AppendUint64(b, in.billing[a])
	}
	b = appendInputStrings(b, g.ID, g.Title, string(g.Status), g.Image)
	for _, t := range []time.Time{g.Start, g.End, g.Doors, g.PreviousStart, g.OnSale} {
		b = binary.AppendVarint(b, t.Unix())
		b = binary.AppendUvarint(b, uint64(t.Nanosecond()))
	}
	b = appendInputBools(b, g.TimeTBA, g.HasMinAge)
	b = binary.AppendVarint(b, int64(g.MinAge))
	b = binary.AppendUvarint(b, uint64(len(g.Artists)))
	for _, a := range g.Artists {
		b = appendInputBools(b, a.Headliner)
	}
	b = binary.AppendUvarint(b, uint64(len(g.Genres)))
	b = appendInputStrings(b, g.Genres...)
	b = binary.AppendUvarint(b, uint64(len(g.Tickets)))
	for _, t := range g.Tickets {
		b = appendInputStrings(b, t.URL, t.Source, t.Currency, t.Availability)
		for _, p := range []*float64{t.PriceMin, t.PriceMax} {
			b = appendInputBools(b, p != nil)
			if p != nil {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*p))
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(g.Sources)))
	for _, s := range g.Sources {
		b = appendInputStrings(b, s.Name, s.URL)
	}
	return xxhash.Sum64(b), b
}

// appendInputStrings appends each string after its length, so that no two lists of
// strings append alike.
func appendInputStrings(b []byte, list ...string) []byte {
	for _, s := range list {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func appendInputBools(b []byte, list ...bool) []byte {
	for _, v := range list {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// copyGig files prev's gig at position p as gig i of s: its hashes and its ledger's times
// and numbers (its JSON and fragment are copied by the caller).
func (s *Snapshot) copyGig(i int, prev *Snapshot, p int) {
	s.content[i], s.gigHash[i], s.gigCRC[i] = prev.content[p], prev.gigHash[p], prev.gigCRC[p]
	s.created[i], s.updated[i] = prev.created[p], prev.updated[p]
	s.firstSeq[i], s.lastSeq[i] = prev.firstSeq[p], prev.lastSeq[p]
}

// locate files in each row a guess of its position in prev (-1: none), which gigRow.isPrevs
// and reuse.confirm settle: rows and prev's positions are walked side by side in the
// snapshot's order (order, as rowOrder gives it), and a row is guessed to be the position
// of prev with its key and the first 8 bytes of its id; a row whose guess may be taken
// whole (reuse.inputs), when prev has numbered the gig's change (its times are then the
// ones prev wrote), is marked reusable with prev's input hash. This reads prev's keys,
// ids and hashes in their order, where looking every row's id up in prev's table (a few
// cache misses each) took most of a rebuild's rendering once gigs were no longer rendered.
func (ru *reuse) locate(rows []gigRow, order []uint32) {
	prev, p := ru.prev, 0
	n := 0
	if prev != nil {
		n = prev.Len()
	}
	for _, i := range order {
		r := &rows[i]
		r.prevAt, r.reusable = -1, false
		for p < n && (prev.keys[p] < r.key || prev.keys[p] == r.key && idPrefix(prev.ids.key(p)) < r.id) {
			p++
		}
		if p < n && prev.keys[p] == r.key && idPrefix(prev.ids.key(p)) == r.id {
			r.prevAt = int32(p)
			if ru.inputs && prev.lastSeq[p] != 0 {
				r.reusable, r.prevInput = true, prev.inputs[p]
			}
			p++
		}
	}
}

// idPrefix is the first 8 bytes of id, big-endian, as gigRow.id.
func idPrefix(id []byte) uint64 {
	var b [8]byte
	copy(b[:], id)
	return binary.BigEndian.Uint64(b[:])
}

// confirm settles the guess of locate for a row that is not prev's gig unchanged: its
// position in prev is where its id is.
func (ru *reuse) confirm(r *gigRow) {
	if ru.prev == nil || r.prevAt >= 0 && string(ru.prev.ids.key(int(r.prevAt))) == r.g.ID {
		return
	}
	r.prevAt = -1
	if p, ok := ru.prev.ids.find(r.g.ID); ok {
		r.prevAt = int32(p)
	}
}

// prevKept returns which of prev's positions are the position of one of rows (nil when
// prev is): the gigs of prev the build keeps, whose tombstones the ledger does not write.
func prevKept(rows []gigRow, prev *Snapshot) []bool {
	if prev == nil {
		return nil
	}
	kept := make([]bool, prev.Len())
	for i := range rows {
		if rows[i].prevAt >= 0 {
			kept[rows[i].prevAt] = true
		}
	}
	return kept
}
