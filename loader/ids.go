package loader

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/atomicfile"
)

// IDStore keeps gig ids stable. It remembers the id given to every source record (by
// source and ref, when the ref is an identity the source keeps) and to every gig content
// key (venue, local date and time, headliner), so a gig keeps its id across refreshes,
// title edits and reschedules, and across restarts when the store has a file. Entries
// unused for idKeep are forgotten.
//
// Keys are held as 96-bit hashes and ids as their 64 bits, so a million gigs cost tens of
// megabytes. Not safe for concurrent use: the goroutine running refreshes owns it.
type IDStore struct {
	path    string            // "" keeps the store in memory only
	entries map[idKey]idEntry // protected by nothing: one owner
}

// idKeep is how long an id is remembered after a refresh last used it.
const idKeep = 90 * 24 * time.Hour

type (
	idKey   [12]byte
	idValue [8]byte
	idEntry struct {
		id   idValue
		seen int32 // the last day (since 1970-01-01, UTC) a refresh used it
	}
)

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

func (v idValue) String() string { return strings.ToLower(idEncoding.EncodeToString(v[:])) }

func hashKey(kind byte, parts ...string) idKey {
	h := sha256.New()
	h.Write([]byte{kind})
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	var k idKey
	copy(k[:], h.Sum(nil))
	return k
}

func refKey(source, ref string) idKey   { return hashKey('r', source, ref) }
func contentIDKey(content string) idKey { return hashKey('c', content) }

// mintID derives a new id from a content key, with a salt when the plain one is taken.
func mintID(content string, salt int) idValue {
	if salt > 0 {
		content += "\x00" + fmt.Sprint(salt)
	}
	sum := sha256.Sum256([]byte(content))
	return idValue(sum[:8])
}

// NewIDStore returns a store kept in memory only.
func NewIDStore() *IDStore { return &IDStore{entries: map[idKey]idEntry{}} }

// OpenIDStore reads the store kept in the file at path; a missing file is an empty store.
// A file that is not a whole, intact store is an error, never silently replaced.
func OpenIDStore(path string) (*IDStore, error) {
	s := &IDStore{path: path, entries: map[idKey]idEntry{}}
	if err := atomicfile.Clean(path); err != nil {
		return nil, fmt.Errorf("cannot remove the temporary files of the id store: %w", err)
	}
	data, err := atomicfile.Read(path, maxIDStoreBytes)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read id store: %w", err)
	}
	if err := s.decode(data); err != nil {
		return nil, fmt.Errorf("cannot read id store %q: %w", path, err)
	}
	return s, nil
}

// Len returns the number of remembered keys.
func (s *IDStore) Len() int { return len(s.entries) }

// maxIDStoreBytes bounds the id store read: some 40 million entries, ten times what a
// listing of a million gigs from several sources files.
const maxIDStoreBytes = 1 << 30

const (
	idMagic     = "gigs-ids\x01"
	idEntrySize = len(idKey{}) + len(idValue{}) + 4
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// The file: magic, entry count (uint64), entries (key, id, day: little endian), CRC-32C of
// everything before it.
func (s *IDStore) decode(data []byte) error {
	head := len(idMagic) + 8
	if len(data) < head+4 || string(data[:len(idMagic)]) != idMagic {
		return errors.New("not an id store")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return errors.New("checksum mismatch: the file is damaged")
	}
	n := binary.LittleEndian.Uint64(data[len(idMagic):])
	if uint64(len(body)-head) != n*uint64(idEntrySize) {
		return errors.New("truncated")
	}
	for p := body[head:]; len(p) > 0; p = p[idEntrySize:] {
		var k idKey
		var e idEntry
		copy(k[:], p)
		copy(e.id[:], p[len(k):])
		e.seen = int32(binary.LittleEndian.Uint32(p[len(k)+len(e.id):]))
		s.entries[k] = e
	}
	return nil
}

// Save writes the store to its file atomically (a temporary file renamed over it); a
// store kept in memory has nothing to save.
func (s *IDStore) Save() error {
	if s.path == "" {
		return nil
	}
	keys := make([]idKey, 0, len(s.entries))
	for k := range s.entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b idKey) int { return bytes.Compare(a[:], b[:]) })
	data := make([]byte, 0, len(idMagic)+8+len(keys)*idEntrySize+4)
	data = append(data, idMagic...)
	data = binary.LittleEndian.AppendUint64(data, uint64(len(keys)))
	for _, k := range keys {
		e := s.entries[k]
		data = append(data, k[:]...)
		data = append(data, e.id[:]...)
		data = binary.LittleEndian.AppendUint32(data, uint32(e.seen))
	}
	data = binary.LittleEndian.AppendUint32(data, crc32.Checksum(data, crcTable))
	if err := atomicfile.Write(s.path, data, 0o600); err != nil {
		return fmt.Errorf("cannot save id store: %w", err)
	}
	return nil
}

// idRun gives the gigs of one refresh their ids; commit makes them the store's.
type idRun struct {
	store   *IDStore
	claimed map[idValue]bool
	used    map[idKey]idValue
	merges  []engine.Merge // ids whose records now make another gig, in the order found
}

func (s *IDStore) begin() *idRun {
	return &idRun{store: s, claimed: map[idValue]bool{}, used: map[idKey]idValue{}}
}

// assign returns the id of the gig made of members, whose own content key is own. In
// order: the id most of its records' refs had (ties to the smaller id), the id of its own
// content key, of its records' content keys (previous starts included), and else a new id
// minted from own. An id another gig of this run took is skipped.
func (r *idRun) assign(n *normalizer, members []int32, venueSlugs []string, own string) string {
	var refs []idKey
	votes := map[idValue]int{}
	for _, i := range members {
		rec := &n.recs[i]
		if rec.stable && rec.ev.Ref != "" {
			k := refKey(rec.ev.Source, rec.ev.Ref)
			refs = append(refs, k)
			if e, ok := r.store.entries[k]; ok && !r.claimed[e.id] {
				votes[e.id]++
			}
		}
	}
	var cands []idValue
	for id := range votes {
		cands = append(cands, id)
	}
	slices.SortFunc(cands, func(a, b idValue) int {
		if votes[a] != votes[b] {
			return votes[b] - votes[a]
		}
		return bytes.Compare(a[:], b[:])
	})
	contents := []idKey{contentIDKey(own)}
	for _, i := range members {
		rec := &n.recs[i]
		venue, loc := venueSlugs[rec.venue], rec.city.Location
		contents = append(contents, contentIDKey(contentKey(venue, rec.start.In(loc), rec.tba, rec.keys[0])))
		if !rec.prev.IsZero() {
			contents = append(contents, contentIDKey(contentKey(venue, rec.prev.In(loc), false, rec.keys[0])))
		}
	}
	for _, k := range contents {
		if e, ok := r.store.entries[k]; ok && !r.claimed[e.id] && !slices.Contains(cands, e.id) {
			cands = append(cands, e.id)
		}
	}
	var id idValue
	if len(cands) > 0 {
		id = cands[0]
		// The other gigs its records made are this one now, unless another gig of the
		// run keeps their id (the snapshot's ledger checks that).
		for _, other := range cands[1:] {
			if votes[other] > 0 {
				r.merges = append(r.merges, engine.Merge{From: other.String(), Into: id.String()})
			}
		}
	} else {
		id = mintID(own, 0)
	}
	for salt := 1; r.claimed[id]; salt++ {
		id = mintID(own, salt)
	}
	r.claimed[id] = true
	for _, k := range append(refs, contents...) {
		r.used[k] = id
	}
	return id.String()
}

// commit makes the run's ids the store's, as used on now's day, and forgets entries unused
// for idKeep. Keys the run used for two gigs keep the later one.
func (r *idRun) commit(now time.Time) {
	day := int32(now.Unix() / 86400)
	for k, id := range r.used {
		r.store.entries[k] = idEntry{id: id, seen: day}
	}
	oldest := day - int32(idKeep/(24*time.Hour))
	for k, e := range r.store.entries {
		if e.seen < oldest {
			delete(r.store.entries, k)
		}
	}
}
