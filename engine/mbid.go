package engine

// MusicBrainz ids: an artist's MBID is a UUID, kept in its canonical form (lower-case hex
// in groups of 8-4-4-4-12 digits). Sources and requests are hostile: only a well-formed
// UUID is an MBID, nothing is guessed from a near miss.

// MBIDPrefix marks an artist filter's value as an MBID: artist=mbid:<uuid>. An artist with
// an MBID is found in the artist postings under the folded key of MBIDPrefix and its MBID.
const MBIDPrefix = "mbid:"

// mbidLen is the length of a canonical UUID.
const mbidLen = 36

// AppendMBID appends the canonical form of the UUID s (hex digits in either case, hyphens
// after the 8th, 12th, 16th and 20th digits, nothing around it) to dst; ok is false, and
// dst returned as it was, when s is anything else. It allocates nothing beyond dst's growth.
func AppendMBID(dst, s []byte) ([]byte, bool) {
	if len(s) != mbidLen {
		return dst, false
	}
	start := len(dst)
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return dst[:start], false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
		case 'A' <= c && c <= 'F':
			c += 'a' - 'A'
		default:
			return dst[:start], false
		}
		dst = append(dst, c)
	}
	return dst, true
}

// ParseMBID returns the canonical form of the UUID s, or false (see AppendMBID).
func ParseMBID(s string) (string, bool) {
	if len(s) != mbidLen {
		return "", false
	}
	var b [mbidLen]byte
	out, ok := AppendMBID(b[:0], []byte(s))
	if !ok {
		return "", false
	}
	if string(out) == s {
		return s, true
	}
	return string(out), true
}

// HasMBIDPrefix reports whether an artist filter's value is of the form mbid:<…> (the
// prefix in any case), and returns what follows it.
func HasMBIDPrefix(v []byte) ([]byte, bool) {
	if len(v) < len(MBIDPrefix) {
		return nil, false
	}
	for i := range len(MBIDPrefix) {
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != MBIDPrefix[i] {
			return nil, false
		}
	}
	return v[len(MBIDPrefix):], true
}

// mbidKey is the search key an artist's postings are filed under for its MBID: the folded
// form of MBIDPrefix and the MBID, as a query's artist=mbid:<uuid> folds.
func mbidKey(mbid string) string { return Fold(MBIDPrefix + mbid) }

// claim files the list add last filed (none when it had no positions) under key too, as
// an entity's own key: a key no name takes. Entities that claim the same key share the
// union of their lists.
func (b *postingsBuilder) claim(key string, hadPositions bool) {
	k := int32(-1)
	if hadPositions {
		k = int32(len(b.lists) - 1)
	}
	b.own(b.key(key), k)
}
