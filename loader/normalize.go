package loader

import (
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
	slugs   map[string]bool         // venue slugs taken
	artists map[string]int          // slug → index in ds.Artists
	genres  map[string]bool
	gigs    map[string]int // id → index in ds.Gigs
}

func newNormalizer(now time.Time) *normalizer {
	return &normalizer{now: now, cities: map[string]*places.City{}, venues: map[string]int{},
		slugs: map[string]bool{}, artists: map[string]int{}, genres: map[string]bool{}, gigs: map[string]int{}}
}

// add normalizes one event into the dataset, or says why it cannot.
func (n *normalizer) add(ev *source.Event) error {
	city, err := n.city(ev.Venue)
	if err != nil {
		return err
	}
	venue, err := n.venue(ev.Venue, city)
	if err != nil {
		return err
	}
	if ev.Start.IsZero() {
		return fmt.Errorf("no start")
	}
	start, tba := instant(ev.Start, city.Location)
	if start.Sub(n.now) > horizon {
		return fmt.Errorf("start %s is more than two years ahead", start.Format(time.DateOnly))
	}
	g := engine.Gig{Title: clean(ev.Title), Status: ev.Status, Venue: venue, Start: start, TimeTBA: tba}
	if g.Title == "" {
		return fmt.Errorf("no title")
	}
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

func (n *normalizer) city(p source.Place) (*places.City, error) {
	if p.Country == "" {
		return nil, fmt.Errorf("venue %q has no country", p.Name)
	}
	code, ok := places.Country(p.Country)
	if !ok {
		return nil, fmt.Errorf("unknown country %q", p.Country)
	}
	c, err := places.LookupCity(p.Locality, code)
	if err != nil {
		return nil, err
	}
	if n.cities[c.Slug] == nil {
		n.cities[c.Slug] = c
		n.ds.Cities = append(n.ds.Cities, engine.City{Slug: c.Slug, Name: c.Name, Country: c.Country, Timezone: c.Timezone})
	}
	return c, nil
}

func (n *normalizer) venue(p source.Place, c *places.City) (string, error) {
	name := clean(p.Name)
	if name == "" {
		return "", fmt.Errorf("venue without a name")
	}
	key := c.Slug + "\x00" + engine.Fold(name)
	if i, ok := n.venues[key]; ok {
		return n.ds.Venues[i].Slug, nil
	}
	slug := engine.Slugify(name)
	if slug == "" || n.slugs[slug] {
		slug = strings.Trim(slug+"-"+c.Slug, "-")
	}
	for i := 2; n.slugs[slug]; i++ {
		slug = fmt.Sprintf("%s-%s-%d", engine.Slugify(name), c.Slug, i)
	}
	n.slugs[slug] = true
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
	return slug, nil
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

// mergeInto folds a second listing of the same gig into the first: every source and ticket
// is kept, and a cancellation wins.
func mergeInto(dst, src *engine.Gig) {
	for _, a := range src.Sources {
		if !slices.Contains(dst.Sources, a) {
			dst.Sources = append(dst.Sources, a)
		}
	}
	dst.Tickets = append(dst.Tickets, src.Tickets...)
	if src.Status == engine.StatusCancelled {
		dst.Status = engine.StatusCancelled
	}
}

// clean collapses white space and trims a name.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
