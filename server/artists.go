package server

import (
	"github.com/valyala/fasthttp"

	"github.com/gigs/gigs/engine"
)

// artist answers /v1/artists/{slug}: the artist with its upcoming gigs, streamed from the
// snapshot's parts as a venue's page is.
func (s *Server) artist(ctx *fasthttp.RequestCtx, snap *engine.Snapshot) error {
	if err := noParams(ctx); err != nil {
		return err
	}
	slug := pathParam(ctx, "slug")
	b, ok := snap.Artist(slug)
	if !ok {
		return notFound("no artist with slug %q", slug)
	}
	return s.sendDetail(ctx, snap, b)
}

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
