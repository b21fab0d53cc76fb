// Package source defines what every upstream adapter produces: events exactly as a source
// states them, before normalization, plus the records it had to drop and why.
//
// Adapters fill only what the source says and never invent a value: a date without a time
// stays date-only, a wall time without an offset stays offset-less, a missing price stays
// missing. Normalization (package loader) turns these into engine gigs.
package source

import (
	"context"
	"errors"
	"time"

	"github.com/gigs/gigs/engine"
)

// Source is one upstream: a venue website, a feed or a ticketing platform.
type Source interface {
	// Name is the source's unique name from the sources configuration.
	Name() string
	// Fetch reads the upstream once. A non-nil error means the source failed as a whole;
	// records that were merely unreadable are reported in Batch.Dropped.
	Fetch(ctx context.Context) (Batch, error)
}

// ErrTooManyEvents is returned (wrapped) by a Fetch whose upstream holds more events than
// the source's cap: the source fails as a whole, however good the events were, since a
// document that large is broken or hostile.
var ErrTooManyEvents = errors.New("too many events")

// Batch is what one fetch of a source yielded.
type Batch struct {
	Events  []Event
	Dropped []Drop
	// Notes are facts about the fetch an operator should know that are not drops, such as
	// a page read in another charset than it declared.
	Notes []string
}

// Drop is a record an adapter could not use, with where it was and why.
type Drop struct {
	Ref    string // document or record the drop refers to (URL, file, UID)
	Line   int    // 1-based line in the document, 0 when unknown
	Reason string // lowercase, human-readable
}

// Event is one listing as an adapter read it. The JSON names are explicit because events
// are kept on disk as a source's last good ones (loader.LastGoodStore, format version 1):
// a Go field may be renamed, its JSON name may not.
type Event struct {
	Source string `json:"Source"` // name of the source that yielded it
	Ref    string `json:"Ref"`    // the upstream identity of the record: @id, UID or page URL#index
	// Positional is set when Ref is only the record's position in its document (URL#index),
	// which shifts when the source adds or removes records.
	Positional bool   `json:"Positional"`
	URL        string `json:"URL"`  // the event's own page, for attribution; may be empty
	Line       int    `json:"Line"` // 1-based line in the document where the record starts, 0 when unknown

	Title      string      `json:"Title"`
	Performers []Performer `json:"Performers"` // billing order; the first is the headliner
	// ActsOnly is set when every performer is known to be an act, never the event itself
	// (a platform's lineup of artists, whose title may be its first act's name for want of one).
	ActsOnly bool          `json:"ActsOnly"`
	Status   engine.Status `json:"Status"`

	Start         When `json:"Start"` // required
	End           When `json:"End"`
	Doors         When `json:"Doors"`
	PreviousStart When `json:"PreviousStart"`

	// OnSale is when tickets go on sale to the public; zero when not stated.
	OnSale When `json:"OnSale"`

	Venue  Place    `json:"Venue"`
	Offers []Offer  `json:"Offers"`
	Genres []string `json:"Genres"` // free tags and classifications exactly as given
	// Kinds are what the source says the event is, exactly as given: a schema.org type
	// ("SportsEvent"), a platform's segment or type ("Arts & Theatre", "nba"), a calendar's
	// categories. The loader drops an event whose kinds say it is not music.
	Kinds []string `json:"Kinds"`
	// Image is an absolute http(s) URL of a picture of the event or its headliner; "" when
	// none is stated.
	Image string `json:"Image"`
	// MinAge is the youngest age admitted when HasMinAge is set; 0 means all ages.
	MinAge    int  `json:"MinAge"`
	HasMinAge bool `json:"HasMinAge"`
}

// Performer is one act on the bill.
type Performer struct {
	Name   string   `json:"Name"`
	Genres []string `json:"Genres"` // the performer's own genre tags, as given
	// MBID is the performer's MusicBrainz id as the source states it, checked and canonical
	// (see MBID); "" when it states none.
	MBID string `json:"MBID,omitempty"`
}

// When is a point in time as a source states it: a wall-clock date and time, with or
// without a UTC offset, or a date alone.
type When struct {
	// Wall holds the stated calendar date and clock time in time.UTC's fields; its instant
	// means nothing by itself. Zero when the source gave nothing.
	Wall time.Time `json:"Wall"`
	// DateOnly is set when only the date is known; Wall's clock is then 00:00:00.
	DateOnly bool `json:"DateOnly"`
	// HasOffset is set when the source stated a UTC offset (or Z); Offset holds it in
	// seconds east of UTC.
	HasOffset bool `json:"HasOffset"`
	Offset    int  `json:"Offset"`
}

// IsZero reports whether no time was given.
func (w When) IsZero() bool { return w.Wall.IsZero() }

// Place is a venue as a source describes it. Country may be an ISO code or a name.
type Place struct {
	Name       string `json:"Name"`
	Street     string `json:"Street"`
	Locality   string `json:"Locality"`
	Region     string `json:"Region"`
	PostalCode string `json:"PostalCode"`
	Country    string `json:"Country"`
	// Zone is the venue's IANA time zone when the source or the operator states it. It
	// places a city the gazetteer does not know; a known city's own zone always wins.
	Zone string `json:"Zone"`
	// FeedZone is the zone the document around the venue is in (a calendar's
	// X-WR-TIMEZONE, the zone of the event's TZID), when it says one: context that
	// chooses between readings of the place (places.Context), never the venue's zone.
	FeedZone string  `json:"FeedZone,omitempty"`
	Lat      float64 `json:"Lat"`
	Lon      float64 `json:"Lon"`
	HasGeo   bool    `json:"HasGeo"`
	URL      string  `json:"URL"`
}

// Offer is one way to buy tickets.
type Offer struct {
	URL          string  `json:"URL"`
	PriceMin     float64 `json:"PriceMin"`
	PriceMax     float64 `json:"PriceMax"`
	HasPrice     bool    `json:"HasPrice"`
	Currency     string  `json:"Currency"`     // ISO 4217 as given
	Availability string  `json:"Availability"` // "in_stock", "sold_out", "limited", "pre_order" or "" when unknown
}
