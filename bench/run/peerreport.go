package main

import (
	"fmt"
	"time"
)

// peerGoals judges the goals against PostgreSQL: the filtered page against the peer's
// same page, and the near + q page (the discovery row nearQName, run for each request)
// against the peer's with PostGIS and a full-text index.
func (r *report) peerGoals() []goal {
	at := fmt.Sprintf(" (%s gigs)", count(r.PeerPage.Gigs))
	against := func(what, target string, times float64, own float64, name string) goal {
		pg := r.Peer.page(name)
		if pg == nil {
			return goal{what, target, "not measured: " + orNone(r.PeerErr, "no peer in this mode"), false}
		}
		ratio := own / median(pg.TPS)
		return goal{what + at, target, fmt.Sprintf("%.1f× (%.0f vs %.0f per s)", ratio, own, median(pg.TPS)), ratio >= times}
	}
	nearQ := 0.0
	for _, d := range r.PeerPage.Discovery {
		if d.Name == nearQName {
			nearQ = median(rates(d.Own))
		}
	}
	return []goal{
		against("vs PostgreSQL 15, same page as JSON", "≥ 10×", 10, median(rates(r.PeerPage.Page)), "page"),
		against("near+q page: gigs vs PostgreSQL+PostGIS, same page as JSON, run for each request", "≥ 20×", 20, nearQ, "near+q"),
	}
}

// peerMarkdown writes the report's section on the PostgreSQL peer: each page's figures
// beside gigsd's, the schema and the statements.
func (r *report) peerMarkdown(w func(format string, args ...any)) {
	w("## PostgreSQL 15 peer")
	w("")
	if r.Peer == nil {
		w("Not measured: %s.", orNone(r.PeerErr, "this mode has no peer"))
		w("")
		return
	}
	w("%s gigs loaded in %s (COPY, indexes, VACUUM ANALYZE), each page checked to be gigsd's (the same gigs' JSON, byte for byte, in the same order, and the same total), then driven by pgbench with 16 clients and prepared statements, the server and pgbench on separate cores.", count(r.PeerRows), r.Peer.LoadTime.Round(time.Second))
	w("")
	w("| page | pgbench tps | average latency ms | gigsd req/s |")
	w("|---|---|---|---|")
	for _, p := range r.Peer.Pages {
		own := r.PeerPage.Page
		if p.Name == "near+q" {
			for _, d := range r.PeerPage.Discovery {
				if d.Name == nearQName {
					own = d.Own
				}
			}
		}
		w("| %s | %s | %s | %s |", p.Name, fmtRange(p.TPS, "", 1, 0), fmtRange(p.LatencyMS, "", 1, 2), fmtRange(rates(own), "", 1, 0))
	}
	w("")
	w("The page is `%s`; near+q is `%s`, which PostgreSQL answers from the instant gigsd was asked it at (`from` below).", r.PeerPage.PagePath, r.PeerPage.NearQ.Path)
	w("")
	w("```sql")
	for _, s := range r.Peer.Schema {
		w("%s;", s)
	}
	for _, p := range r.Peer.Pages {
		w("-- %s", p.Name)
		w("%s;", p.SQL)
	}
	w("```")
	w("")
	for _, p := range r.Peer.Pages {
		w("- %s: `%s`", p.Name, p.Command)
	}
	w("")
}
