package loader

import (
	"cmp"
	"log/slog"
	"maps"
	"slices"
	"strings"
)

// MusicBrainz ids (MBIDs) of artists. A source may state an act's MBID (see source.MBID);
// an artist of the dataset is the acts of one artist key across every source, so its
// sources may state several. The MBID stated by the most sources (each source counted
// once, however many of its records state it) wins; between equally many, the one a
// source whose name sorts first states. A source's MBID never silently replaces another:
// every disagreement is logged, with what each source stated and what was kept.

// mbidVotes gathers the MBIDs stated for each artist, by index in the dataset's artists:
// per MBID, the names of the sources that state it.
type mbidVotes map[int]map[string]map[string]bool

// add records that source states mbid for artist i; an empty mbid states nothing.
func (v mbidVotes) add(i int, mbid, source string) {
	if mbid == "" {
		return
	}
	if v[i] == nil {
		v[i] = map[string]map[string]bool{}
	}
	if v[i][mbid] == nil {
		v[i][mbid] = map[string]bool{}
	}
	v[i][mbid][source] = true
}

// mbidClaim is one MBID stated for an artist and the sources that state it, sorted.
type mbidClaim struct {
	MBID    string   `json:"mbid"`
	Sources []string `json:"sources"`
}

// decide returns the MBID of artist i (see above) and, when its sources disagree, every
// claim, the winner's first; "" and nil when none states one.
func (v mbidVotes) decide(i int) (string, []mbidClaim) {
	var claims []mbidClaim
	for m, srcs := range v[i] {
		claims = append(claims, mbidClaim{m, slices.Sorted(maps.Keys(srcs))})
	}
	if len(claims) == 0 {
		return "", nil
	}
	slices.SortFunc(claims, func(a, b mbidClaim) int {
		return cmp.Or(cmp.Compare(len(b.Sources), len(a.Sources)), cmp.Compare(a.Sources[0], b.Sources[0]), cmp.Compare(a.MBID, b.MBID))
	})
	if len(claims) == 1 {
		return claims[0].MBID, nil
	}
	return claims[0].MBID, claims
}

// setMBIDs gives every artist of the dataset its MBID and logs each disagreement.
func (a *assembler) setMBIDs(log *slog.Logger) {
	for i := range a.ds.Artists {
		m, claims := a.mbids.decide(i)
		a.ds.Artists[i].MBID = m
		if claims != nil && log != nil {
			var stated []string
			for _, c := range claims {
				stated = append(stated, c.MBID+" ("+strings.Join(c.Sources, ", ")+")")
			}
			log.Warn("sources state different MusicBrainz ids for an artist; the one most sources state is kept",
				"artist", a.ds.Artists[i].Slug, "kept", m, "stated", stated)
		}
	}
}
