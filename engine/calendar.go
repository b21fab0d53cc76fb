package engine

import (
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

// Begun returns how many gigs of the snapshot begin before t, as a range from t counts
// them: the answer to a query whose range starts at t changes only when this does.
func (s *Snapshot) Begun(t time.Time) int { return s.positions(AtInstant(t), Bound{}).lo }

// AppendCalendar appends the iCalendar feed (RFC 5545) of the gigs at positions, in the
// order given, at most MaxCalendarEvents of them: a VEVENT per gig; a cancelled VEVENT for
// each gig merged into one of them while its tombstone lasts (its old UID crossed out in
// favour of the survivor's); and, when c.Of names an entity, a cancelled VEVENT for each of
// its gigs no source lists any more, from the build day on, while their tombstones last.
// It returns the events written, tombstones included.
func (s *Snapshot) AppendCalendar(dst []byte, positions []uint32, c Calendar) ([]byte, int, error) {
	total := len(positions)
	positions = positions[:min(total, MaxCalendarEvents)]
	gone := s.calendarIndex().gone[c.Of]
	if c.Of == "" {
		gone = nil
	}
	docs := make([]*gigDoc, len(positions)+len(gone))
	addresses := map[string]string{}
	type span struct{ from, to time.Time }
	spans := map[*time.Location]*span{}
	for k := range docs {
		var body []byte
		if k < len(positions) {
			body = s.GigJSON(int(positions[k]))
		} else {
			body = s.tomb.gig(gone[k-len(positions)])
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
	desc := describe(c.What, total)
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
	merged := s.calendarIndex().merged
	n := 0
	for k, p := range positions {
		g := docs[k]
		created, updated := s.GigTimes(int(p))
		s.appendEvent(&w, g, c.Host, event{uid: g.ID, seq: s.lastSeq[p], created: created, updated: updated})
		n++
		for _, t := range merged[g.ID] {
			s.appendEvent(&w, g, c.Host, event{uid: string(s.tomb.ids.key(t)), seq: s.tomb.seq[t], updated: time.Unix(s.tomb.removed[t], 0).UTC(),
				cancelled: true, related: g.ID, note: "This listing was merged into " + g.ID + "@" + c.Host + ": this copy is cancelled."})
			n++
		}
	}
	for k, t := range gone {
		g := docs[len(positions)+k]
		created, _ := time.Parse(time.RFC3339, g.CreatedAt)
		s.appendEvent(&w, g, c.Host, event{uid: g.ID, seq: s.tomb.seq[t], created: created, updated: time.Unix(s.tomb.removed[t], 0).UTC(),
			cancelled: true, note: "No source lists this gig any more: it is taken to be cancelled."})
		n++
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

// describe says what a feed lists, and the cap when it applies.
func describe(what string, total int) string {
	d := strconv.Itoa(total) + " " + what
	if total > MaxCalendarEvents {
		d += ": the first " + strconv.Itoa(MaxCalendarEvents) + " by start (a feed lists at most " + strconv.Itoa(MaxCalendarEvents) + ")"
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
// when first asked: those of merged gigs by the survivor's id, and those of gigs gone
// from the sources that start from the build day on, by "venue:<slug>" and
// "artist:<slug>" of their gig, in start order.
func (s *Snapshot) calendarIndex() *calendarTombstones {
	x := &s.calTombs
	x.once.Do(func() {
		x.merged, x.gone = map[string][]int{}, map[string][]int{}
		since := s.built.Add(-24 * time.Hour)
		type goneGig struct {
			t     int
			start time.Time
		}
		var list []goneGig
		byT := map[int]*gigDoc{}
		for i := range s.tomb.len() {
			switch Reason(s.tomb.reason[i]) {
			case ReasonMerged:
				into := string(s.tomb.into[s.tomb.intoOff[i]:s.tomb.intoOff[i+1]])
				x.merged[into] = append(x.merged[into], i)
			case ReasonGone:
				body := s.tomb.gig(i)
				if body == nil {
					continue
				}
				g, err := s.readGig(body, map[string]string{})
				if err != nil || g.start.Before(since) {
					continue
				}
				list, byT[i] = append(list, goneGig{i, g.start}), g
			}
		}
		slices.SortStableFunc(list, func(a, b goneGig) int { return a.start.Compare(b.start) })
		for _, e := range list {
			g := byT[e.t]
			x.gone["venue:"+g.Venue.Slug] = append(x.gone["venue:"+g.Venue.Slug], e.t)
			for _, a := range g.Artists {
				x.gone["artist:"+a.Slug] = append(x.gone["artist:"+a.Slug], e.t)
			}
		}
	})
	return x
}

// calendarTombstones is a snapshot's calendarIndex, filled when first asked.
type calendarTombstones struct {
	once   sync.Once
	merged map[string][]int // tombstone numbers by the id of the gig they were merged into
	gone   map[string][]int // tombstone numbers of gigs gone from the sources, by "venue:" or "artist:" and slug
}
