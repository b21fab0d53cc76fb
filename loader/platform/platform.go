// Package platform reads the event feeds of ticketing platforms, one adapter per feed
// shape, and emulates those feeds over HTTP for tests and the demo.
//
// Shapes:
//   - KindHAL: HAL style, _embedded.events and _links.next, 0-based page{number,totalPages},
//     and a cap on size*page that the adapter works around by narrowing the date window.
//   - KindMeta: meta{page,per_page,total}, 1-based pages, datetime_local plus a UTC time
//     without "Z", time_tbd events carrying a placeholder time.
//   - KindContinuation: pagination{continuation,has_more_items}, names as {text,html},
//     start{timezone,local,utc}.
package platform

import (
	"context"
	"net/http"
	"time"

	"github.com/gigs/gigs/loader/fetch"
)

// Kind names a feed shape.
type Kind string

// The feed shapes this package reads.
const (
	KindHAL          Kind = "hal"
	KindMeta         Kind = "meta"
	KindContinuation Kind = "continuation"
)

// Kinds lists every Kind.
var Kinds = []Kind{KindHAL, KindMeta, KindContinuation}

// Getter reads one document; *fetch.Client is one.
type Getter interface {
	Get(ctx context.Context, url string, header http.Header) (*fetch.Response, error)
}

// Config is one platform as the operator configures it.
type Config struct {
	Name       string // the source name
	Kind       Kind
	URL        string // the events endpoint, e.g. "http://api.tixhub.example/v2/events"
	Credential string // API key or token, read from the environment by the caller; may be empty
	Horizon    time.Duration
	Now        func() time.Time
}

// Listing is one event as a platform holds it, independent of any wire shape. The demo
// generator writes listings; NewEmulator serves them in a platform's shape.
type Listing struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"` // event title as the platform shows it
	URL        string   `json:"url"`  // the event's page on the platform
	Performers []string `json:"performers,omitempty"`
	Genres     []string `json:"genres,omitempty"` // the platform's classification or tags

	VenueID    string  `json:"venue_id"`
	VenueName  string  `json:"venue_name"`
	Street     string  `json:"street,omitempty"`
	City       string  `json:"city"`
	PostalCode string  `json:"postal_code,omitempty"`
	Country    string  `json:"country"` // ISO 3166-1 alpha-2
	Lat        float64 `json:"lat,omitempty"`
	Lon        float64 `json:"lon,omitempty"`
	Zone       string  `json:"zone"` // IANA zone of the venue

	LocalDate string `json:"local_date"`           // YYYY-MM-DD, venue-local
	LocalTime string `json:"local_time,omitempty"` // HH:MM:SS venue-local; empty when TimeTBA
	TimeTBA   bool   `json:"time_tba,omitempty"`

	Status string `json:"status"` // "scheduled", "cancelled", "postponed" or "rescheduled"

	PriceMin float64 `json:"price_min,omitempty"`
	PriceMax float64 `json:"price_max,omitempty"`
	HasPrice bool    `json:"has_price,omitempty"`
	Currency string  `json:"currency,omitempty"`
	SoldOut  bool    `json:"sold_out,omitempty"`
}
