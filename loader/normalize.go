package loader

import (
	"cmp"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// horizon is how far ahead a start may lie; later ones are taken for typos.
const horizon = 2 * 365 * 24 * time.Hour

// normalizer turns source events into an engine dataset. Not safe for concurrent use.
type normalizer struct {
	now     time.Time
	ds      engine.Dataset
	cities  map[string]*places.City // by slug
	venues  map[string]int          // city slug + "\x00" + folded name → index in ds.Venues
	artists map[string]int          // slug → index in ds.Artists
	genres  map[string]bool
	gigs    map[string]int // id → index in ds.Gigs
}

func newNormalizer(now time.Time) *normalizer {
	return &normalizer{now: now, cities: map[string]*places.City{}, venues: map[string]int{},
		artists: map[string]int{}, genres: map[string]bool{}, gigs: map[string]int{}}
}

// add normalizes one event into the dataset, or says why it cannot.
func (n *normalizer) add(ev *source.Event) error {
	city, err := lookupCity(ev.Venue)
	if err != nil {
		return err
	}
	venueName := clean(ev.Venue.Name)
	title := clean(ev.Title)
	switch {
	case venueName == "":
		return fmt.Errorf("venue without a name")
	case title == "":
		return fmt.Errorf("no title")
	case ev.Start.IsZero():
		return fmt.Errorf("no start")
	}
	start, tba := instant(ev.Start, city.Location)
	if start.Sub(n.now) > horizon {
		return fmt.Errorf("start %s is more than two years ahead", start.Format(time.DateOnly))
	}
	// Valid: only now do its city and venue enter the dataset.
	n.addCity(city)
	venue := n.venue(venueName, ev.Venue, city)
	g := engine.Gig{Title: title, Status: ev.Status, Venue: venue, Start: start, TimeTBA: tba}
	if !ev.End.IsZero() && !ev.End.DateOnly {
		if end, _ := instant(ev.End, city.Location); end.After(start) {
			g.End = end
		}
	}
	if !ev.Doors.IsZero() && !ev.Doors.DateOnly && !tba {
		if doors, _ := instant(ev.Doors, city.Location); !doors.After(start) {
			g.Doors = doors
		}
	}
	if !ev.PreviousStart.IsZero() {
		g.PreviousStart, _ = instant(ev.PreviousStart, city.Location)
	}
	g.Artists, g.Genres = n.bill(ev)
	for _, o := range ev.Offers {
		if o.URL == "" && !o.HasPrice {
			continue
		}
		t := engine.Ticket{URL: o.URL, Source: ev.Source, Currency: o.Currency, Availability: o.Availability}
		if o.HasPrice {
			lo, hi := o.PriceMin, o.PriceMax
			t.PriceMin = &lo
			if hi > lo {
				t.PriceMax = &hi
			}
		}
		g.Tickets = append(g.Tickets, t)
	}
	g.Sources = []engine.Attribution{{Name: ev.Source, URL: ev.URL}}
	g.ID = gigID(venue, start.In(city.Location), tba, headlinerKey(&g, ev))
	if i, dup := n.gigs[g.ID]; dup {
		mergeInto(&n.ds.Gigs[i], &g)
		return nil
	}
	n.gigs[g.ID] = len(n.ds.Gigs)
	n.ds.Gigs = append(n.ds.Gigs, g)
	return nil
}

// instant places a stated time in the venue's zone. A wall time that falls in a daylight
// saving gap moves forward by the gap, as the clocks did.
func instant(w source.When, loc *time.Location) (t time.Time, dateOnly bool) {
	y, m, d := w.Wall.Date()
	if w.DateOnly {
		return time.Date(y, m, d, 0, 0, 0, 0, loc), true
	}
	hh, mm, ss := w.Wall.Clock()
	if w.HasOffset {
		return time.Date(y, m, d, hh, mm, ss, 0, time.FixedZone("", w.Offset)).In(loc), false
	}
	return time.Date(y, m, d, hh, mm, ss, 0, loc), false
}

func lookupCity(p source.Place) (*places.City, error) {
	if p.Country == "" {
		return nil, fmt.Errorf("venue %q has no country", p.Name)
	}
	code, ok := places.Country(p.Country)
	if !ok {
		return nil, fmt.Errorf("unknown country %q", p.Country)
	}
	return places.LookupCity(p.Locality, code)
}

func (n *normalizer) addCity(c *places.City) {
	if n.cities[c.Slug] == nil {
		n.cities[c.Slug] = c
		n.ds.Cities = append(n.ds.Cities, engine.City{Slug: c.Slug, Name: c.Name, Country: c.Country, Timezone: c.Timezone})
	}
}

// venue returns the slug of the venue of that name in city c, adding it when new. The slug
// is the name's with the city's appended, so it depends on nothing but the venue itself:
// no other venue coming, going or being read first can change it.
func (n *normalizer) venue(name string, p source.Place, c *places.City) string {
	key := c.Slug + "\x00" + engine.Fold(name)
	if i, ok := n.venues[key]; ok {
		return n.ds.Venues[i].Slug
	}
	slug := strings.Trim(engine.Slugify(name)+"-"+c.Slug, "-")
	v := engine.Venue{Slug: slug, Name: name, City: c.Slug, Website: p.URL, Lat: p.Lat, Lon: p.Lon, HasGeo: p.HasGeo}
	var addr []string
	for _, s := range []string{p.Street, strings.TrimSpace(p.PostalCode + " " + p.Locality)} {
		if s = clean(s); s != "" {
			addr = append(addr, s)
		}
	}
	v.Address = strings.Join(addr, ", ")
	n.venues[key] = len(n.ds.Venues)
	n.ds.Venues = append(n.ds.Venues, v)
	return slug
}

// bill returns the gig's artists in billing order and its genres: the event's own tags and
// its performers'. Without performers the title is the headliner.
func (n *normalizer) bill(ev *source.Event) ([]engine.Billing, []string) {
	performers := ev.Performers
	if len(performers) == 0 {
		performers = []source.Performer{{Name: ev.Title}}
	}
	var bill []engine.Billing
	var genres []string
	addGenre := func(list *[]string, tag string) {
		if g := canonicalGenre(tag); g != "" && !slices.Contains(*list, g) {
			*list = append(*list, g)
			if !n.genres[g] {
				n.genres[g] = true
				n.ds.Genres = append(n.ds.Genres, engine.Genre{Slug: g, Name: canonicalGenres[g]})
			}
		}
	}
	for _, tag := range ev.Genres {
		addGenre(&genres, tag)
	}
	for _, p := range performers {
		name := clean(p.Name)
		slug := engine.Slugify(name)
		if slug == "" || slices.ContainsFunc(bill, func(b engine.Billing) bool { return b.Artist == slug }) {
			continue
		}
		i, ok := n.artists[slug]
		if !ok {
			i = len(n.ds.Artists)
			n.artists[slug] = i
			n.ds.Artists = append(n.ds.Artists, engine.Artist{Slug: slug, Name: name})
		}
		for _, tag := range p.Genres {
			addGenre(&n.ds.Artists[i].Genres, tag)
			addGenre(&genres, tag)
		}
		bill = append(bill, engine.Billing{Artist: slug, Headliner: len(bill) == 0})
	}
	return bill, genres
}

func headlinerKey(g *engine.Gig, ev *source.Event) string {
	if len(g.Artists) > 0 {
		return g.Artists[0].Artist
	}
	return engine.Fold(ev.Title)
}

// gigID derives a gig's id from its venue, venue-local date and time, and headliner, so the
// same listing keeps its id from one refresh to the next.
func gigID(venue string, local time.Time, tba bool, headliner string) string {
	clock := local.Format("15:04")
	if tba {
		clock = "tba"
	}
	sum := sha256.Sum256([]byte(venue + "\x00" + local.Format(time.DateOnly) + "\x00" + clock + "\x00" + headliner))
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:8]))
}

// mergeInto folds a second listing of the same gig into the first: every source and
// distinct ticket is kept, facts the first lacks are taken from the second, and a
// cancellation, postponement or reschedule wins over "scheduled".
func mergeInto(dst, src *engine.Gig) {
	for _, a := range src.Sources {
		if !slices.Contains(dst.Sources, a) {
			dst.Sources = append(dst.Sources, a)
		}
	}
	for _, t := range src.Tickets {
		if !slices.ContainsFunc(dst.Tickets, func(d engine.Ticket) bool { return sameTicket(d, t) }) {
			dst.Tickets = append(dst.Tickets, t)
		}
	}
	for _, g := range src.Genres {
		if !slices.Contains(dst.Genres, g) {
			dst.Genres = append(dst.Genres, g)
		}
	}
	for _, b := range src.Artists {
		if !slices.ContainsFunc(dst.Artists, func(d engine.Billing) bool { return d.Artist == b.Artist }) {
			dst.Artists = append(dst.Artists, engine.Billing{Artist: b.Artist})
		}
	}
	for _, f := range []struct{ dst, src *time.Time }{{&dst.End, &src.End}, {&dst.Doors, &src.Doors}, {&dst.PreviousStart, &src.PreviousStart}} {
		if f.dst.IsZero() {
			*f.dst = *f.src
		}
	}
	switch {
	case src.Status == engine.StatusCancelled:
		dst.Status = engine.StatusCancelled
	case dst.Status == "" || dst.Status == engine.StatusScheduled:
		dst.Status = cmp.Or(src.Status, dst.Status)
	}
}

func sameTicket(a, b engine.Ticket) bool {
	price := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	return a.URL == b.URL && a.Source == b.Source && a.Currency == b.Currency && a.Availability == b.Availability &&
		price(a.PriceMin) == price(b.PriceMin) && price(a.PriceMax) == price(b.PriceMax)
}

// clean collapses white space and trims a name.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
