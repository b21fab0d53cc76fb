package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The peer's near and q (issue 37), as a PostgreSQL engineer would serve them: PostGIS
// for the radius, a full-text index for the words.
//
// near: the table venues holds each venue's position (its own, or its city's centre when
// it has none, as the API places it) as a PostGIS geography with a GiST index, and gigs
// its venue's slug, indexed: the radius is measured once per venue, not per gig (a
// city's venues are a few hundred, its gigs tens of thousands). ST_DWithin on the index
// finds the venues on PostGIS's sphere, whose radius (6,371,008.8 m) is 8.8 m longer
// than gigs' (6,371 km): a distance there is longer by a factor of 1.0000014, up to 0.7 m
// at 500 km, so the index is asked for a metre more. The exact test, and the distance_km
// each gig carries, is ST_DistanceSphere on gigs' sphere (the great circle, as gigs'
// haversine), rounded to the metre half away from zero (round() on double precision
// rounds half to even) and shown in tenths of a kilometre as gigs does.
//
// q: the text search configuration gigs (the simple one, with unaccent before it, so that
// words are lower-cased and unaccented: Motörhead is motorhead, ｍｕｎｉｃｈ munich)
// indexes tsv, a generated column of search (title, artists, venue and city) with a GIN
// index. gigs_words first folds the text as gigs does before its words are cut:
// compatibility forms (NFKC), apostrophes removed ("Guns N' Roses" is guns n roses) and
// ASCII punctuation turned into spaces, so that the parser makes no host, file or
// hyphenated-compound tokens of "AC/DC" or "hip-hop" but words; and the Greek final sigma
// as sigma (gigs folds case, lower() lower-cases). A query's words go through the same
// folding and configuration (gigs_query), each a prefix (:*), all required (&): gigs' q.
//
// Where the two still differ (no check of the bench meets them; docs/bench.md lists
// them): scripts written without spaces (Chinese, Japanese, Korean, Thai) are one token a
// run in PostgreSQL, so a query matches from the run's start only, where gigs matches
// character pairs anywhere in it; and the combining marks of Indic scripts stay in the
// words, where gigs removes the non-spacing ones.

// pgSearchSchema creates what the table's pos and tsv need, before the table.
var pgSearchSchema = []string{
	"CREATE EXTENSION postgis",
	"CREATE EXTENSION unaccent",
	"CREATE TEXT SEARCH CONFIGURATION gigs (COPY = simple)",
	`ALTER TEXT SEARCH CONFIGURATION gigs ALTER MAPPING FOR asciiword, word, numword,
	asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH unaccent, simple`,
	// ς is σ, ASCII's punctuation a space, apostrophes nothing (see pgFolds).
	`CREATE FUNCTION gigs_words(s text) RETURNS text IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
	RETURN translate(normalize(s, NFKC), '` + strings.ReplaceAll(pgFoldFrom, "'", "''") + `', '` + pgFoldTo + `')`,
	"CREATE UNLOGGED TABLE venues (slug text PRIMARY KEY, pos geography(Point, 4326))",
	`CREATE FUNCTION gigs_query(q text) RETURNS tsquery IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
	RETURN (SELECT coalesce(string_agg(quote_literal(lexeme) || ':*', ' & '), '')::tsquery
		FROM unnest(to_tsvector('gigs', gigs_words(q))))`,
}

// pgPunctuation is ASCII's punctuation but the apostrophe.
const pgPunctuation = "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~"

// gigs_words's translate: from pgFoldFrom to pgFoldTo, character by character, and the
// characters of pgFoldFrom beyond pgFoldTo's length (the apostrophes) removed.
var (
	pgFoldFrom = "ς" + pgPunctuation + "'’ʼ"
	pgFoldTo   = "σ" + strings.Repeat(" ", len(pgPunctuation))
)

// pgSearchIndexes serve near and q: the venues within the radius, and their gigs or the
// gigs with the words, whichever the planner finds fewer.
var pgSearchIndexes = []string{
	"CREATE INDEX venues_pos ON venues USING gist (pos)",
	"CREATE INDEX gigs_venue ON gigs (venue)",
	"CREATE INDEX gigs_tsv ON gigs USING gin (tsv)",
}

// pgSchema returns every statement that makes the peer's schema, in order.
func pgSchema() []string {
	s := append(slices.Clone(pgSearchSchema), pgTable, "ALTER TABLE gigs ADD PRIMARY KEY (id)")
	return append(append(s, pgIndexes...), pgSearchIndexes...)
}

// pgNearQSQL returns the statement of a near + q page of pageSize in start then id order,
// the API's default, with param(name) in place of each parameter: "q" (the query's text),
// "lat" and "lon" (degrees), "radius" (metres) and "from" (an instant: gigs sorted at or
// after it). Its answer is {"data": [the page's gigs, each with its distance_km], "total":
// count}.
//
// The venues within the radius and the query's tsquery are each computed once (InitPlans),
// so that the gigs at those venues (gigs_venue) and the gigs with the words (gigs_tsv)
// are two bitmaps ANDed before any row is read. The matches are found once (the CTE m,
// materialized as it is read twice); the page's docs are fetched by id, and their venues'
// distances measured, for its gigs alone, by a subquery per gig. json_agg takes them in the order of the
// ordered, limited subquery, as pgPageSQL's does. Plans tried and not kept, at 100k gigs:
// the venues joined to the gigs (PostGIS estimates one venue within any radius, so the
// planner loops over the venues, scanning the words' index once per venue: seconds);
// venue IN (SELECT ...) (the same loop); the position on each gig with a GiST index of
// the gigs (the same speed, and every candidate measured).
func pgNearQSQL(pageSize int, param func(name string) string) string {
	pt := fmt.Sprintf("ST_SetSRID(ST_MakePoint(%s, %s), 4326)", param("lon"), param("lat"))
	r := "(" + param("radius") + "::float8)"
	return fmt.Sprintf(`WITH m AS (
  SELECT id, starts_at, venue FROM gigs
  WHERE venue = ANY (ARRAY(SELECT slug FROM venues
      WHERE ST_DWithin(pos, %[1]s::geography, %[2]s + 1, false)
        AND ST_DistanceSphere(pos::geometry, %[1]s, 6371000) <= %[2]s))
    AND tsv @@ (SELECT gigs_query(%[3]s)) AND starts_at >= %[4]s)
SELECT json_build_object(
  'data', coalesce((SELECT json_agg((
      SELECT (left(g.doc::text, -1) || ',"distance_km":' || (k.tenths / 10) || '.' || (k.tenths %% 10) || '}')::json
      FROM gigs g JOIN venues v ON v.slug = g.venue,
        LATERAL (SELECT ST_DistanceSphere(v.pos::geometry, %[1]s, 6371000) AS metres) d,
        LATERAL (SELECT (floor(d.metres)::bigint + (d.metres - floor(d.metres) >= 0.5)::int + 50) / 100 AS tenths) k
      WHERE g.id = t.id))
    FROM (SELECT id FROM m ORDER BY starts_at, id LIMIT %[5]d) t), '[]'::json),
  'total', (SELECT count(*) FROM m))`, pt, r, param("q"), param("from"), pageSize)
}

// pgNearQPage is the peer's near + q page of 20 at (lat, lon) within radiusKm, of gigs
// sorted at or after from (RFC 3339), which must answer want and total.
func pgNearQPage(name, q string, lat, lon, radiusKm float64, from string, want []json.RawMessage, total int) pgPage {
	return pgPage{Name: name, SQL: func(param func(string) string) string { return pgNearQSQL(20, param) },
		Vars: map[string]string{"q": q, "lat": strconv.FormatFloat(lat, 'g', -1, 64), "lon": strconv.FormatFloat(lon, 'g', -1, 64),
			"radius": strconv.FormatFloat(radiusKm*1000, 'g', -1, 64), "from": from},
		Want: want, Total: total}
}

// loadVenues copies each venue of rows, once, into the table venues: its slug and its
// position (a point, longitude first, in well-known text; Go's shortest formatting reads
// back as the same float64), or none.
func (s *pgServer) loadVenues(ctx context.Context, rows []pgRow) error {
	var b []byte
	seen := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		if seen[r.Venue] {
			continue
		}
		seen[r.Venue] = true
		b = append(appendCopyText(b, r.Venue), '\t')
		if !r.HasPos {
			b = append(b, `\N`+"\n"...)
			continue
		}
		b = append(b, "POINT("...)
		b = strconv.AppendFloat(b, r.Lon, 'g', -1, 64)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, r.Lat, 'g', -1, 64)
		b = append(b, ")\n"...)
	}
	_, err := s.psql(ctx, bytes.NewReader(b), "COPY venues (slug, pos) FROM STDIN")
	return err
}
