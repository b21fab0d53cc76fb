package loader

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
)

// Assembly: a cluster of records (see merge.go) becomes one gig, and the gigs' venues,
// cities, artists and genres the dataset's.
//
// Field precedence within a gig (records ordered venue site, primary platform, other
// platforms, then by source order):
//   - The start comes from the record that states a previous start (the newest news), else
//     the first. A venue site's "time to be announced" stands; a platform's takes a time
//     another record states for that date. A start after midnight that another record
//     gives the same clock a day later takes the later date: the earlier one lists the show
//     under the evening before, as club nights often are.
//   - The title, end and doors come from the first record that has them. The bill is the
//     first record's, extended by acts only others list.
//   - Every source, ticket link and price is kept, each ticket with its source, so platform
//     prices stand beside venue links.
//   - A cancellation from a venue site or a primary platform wins; one from other
//     platforms counts only when every record says so. Otherwise a status a venue site
//     states wins (an iCalendar feed cannot say "postponed" and states none; a page may
//     leave eventStatus out); then a platform's "postponed" or "rescheduled", since
//     platforms say "scheduled" of every listing they have not updated; else "scheduled".

// maxOnSaleLead is how long before a show its tickets may go on sale. Ticketmaster writes
// 1900-01-01 where it knows no on-sale date, in its pages' JSON-LD and its API: such a
// time says nothing, and the next source's is taken.
const maxOnSaleLead = 3 * 365 * 24 * time.Hour

// dataset assembles one gig per cluster, in the order of clusters, with ids from run, plus
// the cities, venues, artists and genres they use.
func (n *normalizer) dataset(run *idRun, clusters [][]int32) engine.Dataset {
	n.guestVenues(n.guestRank())
	a := assembler{n: n, run: run, venueSlugs: make([]string, len(n.venues)), artists: map[string]int{}, mbids: mbidVotes{},
		slugs: map[string]string{}, cities: map[string]bool{}, genres: map[string]bool{}}
	var order []int32
	for _, c := range clusters {
		order = append(order, c...)
	}
	// Artists are named by the most authoritative source that lists them.
	slices.SortStableFunc(order, func(x, y int32) int { return cmp.Or(cmp.Compare(n.recs[x].role, n.recs[y].role), cmp.Compare(x, y)) })
	for _, i := range order {
		for _, p := range a.performers(&n.recs[i]) {
			if a.artist(p.name, p.genres) != "" {
				a.mbids.add(a.artists[artistKey(p.name)], p.mbid, n.recs[i].ev.Source)
			}
		}
	}
	a.setMBIDs(n.log)
	a.ds.Gigs = make([]engine.Gig, 0, len(clusters))
	for _, c := range clusters {
		a.gig(c)
	}
	a.ds.Merges = run.merges
	return a.ds
}

// assembler builds a dataset from clusters. Slugs never collide: a name whose slug is taken
// by another key gets a numbered one.
type assembler struct {
	n          *normalizer
	run        *idRun
	ds         engine.Dataset
	venueSlugs []string          // by venue index, "" until used
	artists    map[string]int    // artist key → index in ds.Artists
	mbids      mbidVotes         // the MBIDs the sources state, by index in ds.Artists
	slugs      map[string]string // "kind\x00slug" → the key that holds it
	cities     map[string]bool
	genres     map[string]bool
}

// slug returns base, or base with a number, so that it belongs to key alone.
func (a *assembler) slug(kind, base, key string) string {
	s := base
	for i := 2; ; i++ {
		holder, taken := a.slugs[kind+"\x00"+s]
		if !taken || holder == key {
			a.slugs[kind+"\x00"+s] = key
			return s
		}
		s = base + "-" + strconv.Itoa(i)
	}
}

type performer struct {
	name   string
	genres []string
	mbid   string
}

// performers returns a record's acts in billing order; without performers, the headliner
// its title names.
func (a *assembler) performers(r *record) []performer {
	if len(r.ev.Performers) == 0 {
		return []performer{{name: titleHeadliner(r.ev.Title, r.ev.Venue.Name, r.city.Name)}}
	}
	out := make([]performer, 0, len(r.ev.Performers))
	for _, p := range r.ev.Performers {
		out = append(out, performer{name: p.Name, genres: p.Genres, mbid: p.MBID})
	}
	return out
}

// artist returns the slug of the act named name, adding it when new.
func (a *assembler) artist(name string, tags []string) string {
	k := artistKey(name)
	if k == "" {
		return ""
	}
	i, ok := a.artists[k]
	if !ok {
		display := displayName(name)
		i = len(a.ds.Artists)
		a.artists[k] = i
		a.ds.Artists = append(a.ds.Artists, engine.Artist{Slug: a.slug("artist", engine.Slugify(display), k), Name: display})
	}
	for _, t := range tags {
		a.genre(&a.ds.Artists[i].Genres, t)
	}
	return a.ds.Artists[i].Slug
}

// genre adds the canonical genre of a free tag to list.
func (a *assembler) genre(list *[]string, tag string) {
	g := canonicalGenre(tag)
	if g == "" || slices.Contains(*list, g) {
		return
	}
	*list = append(*list, g)
	if !a.genres[g] {
		a.genres[g] = true
		a.ds.Genres = append(a.ds.Genres, engine.Genre{Slug: g, Name: canonicalGenres[g]})
	}
}

// venue returns the slug of venue i, adding it and its city to the dataset on first use.
func (a *assembler) venue(i int32) string {
	if s := a.venueSlugs[i]; s != "" {
		return s
	}
	v := &a.n.venues[i]
	c := v.city
	if !a.cities[c.Slug] {
		a.cities[c.Slug] = true
		a.ds.Cities = append(a.ds.Cities, engine.City{Slug: c.Slug, Name: c.Name, Country: c.Country, Timezone: c.Timezone,
			Lat: c.Lat, Lon: c.Lon, HasGeo: c.HasGeo})
	}
	base := strings.Trim(engine.Slugify(v.name)+"-"+c.Slug, "-")
	slug := a.slug("venue", base, c.Slug+"\x00"+venueKey(v.name, c.Name))
	a.venueSlugs[i] = slug
	p := v.place
	ev := engine.Venue{Slug: slug, Name: v.name, City: c.Slug, Website: p.URL, Lat: p.Lat, Lon: p.Lon, HasGeo: p.HasGeo}
	var addr []string
	for _, s := range []string{p.Street, strings.TrimSpace(p.PostalCode + " " + p.Locality)} {
		if s = clean(s); s != "" {
			addr = append(addr, s)
		}
	}
	ev.Address = strings.Join(addr, ", ")
	a.ds.Venues = append(a.ds.Venues, ev)
	return slug
}

// gig assembles one gig from a cluster of records; see the precedence above.
func (a *assembler) gig(members []int32) {
	recs := a.n.recs
	slices.SortStableFunc(members, func(x, y int32) int {
		return cmp.Or(cmp.Compare(recs[x].role, recs[y].role), cmp.Compare(recs[x].src, recs[y].src))
	})
	first := &recs[members[0]]
	auth := first
	for _, i := range members {
		if !recs[i].prev.IsZero() {
			auth = &recs[i]
			break
		}
	}
	g := engine.Gig{Title: clean(first.ev.Title), Venue: a.venue(auth.venue), Start: auth.start, TimeTBA: auth.tba, PreviousStart: auth.prev}
	for _, i := range members {
		r := &recs[i]
		switch {
		case g.TimeTBA && auth.role != RoleVenue && !r.tba && r.day == auth.day:
			g.Start, g.TimeTBA = r.start, false
		case auth.prev.IsZero() && datedToEveningBefore(auth, r):
			g.Start = r.start // a record that moved the show knows its date
		}
	}
	g.Status = status(recs, members)
	for _, i := range members {
		r := &recs[i]
		loc := r.city.Location
		if g.End.IsZero() && !r.ev.End.IsZero() && !r.ev.End.DateOnly {
			if end, _ := instant(r.ev.End, loc); end.After(g.Start) {
				g.End = end
			}
		}
		if g.Doors.IsZero() && !g.TimeTBA && !r.ev.Doors.IsZero() && !r.ev.Doors.DateOnly {
			if doors, _ := instant(r.ev.Doors, loc); !doors.After(g.Start) && g.Start.Sub(doors) < 12*time.Hour {
				g.Doors = doors
			}
		}
		// The most authoritative source that states them gives the on-sale time (one before
		// the show, by at most maxOnSaleLead), the picture and the age limit.
		if g.OnSale.IsZero() && !r.ev.OnSale.IsZero() {
			if on, _ := instant(r.ev.OnSale, loc); on.Before(g.Start) && g.Start.Sub(on) <= maxOnSaleLead {
				g.OnSale = on
			}
		}
		if g.Image == "" {
			g.Image = r.ev.Image
		}
		if !g.HasMinAge && r.ev.HasMinAge {
			g.MinAge, g.HasMinAge = r.ev.MinAge, true
		}
		for _, p := range a.performers(r) {
			if s := a.artist(p.name, nil); s != "" && !slices.ContainsFunc(g.Artists, func(b engine.Billing) bool { return b.Artist == s }) {
				g.Artists = append(g.Artists, engine.Billing{Artist: s, Headliner: len(g.Artists) == 0})
			}
			for _, t := range p.genres {
				a.genre(&g.Genres, t)
			}
		}
		for _, t := range r.ev.Genres {
			a.genre(&g.Genres, t)
		}
		for _, o := range r.ev.Offers {
			if o.URL == "" && !o.HasPrice {
				continue
			}
			t := engine.Ticket{URL: o.URL, Source: r.ev.Source, Availability: o.Availability}
			if o.HasPrice {
				t.Currency = currency(o.Currency, r.city.Country)
				lo, hi := o.PriceMin, o.PriceMax
				t.PriceMin = &lo
				if hi > lo {
					t.PriceMax = &hi
				}
			}
			if !slices.ContainsFunc(g.Tickets, func(d engine.Ticket) bool { return sameTicket(d, t) }) {
				g.Tickets = append(g.Tickets, t)
			}
		}
		at := engine.Attribution{Name: r.ev.Source, URL: r.ev.URL}
		if !slices.Contains(g.Sources, at) {
			g.Sources = append(g.Sources, at)
		}
	}
	g.Title = untagged(g.Title, g.Status, slices.ContainsFunc(g.Tickets, func(t engine.Ticket) bool { return t.Availability == "sold_out" }))
	local := g.Start.In(auth.city.Location)
	g.ID = a.run.assign(a.n, members, a.venueSlugs, contentKey(g.Venue, local, g.TimeTBA, auth.keys[0]))
	a.ds.Gigs = append(a.ds.Gigs, g)
}

// status decides a gig's status: see the precedence above.
func status(recs []record, members []int32) engine.Status {
	all := true
	for _, i := range members {
		r := &recs[i]
		cancelled := r.ev.Status == engine.StatusCancelled
		if cancelled && r.role <= RolePrimary {
			return engine.StatusCancelled
		}
		all = all && cancelled
	}
	if all {
		return engine.StatusCancelled
	}
	for _, i := range members { // venue sites first
		r := &recs[i]
		if s := r.ev.Status; s != "" && s != engine.StatusCancelled && (r.role == RoleVenue || s != engine.StatusScheduled) {
			return s
		}
	}
	return engine.StatusScheduled
}
