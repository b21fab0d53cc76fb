package engine

import (
	"fmt"
	"sync"
	"time"

	"github.com/goccy/go-json"
)

// gigDoc is a gig read back from its rendered JSON: what the views other than the JSON
// (the iCalendar feeds, the schema.org JSON-LD) are written from, so that they need
// nothing a snapshot file does not keep.
type gigDoc struct {
	ID               string `json:"id"`
	Title            string `json:"title"`
	Status           Status `json:"status"`
	StartsAt         string `json:"starts_at"`
	EndsAt           string `json:"ends_at"`
	DoorsAt          string `json:"doors_at"`
	PreviousStartsAt string `json:"previous_starts_at"`
	OnSaleAt         string `json:"on_sale_at"`
	Date             string `json:"date"`
	TimeTBA          bool   `json:"time_tba"`
	Timezone         string `json:"timezone"`
	Venue            docRef `json:"venue"`
	City             docRef `json:"city"`
	Country          string `json:"country"`
	MinAge           *int   `json:"min_age"`
	Image            string `json:"image_url"`
	Artists          []struct {
		docRef
		Headliner bool `json:"headliner"`
	} `json:"artists"`
	Genres  []string `json:"genres"`
	Tickets []struct {
		URL          string   `json:"url"`
		Source       string   `json:"source"`
		PriceMin     *float64 `json:"price_min"`
		PriceMax     *float64 `json:"price_max"`
		Currency     string   `json:"currency"`
		Availability string   `json:"availability"`
	} `json:"tickets"`
	Sources []struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"sources"`
	CreatedAt string `json:"created_at"`

	// Set by gigView, not read from the JSON.
	loc     *time.Location
	start   time.Time // in loc; the venue-local date's midnight when TimeTBA
	address string    // the venue's
}

// docRef is a venue, city or artist as a gig names it.
type docRef struct {
	Slug string   `json:"slug"`
	Name string   `json:"name"`
	Lat  *float64 `json:"lat"`
	Lon  *float64 `json:"lon"`
}

// at returns a time the gig's JSON holds (starts_at, ends_at, …) in the gig's zone; the
// zero time when absent or unreadable.
func (g *gigDoc) at(v string) time.Time {
	if v == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}
	}
	return t.In(g.loc)
}

// gigView reads the gig at position i back from its JSON (see readGig).
func (s *Snapshot) gigView(i int, addresses map[string]string) (*gigDoc, error) {
	return s.readGig(s.GigJSON(i), addresses)
}

// readGig reads a gig back from its JSON, with its zone, start and venue's address;
// addresses caches the addresses of venues by slug for the caller's gigs.
func (s *Snapshot) readGig(body []byte, addresses map[string]string) (*gigDoc, error) {
	g, err := decodeGig(body)
	if err != nil {
		return nil, err
	}
	addr, ok := addresses[g.Venue.Slug]
	if !ok {
		addr = s.venueAddress(g.Venue.Slug)
		addresses[g.Venue.Slug] = addr
	}
	g.address = addr
	return g, nil
}

// decodeGig reads a gig back from its JSON, with its zone and start but not its venue's
// address.
func decodeGig(body []byte) (*gigDoc, error) {
	g := new(gigDoc)
	if err := json.Unmarshal(body, g); err != nil {
		return nil, fmt.Errorf("cannot read a gig back: %w", err)
	}
	var err error
	if g.loc, err = zone(g.Timezone); err != nil {
		return nil, err
	}
	if g.TimeTBA {
		d, err := time.ParseInLocation(time.DateOnly, g.Date, g.loc)
		if err != nil {
			return nil, fmt.Errorf("gig %q: %w", g.ID, err)
		}
		g.start = d
	} else if g.start = g.at(g.StartsAt); g.start.IsZero() {
		return nil, fmt.Errorf("gig %q has no readable start", g.ID)
	}
	return g, nil
}

// venueAddress returns the address of the venue with slug, from its detail body; "" when
// it has none.
func (s *Snapshot) venueAddress(slug string) string {
	var v struct {
		Address string `json:"address"`
	}
	b, ok := s.Venue(slug)
	b.decode(ok, &v)
	return v.Address
}

// decode reads the object of the entity whose detail body b is into v, when ok.
func (b DetailBody) decode(ok bool, v any) {
	if ok {
		_ = json.Unmarshal(b.d.entity(b.i), v)
	}
}

// zones caches the time zones of gigs by name: time.LoadLocation reads the zone database
// on every call. The names are those of cities, a few hundred at most.
var zones sync.Map

// zone returns the location of an IANA zone name.
func zone(name string) (*time.Location, error) {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("cannot load time zone %q: %w", name, err)
	}
	zones.Store(name, l)
	return l, nil
}

// entity returns a copy of the JSON object of entity i, as its detail body begins with it.
func (d *detailPages) entity(i int) []byte {
	head := d.head[d.headAt[i]:d.headAt[i+1]] // {"data":{…,"upcoming":[
	obj := head[len(`{"data":`) : len(head)-len(`,"upcoming":[`)]
	return append(obj[:len(obj):len(obj)], '}')
}
