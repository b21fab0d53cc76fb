package engine

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-json"

	"github.com/gigs/gigs/engine/internal/ics"
)

// MaxCalendarEvents caps the gigs of one iCalendar feed: the first by start.
const MaxCalendarEvents = 1000

// Calendar says what an iCalendar feed says of itself.
type Calendar struct {
	// Host is the service's host name: a gig's UID is its id, "@" and Host, the same in
	// every feed and on every replica.
	Host string
	// Name is the feed's name (NAME, X-WR-CALNAME), What what it lists ("gigs at Paradiso"),
	// which its description counts.
	Name, What string
	// Refresh is how often subscribers should poll (REFRESH-INTERVAL, X-PUBLISHED-TTL),
	// whole minutes of at least 15.
	Refresh time.Duration
	// Of names the entity whose gigs the feed lists, "venue:<slug>" or "artist:<slug>":
	// its gigs no source lists any more, whose tombstones last, are listed too, cancelled.
	// "" for a feed of other gigs.
	Of string
}

// VenueGigs returns the name of the venue with slug and the positions of its upcoming
// gigs in start order; the slice is the snapshot's, not to be modified.
func (s *Snapshot) VenueGigs(slug string) (name string, positions []uint32, ok bool) {
	return s.detailGigs(&s.venueDetail, slug)
}

// ArtistGigs returns the name of the artist with slug and the positions of its gigs from
// the build time on, in start order; the slice is the snapshot's, not to be modified.
func (s *Snapshot) ArtistGigs(slug string) (name string, positions []uint32, ok bool) {
	return s.detailGigs(&s.artistDetail, slug)
}

func (s *Snapshot) detailGigs(d *detailPages, slug string) (string, []uint32, bool) {
	b, ok := d.find(s, slug)
	if !ok {
		return "", nil, false
	}
	var v struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(d.entity(b.i), &v)
	p := d.pos[d.posAt[b.i]:d.posAt[b.i+1]]
	return v.Name, p[:len(p):len(p)], true
}

// Begun returns how many gigs of the snapshot, and of the gone gigs its feeds list (see
// calendargone.go), begin before t, as a range from t counts them: the answer to a query
// whose range starts at t, and so its feed, changes only when this does. It builds the
// gone index when no feed has yet.
func (s *Snapshot) Begun(t time.Time) int {
	return s.Started(t) + s.calendarIndex().gone.begun(t)
}

// feedItem is one gig of a feed: a live gig's position, or (gone) a gone gig's position
// in the gone index; metres is its distance in a feed ordered by distance.
type feedItem struct {
	at     uint32
	gone   bool
	metres uint32
}

// feedOrder compares two gigs of a feed in its order: by distance (when byDistance),
// then start, then id, as Run orders a page.
func (s *Snapshot) feedOrder(byDistance bool) func(a, b feedItem) int {
	gone := s.calendarIndex().gone.snap
	of := func(e feedItem) *Snapshot {
		if e.gone {
			return gone
		}
		return s
	}
	return func(a, b feedItem) int {
		sa, sb := of(a), of(b)
		if byDistance && a.metres != b.metres {
			return cmp.Compare(a.metres, b.metres)
		}
		return cmp.Or(cmp.Compare(sa.keys[a.at], sb.keys[b.at]), bytes.Compare(sa.ids.key(int(a.at)), sb.ids.key(int(b.at))))
	}
}

// mergeFeed returns a feed's gigs in its order (order): live, the first MaxCalendarEvents
// of total live gigs in that order, and among gone, gone gigs in that order, the first
// MaxCalendarEvents of those that come before the last live gig listed when the live
// ones are cut short (those after it would not have been listed had they stayed), all
// of them otherwise. So gone gigs count against a cap of their own: a feed lists at most
// MaxCalendarEvents live gigs, however many are gone, and at most as many gone ones.
func mergeFeed(live, gone []feedItem, total int, order func(a, b feedItem) int) []feedItem {
	live = live[:min(len(live), MaxCalendarEvents)]
	if total > len(live) && len(live) > 0 {
		last := live[len(live)-1]
		n, _ := slices.BinarySearchFunc(gone, last, order)
		gone = gone[:n]
	}
	gone = gone[:min(len(gone), MaxCalendarEvents)]
	out := make([]feedItem, 0, len(live)+len(gone))
	for len(live) > 0 || len(gone) > 0 {
		if len(gone) == 0 || len(live) > 0 && order(live[0], gone[0]) < 0 {
			out, live = append(out, live[0]), live[1:]
		} else {
			out, gone = append(out, gone[0]), gone[1:]
		}
	}
	return out
}

// AppendCalendar appends the iCalendar feed (RFC 5545) of the gigs at positions, in start
// order, the first MaxCalendarEvents of them, and, when c.Of names an entity, its gigs
// no source lists any more, from the build time on, in start order among them (see
// mergeFeed), while their tombstones last. It writes what appendFeed does and returns
// the events written.
func (s *Snapshot) AppendCalendar(dst []byte, positions []uint32, c Calendar) ([]byte, int, error) {
	live := make([]feedItem, min(len(positions), MaxCalendarEvents))
	for k := range live {
		live[k].at = positions[k]
	}
	var gone []feedItem
	if c.Of != "" {
		for _, p := range s.calendarIndex().gone.byEntity[c.Of] {
			gone = append(gone, feedItem{at: p, gone: true})
		}
	}
	items := mergeFeed(live, gone, len(positions), s.feedOrder(false))
	return s.appendFeed(dst, items, len(positions), false, c)
}

// AppendQueryCalendar appends the iCalendar feed of query q (its filters, search, near,
// order and range; its Offset and Limit are set, and After must not have been called):
// the first MaxCalendarEvents gigs it matches, and the gigs no source lists any more that
// it matches as if they were still listed, as cancelled (see calendargone.go), merged in
// its order (see mergeFeed). It writes what appendFeed does and returns the events
// written. q's Page, Total and Dist are of no use afterwards.
func (s *Snapshot) AppendQueryCalendar(dst []byte, q *Query, c Calendar) ([]byte, int, error) {
	run := func(snap *Snapshot, gone bool) ([]feedItem, int) {
		q.Offset, q.Limit = 0, MaxCalendarEvents
		snap.Run(q)
		items := make([]feedItem, len(q.Page))
		for k, p := range q.Page {
			items[k] = feedItem{at: uint32(p), gone: gone}
			if k < len(q.Dist) {
				items[k].metres = q.Dist[k]
			}
		}
		return items, q.Total
	}
	live, total := run(s, false)
	gone, _ := run(s.calendarIndex().gone.snap, true)
	items := mergeFeed(live, gone, total, s.feedOrder(q.near.byDistance))
	return s.appendFeed(dst, items, total, q.near.byDistance, c)
}

// appendFeed appends the iCalendar feed of items, in the order given: a VEVENT per gig,
// a gone gig's cancelled, and after each gig a cancelled VEVENT for each gig merged into
// it while its tombstone lasts (its old UID crossed out in favour of the survivor's).
// total is the number of live gigs matched, which the description gives with the cap
// when it applies (by distance, or by start). It returns the events written.
func (s *Snapshot) appendFeed(dst []byte, items []feedItem, total int, byDistance bool, c Calendar) ([]byte, int, error) {
	x := s.calendarIndex()
	docs := make([]*gigDoc, len(items))
	addresses := map[string]string{}
	type span struct{ from, to time.Time }
	spans := map[*time.Location]*span{}
	gone := 0
	for k, e := range items {
		body := s.GigJSON(int(e.at))
		if e.gone {
			body, gone = s.tomb.gig(int(x.gone.tomb[e.at])), gone+1
		}
		g, err := s.readGig(body, addresses)
		if err != nil {
			return dst, 0, err
		}
		docs[k] = g
		if g.TimeTBA {
			continue
		}
		end := g.start
		if e := g.at(g.EndsAt); e.After(end) {
			end = e
		}
		sp := spans[g.loc]
		if sp == nil {
			sp = &span{g.start, end}
			spans[g.loc] = sp
		}
		if g.start.Before(sp.from) {
			sp.from = g.start
		}
		if end.After(sp.to) {
			sp.to = end
		}
	}
	w := ics.Writer{B: dst}
	w.Line("BEGIN", "VCALENDAR")
	w.Line("VERSION", "2.0")
	w.Line("PRODID", "-//gigs//gigs API//EN")
	w.Line("CALSCALE", "GREGORIAN")
	w.Line("METHOD", "PUBLISH")
	w.Prop("NAME").Text(c.Name).End()
	w.Prop("X-WR-CALNAME").Text(c.Name).End()
	desc := describe(c.What, total, gone, byDistance)
	w.Prop("DESCRIPTION").Text(desc).End()
	w.Prop("X-WR-CALDESC").Text(desc).End()
	refresh := isoMinutes(c.Refresh)
	w.PropParam("REFRESH-INTERVAL", "VALUE", "DURATION").Raw(refresh).End()
	w.Prop("X-PUBLISHED-TTL").Raw(refresh).End()
	locs := make([]*time.Location, 0, len(spans))
	for l := range spans {
		locs = append(locs, l)
	}
	slices.SortFunc(locs, func(a, b *time.Location) int { return strings.Compare(a.String(), b.String()) })
	for _, l := range locs {
		w.AppendVTimezone(l, spans[l].from, spans[l].to)
	}
	n := 0
	for k, e := range items {
		g := docs[k]
		if e.gone {
			t := x.gone.tomb[e.at]
			created, _ := time.Parse(time.RFC3339, g.CreatedAt)
			s.appendEvent(&w, g, c.Host, event{uid: g.ID, seq: s.tomb.seq[t], created: created, updated: time.Unix(s.tomb.removed[t], 0).UTC(),
				cancelled: true, note: "No source lists this gig any more: it is taken to be cancelled."})
		} else {
			created, updated := s.GigTimes(int(e.at))
			s.appendEvent(&w, g, c.Host, event{uid: g.ID, seq: s.lastSeq[e.at], created: created, updated: updated})
		}
		n++
		for _, t := range x.merged[g.ID] {
			s.appendEvent(&w, g, c.Host, event{uid: string(s.tomb.ids.key(t)), seq: s.tomb.seq[t], updated: time.Unix(s.tomb.removed[t], 0).UTC(),
				cancelled: true, related: g.ID, note: "This listing was merged into " + g.ID + "@" + c.Host + ": this copy is cancelled."})
			n++
		}
	}
	w.Line("END", "VCALENDAR")
	return w.B, n, nil
}

// event is what a VEVENT says beyond its gig: under which UID, its SEQUENCE, its times
// (created zero when unknown), and, for a gig removed or merged, that it is cancelled,
// why (note) and the UID's id of the gig it is now (related).
type event struct {
	uid              string
	seq              uint64
	created, updated time.Time
	cancelled        bool
	related, note    string
}

// describe says what a feed lists: the live gigs it matched (total), the cap when it
// applies, and the gone gigs it lists as cancelled.
func describe(what string, total, gone int, byDistance bool) string {
	d := strconv.Itoa(total) + " " + what
	if total > MaxCalendarEvents {
		by := "start"
		if byDistance {
			by = "distance"
		}
		d += ": the first " + strconv.Itoa(MaxCalendarEvents) + " by " + by + " (a feed lists at most " + strconv.Itoa(MaxCalendarEvents) + ")"
	}
	switch {
	case gone == 1:
		d += "; and 1 gig no source lists any more, shown cancelled"
	case gone > 1:
		d += "; and " + strconv.Itoa(gone) + " gigs no source lists any more, shown cancelled"
	}
	return d
}

// isoMinutes writes d as an RFC 5545 DURATION of whole minutes, at least 15 ("PT1H",
// "PT1H30M").
func isoMinutes(d time.Duration) string {
	m := max(int(d/time.Minute), 15)
	out := "PT"
	if m >= 60 {
		out += strconv.Itoa(m/60) + "H"
	}
	if m%60 != 0 {
		out += strconv.Itoa(m%60) + "M"
	}
	return out
}

// appendEvent writes the VEVENT of gig g as e says.
func (s *Snapshot) appendEvent(w *ics.Writer, g *gigDoc, host string, e event) {
	w.Line("BEGIN", "VEVENT")
	w.Prop("UID").Text(e.uid).Raw("@").Text(host).End()
	w.Prop("DTSTAMP").UTC(e.updated).End()
	if !e.created.IsZero() {
		w.Prop("CREATED").UTC(e.created).End()
	}
	w.Prop("LAST-MODIFIED").UTC(e.updated).End()
	w.Prop("SEQUENCE").Int(int64(min(e.seq, 1<<31-1))).End()
	if g.TimeTBA {
		w.PropParam("DTSTART", "VALUE", "DATE").Date(g.start).End()
	} else {
		w.PropParam("DTSTART", "TZID", g.loc.String()).Local(g.start).End()
		if end := g.at(g.EndsAt); end.After(g.start) {
			w.PropParam("DTEND", "TZID", g.loc.String()).Local(end).End()
		}
	}
	w.Prop("SUMMARY").Text(g.Title).End()
	w.Prop("DESCRIPTION").Text(g.description(e.note)).End()
	w.Prop("LOCATION").Text(g.location()).End()
	if g.Venue.Lat != nil && g.Venue.Lon != nil {
		w.Prop("GEO").Raw(strconv.FormatFloat(*g.Venue.Lat, 'f', -1, 64)).Raw(";").Raw(strconv.FormatFloat(*g.Venue.Lon, 'f', -1, 64)).End()
	}
	if len(g.Tickets) > 0 && validURI(g.Tickets[0].URL) {
		w.Prop("URL").Raw(g.Tickets[0].URL).End()
	}
	if len(g.Genres) > 0 {
		w.Prop("CATEGORIES")
		for i, genre := range g.Genres {
			if i > 0 {
				w.Raw(",")
			}
			w.Text(genre)
		}
		w.End()
	}
	status := "CONFIRMED"
	switch {
	case e.cancelled || g.Status == StatusCancelled:
		status = "CANCELLED"
	case g.Status == StatusPostponed:
		status = "TENTATIVE"
	}
	w.Prop("STATUS").Raw(status).End()
	if e.related != "" {
		w.Prop("RELATED-TO").Text(e.related).Raw("@").Text(host).End()
	}
	w.Line("END", "VEVENT")
}

// validURI reports whether a ticket link can stand as a URI value as it is: no space,
// control character or quote (a source's malformed link is left to the description).
func validURI(u string) bool {
	return u != "" && !strings.ContainsFunc(u, func(r rune) bool { return r <= ' ' || r == '"' || r == 0x7f })
}

// location is the gig's LOCATION: venue, address, city, and the country's English name,
// which calendar apps look up better than its code.
func (g *gigDoc) location() string {
	parts := []string{g.Venue.Name}
	if g.address != "" {
		parts = append(parts, g.address)
	}
	country := g.Country
	if c, ok := LookupCountry(country); ok {
		country = c.Name
	}
	return strings.Join(append(parts, g.City.Name, country), ", ")
}

// description is the gig's DESCRIPTION: note when not empty, then the bill, doors,
// ticket offers and the sources credited.
func (g *gigDoc) description(note string) string {
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n")
	}
	switch g.Status {
	case StatusCancelled:
		b.WriteString("Cancelled.\n")
	case StatusPostponed:
		b.WriteString("Postponed: a new date is not known yet.\n")
	case StatusRescheduled:
		if prev := g.at(g.PreviousStartsAt); !prev.IsZero() {
			fmt.Fprintf(&b, "Rescheduled from %s.\n", prev.Format("Mon 2 Jan 2006 15:04"))
		}
	}
	if g.TimeTBA {
		b.WriteString("Time to be announced.\n")
	}
	if len(g.Artists) > 0 {
		b.WriteString("Bill: ")
		for i, a := range g.Artists {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.Name)
			if a.Headliner {
				b.WriteString(" (headliner)")
			}
		}
		b.WriteByte('\n')
	}
	if d := g.at(g.DoorsAt); !d.IsZero() {
		fmt.Fprintf(&b, "Doors: %s\n", d.Format("15:04"))
	}
	if g.MinAge != nil && *g.MinAge > 0 {
		fmt.Fprintf(&b, "Ages %d+\n", *g.MinAge)
	}
	for _, t := range g.Tickets {
		b.WriteString("Tickets: ")
		b.WriteString(t.URL)
		var facts []string
		if t.PriceMin != nil {
			p := strconv.FormatFloat(*t.PriceMin, 'f', -1, 64)
			if t.PriceMax != nil && *t.PriceMax != *t.PriceMin {
				p += "–" + strconv.FormatFloat(*t.PriceMax, 'f', -1, 64)
			}
			if t.Currency != "" {
				p += " " + t.Currency
			}
			facts = append(facts, p)
		}
		if t.Availability != "" {
			facts = append(facts, strings.ReplaceAll(t.Availability, "_", " "))
		}
		if t.Source != "" {
			facts = append(facts, "via "+t.Source)
		}
		if len(facts) > 0 {
			b.WriteString(" (" + strings.Join(facts, ", ") + ")")
		}
		b.WriteByte('\n')
	}
	for _, src := range g.Sources {
		b.WriteString("Source: " + src.Name)
		if src.URL != "" {
			b.WriteString(" " + src.URL)
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// calendarIndex returns the tombstones the feeds list, worked out once per snapshot
// when first asked: those of merged gigs by the survivor's id, and the gone index of the
// gigs no source lists any more (calendargone.go).
func (s *Snapshot) calendarIndex() *calendarTombstones {
	x := &s.calTombs
	x.once.Do(func() {
		x.merged = map[string][]int{}
		for i := range s.tomb.len() {
			if Reason(s.tomb.reason[i]) == ReasonMerged {
				into := string(s.tomb.into[s.tomb.intoOff[i]:s.tomb.intoOff[i+1]])
				x.merged[into] = append(x.merged[into], i)
			}
		}
		x.gone = s.indexGone()
	})
	return x
}

// calendarTombstones is a snapshot's calendarIndex, filled when first asked.
type calendarTombstones struct {
	once   sync.Once
	merged map[string][]int // tombstone numbers by the id of the gig they were merged into
	gone   goneIndex
}
