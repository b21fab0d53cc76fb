package engine

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
)

// The ledger is what a snapshot knows of its gigs' history, carried from each snapshot to
// the one built after it (Options.Prev) and kept in the snapshot file:
//
//   - per gig, when it first appeared (created_at) and when its body, less these two
//     times, last changed (updated_at), compared by a hash of that body;
//   - a sequence number per change: each gig created or changed, and each gig removed,
//     takes the next number, so that the change feed lists what happened after a cursor;
//   - a tombstone per gig removed within TombstoneKeep: when, why, the gig it was
//     merged into, and the JSON of a gig no source lists any more, which the calendar
//     feeds list as cancelled (calendar.go).
//
// A snapshot built without a previous one starts a new ledger, with a new epoch (a hash
// of its build time and gigs): cursors of another ledger are refused rather than misread.
type ledger struct {
	epoch   uint64 // names the ledger's history
	seq     uint64 // the last sequence number given
	floor   uint64 // a cursor below it may have missed a tombstone since dropped
	changed int64  // Unix seconds: when the snapshot's content (data_version) last changed

	content          []uint64 // per position: xxhash64 of the gig's body without its times
	created, updated []int64  // per position: Unix seconds
	firstSeq         []uint64 // per position: the number of its creation
	lastSeq          []uint64 // per position: the number of its last change (or creation)
	tomb             tombstones
	// feed lists every live gig (its position) and tombstone (Len() plus its number) in
	// ascending order of their last sequence number.
	feed []uint32
}

// TombstoneKeep is how long a removed gig's tombstone is kept, and so how far back the
// change feed reaches.
const TombstoneKeep = 30 * 24 * time.Hour

// Reason says why a gig was removed.
type Reason uint8

// The reasons of a removal.
const (
	ReasonPast   Reason = iota + 1 // its start went by
	ReasonGone                     // no source lists it any more
	ReasonMerged                   // it was found to be another gig, which keeps its sources
)

func (r Reason) String() string {
	switch r {
	case ReasonPast:
		return "past"
	case ReasonGone:
		return "gone_from_sources"
	case ReasonMerged:
		return "merged"
	}
	return "unknown"
}

// Tombstone is what is known of a removed gig.
type Tombstone struct {
	ID         string
	Removed    time.Time
	Reason     Reason
	MergedInto string // the surviving gig's id when Reason is ReasonMerged
}

// tombstones holds the ledger's tombstones without pointers, by number.
type tombstones struct {
	ids     keyTable // tombstone number by gig id
	removed []int64  // Unix seconds
	seq     []uint64
	reason  []byte
	into    []byte   // merged_into ids back to back
	intoOff []uint32 // tombstone i's is into[intoOff[i]:intoOff[i+1]]
	// body holds, back to back, the JSON of each gig removed as gone from the sources,
	// as it was when last listed (empty for the others); tombstone i's is
	// body[bodyOff[i]:bodyOff[i+1]].
	body    []byte
	bodyOff []uint32
}

// gig returns the JSON of tombstone i's gig when it was removed as gone from the
// sources; nil otherwise.
func (t *tombstones) gig(i int) []byte {
	if b := t.body[t.bodyOff[i]:t.bodyOff[i+1]]; len(b) > 0 {
		return b[:len(b):len(b)]
	}
	return nil
}

func (t *tombstones) len() int { return t.ids.len() }

func (t *tombstones) get(i int) Tombstone {
	return Tombstone{ID: string(t.ids.key(i)), Removed: time.Unix(t.removed[i], 0).UTC(), Reason: Reason(t.reason[i]),
		MergedInto: string(t.into[t.intoOff[i]:t.intoOff[i+1]])}
}

// newTombstones lays out a list of tombstones, their sequence numbers and their gigs'
// JSON (see tombstones.body); an id twice is an error.
func newTombstones(list []Tombstone, seq []uint64, bodies [][]byte) (tombstones, error) {
	t := tombstones{removed: make([]int64, len(list)), seq: seq, reason: make([]byte, len(list)), intoOff: make([]uint32, 1, len(list)+1),
		bodyOff: make([]uint32, 1, len(list)+1)}
	ids := make([]string, len(list))
	for i, x := range list {
		ids[i], t.removed[i], t.reason[i] = x.ID, x.Removed.Unix(), byte(x.Reason)
		t.into = append(t.into, x.MergedInto...)
		t.intoOff = append(t.intoOff, uint32(len(t.into)))
		t.body = append(t.body, bodies[i]...)
		t.bodyOff = append(t.bodyOff, uint32(len(t.body)))
	}
	var err error
	t.ids, err = newKeyTable(ids)
	return t, err
}

// Tombstone returns the tombstone of the gig with id, removed within TombstoneKeep and not
// back since.
func (s *Snapshot) Tombstone(id string) (Tombstone, bool) {
	i, ok := s.tomb.ids.find(id)
	if !ok {
		return Tombstone{}, false
	}
	return s.tomb.get(i), true
}

// Changed returns when the snapshot's content last changed: the build time of the first
// snapshot in the ledger with this data_version. An identical rebuild keeps it.
func (s *Snapshot) Changed() time.Time { return time.Unix(s.changed, 0).UTC() }

// GigTimes returns when the gig at position i first appeared and when its body last
// changed.
func (s *Snapshot) GigTimes(i int) (created, updated time.Time) {
	return time.Unix(s.created[i], 0).UTC(), time.Unix(s.updated[i], 0).UTC()
}

// prior is the previous snapshot's record of one gig (see priorOf).
type prior struct {
	at               int // its position in the previous snapshot
	created, updated int64
	firstSeq         uint64
	lastSeq          uint64 // 0 when the body changed: it takes a new number
}

// priorOf returns what prev knew of the gig at position pos of prev (-1: prev did not have
// it) whose body (without its times) hashes to content; ok is false when prev did not have
// the gig. prev may be nil.
func (prev *Snapshot) priorOf(pos int32, content uint64) (p prior, ok bool) {
	if prev == nil || pos < 0 {
		return p, false
	}
	i := int(pos)
	p = prior{at: i, created: prev.created[i], updated: prev.updated[i], firstSeq: prev.firstSeq[i]}
	if prev.content[i] == content {
		p.lastSeq = prev.lastSeq[i]
	}
	return p, true
}

// carryLedger numbers this build's changes after what prev numbered (prev may be nil), or
// after published when that is known and not prev's own cursor (see Options.Published),
// and writes the tombstones: prev's still within TombstoneKeep whose gig is not back,
// and one per gig of prev this snapshot lacks: merged when merges names it and its
// survivor is here, past when its start went by, else gone from the sources. Gigs'
// times and hashes are set already (renderGigs); a number 0 is one to give. It fails only
// if prev's ledger names a gig twice, which no build makes and no snapshot file read may
// (views refuses a tombstone of a gig the file holds). kept[p] is set when prev's gig at
// position p is in s.
func (s *Snapshot) carryLedger(prev *Snapshot, published Cursor, merges []Merge, kept []bool) error {
	now := s.built.Unix()
	if prev != nil {
		s.epoch, s.seq, s.floor = prev.epoch, prev.seq, prev.floor
		if published != (Cursor{}) && published != prev.Cursor() {
			// Clients may hold cursors of changes prev does not know: none of them may be
			// read as the changes numbered next.
			if published.Epoch == s.epoch {
				s.seq = max(s.seq, published.Seq)
			}
			s.seq++
			s.floor = s.seq
		}
	} else {
		// Named by when it starts and what: two replicas starting alike agree.
		h := xxhash.New()
		_, _ = h.Write(binary.LittleEndian.AppendUint64(nil, uint64(now)))
		for _, c := range s.content {
			_, _ = h.Write(binary.LittleEndian.AppendUint64(nil, c))
		}
		s.epoch = h.Sum64() | 1 // never 0
	}
	for i := range s.lastSeq {
		if s.lastSeq[i] == 0 {
			s.seq++
			s.lastSeq[i] = s.seq
			if s.firstSeq[i] == 0 {
				s.firstSeq[i] = s.seq
			}
		}
	}
	var list []Tombstone
	var seqs []uint64
	var bodies [][]byte
	if prev != nil {
		expired := now - int64(TombstoneKeep/time.Second)
		for i := range prev.tomb.len() {
			t := prev.tomb.get(i)
			if _, back := s.ids.find(t.ID); back {
				continue // its creation has a later number
			}
			if t.Removed.Unix() < expired {
				s.floor = max(s.floor, prev.tomb.seq[i])
				continue
			}
			list, seqs, bodies = append(list, t), append(seqs, prev.tomb.seq[i]), append(bodies, prev.tomb.gig(i))
		}
		into := make(map[string]string, len(merges))
		for _, m := range merges {
			into[m.From] = m.Into
		}
		for i := range prev.Len() {
			if kept[i] {
				continue
			}
			id := string(prev.ids.key(i))
			t := Tombstone{ID: id, Removed: s.built, Reason: ReasonGone}
			if survivor, ok := into[id]; ok {
				if _, alive := s.ids.find(survivor); alive {
					t.Reason, t.MergedInto = ReasonMerged, survivor
				}
			}
			if t.Reason == ReasonGone && prev.keys[i] < now {
				t.Reason = ReasonPast
			}
			var body []byte
			if t.Reason == ReasonGone {
				body = prev.GigJSON(i)
			}
			s.seq++
			list, seqs, bodies = append(list, t), append(seqs, s.seq), append(bodies, body)
		}
	}
	var err error
	if s.tomb, err = newTombstones(list, seqs, bodies); err != nil {
		return fmt.Errorf("the previous snapshot's tombstones: %w", err)
	}
	s.feed = make([]uint32, 0, s.Len()+len(list))
	for i := range s.Len() + len(list) {
		s.feed = append(s.feed, uint32(i))
	}
	slices.SortFunc(s.feed, func(a, b uint32) int { return cmp.Compare(s.entrySeq(a), s.entrySeq(b)) })
	return nil
}

// settleChanged sets when the content last changed: prev's time when the data_version is
// prev's, else the build time.
func (s *Snapshot) settleChanged(prev *Snapshot) {
	s.changed = s.built.Unix()
	if prev != nil && prev.version == s.version {
		s.changed = prev.changed
	}
}

// entrySeq returns the sequence number of a feed entry.
func (s *Snapshot) entrySeq(e uint32) uint64 {
	if int(e) < s.Len() {
		return s.lastSeq[e]
	}
	return s.tomb.seq[int(e)-s.Len()]
}

// Cursor names a point of a ledger's history: the changes after it are those with a
// greater sequence number.
type Cursor struct {
	Epoch, Seq uint64
}

// String writes the cursor as clients see it: the epoch in hex, a dash, the number.
func (c Cursor) String() string {
	return string(c.Append(nil))
}

// Append appends the cursor's String form to dst.
func (c Cursor) Append(dst []byte) []byte {
	dst = strconv.AppendUint(dst, c.Epoch, 16)
	dst = append(dst, '-')
	return strconv.AppendUint(dst, c.Seq, 10)
}

// ParseCursor reads a cursor String wrote.
func ParseCursor(v string) (Cursor, error) {
	e, n, ok := strings.Cut(v, "-")
	var c Cursor
	var err1, err2 error
	if ok {
		c.Epoch, err1 = strconv.ParseUint(e, 16, 64)
		c.Seq, err2 = strconv.ParseUint(n, 10, 64)
	}
	if !ok || err1 != nil || err2 != nil || len(e) > 16 || c.Epoch == 0 {
		return Cursor{}, errors.New("not a cursor: use the export's meta.cursor or a change page's")
	}
	return c, nil
}

// Cursor returns the cursor of the snapshot: its changes are all at or before it.
func (s *Snapshot) Cursor() Cursor { return Cursor{s.epoch, s.seq} }

// Errors of ChangesSince.
var (
	// ErrCursorExpired: the cursor is of another ledger, or older than the feed reaches.
	ErrCursorExpired = errors.New("cursor expired")
	// ErrCursorAhead: the cursor is after every change this snapshot knows, which was read
	// from a file: its ledger may have gone on without it (a follower behind its publisher,
	// a restart before its first build).
	ErrCursorAhead = errors.New("cursor ahead of the data")
	// ErrCursorNotGiven, an ErrCursorExpired: the cursor is after every change of a
	// snapshot this process built, so its ledger never gave it, or gave it from data since
	// lost.
	ErrCursorNotGiven = fmt.Errorf("%w: after every change its ledger gave", ErrCursorExpired)
	// ErrCursorImpossible: the cursor is further after the snapshot's than its ledger's
	// next refreshes could number (AheadReach), whether the snapshot was built or read.
	ErrCursorImpossible = errors.New("cursor further ahead than any refresh reaches")
)

// aheadSlack is the gigs a refresh may add to a small snapshot, in AheadReach.
const aheadSlack = 1 << 16

// AheadReach is how far after the snapshot's cursor a good one may be: a refresh numbers
// at most one change per gig it holds and one per gig of the previous snapshot it lacks,
// so one refresh numbers at most about twice the gigs held, plus aheadSlack for a
// dataset that grows: a replica a refresh behind its peers is within it. Past it, a
// cursor was never given by this ledger.
func (s *Snapshot) AheadReach() uint64 { return 2*uint64(s.Len()) + aheadSlack }

// ChangesSince returns the feed's entries after cursor c (at most limit of them, from
// start), whether more follow, and the cursor after the last one returned (c when none).
// A cursor after the snapshot's by more than AheadReach is ErrCursorImpossible. One
// within it is ErrCursorAhead when the snapshot was read from a file,
// and ErrCursorExpired when this process built it: its ledger's numbers reach no further
// (Build numbers after Options.Published), so the cursor was never given by it, or was
// given by data since lost (a data directory restored from a backup) and would read
// numbers given again as its changes.
func (s *Snapshot) ChangesSince(c Cursor, limit int) (entries []uint32, more bool, next Cursor, err error) {
	switch {
	case c.Epoch != s.epoch || c.Seq < s.floor:
		return nil, false, c, ErrCursorExpired
	case c.Seq > s.seq && c.Seq-s.seq > s.AheadReach():
		return nil, false, c, ErrCursorImpossible
	case c.Seq > s.seq && s.read:
		return nil, false, c, ErrCursorAhead
	case c.Seq > s.seq:
		return nil, false, c, ErrCursorNotGiven
	}
	at, _ := slices.BinarySearchFunc(s.feed, c.Seq+1, func(e uint32, seq uint64) int { return cmp.Compare(s.entrySeq(e), seq) })
	end := min(at+limit, len(s.feed))
	entries, next = s.feed[at:end:end], c
	if end > at {
		next.Seq = s.entrySeq(s.feed[end-1])
	}
	return entries, end < len(s.feed), next, nil
}

// validLedger reports whether a read snapshot's ledger is whole: an entry per gig, each
// tombstone's fields, and a feed of every gig and tombstone in ascending order of
// sequence numbers no greater than the last given.
func (s *Snapshot) validLedger() bool {
	n, t := s.Len(), &s.tomb
	k := len(t.removed)
	if len(s.content) != n || len(s.created) != n || len(s.updated) != n || len(s.firstSeq) != n || len(s.lastSeq) != n ||
		!t.ids.valid(k) || len(t.seq) != k || len(t.reason) != k || len(t.intoOff) != k+1 || t.intoOff[0] != 0 ||
		!ascending(t.intoOff, false) || int(t.intoOff[k]) != len(t.into) || len(s.feed) != n+k || s.epoch == 0 ||
		len(t.bodyOff) != k+1 || t.bodyOff[0] != 0 || !ascending(t.bodyOff, false) || int(t.bodyOff[k]) != len(t.body) {
		return false
	}
	var last uint64
	for i, e := range s.feed {
		if int(e) >= n+k {
			return false
		}
		seq := s.entrySeq(e)
		if i > 0 && seq <= last || seq > s.seq || seq == 0 {
			return false
		}
		last = seq
	}
	return true
}

// appendJSON appends tombstone i as a JSON object: id, removed_at, reason and, for a
// merge, merged_into.
func (t *tombstones) appendJSON(dst []byte, i int) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendString(dst, string(t.ids.key(i)))
	dst = append(dst, `,"removed_at":"`...)
	dst = time.Unix(t.removed[i], 0).UTC().AppendFormat(dst, time.RFC3339)
	dst = append(dst, `","reason":"`...)
	dst = append(dst, Reason(t.reason[i]).String()...)
	dst = append(dst, '"')
	if into := t.into[t.intoOff[i]:t.intoOff[i+1]]; len(into) > 0 {
		dst = append(dst, `,"merged_into":`...)
		dst = appendString(dst, string(into))
	}
	return append(dst, '}')
}

// Tombstones returns the number of tombstones the snapshot keeps.
func (s *Snapshot) Tombstones() int { return s.tomb.len() }
