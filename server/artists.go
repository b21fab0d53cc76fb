package server

import "github.com/gigs/gigs/engine"

// artistValue checks an artist filter's alternative: a slug or a name, or mbid:<uuid>,
// whose UUID it returns in canonical form in dst's space (a value of the mbid: form that
// is not a UUID is bad). Other values are returned as they are.
func artistValue(dst, v []byte) (out []byte, ok bool) {
	id, isMBID := engine.HasMBIDPrefix(v)
	if !isMBID {
		return v, true
	}
	dst = append(dst[:0], engine.MBIDPrefix...)
	return engine.AppendMBID(dst, id)
}
